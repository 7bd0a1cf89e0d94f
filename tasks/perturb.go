package tasks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/trustlake/trustlake/schema"
)

// Perturb statuses.
const (
	PerturbCaught        = "caught"   // the verifier now fails the state (gt.json written)
	PerturbSurvived      = "survived" // the defect did NOT make the verifier fail: look at the task
	PerturbSkipped       = "skipped"  // the parent does not pass, or the perturbation does not apply
	PerturbVerifierError = StatusVerifierError
	PerturbNondet        = StatusNondeterministic
	PerturbError         = StatusError
)

// PerturbResult is one perturbation of one parent episode (or one row for a
// parent that was skipped as a whole, with Perturbation "").
type PerturbResult struct {
	ParentDir    string `json:"parent_dir"`
	ParentID     string `json:"parent_episode_id,omitempty"`
	TaskID       string `json:"task_id,omitempty"`
	Perturbation string `json:"perturbation,omitempty"`
	EpisodeID    string `json:"episode_id,omitempty"`
	Dir          string `json:"dir,omitempty"` // the new episode folder
	Status       string `json:"status"`
	Category     string `json:"category,omitempty"`
	Err          string `json:"error,omitempty"`
}

// Perturb derives stress-test episodes from passing ones (seed §3.3). For
// each parent folder it re-verifies the final state (Runs times, in the sandbox)
// and skips parents that do not pass. For each perturbation the task
// declares, it applies the defect to a private copy of the final state,
// writes a new episode folder outDir/<parent>__<name> (meta.json copied from
// the parent with a new episode_id, source "perturbed", parent_episode_id
// and perturbation; a new final_state.tar.zst; a copy of actions.jsonl) and
// verifies it, writing its gt.json. It never assumes the defect caused a
// failure: a perturbed state the verifier still passes is reported with
// status "survived". An existing episode folder is not overwritten.
// The error is non-nil only when ctx is cancelled.
func Perturb(ctx context.Context, lib *Library, r Runner, dirs []string, outDir string, opts RunOptions) ([]PerturbResult, error) {
	v := newVerifier(lib, r, VerifyOptions{RunOptions: opts})
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, fmt.Errorf("create output folder: %w", err)
	}
	rows := make([][]PerturbResult, len(dirs))
	forEach(ctx, len(dirs), opts, func(i int) {
		rows[i] = perturbOne(ctx, v, dirs[i], outDir)
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return slices.Concat(rows...), nil
}

func perturbOne(ctx context.Context, v *verifier, dir, outDir string) []PerturbResult {
	m, t, o, bad := v.label(ctx, dir)
	parent := PerturbResult{ParentDir: dir, ParentID: m.EpisodeID, TaskID: m.TaskID}
	alone := func(status, msg string) []PerturbResult { // one row for the whole parent
		parent.Status, parent.Err = status, msg
		return []PerturbResult{parent}
	}
	if bad != nil {
		return alone(bad.Status, bad.Err)
	}
	if !o.Pass {
		return alone(PerturbSkipped, "the parent episode does not pass its verifier")
	}
	if len(t.Perturbations) == 0 {
		return alone(PerturbSkipped, "the task declares no perturbations")
	}
	state, cleanup, err := extractState(ctx, dir)
	if err != nil {
		return alone(PerturbError, err.Error())
	}
	defer cleanup()
	rawMeta, err := os.ReadFile(filepath.Join(dir, MetaFile))
	if err != nil {
		return alone(PerturbError, err.Error())
	}
	var out []PerturbResult
	seen := map[string]int{}
	for i := range t.Perturbations {
		p := &t.Perturbations[i]
		seen[p.Name]++
		id := m.EpisodeID + "__" + p.Name
		if seen[p.Name] > 1 {
			id = fmt.Sprintf("%s_%d", id, seen[p.Name])
		}
		res := parent
		res.Perturbation, res.EpisodeID, res.Dir = p.Label(), id, filepath.Join(outDir, id)
		res.Status, res.Category, res.Err = v.perturbState(ctx, t, p, state, dir, res.Dir, rawMeta, id)
		out = append(out, res)
	}
	return out
}

// perturbState applies p to a copy of state, writes the episode folder and
// verifies it. It returns status, category and error text.
func (v *verifier) perturbState(ctx context.Context, t *Task, p *Perturbation, state, parentDir, epDir string, rawMeta []byte, id string) (string, string, string) {
	if _, err := os.Lstat(epDir); err == nil {
		return PerturbError, "", fmt.Sprintf("%s already exists; not overwritten", epDir)
	}
	work, err := os.MkdirTemp("", "trustlake-perturb-")
	if err != nil {
		return PerturbError, "", err.Error()
	}
	defer os.RemoveAll(work)
	copyDir := filepath.Join(work, "state")
	if err := copyTree(state, copyDir, false); err != nil {
		return PerturbError, "", fmt.Sprintf("copy final state: %v", err)
	}
	if err := p.apply(copyDir, t.Initial); err != nil {
		if errors.Is(err, ErrNotApplicable) {
			return PerturbSkipped, "", err.Error()
		}
		return PerturbError, "", fmt.Sprintf("apply %s: %v", p.Name, err)
	}
	meta, err := childMeta(rawMeta, id, p.Label())
	if err != nil {
		return PerturbError, "", err.Error()
	}
	// The new episode has a copy of the parent's actions.jsonl and of the
	// screenshots it names (the seed layout's screens/ folder).
	actions, err := os.ReadFile(filepath.Join(parentDir, ActionsFile))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return PerturbError, "", fmt.Sprintf("copy actions: %v", err)
	}
	screens := filepath.Join(parentDir, "screens")
	if st, err := os.Stat(screens); err == nil && st.IsDir() {
		if err := copyTree(screens, filepath.Join(epDir, "screens"), false); err != nil {
			return PerturbError, "", fmt.Sprintf("copy screens: %v", err)
		}
	}
	if err := writeEpisode(epDir, meta, copyDir, actions); err != nil {
		return PerturbError, "", err.Error()
	}
	res := v.one(ctx, epDir)
	switch {
	case !res.Labeled():
		return res.Status, "", res.Err
	case *res.Pass:
		return PerturbSurvived, "", "the verifier still passes the perturbed state"
	}
	return PerturbCaught, res.Category, ""
}

// childMeta copies the parent's meta.json, replacing the identity fields.
func childMeta(raw []byte, id, label string) ([]byte, error) {
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("parse parent meta.json: %w", err)
	}
	m["parent_episode_id"] = m["episode_id"]
	m["episode_id"] = id
	m["source"] = schema.SourcePerturbed
	m["perturbation"] = label
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encode meta.json: %w", err)
	}
	return append(data, '\n'), nil
}
