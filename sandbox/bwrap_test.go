package sandbox

import (
	"os"
	"testing"
)

// requireBwrap returns a working bubblewrap backend or skips naming what is missing.
func requireBwrap(t *testing.T) *Bwrap {
	t.Helper()
	b, err := NewBwrap(BwrapOptions{})
	if err != nil {
		t.Skipf("bubblewrap not installed (apt-get install bubblewrap): %v", err)
	}
	if err := b.Check(t.Context()); err != nil {
		t.Skipf("bubblewrap cannot create namespaces here: %v", err)
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
