package sandbox

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/klauspost/compress/zstd"
)

// tarEntry is one entry of a test archive.
type tarEntry struct {
	name, body, link string
	typ              byte
	mode             int64
	size             int64 // header size when it must differ from len(body); body is then not written
}

// tarball builds a tar stream, zstd-compressed when zst is set. An entry whose
// size differs from its body ends the archive right after its header.
func tarball(t testing.TB, zst bool, entries ...tarEntry) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	truncated := false
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Linkname: e.link, Typeflag: e.typ, Mode: e.mode, Size: int64(len(e.body)), Format: tar.FormatPAX}
		if h.Typeflag == 0 {
			h.Typeflag = tar.TypeReg
		}
		if h.Mode == 0 {
			h.Mode = 0o644
		}
		if h.Typeflag != tar.TypeReg {
			h.Size = 0
		}
		if e.size != 0 {
			h.Size = e.size
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatalf("write header %s: %v", e.name, err)
		}
		if e.size != 0 {
			truncated = true
			break
		}
		if _, err := tw.Write([]byte(e.body)); err != nil {
			t.Fatalf("write body %s: %v", e.name, err)
		}
	}
	if !truncated {
		if err := tw.Close(); err != nil {
			t.Fatalf("close tar: %v", err)
		}
	} else {
		tw.Flush() // the error (missing body) is the point
	}
	if !zst {
		return buf.Bytes()
	}
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		t.Fatal(err)
	}
	defer enc.Close()
	return enc.EncodeAll(buf.Bytes(), nil)
}

func TestExtractSnapshotAccepts(t *testing.T) {
	data := tarball(t, true,
		tarEntry{name: "./", typ: tar.TypeDir},
		tarEntry{name: "docs/", typ: tar.TypeDir, mode: 0o700},
		tarEntry{name: "docs/report.txt", body: "hello", mode: 0o600},
		tarEntry{name: "bin/run.sh", body: "#!/bin/sh\n", mode: 0o4755},
		tarEntry{name: "docs/latest", typ: tar.TypeSymlink, link: "report.txt"},
		tarEntry{name: "up", typ: tar.TypeSymlink, link: "docs/../bin"},
		tarEntry{name: "copy.txt", typ: tar.TypeLink, link: "docs/report.txt"},
		tarEntry{name: "a/../b.txt", body: "b"},
	)
	dst := filepath.Join(t.TempDir(), "snap")
	got, err := ExtractSnapshot(t.Context(), bytes.NewReader(data), dst, ExtractLimits{})
	if err != nil {
		t.Fatalf("ExtractSnapshot: %v", err)
	}
	want := ExtractStats{Files: 3, Dirs: 1, Symlinks: 2, Hardlinks: 1, Bytes: 5 + 10 + 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stats (-want +got):\n%s", diff)
	}
	modes := []struct {
		name string
		want os.FileMode
	}{
		{".", os.ModeDir | 0o755},
		{"docs", os.ModeDir | 0o755},
		{"docs/report.txt", 0o644},
		{"bin/run.sh", 0o755}, // set-uid dropped
		{"b.txt", 0o644},
	}
	for _, m := range modes {
		fi, err := os.Lstat(filepath.Join(dst, m.name))
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode(); got != m.want {
			t.Errorf("mode of %s = %v, want %v", m.name, got, m.want)
		}
	}
	if b, err := os.ReadFile(filepath.Join(dst, "docs/latest")); err != nil || string(b) != "hello" {
		t.Errorf("read through symlink = %q, %v; want hello", b, err)
	}
	if b, err := os.ReadFile(filepath.Join(dst, "copy.txt")); err != nil || string(b) != "hello" {
		t.Errorf("read hard link = %q, %v; want hello", b, err)
	}
}

