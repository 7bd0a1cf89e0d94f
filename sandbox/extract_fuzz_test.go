package sandbox

import (
	"archive/tar"
	"bytes"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the seed archives in testdata/")

// seeds are the archives written to testdata/ by -update; the fuzzer starts from
// every testdata/*.tar*.
func seeds(t testing.TB) map[string][]byte {
	return map[string][]byte{
		"ok.tar.zst": tarball(t, true,
			tarEntry{name: "dir/", typ: tar.TypeDir},
			tarEntry{name: "dir/a.txt", body: "alpha"},
			tarEntry{name: "dir/l", typ: tar.TypeSymlink, link: "a.txt"},
			tarEntry{name: "h", typ: tar.TypeLink, link: "dir/a.txt"}),
		"plain.tar": tarball(t, false,
			tarEntry{name: "d/", typ: tar.TypeDir},
			tarEntry{name: "d/f", body: "x"},
			tarEntry{name: "s", typ: tar.TypeSymlink, link: "d/f"}),
		"dotdot.tar.zst":      tarball(t, true, tarEntry{name: "../x", body: "evil"}),
		"absolute.tar.zst":    tarball(t, true, tarEntry{name: "/tmp/x", body: "evil"}),
		"symlink_out.tar.zst": tarball(t, true, tarEntry{name: "l", typ: tar.TypeSymlink, link: "../../etc"}, tarEntry{name: "l/passwd", body: "evil"}),
		"device.tar.zst":      tarball(t, true, tarEntry{name: "null", typ: tar.TypeChar}),
	}
}

// TestFuzzSeeds checks that the fuzz seed archives in testdata/ are the
// ones seeds builds (with -update it rewrites them: make golden).
func TestFuzzSeeds(t *testing.T) {
	for name, data := range seeds(t) {
		path := filepath.Join("testdata", name)
		if *update {
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, data) {
			t.Errorf("%s is not the seed the test builds (run make golden): %v", path, err)
		}
	}
}

func FuzzExtractSnapshot(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.tar*"))
	if len(files) == 0 {
		f.Fatal("no seed archives in testdata/")
	}
	for _, p := range files {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	lim := ExtractLimits{MaxBytes: 1 << 20, MaxFiles: 64, MaxWindow: 1 << 20}
	f.Fuzz(func(t *testing.T, data []byte) {
		outer := t.TempDir()
		dst := filepath.Join(outer, "snap")
		st, _ := ExtractSnapshot(t.Context(), bytes.NewReader(data), dst, lim)
		if st.Bytes > lim.MaxBytes {
			t.Fatalf("wrote %d bytes, limit %d", st.Bytes, lim.MaxBytes)
		}
		if n := st.Files + st.Dirs + st.Symlinks + st.Hardlinks; n > lim.MaxFiles {
			t.Fatalf("wrote %d entries, limit %d", n, lim.MaxFiles)
		}
		if ents, _ := os.ReadDir(outer); len(ents) > 1 {
			t.Fatalf("wrote beside dst: %v", ents)
		}
		filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			fi, err := os.Lstat(p)
			if err != nil {
				return nil
			}
			switch m := fi.Mode(); {
			case m&os.ModeSymlink != 0:
				target, _ := os.Readlink(p)
				rel, _ := filepath.Rel(dst, filepath.Join(filepath.Dir(p), target))
				if filepath.IsAbs(target) || rel == ".." || strings.HasPrefix(rel, "../") {
					t.Fatalf("symlink %s -> %s leaves the root", p, target)
				}
			case m&(os.ModeDevice|os.ModeNamedPipe|os.ModeSocket|os.ModeSetuid|os.ModeSetgid) != 0:
				t.Fatalf("%s has mode %v", p, m)
			}
			return nil
		})
	})
}
