package runcounts

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/zeebo/xxh3"

	"github.com/trustlake/trustlake/lake/keyindex"
)

// countSpill bounds the memory of a runCounter (WriterOptions.CountsInMemory)
// for a file whose episodes come together: all runs of one episode in a
// row, as an Inspect log's samples do. Such a group's tallies are final
// once the next episode starts, so every `every` tallies go to an unlinked
// temporary file and are read back, in order, when the file's counts are
// written: the same rows, in the same order, as the counter without a
// spill. Whether some episode came in two groups is only known at the end
// (the groups' episode hashes are spilled in sorted runs, like the batch's
// keys, and merged); then the spilled rows are not the counter's and the
// finished data file is counted again, the way `lake check` counts it.
type countSpill struct {
	every   int
	f       *os.File
	w       *bufio.Writer
	groups  *keyindex.Spill
	pending []keyindex.Seen // groups' episode hashes not yet in a run
	n       int64           // groups so far
	err     error           // the first write error (add has no error return)
	buf     []byte
}

func newCountSpill(dir string, every int) (*countSpill, error) {
	groups, err := keyindex.NewSpill(dir)
	if err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, "counts-*.tmp")
	if err != nil {
		groups.Close()
		return nil, fmt.Errorf("run count spill: %w", err)
	}
	os.Remove(f.Name())
	return &countSpill{every: every, f: f, w: bufio.NewWriterSize(f, 64<<10), groups: groups}, nil
}

// close removes the spill (its files are unlinked) and lets go of its
// buffers; twice is fine.
func (s *countSpill) close() {
	if s.f == nil {
		return
	}
	s.groups.Close()
	s.f.Close()
	s.f, s.w, s.groups, s.pending = nil, nil, nil, nil
}

// group is runCounter.find for a counter with a spill: a different episode
// than the previous run's always starts a group (a new tally), after the
// held tallies went to disk if there are enough.
func (c *runCounter) group(episode string) int32 {
	s := c.spill
	if int(c.n) >= s.every {
		if s.err == nil {
			s.err = s.write(c)
		}
		c.reset()
	}
	h := xxh3.HashString128(episode)
	s.pending = append(s.pending, keyindex.Seen{Key: [2]uint64{h.Hi, h.Lo}, Line: s.n})
	s.n++
	if len(s.pending) >= s.every {
		if s.err == nil {
			s.err = s.groups.Run(s.pending)
		}
		s.pending = s.pending[:0]
	}
	return c.newTally(episode, 0)
}

// write appends c's tallies: per tally the episode id, seq, counts and
// scores with their run numbers, as varints (scores as their bits).
func (s *countSpill) write(c *runCounter) error {
	for i := range c.n {
		blk, t := c.at(i)
		b := binary.AppendUvarint(s.buf[:0], uint64(t.idLen))
		b = append(b, c.idOf(i)...)
		for _, v := range []int32{t.seq, t.runs, t.parse, t.success, t.failure, t.uncert, t.scoredVerdicts, t.nScores} {
			b = binary.AppendUvarint(b, uint64(v))
		}
		for j := t.score; j < t.score+t.nScores; j++ {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(blk.scores[j]))
			b = binary.AppendVarint(b, blk.runs[j])
		}
		s.buf = b
		if _, err := s.w.Write(b); err != nil {
			return fmt.Errorf("run count spill: %w", err)
		}
	}
	return nil
}

// regrouped ends the spill's writing and reports whether an episode came
// in two groups (then the spilled tallies are not the file's counts).
func (s *countSpill) regrouped() (bool, error) {
	if s.err != nil {
		return false, s.err
	}
	if err := s.w.Flush(); err != nil {
		return false, fmt.Errorf("run count spill: %w", err)
	}
	if err := s.groups.Merge(s.pending); err != nil {
		return false, err
	}
	s.pending = nil
	return len(s.groups.Pairs()) > 0, nil
}

// replay hands the spilled tallies, then those c still holds, to fn, at
// most `every` at a time, in the order they were counted.
func (s *countSpill) replay(c *runCounter, fn func(*runCounter) error) error {
	r := bufio.NewReaderSize(io.NewSectionReader(s.f, 0, 1<<62), 64<<10)
	part := &runCounter{}
	for {
		part.reset()
		for int(part.n) < s.every {
			ok, err := part.read(r)
			if err != nil {
				return fmt.Errorf("run count spill: %w", err)
			}
			if !ok {
				break
			}
		}
		if part.n == 0 {
			break
		}
		if err := fn(part); err != nil {
			return err
		}
	}
	return fn(c)
}

// read appends one spilled tally; false at the end of the spill.
func (c *runCounter) read(r *bufio.Reader) (bool, error) {
	n, err := binary.ReadUvarint(r)
	if errors.Is(err, io.EOF) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	id := make([]byte, n)
	if _, err := io.ReadFull(r, id); err != nil {
		return false, err
	}
	var t runTally
	for _, v := range []*int32{&t.seq, &t.runs, &t.parse, &t.success, &t.failure, &t.uncert, &t.scoredVerdicts, &t.nScores} {
		x, err := binary.ReadUvarint(r)
		if err != nil {
			return false, err
		}
		*v = int32(x)
	}
	i := c.newTally(string(id), 0) // its own copy of the id, whatever its seq
	blk, nt := c.at(i)
	t.id, t.idLen, t.score = nt.id, nt.idLen, int32(len(blk.scores))
	var b [8]byte
	for range t.nScores {
		if _, err := io.ReadFull(r, b[:]); err != nil {
			return false, err
		}
		run, err := binary.ReadVarint(r)
		if err != nil {
			return false, err
		}
		blk.scores = append(blk.scores, math.Float64frombits(binary.LittleEndian.Uint64(b[:])))
		blk.runs = append(blk.runs, run)
	}
	*nt = t
	return true, nil
}
