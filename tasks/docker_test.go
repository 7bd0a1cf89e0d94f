package tasks

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/trustlake/trustlake/internal/testenv"
	"github.com/trustlake/trustlake/sandbox"
)

// requireDocker returns a Docker runner, or skips naming what is missing:
// the engine, or one of the images (built by images/check/build.sh and
// images/python/build.sh).
func requireDocker(t *testing.T, images ...string) *sandbox.Docker {
	t.Helper()
	d, err := sandbox.NewDocker(sandbox.DockerOptions{})
	if err != nil {
		testenv.Missing(t, testenv.Docker, "docker client: %v (set DOCKER_HOST or run make docker-start)", err)
	}
	t.Cleanup(func() { d.Close() })
	ctx := t.Context()
	if err := d.Ping(ctx); err != nil {
		testenv.Missing(t, testenv.Docker, "no Docker Engine answers: %v (run make docker-start)", err)
	}
	for _, img := range images {
		ok, err := d.HasImage(ctx, img)
		if err != nil || !ok {
			testenv.Missing(t, testenv.Docker, "image %s not built (run make sandbox-images): %v", img, err)
		}
	}
	return d
}

// freshCheckBinary builds the static trustlake-check of this tree, so that
// the Docker tests exercise the current checks even when the image is older.
func freshCheckBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "trustlake-check")
	build := exec.Command("go", "build", "-o", bin, "../cmd/trustlake-check")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build trustlake-check: %v\n%s", err, out)
	}
	// The sandbox user (65534) must reach the binary: open the test's
	// private temp folders for reading.
	for _, d := range []string{filepath.Dir(bin), filepath.Dir(filepath.Dir(bin))} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return bin
}

func TestDockerSelfTest(t *testing.T) {
	d := requireDocker(t, CheckImage)
	bin := freshCheckBinary(t)
	lib := loadLibrary(t)
	ids := []string{"sheet_set_cell_d14", "app_todo_complete", "config_json_tabsize", "files_move_invoices", "browser_firefox_bookmark", "xlsx_set_total"}
	start := time.Now()
	res, err := SelfTest(t.Context(), lib, d, SelfTestOptions{Tasks: ids, RunOptions: RunOptions{Jobs: 2, CheckBinary: bin}})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d fixtures ×2 runs in %s", len(res), time.Since(start))
	for _, r := range res {
		if !r.OK {
			t.Errorf("%s %s: %s", r.TaskID, r.Fixture, r.Err)
		}
	}
}

func TestDockerSeedVerifier(t *testing.T) {
	d := requireDocker(t, PythonImage)
	lib := loadLibrary(t)
	res, err := SelfTest(t.Context(), lib, d, SelfTestOptions{Tasks: []string{"sheet_set_cell_d14_py"}, RunOptions: RunOptions{Jobs: 2}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if !r.OK {
			t.Errorf("%s: %s", r.Fixture, r.Err)
		}
	}
}

// TestDockerVerifyFreshBinary verifies an episode in the Docker backend with
// a freshly built static trustlake-check mounted over the image's.
func TestDockerVerifyFreshBinary(t *testing.T) {
	d := requireDocker(t, CheckImage)
	bin := freshCheckBinary(t)
	lib, task := d14(t)
	eps := []string{episode(t, task, "pass/done", "ep_ok"), episode(t, task, "fail/wrong_cell", "ep_c")}
	res, err := Verify(t.Context(), lib, d, eps, VerifyOptions{RunOptions: RunOptions{Jobs: 2, CheckBinary: bin}})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Status != StatusWritten || !*res[0].Pass {
		t.Errorf("ep_ok: %+v", res[0])
	}
	if res[1].Status != StatusWritten || res[1].Category != "F-WRONGTARGET" {
		t.Errorf("ep_c: %+v", res[1])
	}
}

// TestBwrapSelfTest runs a few tasks under bubblewrap with the fresh static
// checker mounted at /trustlake-check (bwrap has no images).
func TestBwrapSelfTest(t *testing.T) {
	b, err := sandbox.NewBwrap(sandbox.BwrapOptions{})
	if err != nil {
		testenv.Missing(t, testenv.Bwrap, "bubblewrap not installed (make deps): %v", err)
	}
	bin := freshCheckBinary(t)
	lib := loadLibrary(t)
	res, err := SelfTest(t.Context(), lib, b, SelfTestOptions{Tasks: []string{"sheet_set_cell_d14", "app_todo_complete"}, RunOptions: RunOptions{CheckBinary: bin}})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range res {
		if !r.OK {
			if r.TaskID == "sheet_set_cell_d14" && r.Fixture == "pass/done" && strings.Contains(r.Err, "run:") {
				testenv.Missing(t, testenv.Bwrap, "bubblewrap does not run here: %s", r.Err)
			}
			t.Errorf("%s %s: %s", r.TaskID, r.Fixture, r.Err)
		}
	}
}
