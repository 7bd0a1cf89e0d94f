package sandbox

import (
	"os"
	"testing"

	"github.com/trustlake/trustlake/internal/testenv"
)

// requireBwrap returns a working bubblewrap backend or skips naming what is missing.
func requireBwrap(t *testing.T) *Bwrap {
	t.Helper()
	b, err := NewBwrap(BwrapOptions{})
	if err != nil {
		testenv.Missing(t, testenv.Bwrap, "bubblewrap not installed (make deps): %v", err)
	}
	if err := b.Check(t.Context()); err != nil {
		testenv.Missing(t, testenv.Bwrap, "bubblewrap cannot create namespaces here: %v", err)
	}
	return b
}

func TestBwrap(t *testing.T) {
	b := requireBwrap(t)
	if os.Getuid() != 0 {
		t.Log("not root: the PIDs limit (RLIMIT_NPROC) is not applied")
	}
	helper := helperBinary(t)
	runSuite(t, backend{r: b, mounts: []Mount{{Host: helper, Target: "/opt/trustlake/helper"}}, helperPath: "/opt/trustlake/helper"})
}

// A verifier binary can be mounted at the root (as tasks does with
// /trustlake-check), since bwrap ignores Spec.Image.
func TestBwrapRootLevelMount(t *testing.T) {
	b := requireBwrap(t)
	res := mustRun(t, b, Spec{
		Command: []string{"/verifier", "echo", "hi"},
		Mounts:  []Mount{{Host: helperBinary(t), Target: "/verifier"}},
	})
	if got, want := string(res.Stdout), "hi\n"; got != want || res.ExitCode != 0 {
		t.Errorf("stdout %q exit %d (stderr %q), want %q", got, res.ExitCode, res.Stderr, want)
	}
}
