package ingest

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/lake"

	"github.com/klauspost/compress/zstd"
)

// eachEvalEntry reads every entry of an .eval in file order (tests that
// build logs from the fixtures).
func eachEvalEntry(t *testing.T, path string, fn func(name string, data []byte)) {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	zr.RegisterDecompressor(zipMethodZstd, func(r io.Reader) io.ReadCloser {
		d, err := zstd.NewReader(r)
		if err != nil {
			return io.NopCloser(errReader{err})
		}
		return d.IOReadCloser()
	})
	for _, e := range zr.File {
		rc, err := e.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("%s: %v", e.Name, err)
		}
		fn(e.Name, b)
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// TestEvalEntryChecked: a sample entry whose bytes do not match the ZIP
// directory's CRC-32, or whose compression method is unknown, is a
// rejected record naming the entry; nothing is committed.
func TestEvalEntryChecked(t *testing.T) {
	for _, tc := range []struct {
		name, want string
		method     uint16
		corrupt    bool
	}{
		{"crc", "checksum error", zip.Store, true},
		{"method", "unsupported ZIP compression method", 77, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := zip.NewWriter(&buf)
			w.RegisterCompressor(tc.method, func(o io.Writer) (io.WriteCloser, error) { return nopWriteCloser{o}, nil })
			target := "samples/q2_epoch_1.json"
			eachEvalEntry(t, zstdFixture, func(name string, b []byte) {
				m := zip.Store
				if name == target {
					m = tc.method
				}
				ew, err := w.CreateHeader(&zip.FileHeader{Name: name, Method: m})
				if err != nil {
					t.Fatal(err)
				}
				ew.Write(b)
			})
			w.Close()
			data := buf.Bytes()
			if tc.corrupt { // flip a byte inside the target's stored JSON
				i := bytes.Index(data, []byte(target)) + len(target) + 40
				data[i] ^= 0x20
			}
			path := filepath.Join(t.TempDir(), "bad.eval")
			if err := os.WriteFile(path, data, 0o644); err != nil {
				t.Fatal(err)
			}
			l := newLake(t)
			_, err := Inspect(context.Background(), l, []string{path}, InspectOptions{}, Options{})
			var rej *Rejected
			if !errors.As(err, &rej) {
				t.Fatalf("got %v, want a rejected batch", err)
			}
			msg := rej.Errors.Error()
			if !strings.Contains(msg, path+":"+target) || !strings.Contains(msg, tc.want) {
				t.Errorf("message %q, want %s:%s and %q", msg, path, target, tc.want)
			}
			if files, _ := l.Files(lake.Episodes); len(files) != 0 {
				t.Errorf("committed %v", files)
			}
		})
	}
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// TestEvalEntryBomb: a sample entry that inflates far beyond its
// compressed size (ratio cap) or whose directory size is over the entry
// cap is refused before it is read whole (a 2.1 MB log inflating to 2 GiB
// used to take 6 GB and die out of memory).
func TestEvalEntryBomb(t *testing.T) {
	target := "samples/q2_epoch_1.json"
	for _, tc := range []struct {
		name, want string
		raw        bool // write the target with a directory size of 2 GiB
	}{
		{"ratio", "over the 200:1 compression ratio cap", false},
		{"size", "over the cap of 268435456 (256 MiB)", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := zip.NewWriter(&buf)
			eachEvalEntry(t, zstdFixture, func(name string, b []byte) {
				if name != target {
					ew, _ := w.Create(name)
					ew.Write(b)
					return
				}
				if tc.raw {
					var comp bytes.Buffer
					fw, _ := flate.NewWriter(&comp, flate.DefaultCompression)
					fw.Write(b)
					fw.Close()
					ew, err := w.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate, CompressedSize64: uint64(comp.Len()), UncompressedSize64: 2 << 30})
					if err != nil {
						t.Fatal(err)
					}
					ew.Write(comp.Bytes())
					return
				}
				// Valid JSON: 32 MiB of spaces before the closing brace.
				ew, _ := w.Create(name)
				ew.Write(b[:len(b)-1])
				ew.Write(bytes.Repeat([]byte(" "), 32<<20))
				ew.Write(b[len(b)-1:])
			})
			w.Close()
			path := filepath.Join(t.TempDir(), "bomb.eval")
			if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			l := newLake(t)
			_, err := Inspect(t.Context(), l, []string{path}, InspectOptions{}, Options{})
			var rej *Rejected
			if !errors.As(err, &rej) {
				t.Fatalf("got %v, want a rejected batch", err)
			}
			if msg := rej.Errors.Error(); !strings.Contains(msg, path+":"+target) || !strings.Contains(msg, tc.want) {
				t.Errorf("message %q, want %s:%s and %q", msg, path, target, tc.want)
			}
			if files, _ := l.Files(lake.Episodes); len(files) != 0 {
				t.Errorf("committed %v", files)
			}
		})
	}
}