func TestExtractSnapshotPlainTar(t *testing.T) {
	data := tarball(t, false, tarEntry{name: "x", body: "plain"})
	dst := t.TempDir()
	if _, err := ExtractSnapshot(t.Context(), bytes.NewReader(data), dst, ExtractLimits{}); err != nil {
		t.Fatalf("ExtractSnapshot: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "x")); string(b) != "plain" {
		t.Errorf("x = %q, want plain", b)
	}
}

func TestExtractSnapshotRefuses(t *testing.T) {
	cases := []struct {
		name    string
		entries []tarEntry
		lim     ExtractLimits
		want    string // error text
	}{
		{"dotdot", []tarEntry{{name: "../x", body: "evil"}}, ExtractLimits{}, "snapshot entry ../x: path escapes root"},
		{"dotdot nested", []tarEntry{{name: "a/../../x", body: "evil"}}, ExtractLimits{}, "snapshot entry a/../../x: path escapes root"},
		{"absolute", []tarEntry{{name: "/etc/passwd", body: "evil"}}, ExtractLimits{}, "snapshot entry /etc/passwd: absolute path"},
		{"symlink absolute", []tarEntry{{name: "l", typ: tar.TypeSymlink, link: "/etc"}}, ExtractLimits{}, "snapshot entry l: symlink to absolute path /etc"},
		{"symlink relative escape", []tarEntry{{name: "d/l", typ: tar.TypeSymlink, link: "../../etc"}}, ExtractLimits{}, "snapshot entry d/l: symlink target ../../etc escapes root"},
		{"hardlink outside", []tarEntry{{name: "h", typ: tar.TypeLink, link: "../../etc/shadow"}}, ExtractLimits{}, "snapshot entry h: hard link target ../../etc/shadow: path escapes root"},
		{"hardlink absolute", []tarEntry{{name: "h", typ: tar.TypeLink, link: "/etc/shadow"}}, ExtractLimits{}, "snapshot entry h: hard link target /etc/shadow: absolute path"},
		{"hardlink missing", []tarEntry{{name: "h", typ: tar.TypeLink, link: "nope"}}, ExtractLimits{}, "snapshot entry h: hard link target nope is not an earlier regular file"},
		{"hardlink to symlink", []tarEntry{{name: "s", typ: tar.TypeSymlink, link: "x"}, {name: "h", typ: tar.TypeLink, link: "s"}}, ExtractLimits{}, "snapshot entry h: hard link target s is not an earlier regular file"},
		{"char device", []tarEntry{{name: "null", typ: tar.TypeChar}}, ExtractLimits{}, "snapshot entry null: device file"},
		{"block device", []tarEntry{{name: "sda", typ: tar.TypeBlock}}, ExtractLimits{}, "snapshot entry sda: device file"},
		{"fifo", []tarEntry{{name: "p", typ: tar.TypeFifo}}, ExtractLimits{}, "snapshot entry p: fifo"},
		{"huge header", []tarEntry{{name: "big", size: 10 << 30}}, ExtractLimits{}, "snapshot entry big: size 10737418240 exceeds the byte limit (1073741824 of 1073741824 left)"},
		{"total bytes", []tarEntry{{name: "a", body: "12345"}, {name: "b", body: "6789"}}, ExtractLimits{MaxBytes: 8}, "snapshot entry b: size 4 exceeds the byte limit (3 of 8 left)"},
		{"file count", []tarEntry{{name: "a"}, {name: "b"}, {name: "c"}}, ExtractLimits{MaxFiles: 2}, "snapshot entry c: more than 2 entries"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			outer := t.TempDir()
			dst := filepath.Join(outer, "snap")
			_, err := ExtractSnapshot(t.Context(), bytes.NewReader(tarball(t, true, tc.entries...)), dst, tc.lim)
			if err == nil {
				t.Fatalf("ExtractSnapshot succeeded, want error %q", tc.want)
			}
			if !errors.Is(err, ErrUnsafe) {
				t.Errorf("error %v does not wrap ErrUnsafe", err)
			}
			if got := err.Error(); got != tc.want {
				t.Errorf("error = %q, want %q", got, tc.want)
			}
			ents, _ := os.ReadDir(outer)
			if len(ents) != 1 {
				t.Errorf("extraction wrote beside dst: %v", ents)
			}
		})
	}
}

