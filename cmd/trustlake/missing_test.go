package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/trustlake/trustlake/internal/testenv"
)

// recordT is a testscript.T that records how a script ended.
type recordT struct {
	skipped, failed bool
	log             strings.Builder
}

// scriptEnd stops a script run by recordT (FailNow and Skip do not return).
type scriptEnd struct{}

func (r *recordT) Skip(a ...any)  { r.skipped = true; fmt.Fprintln(&r.log, a...); panic(scriptEnd{}) }
func (r *recordT) Fatal(a ...any) { r.failed = true; fmt.Fprintln(&r.log, a...); panic(scriptEnd{}) }
func (r *recordT) FailNow()       { r.failed = true; panic(scriptEnd{}) }
func (r *recordT) Parallel()      {}
func (r *recordT) Log(a ...any)   { fmt.Fprintln(&r.log, a...) }
func (r *recordT) Verbose() bool  { return false }
func (r *recordT) Run(_ string, f func(testscript.T)) {
	defer func() {
		if x := recover(); x != nil {
			if _, ok := x.(scriptEnd); !ok {
				panic(x)
			}
		}
	}()
	f(r)
}

// TestMissingCommand checks the scripts' missing command: a skip naming the
// part and the reason, or a failure when TRUSTLAKE_REQUIRE names the part.
func TestMissingCommand(t *testing.T) {
	dir := t.TempDir()
	script := "[!exec:trustlake-no-such-tool] missing sometool 'trustlake-no-such-tool not on PATH'\nexec false\n"
	if err := os.WriteFile(filepath.Join(dir, "m.txtar"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		require       string
		skip, failure bool
	}{{"", true, false}, {"docker", true, false}, {"sometool", false, true}, {"all", false, true}} {
		t.Setenv(testenv.RequireEnv, c.require)
		var r recordT
		testscript.RunT(&r, scriptParams(dir))
		if r.skipped != c.skip || r.failed != c.failure {
			t.Errorf("%s=%q: skipped %v, failed %v; want %v, %v\n%s", testenv.RequireEnv, c.require, r.skipped, r.failed, c.skip, c.failure, r.log.String())
		}
		if !strings.Contains(r.log.String(), "sometool missing: trustlake-no-such-tool not on PATH") {
			t.Errorf("%s=%q: the message does not name the part and the reason:\n%s", testenv.RequireEnv, c.require, r.log.String())
		}
	}
}
