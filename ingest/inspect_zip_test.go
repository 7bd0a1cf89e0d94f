package ingest

import (
	"archive/zip"
	"bytes"
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
