package sandbox

import (
	"strings"
	"testing"
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
