// Package testenv tells tests where the shared third-party data is and
// whether a part they need (Docker Engine, bubblewrap, Python venv, Chromium,
// Spark) may be missing. A test that cannot run skips with a reason, unless
// the part is listed in TRUSTLAKE_REQUIRE ("all" or a comma list), as CI
// does: then the missing part fails the test, so a green run cannot hide it.
package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// DataEnv names the variable that points at the shared data folder (the
// one holding tau-bench/ and webjudge-agentrewardbench/). Without it the
// data is looked for at ../shared/data beside the repository.
const DataEnv = "TRUSTLAKE_DATA"

// RequireEnv lists the parts whose absence fails a test instead of skipping it.
const RequireEnv = "TRUSTLAKE_REQUIRE"

// Parts a test may need. "data" is the shared third-party data; "docker"
// covers the engine, the docker client and the images make sandbox-images
// builds.
const (
	Bash     = "bash"
	Docker   = "docker"
	Bwrap    = "bwrap"
	Python   = "python"
	Chromium = "chromium"
	Spark    = "spark"
	Data     = "data"
)

// Required reports whether part must be present (TRUSTLAKE_REQUIRE names it
// or says "all").
func Required(part string) bool {
	list := strings.Split(os.Getenv(RequireEnv), ",")
	for i := range list {
		list[i] = strings.TrimSpace(list[i])
	}
	return slices.Contains(list, "all") || slices.Contains(list, part)
}

// Missing ends the test because part is not available: a skip with the
// reason, or a failure when the part is required.
func Missing(t testing.TB, part, reason string, args ...any) {
	t.Helper()
	msg := part + " missing: " + reason
	if len(args) > 0 {
		msg = part + " missing: " + fmt.Sprintf(reason, args...)
	}
	if Required(part) {
		t.Fatalf("%s (%s=%s requires it)", msg, RequireEnv, os.Getenv(RequireEnv))
	}
	t.Skip(msg)
}

// RepoRoot is the folder holding go.mod, found upward from the working
// directory (a test runs in its package folder).
func RepoRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found above the working directory")
		}
		dir = parent
	}
}

// DataDir returns the shared data folder ($TRUSTLAKE_DATA, else
// ../shared/data beside the repository), or "" when neither exists.
func DataDir(t testing.TB) string {
	t.Helper()
	d := os.Getenv(DataEnv)
	if d == "" {
		d = filepath.Join(RepoRoot(t), "..", "shared", "data")
	}
	if st, err := os.Stat(d); err == nil && st.IsDir() {
		return d
	}
	return ""
}

// DataFile returns the path of rel inside the shared data folder; when it is
// absent the test skips (or fails when "data" is required).
func DataFile(t testing.TB, rel string) string {
	t.Helper()
	d := DataDir(t)
	if d == "" {
		Missing(t, Data, "shared data folder not found (set %s or place it at ../shared/data beside the repository)", DataEnv)
	}
	p := filepath.Join(d, rel)
	if _, err := os.Stat(p); err != nil {
		Missing(t, Data, "%s: %v", rel, err)
	}
	return p
}

// VenvPython returns the Python of the project's virtual environment
// (<repo>/.venv/bin/python, made by make venv with the pinned
// python/requirements-*.txt); when it is absent the test skips (or fails
// when "python" is required).
func VenvPython(t testing.TB) string {
	t.Helper()
	p := filepath.Join(RepoRoot(t), ".venv", "bin", "python")
	if _, err := os.Stat(p); err != nil {
		Missing(t, Python, "%s not found (run make venv)", p)
	}
	return p
}
