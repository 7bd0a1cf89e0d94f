package ingest

import (
	"archive/zip"
	"io"
	"testing"

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
