package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/trustlake/trustlake/internal/sparktest"
)

// TestMain lets the test binary act as the trustlake command: in scripts
// (testscript) and when a test re-executes it with TRUSTLAKE_AS_MAIN=1
// (the crash test).
func TestMain(m *testing.M) {
	if os.Getenv("TRUSTLAKE_AS_MAIN") == "1" {
		os.Exit(run(context.Background(), append([]string{"trustlake"}, os.Args[1:]...), os.Stdin, os.Stdout, os.Stderr))
	}
	testscript.Main(sparkM{m}, map[string]func(){
		"trustlake": func() { os.Exit(run(context.Background(), os.Args, os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// sparkM stops the Spark cluster a test started (sparktest.Remote) after
// the tests have run.
type sparkM struct{ m *testing.M }

func (s sparkM) Run() int { return sparktest.Main(s.m) }

// TestScripts runs testdata/script/*.txtar end to end through the CLI.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("TRUSTLAKE_LAKE", env.WorkDir+"/lake")
			env.Setenv("SHARED_DATA", sharedData())
			lib, _ := filepath.Abs("../../tasks/library")
			env.Setenv("TASKLIB", lib)
			return nil
		},
		// [image:NAME] holds when the local Docker Engine has image NAME.
		Condition: func(cond string) (bool, error) {
			name, ok := strings.CutPrefix(cond, "image:")
			if !ok {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			return exec.Command("docker", "image", "inspect", name).Run() == nil, nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			// exitcode N CMD ARGS...: run CMD and require exit status N.
			"exitcode": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) < 2 {
					ts.Fatalf("usage: exitcode N cmd args...")
				}
				want, err := strconv.Atoi(args[0])
				ts.Check(err)
				err = ts.Exec(args[1], args[2:]...)
				got := 0
				var ee *exec.ExitError
				if errors.As(err, &ee) {
					got = ee.ExitCode()
				} else if err != nil {
					ts.Fatalf("run %s: %v", args[1], err)
				}
				if got != want {
					ts.Fatalf("%s exited %d, want %d", args[1], got, want)
				}
			},
		},
	})
}

// sharedData returns the path of ../shared/data when present, else "".
func sharedData() string {
	for _, p := range []string{"../../../shared/data", "/work/shared/data"} {
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			if abs, err := absPath(p); err == nil {
				return abs
			}
		}
	}
	return ""
}
