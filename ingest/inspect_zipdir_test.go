package ingest

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"testing"
)

// TestZipDirAgreesWithArchiveZip: the central directory walked from the
// file gives every entry archive/zip gives, with the same sizes, checksum,
// method and data offset, in a ZIP of 70,000 entries (ZIP64 end records)
// holding an entry whose size only a ZIP64 extra field holds.
func TestZipDirAgreesWithArchiveZip(t *testing.T) {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	for i := range 70000 {
		m := zip.Store
		if i%1000 == 0 {
			m = zip.Deflate
		}
		ew, err := w.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("samples/q%d_epoch_1.json", i), Method: m, Comment: "c"[:i%2]})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(ew, `{"id":"q%d"}`, i)
	}
	raw := []byte("x")
	if _, err := w.CreateRaw(&zip.FileHeader{Name: "big.json", Method: zip.Store, CRC32: crc32.ChecksumIEEE(raw),
		CompressedSize64: 1, UncompressedSize64: 5 << 30}); err != nil {
		t.Fatal(err)
	} else if _, err := w.CreateRaw(&zip.FileHeader{Name: "after.json"}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "big.zip")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := openZipDir(f, int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	i := 0
	err = d.each(func(e *zipEntry) error {
		if i >= len(zr.File) {
			return fmt.Errorf("entry %d (%s): archive/zip has %d", i, e.name, len(zr.File))
		}
		want := zr.File[i]
		it, err := d.item(e)
		if err != nil {
			return fmt.Errorf("%s: %v", e.name, err)
		}
		off, _ := want.DataOffset()
		if it.name != want.Name || it.method != want.Method || it.crc != want.CRC32 ||
			it.csize != want.CompressedSize64 || it.usize != want.UncompressedSize64 || it.off != off {
			return fmt.Errorf("entry %d: %+v, archive/zip %s method %d crc %x sizes %d/%d at %d", i, it, want.Name, want.Method, want.CRC32, want.CompressedSize64, want.UncompressedSize64, off)
		}
		i++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if i != len(zr.File) || i != 70002 {
		t.Fatalf("walked %d entries, archive/zip %d, written 70002", i, len(zr.File))
	}
}

// TestEvalEntryWrittenTwice: a sample entry name written twice stands for
// its last copy (as for archive/zip and Python's zipfile): the first copy,
// broken here, is not read, and the sample is ingested once.
func TestEvalEntryWrittenTwice(t *testing.T) {
	var buf bytes.Buffer
	w := zip.NewWriter(&buf)
	target := "samples/q2_epoch_1.json"
	samples := 0
	eachEvalEntry(t, zstdFixture, func(name string, b []byte) {
		if isSample(name) {
			samples++
		}
		copies := [][]byte{b}
		if name == target {
			copies = [][]byte{[]byte(`{"broken`), b}
		}
		for _, c := range copies {
			ew, err := w.Create(name)
			if err != nil {
				t.Fatal(err)
			}
			ew.Write(c)
		}
	})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "twice.eval")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	st, err := Inspect(context.Background(), newLake(t), []string{path}, InspectOptions{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Tables["episodes"].Added; got != int64(samples) || samples == 0 {
		t.Errorf("%d episodes added, the log has %d samples", got, samples)
	}
}
