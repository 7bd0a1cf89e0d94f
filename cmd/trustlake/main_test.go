package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/uuid"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/trustlake/trustlake/internal/sparktest"
	"github.com/trustlake/trustlake/internal/testenv"
)

// TestMain lets the test binary act as the trustlake command: in scripts
// (testscript) and when a test re-executes it with TRUSTLAKE_AS_MAIN=1
// (the crash test).
func TestMain(m *testing.M) {
	if os.Getenv("TRUSTLAKE_AS_MAIN") == "1" {
		ctx, stop := signalContext()
		code := run(ctx, append([]string{"trustlake"}, os.Args[1:]...), os.Stdin, os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	testscript.Main(sparkM{m}, map[string]func(){
		"trustlake": func() { os.Exit(run(context.Background(), os.Args, os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// sparkM stops the Spark cluster a test started (sparktest.Remote) after
// the tests have run.
type sparkM struct{ m *testing.M }

func (s sparkM) Run() int { return sparktest.Main(s.m) }

// update rewrites the golden files of this package (make golden): the files
// that cmp compares inside testdata/script/*.txtar, and the CLI output that
// examples/tau-bench and examples/agentrewardbench quote in their READMEs.
var update = flag.Bool("update", false, "rewrite golden files: cmp files in testdata/script/*.txtar, the examples' README output")

// scriptT is the key of the script's testscript.T in Env.Values (the
// missing command skips through it).
type scriptT struct{}

// TestScripts runs testdata/script/*.txtar end to end through the CLI.
func TestScripts(t *testing.T) {
	testscript.Run(t, scriptParams("testdata/script"))
}

// scriptParams are the testscript parameters of the scripts in dir: the
// environment and the commands and conditions they may use.
func scriptParams(dir string) testscript.Params {
	return testscript.Params{
		Dir:           dir,
		UpdateScripts: *update,
		Setup: func(env *testscript.Env) error {
			env.Setenv("TRUSTLAKE_LAKE", env.WorkDir+"/lake")
			lib, _ := filepath.Abs("../../tasks/library")
			env.Setenv("TASKLIB", lib)
			inspectLogs, _ := filepath.Abs("../../ingest/testdata/inspect")
			env.Setenv("INSPECT_LOGS", inspectLogs)
			// RUNID labels this script's sandbox containers, so that it
			// counts only its own on an engine other tests share.
			env.Setenv("RUNID", uuid.NewString())
			// A fresh static trustlake-check bounds Docker runs from inside
			// (the in-container deadline); scripts find it like the CLI does.
			if bin, err := checkBinary(); err == nil {
				env.Setenv("TRUSTLAKE_CHECK_BINARY", bin)
			}
			env.Values[scriptT{}] = env.T()
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
			// missing PART REASON: end the script because PART is missing, as
			// testenv.Missing does: skip with the reason, or fail when
			// TRUSTLAKE_REQUIRE names the part (CI). Use it after a condition:
			//   [!image:trustlake-check:latest] missing docker 'image not built'
			"missing": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 2 {
					ts.Fatalf("usage: missing PART REASON")
				}
				msg := args[0] + " missing: " + args[1]
				if testenv.Required(args[0]) {
					ts.Fatalf("%s (%s=%s requires it)", msg, testenv.RequireEnv, os.Getenv(testenv.RequireEnv))
				}
				ts.Value(scriptT{}).(testscript.T).Skip(msg)
			},
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
	}
}

var (
	checkBinOnce sync.Once
	checkBinPath string
	checkBinErr  error
)

// checkBinary builds cmd/trustlake-check once per test process (static,
// CGO_ENABLED=0) and returns its path.
func checkBinary() (string, error) {
	checkBinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "trustlake-check-bin-")
		if err != nil {
			checkBinErr = err
			return
		}
		checkBinPath = filepath.Join(dir, "trustlake-check")
		cmd := exec.Command("go", "build", "-o", checkBinPath, "../trustlake-check")
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			checkBinErr = fmt.Errorf("build trustlake-check: %v: %s", err, out)
		}
	})
	return checkBinPath, checkBinErr
}

// sharedData returns the absolute path of the shared data file or folder rel
// (testenv: $TRUSTLAKE_DATA or ../shared/data beside the repository); the
// test skips, or fails when the data is required, when it is absent.
func sharedData(t *testing.T, rel string) string {
	t.Helper()
	p, err := filepath.Abs(testenv.DataFile(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	return p
}
