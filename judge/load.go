package judge

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// LoadOptions select and complete the sources read from the lake.
type LoadOptions struct {
	TaskTexts map[string]string // task_id → instruction (from a task library); wins over meta.json
	Episodes  map[string]bool   // only these episode ids; nil means all
}

// LoadSources reads every episode the lake can build packs for: episodes
// rows (computer-use, with screenshots in their folders) and results rows
// with an episode id, no episodes row and a trajectory in actions (chat
// trajectories such as τ-bench, whose instruction is the task text). Secrets come from
// ground_truth, labels and the episode's meta. Sources are sorted by id.
func LoadSources(l *lake.Lake, opts LoadOptions) ([]*Source, error) {
	byID := map[string]*Source{}
	resultOnly := map[string]bool{} // results with no episodes row: packable only with a trajectory
	want := func(id string) bool { return opts.Episodes == nil || opts.Episodes[id] }
	err := eachRow(l, lake.Episodes, func(e *schema.Episode) {
		if !want(e.EpisodeID) {
			return
		}
		s := &Source{EpisodeID: e.EpisodeID, TaskID: e.TaskID, Dir: e.Dir, FinalMessage: e.FinalMessage}
		s.TaskText = opts.TaskTexts[e.TaskID]
		if s.TaskText == "" { // decode Extra only when no task text was given
			s.TaskText = extraText(e.Extra, "instruction", "task_text")
		}
		s.Secrets = Secrets{EpisodeID: e.EpisodeID, Source: e.Source}
		if e.Perturbation != nil {
			s.Secrets.Perturbation = *e.Perturbation
		}
		if e.ParentEpisodeID != nil {
			s.Secrets.ParentEpisodeID = *e.ParentEpisodeID
		}
		if e.FinalStateSHA256 != nil {
			s.Secrets.VerifierOutput = append(s.Secrets.VerifierOutput, *e.FinalStateSHA256)
		}
		byID[e.EpisodeID] = s
	})
	if err != nil {
		return nil, err
	}
	err = eachRow(l, lake.Results, func(r *schema.Result) {
		if r.EpisodeID == nil || !want(*r.EpisodeID) {
			return
		}
		s := byID[*r.EpisodeID]
		if s == nil {
			s = &Source{EpisodeID: *r.EpisodeID, TaskID: r.TaskID, FinalMessage: r.FinalMessage, Secrets: Secrets{Source: schema.SourceNatural}}
			byID[*r.EpisodeID] = s
			resultOnly[*r.EpisodeID] = true
		}
		if s.TaskText == "" && r.Instruction != nil {
			s.TaskText = *r.Instruction
		}
		if t := opts.TaskTexts[r.TaskID]; t != "" {
			s.TaskText = t
		}
	})
	if err != nil {
		return nil, err
	}
	err = eachRow(l, lake.Actions, func(a *schema.Action) {
		if s := byID[a.EpisodeID]; s != nil {
			s.Actions = append(s.Actions, *a)
		}
	})
	if err != nil {
		return nil, err
	}
	err = eachRow(l, lake.GroundTruth, func(g *schema.GroundTruth) {
		s := byID[g.EpisodeID]
		if s == nil {
			return
		}
		sec := &s.Secrets
		sec.VerifierOutput = append(sec.VerifierOutput, g.VerifierSHA256)
		sec.VerifierOutput = append(sec.VerifierOutput, diagnosticStrings(g.Diagnostics)...)
		for _, c := range []*string{g.Category, g.CategoryRaw} {
			if c != nil {
				sec.Categories = append(sec.Categories, *c)
			}
		}
	})
	if err != nil {
		return nil, err
	}
	err = eachRow(l, lake.Labels, func(lb *schema.Label) {
		if s := byID[lb.EpisodeID]; s != nil {
			s.Secrets.Categories = append(s.Secrets.Categories, lb.CategoryRaw)
		}
	})
	if err != nil {
		return nil, err
	}
	out := make([]*Source, 0, len(byID))
	for id, s := range byID {
		if resultOnly[id] && len(s.Actions) == 0 {
			delete(byID, id) // a recorded score without a trajectory: nothing to show a judge
			continue
		}
		slices.SortFunc(s.Actions, func(a, b schema.Action) int { return cmp.Compare(a.Step, b.Step) })
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b *Source) int { return cmp.Compare(a.EpisodeID, b.EpisodeID) })
	if opts.Episodes != nil {
		for id := range opts.Episodes {
			if byID[id] == nil {
				return nil, &InputError{EpisodeID: id, Field: "episode_id", Err: fmt.Errorf("not in the lake")}
			}
		}
	}
	return out, nil
}

// eachRow calls fn on every row of a table.
func eachRow[T any](l *lake.Lake, table string, fn func(*T)) error {
	return lake.ReadTable[T](l, table, func(rows []T) error {
		for i := range rows {
			fn(&rows[i])
		}
		return nil
	})
}

// extraText returns the first non-empty string among keys of an extra JSON object.
func extraText(extra string, keys ...string) string {
	var m map[string]any
	if json.Unmarshal([]byte(extra), &m) != nil {
		return ""
	}
	for _, k := range keys {
		if s, ok := m[k].(string); ok && s != "" {
			return s
		}
	}
	return ""
}
