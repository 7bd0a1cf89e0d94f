package tasks

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/trustlake/trustlake/schema"
)

// SelfTestOptions tune SelfTest. Zero values mean defaults.
type SelfTestOptions struct {
	RunOptions
	Tasks []string // task ids to test; empty means all
}

// FixtureResult is one fixture of one task, run twice.
type FixtureResult struct {
	TaskID        string        `json:"task_id"`
	Fixture       string        `json:"fixture"` // "pass/done", "fail/not_saved"
	WantPass      bool          `json:"want_pass"`
	WantCategory  string        `json:"want_category,omitempty"`
	GotPass       bool          `json:"got_pass"`
	GotCategory   string        `json:"got_category,omitempty"`
	Deterministic bool          `json:"deterministic"`
	OK            bool          `json:"ok"`
	Err           string        `json:"error,omitempty"`
	Duration      time.Duration `json:"duration_ns"`
}

// SelfTest runs every fixture of the chosen tasks through the verifier twice
// in the sandbox and compares the verdict and category with the fixture's
// expectation (seed §3.2: a verifier is tested on at least one pass and one
// fail state and must give the same answer twice). Results come in task and
// fixture order; a row with OK false is a broken task or fixture. The error
// is non-nil only for an unknown task id or a cancelled ctx.
func SelfTest(ctx context.Context, lib *Library, r Runner, opts SelfTestOptions) ([]FixtureResult, error) {
	v := newVerifier(lib, r, VerifyOptions{RunOptions: opts.RunOptions})
	ids := opts.Tasks
	if len(ids) == 0 {
		ids = lib.IDs()
	}
	type job struct {
		t *Task
		f Fixture
	}
	var jobs []job
	for _, id := range ids {
		t, err := lib.Task(id)
		if err != nil {
			return nil, err
		}
		for _, f := range t.Fixtures {
			jobs = append(jobs, job{t, f})
		}
	}
	out := make([]FixtureResult, len(jobs))
	forEach(ctx, len(jobs), opts.RunOptions, func(i int) {
		j := jobs[i]
		start := time.Now()
		res := FixtureResult{TaskID: j.t.ID, Fixture: j.f.Name, WantPass: j.f.Pass, WantCategory: j.f.Category}
		o, err := v.runFixture(ctx, j.t, j.f.Dir)
		res.Duration = time.Since(start)
		switch {
		case err != nil:
			res.Err = err.Error()
			res.Deterministic = !errors.Is(err, ErrNondeterministic) && !errors.Is(err, ErrVerifier)
		default:
			res.Deterministic = true
			res.GotPass, res.GotCategory = o.Pass, o.CategoryString()
			res.OK = res.GotPass == res.WantPass && res.GotCategory == res.WantCategory
			if !res.OK {
				res.Err = fmt.Sprintf("want %s, got %s", verdictText(res.WantPass, res.WantCategory), verdictText(res.GotPass, res.GotCategory))
			}
		}
		v.opts.Logger.Debug("fixture", "task", res.TaskID, "fixture", res.Fixture, "ok", res.OK)
		out[i] = res
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// runFixture runs the verifier on a private copy of the fixture and the
// task (as verify does with an episode), so that the sandbox's
// /proc/self/mountinfo shows no host path of the library.
func (v *verifier) runFixture(ctx context.Context, t *Task, fixture string) (Output, error) {
	state, cleanup, err := stateDir("state", func(dst string) error {
		if err := copyTree(fixture, dst, false); err != nil {
			return fmt.Errorf("copy fixture: %w", err)
		}
		return nil
	})
	if err != nil {
		return Output{}, err
	}
	defer cleanup()
	return v.runIn(ctx, t, state)
}

// SelfTestRows turns self-test results into rows of the selftests table,
// keyed by the verifier's sha256 (the one verify writes into gt.json);
// sandbox names the backend they ran in.
func SelfTestRows(lib *Library, res []FixtureResult, sandbox string) ([]schema.SelfTest, error) {
	v := newVerifier(lib, nil, VerifyOptions{}) // caches the sum per task
	now := time.Now().UTC()
	rows := make([]schema.SelfTest, 0, len(res))
	for _, x := range res {
		t, err := lib.Task(x.TaskID)
		if err != nil {
			return nil, err
		}
		sum, err := v.hash(t)
		if err != nil {
			return nil, err
		}
		rows = append(rows, schema.SelfTest{
			TaskID: x.TaskID, VerifierSHA256: sum, Fixture: x.Fixture,
			WantPass: x.WantPass, WantCategory: nonEmpty(x.WantCategory),
			GotPass: x.GotPass, GotCategory: nonEmpty(x.GotCategory),
			Deterministic: x.Deterministic, OK: x.OK, Error: nonEmpty(x.Err),
			Sandbox: sandbox, RanAt: &now,
			Provenance: schema.Provenance{SrcFile: "tasks check " + lib.Dir},
		})
	}
	return rows, nil
}

func nonEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
