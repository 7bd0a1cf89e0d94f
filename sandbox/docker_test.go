package sandbox

import (
	"fmt"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/internal/testenv"
)

func TestDocker(t *testing.T) {
	d := requireDocker(t)
	runSuite(t, backend{r: d, image: ensureTestImage(t, d), helperPath: "/helper", oomKilled: true})
}

func TestDockerStartError(t *testing.T) {
	d := requireDocker(t)
	img := ensureTestImage(t, d)
	_, err := d.Run(t.Context(), Spec{Image: img, Command: []string{"/no/such/binary"}})
	if err == nil || !strings.Contains(err.Error(), "start container") {
		t.Errorf("err = %v, want a start error", err)
	}
}

func TestDockerMissingImage(t *testing.T) {
	d := requireDocker(t)
	_, err := d.Run(t.Context(), Spec{Image: "trustlake-no-such-image:never", Command: []string{"/x"}})
	if err == nil || !strings.Contains(err.Error(), "create container") {
		t.Errorf("err = %v, want a create error", err)
	}
}

// TestDockerProjectImages runs the images of images/ under the full lockdown.
func TestDockerProjectImages(t *testing.T) {
	d := requireDocker(t)
	cases := []struct {
		image    string
		command  []string
		wantExit int
		want     string // substring of stdout+stderr
	}{
		{"trustlake-python:latest", []string{"python3", "-c", "import odf.opendocument, sys; print('odf', sys.version_info[0])"}, 0, "odf 3"},
		{"trustlake-check:latest", []string{"/trustlake-check", "/task", "/snapshot"}, 2, "task.json"},
	}
	for _, tc := range cases {
		t.Run(tc.image, func(t *testing.T) {
			if ok, err := d.HasImage(t.Context(), tc.image); err != nil || !ok {
				testenv.Missing(t, testenv.Docker, "image %s not built (run make sandbox-images): %v", tc.image, err)
			}
			res := mustRun(t, d, Spec{Image: tc.image, Command: tc.command, Snapshot: sharedDir(t)})
			out := string(res.Stdout) + string(res.Stderr)
			if res.ExitCode != tc.wantExit || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, output %q; want exit %d containing %q", res.ExitCode, out, tc.wantExit, tc.want)
			}
		})
	}
}

func TestDockerConcurrent(t *testing.T) {
	d := requireDocker(t)
	img := ensureTestImage(t, d)
	const n = 4
	errs := make(chan error, n)
	for i := range n {
		go func() {
			res, err := d.Run(t.Context(), Spec{Image: img, Command: []string{"/helper", "echo", fmt.Sprint(i)}})
			if err == nil && string(res.Stdout) != fmt.Sprintf("%d\n", i) {
				err = fmt.Errorf("run %d: stdout %q", i, res.Stdout)
			}
			errs <- err
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}
