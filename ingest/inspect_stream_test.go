package ingest

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/klauspost/compress/zstd"
)

// replicateEval writes an .eval of n samples: the fixture's samples
// repeated under new ids, with the fixture's header, its sample entries
// compressed by method (zip.Store keeps a test fast; zipMethodZstd writes
// them as inspect-ai does).
func replicateEval(t *testing.T, dst string, n int, method uint16) {
	t.Helper()
	var samples [][]byte
	var header []byte
	eachEvalEntry(t, zstdFixture, func(name string, b []byte) {
		switch {
		case monolithSample.MatchString(name):
			samples = append(samples, b)
		case name == "header.json":
			header = b
		}
	})
	out, err := os.Create(dst)
	if err != nil {
		t.Fatal(err)
	}
	defer out.Close()
	w := zip.NewWriter(out)
	w.RegisterCompressor(zipMethodZstd, func(o io.Writer) (io.WriteCloser, error) {
		return zstd.NewWriter(o, zstd.WithEncoderLevel(zstd.SpeedFastest), zstd.WithEncoderConcurrency(1))
	})
	for i := range n {
		s := samples[i%len(samples)]
		id := fmt.Sprintf(`"id":"r%d"`, i)
		b := bytes.Replace(s, []byte(`"id":"`), []byte(id+`,"was":"`), 1)
		ew, err := w.CreateHeader(&zip.FileHeader{Name: fmt.Sprintf("samples/r%d_epoch_1.json", i), Method: method})
		if err != nil {
			t.Fatal(err)
		}
		ew.Write(b)
	}
	ew, _ := w.Create("header.json")
	ew.Write(header)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// liveHeapReading reads and maps every sample of a log (no lake) and
// returns the largest live heap seen after a GC, sampled every 50 samples.
func liveHeapReading(t *testing.T, path string) (peak uint64, samples int) {
	t.Helper()
	rd, err := openInspect(path)
	if err != nil {
		t.Fatal(err)
	}
	defer rd.Close()
	h, err := rd.header()
	if err != nil {
		t.Fatal(err)
	}
	run := newInspectRun(path, h, InspectOptions{})
	err = rd.samples(func(e sampleEntry) error {
		s, ferrs := decodeSample(e.raw)
		if len(ferrs) > 0 {
			t.Fatalf("%s: %v", e.where, ferrs[0].err)
		}
		if _, ferrs := run.rows(s, e.where, e.line); len(ferrs) > 0 {
			t.Fatalf("%s: %v", e.where, ferrs[0].err)
		}
		samples++
		if samples%50 == 0 {
			runtime.GC()
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapAlloc)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return peak, samples
}

// TestInspectReaderStreams: the reader holds one sample at a time. The live
// heap while reading a 2,000-sample log stays within 2 MiB of that for a
// 200-sample log (the ZIP's central directory, ~150 bytes an entry, is all
// that grows); a reader holding the samples would add ~50 MB.
func TestInspectReaderStreams(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 50 MB")
	}
	dir := t.TempDir()
	small, big := filepath.Join(dir, "small.eval"), filepath.Join(dir, "big.eval")
	replicateEval(t, small, 200, zip.Store)
	replicateEval(t, big, 2000, zip.Store)
	ps, n := liveHeapReading(t, small)
	pb, m := liveHeapReading(t, big)
	if n != 200 || m != 2000 {
		t.Fatalf("read %d and %d samples, want 200 and 2000", n, m)
	}
	t.Logf("peak live heap: %d KiB at 200 samples, %d KiB at 2000", ps>>10, pb>>10)
	if pb > ps+2<<20 {
		t.Errorf("peak live heap grew from %d KiB (200 samples) to %d KiB (2000 samples): the reader does not stream", ps>>10, pb>>10)
	}
}
