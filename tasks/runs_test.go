package tasks

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"

	"github.com/trustlake/trustlake/sandbox"
)

// coinFlip is a verifier whose verdict is a fair coin flip (seeded).
func coinFlip(seed uint64) *fakeRunner {
	var mu sync.Mutex
	rng := rand.New(rand.NewPCG(seed, 1))
	return &fakeRunner{RunFunc: func(ctx context.Context, spec sandbox.Spec) (sandbox.Result, error) {
		mu.Lock()
		defer mu.Unlock()
		if rng.IntN(2) == 0 {
			return sandbox.Result{Stdout: []byte(`{"pass": true}`)}, nil
		}
		return sandbox.Result{Stdout: []byte(`{"pass": false, "category": "F-ABORT"}`)}, nil
	}}
}

// TestRunsCatchCoinFlip: a coin-flip verifier was labelled deterministic in
// 2 of 3 trials with two runs. With N runs it goes unnoticed on a snapshot
// with probability 2^(1-N); the observed rate over many snapshots matches,
// and more runs catch it more often.
func TestRunsCatchCoinFlip(t *testing.T) {
	_, task := d14(t)
	const trials = 2000
	for _, runs := range []int{2, 5} {
		r := coinFlip(uint64(runs))
		unnoticed := 0
		for range trials {
			_, err := runN(t.Context(), r, task, t.TempDir(), "", runs)
			switch {
			case err == nil:
				unnoticed++
			case !errors.Is(err, ErrNondeterministic):
				t.Fatal(err)
			}
		}
		p := UnnoticedCoinFlip(runs)
		sd := math.Sqrt(p * (1 - p) / trials)
		if got := float64(unnoticed) / trials; math.Abs(got-p) > 4*sd {
			t.Errorf("runs=%d: unnoticed %.4f, want %.4f ± %.4f", runs, got, p, 4*sd)
		}
		if got, want := r.calls.Load(), int64(0); got <= want {
			t.Errorf("runs=%d: runner not called", runs)
		}
	}
	if got, want := UnnoticedCoinFlip(2), 0.5; got != want {
		t.Errorf("UnnoticedCoinFlip(2) = %v, want %v", got, want)
	}
	if got, want := UnnoticedCoinFlip(10), 1.0/512; got != want {
		t.Errorf("UnnoticedCoinFlip(10) = %v, want %v", got, want)
	}
}

// TestRunsLateDisagreement: a verifier that changes its answer only on the
// third run passes a two-run check and fails a three-run one.
func TestRunsLateDisagreement(t *testing.T) {
	_, task := d14(t)
	var n int
	r := &fakeRunner{RunFunc: func(ctx context.Context, spec sandbox.Spec) (sandbox.Result, error) {
		n++
		if n%3 == 0 {
			return sandbox.Result{Stdout: []byte(`{"pass": false, "category": "F-ABORT"}`)}, nil
		}
		return sandbox.Result{Stdout: []byte(`{"pass": true}`)}, nil
	}}
	if _, err := runN(t.Context(), r, task, t.TempDir(), "", 2); err != nil {
		t.Fatalf("two runs: %v", err)
	}
	n = 0
	if _, err := runN(t.Context(), r, task, t.TempDir(), "", 3); !errors.Is(err, ErrNondeterministic) {
		t.Fatalf("three runs: got %v, want ErrNondeterministic", err)
	}
}

// TestTimeoutUpperBound: a task may not hold a sandbox for hours.
func TestTimeoutUpperBound(t *testing.T) {
	_, task := d14(t)
	c := *task
	c.Timeout = "5h"
	if got := c.TimeoutDuration(); got != MaxTimeout {
		t.Errorf("TimeoutDuration = %v, want the bound %v", got, MaxTimeout)
	}
	if errs := c.validate(); len(errs) == 0 {
		t.Error("a 5h timeout validated")
	}
}

// TestPerturbationErrorsInOrder: a perturbation with a bad path and a bad
// folder reports path before to, every time (a map once gave either order).
func TestPerturbationErrorsInOrder(t *testing.T) {
	p := Perturbation{Name: PerturbSiblingFolder, Path: "../up", To: "/abs"}
	for range 20 {
		errs := p.validate()
		if len(errs) != 2 || !strings.HasPrefix(errs[0].Error(), "path: ") || !strings.HasPrefix(errs[1].Error(), "to: ") {
			t.Fatalf("validate = %v, want a path error then a to error", errs)
		}
	}
}
