package sandbox

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/moby/moby/client"

	"github.com/trustlake/trustlake/internal/testenv"
)

// testImage is the FROM scratch image holding the static test helper at
// /helper. Its tag is unique to this test process (tests of several
// checkouts may share one engine); TestMain removes it.
var testImage = "trustlake-sandbox-test:" + uuid.NewString()[:8]

// testImageBuilt is set once ensureTestImage has built testImage.
var testImageBuilt struct {
	once sync.Once
	err  error
	done atomic.Bool
}

// fixture is shared by all tests of the package: a folder readable by uid
// 65534 (removed in TestMain) and the helper built into it once.
type fixture struct {
	once   sync.Once
	dir    string
	helper string
	err    error
}

var fx fixture

func (f *fixture) build() {
	f.dir, f.err = os.MkdirTemp("", "trustlake-sandbox-test-")
	if f.err != nil {
		return
	}
	if f.err = os.Chmod(f.dir, 0o755); f.err != nil {
		return
	}
	f.helper = filepath.Join(f.dir, "helper")
	cmd := exec.Command("go", "build", "-trimpath", "-o", f.helper, "./testdata/helper")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		f.err = &buildError{err, string(out)}
	}
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return "build test helper: " + e.err.Error() + "\n" + e.out }

// helperBinary returns the path of the static helper, built once.
func helperBinary(t *testing.T) string {
	t.Helper()
	fx.once.Do(fx.build)
	if fx.err != nil {
		t.Fatal(fx.err)
	}
	return fx.helper
}

// sharedDir returns a fresh folder readable by uid 65534 (its parents too).
func sharedDir(t *testing.T) string {
	t.Helper()
	helperBinary(t)
	dir, err := os.MkdirTemp(fx.dir, "snap-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

// requireDocker returns a Docker backend whose containers carry a label unique
// to the test; it skips when no engine answers, and fails the test if any
// container of the test is left behind.
func requireDocker(t *testing.T) *Docker {
	t.Helper()
	d, err := NewDocker(DockerOptions{Labels: map[string]string{LabelKey + ".test": uuid.NewString()}})
	if err != nil {
		testenv.Missing(t, testenv.Docker, "docker client: %v (set DOCKER_HOST or run make docker-start)", err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if err := d.Ping(ctx); err != nil {
		d.Close()
		testenv.Missing(t, testenv.Docker, "no Docker Engine answers: %v (run make docker-start, or join group docker)", err)
	}
	t.Cleanup(func() {
		defer d.Close()
		ids, err := d.Leftovers(context.Background())
		if err != nil {
			t.Errorf("list leftover containers: %v", err)
		}
		if len(ids) > 0 {
			t.Errorf("%d sandbox container(s) left behind: %v", len(ids), ids)
		}
	})
	return d
}

// ensureTestImage builds testImage from the helper once per test process.
func ensureTestImage(t *testing.T, d *Docker) string {
	t.Helper()
	testImageBuilt.once.Do(func() {
		bin, err := os.ReadFile(helperBinary(t))
		if err != nil {
			testImageBuilt.err = err
			return
		}
		var buf bytes.Buffer
		tw := tar.NewWriter(&buf)
		dockerfile := "FROM scratch\nCOPY helper /helper\nUSER 65534:65534\n"
		for _, f := range []struct {
			name string
			mode int64
			body []byte
		}{{"Dockerfile", 0o644, []byte(dockerfile)}, {"helper", 0o755, bin}} {
			tw.WriteHeader(&tar.Header{Name: f.name, Mode: f.mode, Size: int64(len(f.body))})
			tw.Write(f.body)
		}
		tw.Close()
		testImageBuilt.err = d.BuildImage(context.WithoutCancel(t.Context()), testImage, &buf)
		testImageBuilt.done.Store(testImageBuilt.err == nil)
	})
	if testImageBuilt.err != nil {
		t.Fatalf("build %s: %v", testImage, testImageBuilt.err)
	}
	return testImage
}

// removeTestImage removes testImage (and its untagged layers) when this
// process built it; called from TestMain after the tests.
func removeTestImage() error {
	if !testImageBuilt.done.Load() {
		return nil
	}
	d, err := NewDocker(DockerOptions{})
	if err != nil {
		return err
	}
	defer d.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err = d.cli.ImageRemove(ctx, testImage, client.ImageRemoveOptions{Force: true, PruneChildren: true})
	return err
}

// hostProbe listens on the host's loopback for TCP and for UDP (as a DNS
// server would) and counts what arrives; a sandbox must reach neither.
type hostProbe struct {
	TCPPort, UDPPort string
	hits             atomic.Int64
}

func newHostProbe(t *testing.T) *hostProbe {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &hostProbe{}
	_, p.TCPPort, _ = net.SplitHostPort(ln.Addr().String())
	_, p.UDPPort, _ = net.SplitHostPort(pc.LocalAddr().String())
	var wg sync.WaitGroup
	wg.Add(2)
	go func() {
		defer wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.hits.Add(1)
			c.Close()
		}
	}()
	go func() {
		defer wg.Done()
		buf := make([]byte, 1500)
		for {
			if _, _, err := pc.ReadFrom(buf); err != nil {
				return
			}
			p.hits.Add(1)
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		pc.Close()
		wg.Wait()
	})
	return p
}

// lines returns the output as trimmed lines.
func lines(b []byte) []string {
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

// BuildImage (a test fixture) builds an image tagged tag from a tar build context holding a
// Dockerfile (classic builder, no registry access needed for FROM scratch). It
// reads the build output to the end and returns the first build error.
func (d *Docker) BuildImage(ctx context.Context, tag string, buildContext io.Reader) error {
	resp, err := d.cli.ImageBuild(ctx, buildContext, client.ImageBuildOptions{
		Tags:        []string{tag},
		Remove:      true,
		ForceRemove: true,
		NetworkMode: "none",
		Labels:      map[string]string{LabelKey + ".image": "1"},
	})
	if err != nil {
		return fmt.Errorf("build image %s: %w", tag, err)
	}
	defer resp.Body.Close()
	dec := json.NewDecoder(resp.Body)
	for {
		var msg struct {
			Error string `json:"error"`
		}
		if err := dec.Decode(&msg); errors.Is(err, io.EOF) {
			return nil
		} else if err != nil {
			return fmt.Errorf("build image %s: read output: %w", tag, err)
		}
		if msg.Error != "" {
			return fmt.Errorf("build image %s: %s", tag, msg.Error)
		}
	}
}

// Leftovers (a test fixture) lists the ids of containers, running or not, that carry this
// backend's labels (LabelKey=1 and DockerOptions.Labels).
func (d *Docker) Leftovers(ctx context.Context) ([]string, error) {
	f := make(client.Filters)
	for k, v := range d.labels() {
		f.Add("label", k+"="+v)
	}
	res, err := d.cli.ContainerList(ctx, client.ContainerListOptions{All: true, Filters: f})
	if err != nil {
		return nil, fmt.Errorf("list containers: %w", err)
	}
	ids := make([]string, 0, len(res.Items))
	for _, c := range res.Items {
		ids = append(ids, c.ID)
	}
	return ids, nil
}
