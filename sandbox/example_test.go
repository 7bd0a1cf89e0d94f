package sandbox_test

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/trustlake/trustlake/sandbox"
)

// Extract an episode's final state and run a verifier on it with whatever
// isolating backend the machine has.
func Example() {
	ctx := context.Background()
	dst, _ := os.MkdirTemp("", "state-")
	defer os.RemoveAll(dst)
	if _, err := sandbox.ExtractSnapshotFile(ctx, "episodes/e1/final_state.tar.zst", dst+"/s", sandbox.ExtractLimits{}); err != nil {
		fmt.Println(err) // e.g. snapshot entry ../x: path escapes root
		return
	}
	r, warning, err := sandbox.Select(ctx, "", sandbox.SelectOptions{})
	if err != nil {
		fmt.Println(err) // errors.Is(err, sandbox.ErrNoBackend)
		return
	}
	if c, ok := r.(sandbox.Closer); ok {
		defer c.Close()
	}
	if warning != "" {
		fmt.Fprintln(os.Stderr, warning)
	}
	res, err := r.Run(ctx, sandbox.Spec{
		Image:    "trustlake-check:latest",
		Command:  []string{"/trustlake-check", "/task", "/snapshot"},
		Snapshot: dst + "/s",
		Timeout:  time.Minute,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.ExitCode, res.TimedOut, string(res.Stdout))
}
