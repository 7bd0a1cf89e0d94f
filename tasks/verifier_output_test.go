package tasks

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/internal/testenv"
	"github.com/trustlake/trustlake/sandbox"
)

// TestVerifierOutputBounded: a verifier printing a 100 MB verdict or two
// JSON objects gets a verifier error saying so, in Docker and in
// bubblewrap; nothing past the output cap is kept (issue 24, "not yet
// tried").
func TestVerifierOutputBounded(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{dir, filepath.Dir(dir)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	snap := filepath.Join(dir, "snap")
	os.MkdirAll(snap, 0o755)
	scripts := map[string]string{
		"huge.sh": `printf '{"pass": true, "category": null, "diagnostics": "'; head -c 104857600 /dev/zero | tr '\0' x; printf '"}'`,
		"two.sh":  `echo '{"pass": true, "category": null}'; echo '{"pass": false, "category": "F-ABORT"}'`,
	}
	for name, body := range scripts {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]string{"huge.sh": "over the 1048576-byte cap", "two.sh": "more than one JSON value"}
	type backend struct {
		name  string
		r     Runner
		image string
	}
	var backends []backend
	if b, err := sandbox.NewBwrap(sandbox.BwrapOptions{}); err != nil {
		testenv.Missing(t, testenv.Bwrap, "%v", err)
	} else {
		backends = append(backends, backend{"bwrap", b, ""})
	}
	backends = append(backends, backend{"docker", requireDocker(t, PythonImage), PythonImage})
	for _, b := range backends {
		for name, msg := range want {
			t.Run(b.name+"/"+name, func(t *testing.T) {
				task := &Task{ID: "t", Dir: dir, Image: b.image, Verifier: &Script{Command: []string{"sh", "/task/" + name}}}
				_, err := runOnce(t.Context(), b.r, task, snap, "")
				if !errors.Is(err, ErrVerifier) || !strings.Contains(err.Error(), msg) {
					t.Errorf("err = %v, want a verifier error containing %q", err, msg)
				}
			})
		}
	}
}
