package lake

import (
	"bufio"
	"cmp"
	"container/heap"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
)

// keySpill keeps a Writer's in-batch keys (seenKey) and source names on
// disk, for a batch whose memory must not grow with its rows
// (WriterOptions.KeysInMemory). Every KeysInMemory keys are sorted by
// (key, source) and appended to an unlinked temporary file as one run;
// Close merges the runs to find the duplicates. Source names go to a
// second file as they change. Memory: one run, whatever the batch.
type keySpill struct {
	keys, names *os.File
	kw, nw      *bufio.Writer
	runs        []int64 // end offset of each run in keys
	off         int64
	nnames      int32
	last        string
	buf         [seenKeyBytes]byte
	dups        []dupPair        // found by merge
	dupNames    map[int32]string // source names of dups
}

const seenKeyBytes = 28 // key 16, line 8, file 4

// dupPair is a row (again) whose key an earlier row (first) had.
type dupPair struct{ first, again seenKey }

// newKeySpill creates the two files in dir and unlinks them at once: they
// vanish with the process, whatever happens.
func newKeySpill(dir string) (*keySpill, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	s := &keySpill{}
	for _, f := range []**os.File{&s.keys, &s.names} {
		var err error
		if *f, err = os.CreateTemp(dir, "keys-*.tmp"); err != nil {
			s.close()
			return nil, fmt.Errorf("batch key spill: %w", err)
		}
		os.Remove((*f).Name())
	}
	s.kw, s.nw = bufio.NewWriterSize(s.keys, 64<<10), bufio.NewWriterSize(s.names, 16<<10)
	return s, nil
}

func (s *keySpill) close() {
	for _, f := range []*os.File{s.keys, s.names} {
		if f != nil {
			f.Close()
		}
	}
}

// name returns the index of a source name, appending it when it differs
// from the previous one (rows of one source come together).
func (s *keySpill) name(n string) (int32, error) {
	if s.nnames > 0 && n == s.last {
		return s.nnames - 1, nil
	}
	var l [binary.MaxVarintLen64]byte
	s.nw.Write(l[:binary.PutUvarint(l[:], uint64(len(n)))])
	if _, err := s.nw.WriteString(n); err != nil {
		return 0, fmt.Errorf("batch key spill: %w", err)
	}
	s.last = n
	s.nnames++
	return s.nnames - 1, nil
}

// compareSeen orders keys by hash, then by source: the input order, since
// a Writer's source indexes and lines only grow.
func compareSeen(x, y seenKey) int {
	if c := cmp.Compare(x.key[0], y.key[0]); c != 0 {
		return c
	}
	if c := cmp.Compare(x.key[1], y.key[1]); c != 0 {
		return c
	}
	if c := cmp.Compare(x.file, y.file); c != 0 {
		return c
	}
	return cmp.Compare(x.line, y.line)
}

// run sorts keys and appends them as one run.
func (s *keySpill) run(keys []seenKey) error {
	if len(keys) == 0 {
		return nil
	}
	slices.SortFunc(keys, compareSeen)
	for _, k := range keys {
		binary.LittleEndian.PutUint64(s.buf[0:], k.key[0])
		binary.LittleEndian.PutUint64(s.buf[8:], k.key[1])
		binary.LittleEndian.PutUint64(s.buf[16:], uint64(k.line))
		binary.LittleEndian.PutUint32(s.buf[24:], uint32(k.file))
		if _, err := s.kw.Write(s.buf[:]); err != nil {
			return fmt.Errorf("batch key spill: %w", err)
		}
	}
	s.off += int64(len(keys)) * seenKeyBytes
	s.runs = append(s.runs, s.off)
	return nil
}

// runReader reads one run in order.
type runReader struct {
	r    *bufio.Reader
	head seenKey
	idx  int
	buf  [seenKeyBytes]byte
}

func (rr *runReader) next() (bool, error) {
	if _, err := io.ReadFull(rr.r, rr.buf[:]); err == io.EOF {
		return false, nil
	} else if err != nil {
		return false, fmt.Errorf("batch key spill: %w", err)
	}
	rr.head = seenKey{
		key:  [2]uint64{binary.LittleEndian.Uint64(rr.buf[0:]), binary.LittleEndian.Uint64(rr.buf[8:])},
		line: int64(binary.LittleEndian.Uint64(rr.buf[16:])),
		file: int32(binary.LittleEndian.Uint32(rr.buf[24:])),
	}
	return true, nil
}

// runHeap orders run readers by their head (then run: input order).
type runHeap []*runReader

func (h runHeap) Len() int { return len(h) }
func (h runHeap) Less(i, j int) bool {
	if c := compareSeen(h[i].head, h[j].head); c != 0 {
		return c < 0
	}
	return h[i].idx < h[j].idx
}
func (h runHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *runHeap) Push(x any)   { *h = append(*h, x.(*runReader)) }
func (h *runHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// finish writes the last keys as a run, merges the runs and reads the
// source names the duplicates need.
func (s *keySpill) finish(last []seenKey) error {
	if err := s.merge(last); err != nil {
		return err
	}
	want := map[int32]bool{}
	for _, d := range s.dups {
		want[d.first.file], want[d.again.file] = true, true
	}
	var err error
	s.dupNames, err = s.namesOf(want)
	return err
}

// merge writes the last keys as a run, then merges all runs in key order
// and pairs each repeat of a key with its first row.
func (s *keySpill) merge(last []seenKey) error {
	if err := s.run(last); err != nil {
		return err
	}
	if err := s.kw.Flush(); err != nil {
		return fmt.Errorf("batch key spill: %w", err)
	}
	h := make(runHeap, 0, len(s.runs))
	start := int64(0)
	// 16 KiB of buffer per run, 1 MiB in all once there are many runs.
	size := max(4<<10, min(16<<10, (1<<20)/max(1, len(s.runs))))
	for i, end := range s.runs {
		rr := &runReader{r: bufio.NewReaderSize(io.NewSectionReader(s.keys, start, end-start), size), idx: i}
		start = end
		ok, err := rr.next()
		if err != nil {
			return err
		}
		if ok {
			h = append(h, rr)
		}
	}
	heap.Init(&h)
	var first seenKey
	have := false
	for len(h) > 0 {
		rr := h[0]
		k := rr.head
		if have && k.key == first.key {
			s.dups = append(s.dups, dupPair{first: first, again: k})
		} else {
			first, have = k, true
		}
		ok, err := rr.next()
		if err != nil {
			return err
		}
		if ok {
			heap.Fix(&h, 0)
		} else {
			heap.Pop(&h)
		}
	}
	return nil
}

// names returns the source names of the given indexes (read once, in
// order: only when there are duplicates to report).
func (s *keySpill) namesOf(want map[int32]bool) (map[int32]string, error) {
	out := map[int32]string{}
	if len(want) == 0 {
		return out, nil
	}
	if err := s.nw.Flush(); err != nil {
		return nil, fmt.Errorf("batch key spill: %w", err)
	}
	r := bufio.NewReader(io.NewSectionReader(s.names, 0, 1<<62))
	for i := int32(0); i < s.nnames; i++ {
		n, err := binary.ReadUvarint(r)
		if err != nil {
			return nil, fmt.Errorf("batch key spill: %w", err)
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(r, b); err != nil {
			return nil, fmt.Errorf("batch key spill: %w", err)
		}
		if want[i] {
			out[i] = string(b)
		}
	}
	return out, nil
}

// spillDir is where a transaction's spill files go (unlinked at once).
func (tx *Tx) spillDir() string { return filepath.Join(tx.l.root, stagingDir) }
