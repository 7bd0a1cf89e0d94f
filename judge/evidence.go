package judge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"sync"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// EvidenceOptions configure WriteEvidence. Zero values mean the defaults.
type EvidenceOptions struct {
	Pack       PackOptions
	Conditions []string // pack conditions; nil means all four
	Workers    int      // parallel builders; 0 means 4
	Replace    bool     // replace recorded packs that differ (new options, changed files)
	Progress   func(done, total int)
}

// EvidenceStats says what WriteEvidence did.
type EvidenceStats struct {
	Packs     int   `json:"packs"`
	Added     int64 `json:"added"`
	Unchanged int64 `json:"unchanged"`
	Replaced  int64 `json:"replaced"`
	Images    int   `json:"images"`
	Bytes     int64 `json:"bytes"`
}

// BuildErrors lists every episode that could not be packed; nothing was
// recorded. It matches ErrInput.
type BuildErrors struct{ Errs []error }

func (e *BuildErrors) Error() string {
	if len(e.Errs) == 1 {
		return e.Errs[0].Error()
	}
	return fmt.Sprintf("%v (and %d more)", e.Errs[0], len(e.Errs)-1)
}

// Is makes BuildErrors match ErrInput.
func (e *BuildErrors) Is(target error) bool { return target == ErrInput }

// buildPack builds, guards and encodes one pack and returns its row.
func buildPack(src *Source, cond string, opts PackOptions, cache imageCache) (schema.Evidence, []byte, error) {
	opts.applyDefaults()
	p, err := build(src, cond, opts, cache)
	if err != nil {
		return schema.Evidence{}, nil, err
	}
	data, err := p.Encode()
	if err != nil {
		return schema.Evidence{}, nil, err
	}
	var steps []int64
	var hashes []string
	var imgBytes int64
	for _, st := range p.Steps {
		steps = append(steps, st.Step)
	}
	for _, m := range p.Messages {
		steps = append(steps, m.Step)
	}
	for _, im := range p.Images {
		hashes = append(hashes, im.SHA256)
		imgBytes += int64(len(im.Data))
		if len(p.Steps) == 0 {
			steps = append(steps, im.Step)
		}
	}
	row := schema.Evidence{EpisodeID: src.EpisodeID, Condition: cond, PackSHA256: SHA256Hex(data), TaskID: src.TaskID,
		Inputs: jsonText(p.Inputs()), Steps: jsonText(steps), ImageSHA256: jsonText(hashes), NImages: int64(len(p.Images)),
		ImageBytes: imgBytes, PackBytes: int64(len(data)), LastK: int64(opts.LastK), MaxImageSide: int64(opts.MaxImageSide),
		MaxImages: int64(opts.MaxImages), Guard: GuardVersion,
		Provenance: schema.Provenance{SrcFile: "trustlake evidence"}}
	return row, data, nil
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	if string(b) == "null" {
		return "[]"
	}
	return string(b)
}

// WriteEvidence builds one pack per (source, condition), stores the packs
// and records them in the evidence table in one atomic lake commit. When
// any episode fails (missing screenshot, unreadable PNG, no task text, a
// leak) it returns *BuildErrors and records nothing.
func WriteEvidence(ctx context.Context, l *lake.Lake, sources []*Source, opts EvidenceOptions) (st EvidenceStats, err error) {
	opts.Pack.applyDefaults()
	opts.Workers = positiveOr(opts.Workers, 4)
	conds := opts.Conditions
	if len(conds) == 0 {
		conds = Conditions
	}
	store := NewStore(l)
	rows := make([]schema.Evidence, len(sources)*len(conds))
	var (
		mu      sync.Mutex
		errs    []error
		created []string
		done    int
	)
	defer func() { // a failed run removes the packs it wrote
		for _, sha := range created {
			if err != nil {
				os.Remove(store.path(sha))
			}
		}
	}()
	// A worker takes one episode, all its conditions (they share screenshots).
	parallel(ctx, opts.Workers, len(sources), func(i int) {
		cache := imageCache{}
		for c := range conds {
			row, data, err := buildPack(sources[i], conds[c], opts.Pack, cache)
			var isNew bool
			if err == nil {
				isNew, err = store.Put(row.PackSHA256, data)
			}
			mu.Lock()
			if err != nil {
				errs = append(errs, err)
			} else {
				rows[i*len(conds)+c] = row
				st.Images += int(row.NImages)
				st.Bytes += row.PackBytes
				if isNew {
					created = append(created, row.PackSHA256)
				}
			}
			done++
			if opts.Progress != nil {
				opts.Progress(done, len(rows))
			}
			mu.Unlock()
		}
	})
	if err := ctx.Err(); err != nil {
		return st, err
	}
	if len(errs) > 0 {
		sort.Slice(errs, func(a, b int) bool { return errs[a].Error() < errs[b].Error() })
		return st, &BuildErrors{Errs: errs}
	}
	st.Packs = len(rows)
	ws, err := commitEvidence(ctx, l, rows, opts.Replace)
	st.Added, st.Unchanged, st.Replaced = ws.Added, ws.Unchanged, ws.Replaced
	return st, err
}

func commitEvidence(ctx context.Context, l *lake.Lake, rows []schema.Evidence, replace bool) (lake.Stats, error) {
	tx, err := l.Begin(ctx)
	if err != nil {
		return lake.Stats{}, err
	}
	defer tx.Rollback()
	w, err := lake.NewWriter[schema.Evidence](tx, lake.Evidence, lake.WriterOptions{Replace: replace, SizeHint: len(rows)})
	if err != nil {
		return lake.Stats{}, err
	}
	var conflicts []error
	for i := range rows {
		if err := rows[i].Validate(); err != nil {
			return lake.Stats{}, fmt.Errorf("evidence row %s (%s): %w", rows[i].EpisodeID, rows[i].Condition, err)
		}
		if _, err := w.Add(&rows[i]); err != nil {
			var ce *lake.ConflictError
			if !errors.As(err, &ce) {
				return lake.Stats{}, err
			}
			conflicts = append(conflicts, &InputError{EpisodeID: rows[i].EpisodeID, Condition: rows[i].Condition, Field: "pack",
				Err: errors.New("differs from the pack recorded before (other --k, --max-image-side or --max-images, or changed episode files); give --replace to record the new one")})
		}
	}
	ws, err := w.Close()
	if err != nil {
		return ws, err
	}
	if len(conflicts) > 0 {
		return ws, &BuildErrors{Errs: conflicts}
	}
	return ws, tx.Commit()
}
