package sim_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/trustlake/trustlake/sim"
)

func ExampleGenerate() {
	dir, err := os.MkdirTemp("", "sim-example")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)

	opts := sim.DefaultOptions()
	opts.Tasks = 10
	opts.EpisodesPerTask = 2
	opts.SingleVerdictsFile = true
	st, err := sim.Generate(context.Background(), dir, opts)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d episodes, %d verdict rows in %v\n", st.Episodes, st.VerdictRows, st.VerdictFiles)

	b, err := os.ReadFile(filepath.Join(dir, "episodes", "sim-20261010-t0001-a1-e001", "gt.json"))
	if err != nil {
		panic(err)
	}
	fmt.Print(string(b))
	// Output:
	// 40 episodes, 1440 verdict rows in [verdicts/verdicts.jsonl]
	// {"episode_id":"sim-20261010-t0001-a1-e001","pass":false,"score":0.5,"category":"F-PARTIAL","diagnostics":{"simulated":true,"p_pass":0.5856,"failed_gate":"goal"},"verifier_sha256":"dd7da3f877566c8930d3fa156947bd815ce6e10771d632a784f3eff196ad44e0","gates":[{"id":"goal","type":"critical","passed":false},{"id":"persisted","type":"critical","passed":true},{"id":"no-side-effects","type":"process","passed":true}],"deterministic":true}
}
