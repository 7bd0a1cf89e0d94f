package sandbox

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCapture(t *testing.T) {
	cases := []struct {
		name      string
		limit     int64
		writes    []string
		want      string
		truncated bool
	}{
		{"under", 10, []string{"abc", "de"}, "abcde", false},
		{"exact", 5, []string{"abc", "de"}, "abcde", false},
		{"split write", 4, []string{"abc", "de"}, "abcd", true},
		{"after full", 3, []string{"abc", "de", "f"}, "abc", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := &capture{limit: tc.limit}
			for _, w := range tc.writes {
				if n, err := c.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v; want all accepted", w, n, err)
				}
			}
			got, truncated := c.bytes()
			if string(got) != tc.want || truncated != tc.truncated {
				t.Errorf("got %q truncated %v, want %q truncated %v", got, truncated, tc.want, tc.truncated)
			}
		})
	}
}

func TestSpecValidate(t *testing.T) {
	open := t.TempDir()
	os.Chmod(open, 0o755)
	closed := filepath.Join(open, "closed")
	os.Mkdir(closed, 0o700)
	cases := []struct {
		name string
		spec Spec
		want string // "" means valid
	}{
		{"ok", Spec{Image: "i", Command: []string{"/x"}, Snapshot: open, Env: []string{"A=1"}}, ""},
		{"no command", Spec{Image: "i"}, "empty command"},
		{"no image", Spec{Command: []string{"/x"}}, "no image"},
		{"bad env", Spec{Image: "i", Command: []string{"/x"}, Env: []string{"NOEQUALS"}}, `env "NOEQUALS"`},
		{"relative snapshot", Spec{Image: "i", Command: []string{"/x"}, Snapshot: "snap"}, "want an absolute host path"},
		{"unreadable snapshot", Spec{Image: "i", Command: []string{"/x"}, Snapshot: closed}, "not readable by the sandbox user 65534:65534 (chmod o+rx)"},
		{"reserved target", Spec{Image: "i", Command: []string{"/x"}, Mounts: []Mount{{Host: open, Target: "/snapshot"}}}, "is reserved"},
		{"relative target", Spec{Image: "i", Command: []string{"/x"}, Mounts: []Mount{{Host: open, Target: "opt"}}}, "want an absolute path"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.spec.validate(true)
			if tc.want == "" {
				if err != nil {
					t.Errorf("validate: %v", err)
				}
				return
			}
			if !errors.Is(err, ErrSpec) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("validate = %v, want ErrSpec containing %q", err, tc.want)
			}
		})
	}
}

func TestLimitsDefaults(t *testing.T) {
	if got, want := (Limits{PIDs: 7}).withDefaults(), (Limits{MemoryBytes: 512 << 20, PIDs: 7, NanoCPUs: 1e9, OutputBytes: 1 << 20, TmpfsBytes: 64 << 20}); got != want {
		t.Errorf("withDefaults = %+v, want %+v", got, want)
	}
}
