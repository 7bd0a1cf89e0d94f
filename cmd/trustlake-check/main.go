// Command trustlake-check is the static verifier binary of the
// trustlake-check sandbox image. It reads a task's declarative checks from
// TASK/task.json, evaluates them on the final state in SNAPSHOT and prints
// the verdict as one JSON object (the gt.json shape) on stdout.
//
// Usage:
//
//	trustlake-check [TASK [SNAPSHOT]]     (defaults /task and /snapshot)
//	trustlake-check -deadline D -- CMD... (run CMD, kill it after D; see DeadlineFlag)
//
// Exit codes: 0 a verdict was printed (pass or fail), 2 usage or invalid
// task. It imports no cgo package: CGO_ENABLED=0 go build works, and the
// binary runs in a FROM scratch image.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/trustlake/trustlake/tasks/check"
)

func main() {
	os.Exit(run(context.Background(), os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == DeadlineFlag {
		return runDeadline(args[1:], stderr)
	}
	taskDir, final := "/task", "/snapshot"
	switch {
	case len(args) > 2 || len(args) == 1 && (args[0] == "-h" || args[0] == "--help"):
		fmt.Fprintln(stderr, "usage: trustlake-check [TASK [SNAPSHOT]]  (defaults /task and /snapshot)")
		return 2
	case len(args) == 2:
		taskDir, final = args[0], args[1]
	case len(args) == 1:
		taskDir = args[0]
	}
	v, err := check.RunTask(ctx, taskDir, final)
	if err != nil {
		fmt.Fprintf(stderr, "trustlake-check: %v\n", err)
		return 2
	}
	out, err := json.Marshal(v)
	if err != nil {
		fmt.Fprintf(stderr, "trustlake-check: encode verdict: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s\n", out)
	return 0
}
