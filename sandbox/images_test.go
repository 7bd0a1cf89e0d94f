package sandbox

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/internal/testenv"
)

// TestPythonImageAptSource checks how images/python/build.sh picks the suite and
// mirror for debootstrap from an apt configuration (PRINT_SOURCE=1 stops there).
func TestPythonImageAptSource(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		testenv.Missing(t, testenv.Bash, "bash not on PATH: cannot run images/python/build.sh")
	}
	cases := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"deb822", map[string]string{
			"sources.list.d/debian.sources": "Types: deb\nURIs: http://mirror.example/debian\nSuites: bookworm bookworm-updates\nComponents: main\n\n" +
				"Types: deb\nURIs: http://mirror.example/debian-security\nSuites: bookworm-security\nComponents: main\n",
		}, "bookworm http://mirror.example/debian"},
		{"one-line with options", map[string]string{
			"sources.list": "# comment\ndeb-src http://mirror.example/debian trixie main\ndeb [arch=amd64 signed-by=/k.gpg] http://mirror.example/debian/ trixie main\n",
		}, "trixie http://mirror.example/debian/"},
		{"third-party first", map[string]string{
			"sources.list.d/aaa-vendor.sources": "Types: deb\nURIs: https://vendor.example/apt\nSuites: stable\nComponents: main\n",
			"sources.list.d/debian.sources":     "Types: deb\nURIs: http://mirror.example/debian\nSuites: bookworm\nComponents: main\n",
		}, "bookworm http://mirror.example/debian"},
		{"disabled entry skipped", map[string]string{
			"sources.list.d/debian.sources": "Types: deb\nURIs: http://old.example/debian\nSuites: buster\nEnabled: no\n\nTypes: deb\nURIs: http://mirror.example/debian\nSuites: bookworm\n",
		}, "bookworm http://mirror.example/debian"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			os.MkdirAll(filepath.Join(dir, "sources.list.d"), 0o755)
			for name, body := range tc.files {
				if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cmd := exec.Command("bash", filepath.Join("..", "images", "python", "build.sh"))
			cmd.Env = append(os.Environ(), "PRINT_SOURCE=1", "APT_DIR="+dir)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("build.sh: %v\n%s", err, out)
			}
			if got := strings.TrimSpace(string(out)); got != tc.want {
				t.Errorf("source = %q, want %q", got, tc.want)
			}
		})
	}
}