func TestExtractSnapshotSparse10G(t *testing.T) {
	dst := filepath.Join(t.TempDir(), "snap")
	start := time.Now()
	_, err := ExtractSnapshotFile(t.Context(), filepath.Join("testdata", "sparse10g.tar.zst"), dst, ExtractLimits{})
	if !errors.Is(err, ErrUnsafe) || !strings.Contains(err.Error(), "snapshot entry big: size 10737418240 exceeds the byte limit") {
		t.Fatalf("err = %v, want the 10 GB entry refused", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("refusal took %v, want it immediate", d)
	}
	if _, err := os.Stat(filepath.Join(dst, "big")); !os.IsNotExist(err) {
		t.Errorf("big was created: %v", err)
	}
}

// A symlink to a directory inside the root followed by a file below it must
// stay inside; a later entry may not write through an earlier symlink.
func TestExtractSnapshotLinksStayInside(t *testing.T) {
	outer := t.TempDir()
	victim := filepath.Join(outer, "victim")
	if err := os.WriteFile(victim, []byte("safe"), 0o644); err != nil {
		t.Fatal(err)
	}
	data := tarball(t, true,
		tarEntry{name: "sub/", typ: tar.TypeDir},
		tarEntry{name: "d", typ: tar.TypeSymlink, link: "sub"},
		tarEntry{name: "d/f", body: "inside"},
		tarEntry{name: "x", typ: tar.TypeSymlink, link: "sub/f"},
		tarEntry{name: "x", body: "replaced"},
	)
	dst := filepath.Join(outer, "snap")
	if _, err := ExtractSnapshot(t.Context(), bytes.NewReader(data), dst, ExtractLimits{}); err != nil {
		t.Fatalf("ExtractSnapshot: %v", err)
	}
	for name, want := range map[string]string{"sub/f": "inside", "x": "replaced"} {
		if b, _ := os.ReadFile(filepath.Join(dst, name)); string(b) != want {
			t.Errorf("%s = %q, want %q", name, b, want)
		}
	}
	if fi, _ := os.Lstat(filepath.Join(dst, "x")); fi == nil || !fi.Mode().IsRegular() {
		t.Errorf("x is not a regular file after replacement")
	}
	if b, _ := os.ReadFile(victim); string(b) != "safe" {
		t.Errorf("victim changed: %q", b)
	}
}

func TestExtractSnapshotDestNotEmpty(t *testing.T) {
	dst := t.TempDir()
	if err := os.WriteFile(filepath.Join(dst, "old"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ExtractSnapshot(t.Context(), bytes.NewReader(tarball(t, true, tarEntry{name: "a"})), dst, ExtractLimits{})
	if err == nil || !strings.Contains(err.Error(), "is not empty") {
		t.Errorf("err = %v, want destination not empty", err)
	}
}

func TestExtractSnapshotZstdWindow(t *testing.T) {
	// A frame whose window is larger than MaxWindow is refused by the decoder.
	body := bytes.Repeat([]byte("abcdefgh"), 1<<18) // 2 MiB
	var raw bytes.Buffer
	tw := tar.NewWriter(&raw)
	tw.WriteHeader(&tar.Header{Name: "f", Mode: 0o644, Size: int64(len(body))})
	tw.Write(body)
	tw.Close()
	enc, _ := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithWindowSize(8<<20), zstd.WithSingleSegment(false))
	data := enc.EncodeAll(raw.Bytes(), nil)
	enc.Close()
	_, err := ExtractSnapshot(t.Context(), bytes.NewReader(data), t.TempDir(), ExtractLimits{MaxWindow: 1 << 20})
	if err == nil || !strings.Contains(err.Error(), "read snapshot") {
		t.Errorf("err = %v, want a window/memory refusal", err)
	}
}

func TestExtractSnapshotCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := ExtractSnapshot(ctx, bytes.NewReader(tarball(t, true, tarEntry{name: "a"})), t.TempDir(), ExtractLimits{})
	if err == nil {
		t.Error("ExtractSnapshot with a cancelled context succeeded")
	}
}

// cancelAfter calls cancel once n bytes have been read through it.
type cancelAfter struct {
	r      io.Reader
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	if c.n -= k; c.n <= 0 {
		c.cancel()
	}
	return k, err
}

// TestExtractSnapshotCancelledMidEntry: a context cancelled while an
// entry's bytes are copied stops that copy, not only the next entry.
func TestExtractSnapshotCancelledMidEntry(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	body := strings.Repeat("x", 4<<20)
	src := &cancelAfter{r: bytes.NewReader(tarball(t, false, tarEntry{name: "big", body: body})), n: 64 << 10, cancel: cancel}
	dir := t.TempDir()
	_, err := ExtractSnapshot(ctx, src, dir, ExtractLimits{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if fi, err := os.Stat(filepath.Join(dir, "big")); err == nil && fi.Size() >= int64(len(body)) {
		t.Errorf("big: %d bytes written after the cancel, want fewer than %d", fi.Size(), len(body))
	}
}
