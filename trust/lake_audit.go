package trust

import (
	"context"
	"fmt"

	"github.com/trustlake/trustlake/schema"
)

// Source is what AuditSource reads: the results in scope, their
// trajectories grouped by episode, and the ground truth of lake episodes.
// queries.Session implements it (after TrustScope).
type Source interface {
	TrustGroundTruth(ctx context.Context) (map[string][]schema.GroundTruth, error)
	TrustResults(ctx context.Context, fn func(schema.Result) error) error
	TrustActions(ctx context.Context, perBucket int, fn func(episodeID string, acts []schema.Action) error) error
}

// SourceOptions configure AuditSource. Zero values mean no labeller and no
// progress.
type SourceOptions struct {
	Labeler *ModelLabeler // model judge for D2 suspects and untyped D1 gates; nil: none
	// Progress, when set, is called now and then with the results audited.
	Progress func(audited int64)
	// QuestionProgress, when set, is called after each labeller question.
	QuestionProgress func(done, total int)
}

// AuditSource audits every result of src: the results are read first
// (they are small), then the trajectories are streamed one episode at a
// time into the Auditor, which keeps none of them, so memory grows with the
// results, not the actions. With a labeller, a first pass over the
// trajectories collects the D2 suspects and asks the model judge about each.
func AuditSource(ctx context.Context, src Source, opts Options, sopts SourceOptions) (Report, []schema.Trust, error) {
	gts, err := src.TrustGroundTruth(ctx)
	if err != nil {
		return Report{}, nil, err
	}
	var results []schema.Result
	byEpisode := map[string][]int{}
	err = src.TrustResults(ctx, func(r schema.Result) error {
		if r.EpisodeID != nil {
			byEpisode[*r.EpisodeID] = append(byEpisode[*r.EpisodeID], len(results))
		}
		results = append(results, r)
		return nil
	})
	if err != nil {
		return Report{}, nil, err
	}
	var votes map[VoteKey][]bool
	if sopts.Labeler != nil {
		if votes, err = labelSuspects(ctx, src, opts, sopts, results, byEpisode); err != nil {
			return Report{}, nil, err
		}
	}
	aud := NewAuditor(opts, votes)
	done := make([]bool, len(results))
	gateTypes := map[[2]string]string{}
	var labelErr error
	record := func(i int, acts []schema.Action) Record {
		rec := Record{Result: results[i], Actions: acts}
		if id := results[i].EpisodeID; id != nil {
			rec.Regrade = RegradeFromGroundTruth(gts[*id])
		}
		if sopts.Labeler != nil && rec.Regrade != nil && labelErr == nil {
			labelErr = typeGates(ctx, sopts.Labeler, rec, gateTypes)
		}
		done[i] = true
		results[i] = schema.Result{} // the auditor keeps what it needs
		return rec
	}
	err = src.TrustActions(ctx, 0, func(episode string, acts []schema.Action) error {
		for _, i := range byEpisode[episode] {
			aud.Add(record(i, acts))
		}
		if sopts.Progress != nil {
			sopts.Progress(int64(aud.Len()))
		}
		return ctx.Err()
	})
	if err != nil {
		aud.Finish()
		return Report{}, nil, err
	}
	for i := range results {
		if !done[i] {
			aud.Add(record(i, nil))
		}
	}
	if labelErr != nil {
		aud.Finish()
		return Report{}, nil, fmt.Errorf("trust: type gates with the labeler: %w", labelErr)
	}
	rep, rows := aud.Finish()
	return rep, rows, nil
}

// labelSuspects is the labeller's first pass: it lists the D2 suspects of
// every result (reading the trajectories once) and asks the model judge
// three times about each.
func labelSuspects(ctx context.Context, src Source, opts Options, sopts SourceOptions,
	results []schema.Result, byEpisode map[string][]int) (map[VoteKey][]bool, error) {
	var qs []Question
	seen := make([]bool, len(results))
	err := src.TrustActions(ctx, 0, func(episode string, acts []schema.Action) error {
		for _, i := range byEpisode[episode] {
			seen[i] = true
			qs = append(qs, Suspects(Record{Result: results[i], Actions: acts}, opts)...)
		}
		return ctx.Err()
	})
	if err != nil {
		return nil, err
	}
	for i := range results {
		if !seen[i] {
			qs = append(qs, Suspects(Record{Result: results[i]}, opts)...)
		}
	}
	out := make(map[VoteKey][]bool, len(qs))
	for n, q := range qs {
		v, err := sopts.Labeler.Votes(ctx, q)
		if err != nil {
			return nil, fmt.Errorf("trust: labeller on %s value %q: %w", q.ResultID, q.Value, err)
		}
		out[VoteKey{ResultID: q.ResultID, Value: q.Value}] = v[:]
		if sopts.QuestionProgress != nil {
			sopts.QuestionProgress(n+1, len(qs))
		}
	}
	return out, nil
}

// typeGates gives every untyped gate of a regrade the type a 3-vote judge
// agrees on (cached per task text and gate id).
func typeGates(ctx context.Context, lab *ModelLabeler, rec Record, cache map[[2]string]string) error {
	task := orZero(rec.Result.Instruction)
	for i := range rec.Regrade.Gates {
		g := &rec.Regrade.Gates[i]
		if g.Type != "" {
			continue
		}
		key := [2]string{task, g.ID}
		if t, ok := cache[key]; ok {
			g.Type = t
			continue
		}
		t, _, err := lab.GateType(ctx, task, g.ID)
		if err != nil {
			return err
		}
		cache[key], g.Type = t, t
	}
	return nil
}
