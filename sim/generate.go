package sim

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// ErrOutputNotEmpty means the episodes or verdicts folder under the output
// folder already holds files; Generate never overwrites or mixes outputs.
var ErrOutputNotEmpty = errors.New("output folder not empty")

// SingleVerdictsFile is the verdicts file name with Options.SingleVerdictsFile.
const SingleVerdictsFile = "verdicts.jsonl"

// batchSize is the number of episodes a worker handles at a time.
const batchSize = 256

// Stats says what Generate wrote.
type Stats struct {
	Episodes     int      // episodes simulated (folders written unless EpisodeNone)
	Passes       int      // episodes whose GT passes
	Perturbed    int      // perturbed episodes
	VerdictRows  int      // verdict JSONL lines written
	VerdictFiles []string // verdict files, relative to the output folder, slash-separated
}

// VerdictFileName returns the file name of one judge × condition verdicts
// file: "<judge>__<condition>.jsonl" with every byte outside [A-Za-z0-9._-]
// replaced by "_" (so "sim:vlm-a" × "E2+claim" is "sim_vlm-a__E2_claim.jsonl").
func VerdictFileName(judge, condition string) string {
	return safeName(judge) + "__" + safeName(condition) + ".jsonl"
}

func safeName(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			return r
		}
		return '_'
	}, s)
}

// Generate writes a simulated data set under dir: episode folders in
// dir/episodes/<episode_id>/ and verdict JSONL in dir/verdicts/. The same
// Options give byte-identical output whatever the number of workers. It
// fails with ErrOutputNotEmpty if dir/episodes or dir/verdicts holds
// anything, and with an error wrapping ErrOptions for invalid options. On
// error or cancellation, files already written are left in place.
func Generate(ctx context.Context, dir string, opts Options) (Stats, error) {
	p, err := newPlan(opts)
	if err != nil {
		return Stats{}, err
	}
	o := p.opts
	epRoot := filepath.Join(dir, "episodes")
	vRoot := filepath.Join(dir, "verdicts")
	roots := []string{vRoot}
	if o.Episodes != EpisodeNone {
		roots = append(roots, epRoot)
	}
	for _, r := range roots {
		if err := emptyDir(r); err != nil {
			return Stats{}, err
		}
	}

	st := Stats{Episodes: len(p.episodes), VerdictRows: len(p.episodes) * p.rowsPer}
	for i := range p.episodes {
		if p.episodes[i].pass {
			st.Passes++
		}
		if p.episodes[i].parent >= 0 {
			st.Perturbed++
		}
	}
	fileOf, names := verdictFiles(o)
	outs := make([]*os.File, len(names))
	bw := make([]*bufio.Writer, len(names))
	for i, n := range names {
		f, err := os.OpenFile(filepath.Join(vRoot, n), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			for _, f := range outs[:i] {
				f.Close()
			}
			return Stats{}, fmt.Errorf("create verdicts file: %w", err)
		}
		outs[i], bw[i] = f, bufio.NewWriterSize(f, 1<<20)
		st.VerdictFiles = append(st.VerdictFiles, "verdicts/"+n)
	}
	err = p.run(ctx, epRoot, fileOf, bw)
	for i, f := range outs {
		if ferr := bw[i].Flush(); ferr != nil && err == nil {
			err = fmt.Errorf("write verdicts file: %w", ferr)
		}
		if cerr := f.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close verdicts file: %w", cerr)
		}
	}
	if err != nil {
		return Stats{}, err
	}
	return st, nil
}

// emptyDir creates dir (and parents) or checks that it is empty.
func emptyDir(dir string) error {
	ents, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("create output folder: %w", err)
		}
		return nil
	case err != nil:
		return fmt.Errorf("read output folder: %w", err)
	case len(ents) > 0:
		return fmt.Errorf("%s: %w", dir, ErrOutputNotEmpty)
	}
	return nil
}

// verdictFiles maps each (judge, condition) to a file and names the files.
func verdictFiles(o Options) (fileOf [][]int, names []string) {
	fileOf = make([][]int, len(o.Judges))
	for j, jd := range o.Judges {
		fileOf[j] = make([]int, len(jd.Conditions))
		for ci, c := range jd.Conditions {
			if o.SingleVerdictsFile {
				continue
			}
			fileOf[j][ci] = len(names)
			names = append(names, VerdictFileName(jd.Name, c))
		}
	}
	if o.SingleVerdictsFile {
		names = []string{SingleVerdictsFile}
	}
	return fileOf, names
}

// batch is the output of one batch of episodes: one buffer per verdict file.
type batch struct {
	bufs [][]byte
	err  error
}

// run writes episode folders and fills the verdict writers batch by batch.
// Workers handle batches in any order; the caller's goroutine writes their
// verdict buffers in batch order, so output is independent of scheduling.
func (p *plan) run(ctx context.Context, epRoot string, fileOf [][]int, out []*bufio.Writer) error {
	o := p.opts
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	verif := make([]string, o.Tasks)
	for t := range verif {
		verif[t] = verifierSHA256(t)
	}
	n := len(p.episodes)
	nb := (n + batchSize - 1) / batchSize
	results := make([]chan batch, nb)
	for i := range results {
		results[i] = make(chan batch, 1)
	}
	jobs := make(chan int)
	inflight := make(chan struct{}, 2*o.Workers)
	pool := make(chan [][]byte, 2*o.Workers+1)
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(jobs)
		for i := 0; i < nb; i++ {
			select {
			case inflight <- struct{}{}:
			case <-ctx.Done():
				return
			}
			jobs <- i
		}
	})
	for range o.Workers {
		wg.Go(func() {
			vw := newVerdictWriter(p, fileOf)
			ew := &episodeFiles{p: p, root: epRoot, verif: verif}
			for i := range jobs {
				var bufs [][]byte
				select {
				case bufs = <-pool:
				default:
					bufs = make([][]byte, len(out))
				}
				for f := range bufs {
					bufs[f] = bufs[f][:0]
				}
				results[i] <- p.doBatch(ctx, i, bufs, vw, ew)
			}
		})
	}
	err := func() error {
		for i := 0; i < nb; i++ {
			var b batch
			select {
			case b = <-results[i]:
			case <-ctx.Done():
				return ctx.Err()
			}
			if b.err != nil {
				return b.err
			}
			for f, buf := range b.bufs {
				if _, err := out[f].Write(buf); err != nil {
					return fmt.Errorf("write verdicts file: %w", err)
				}
			}
			select {
			case pool <- b.bufs:
			default:
			}
			<-inflight
			if o.Progress != nil {
				o.Progress(min((i+1)*batchSize, n), n)
			}
		}
		return nil
	}()
	cancel()
	wg.Wait()
	return err
}

// doBatch simulates batch i: episode folders and verdict rows.
func (p *plan) doBatch(ctx context.Context, i int, bufs [][]byte, vw *verdictWriter, ew *episodeFiles) batch {
	if err := ctx.Err(); err != nil {
		return batch{err: err}
	}
	lo, hi := i*batchSize, min((i+1)*batchSize, len(p.episodes))
	for ei := lo; ei < hi; ei++ {
		if p.opts.Episodes != EpisodeNone {
			if err := ew.write(ei); err != nil {
				return batch{err: fmt.Errorf("episode %s: %w", p.episodes[ei].id, err)}
			}
		}
		vw.append(bufs, ei)
	}
	return batch{bufs: bufs}
}
