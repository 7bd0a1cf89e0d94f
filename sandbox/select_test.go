package sandbox

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

func TestSelect(t *testing.T) {
	noEngine := DockerOptions{Host: "unix://" + filepath.Join(t.TempDir(), "no-docker.sock")}
	noBwrap := BwrapOptions{Path: filepath.Join(t.TempDir(), "no-bwrap")}
	cases := []struct {
		name     string
		backend  string
		opts     SelectOptions
		want     string // runner name; "" means ErrNoBackend
		wantWarn string // substring of the warning
	}{
		{"none only by name", "none", SelectOptions{}, "none", "without isolation"},
		{"unknown", "chroot", SelectOptions{}, "", ""},
		{"docker without engine", "docker", SelectOptions{Docker: noEngine}, "", ""},
		{"bwrap missing", "bwrap", SelectOptions{Bwrap: noBwrap}, "", ""},
		{"auto never unsandboxed", "", SelectOptions{Docker: noEngine, Bwrap: noBwrap}, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, warn, err := Select(t.Context(), tc.backend, tc.opts)
			if tc.want == "" {
				if !errors.Is(err, ErrNoBackend) {
					t.Fatalf("Select(%q) = %v, %q, %v; want ErrNoBackend", tc.backend, r, warn, err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Select(%q): %v", tc.backend, err)
			}
			if got := r.Name(); got != tc.want {
				t.Errorf("Name() = %q, want %q", got, tc.want)
			}
			if !strings.Contains(warn, tc.wantWarn) {
				t.Errorf("warning = %q, want it to contain %q", warn, tc.wantWarn)
			}
		})
	}
}

func TestSelectAutoFallsBackToBwrap(t *testing.T) {
	requireBwrap(t)
	noEngine := DockerOptions{Host: "unix://" + filepath.Join(t.TempDir(), "no-docker.sock")}
	r, warn, err := Select(t.Context(), "", SelectOptions{Docker: noEngine})
	if err != nil {
		t.Fatalf("Select: %v", err)
	}
	if got, want := r.Name(), "bwrap"; got != want {
		t.Errorf("Name() = %q, want %q", got, want)
	}
	if !strings.Contains(warn, "bubblewrap") {
		t.Errorf("warning = %q, want it to name bubblewrap", warn)
	}
}

func TestSelectAutoPrefersDocker(t *testing.T) {
	requireDocker(t)
	r, warn, err := Select(t.Context(), "", SelectOptions{})
	if err != nil {
		t.Fatalf("Select: %v", err)
	}
	defer r.(Closer).Close()
	if got, want := r.Name(), "docker"; got != want || warn != "" {
		t.Errorf("Select = %q, %q; want %q and no warning", got, warn, want)
	}
}
