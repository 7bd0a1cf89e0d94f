// Command geninspect writes a large Inspect AI .eval log for the benchmark
// bench/inspect.sh. Running 10,000 mock conversations through inspect-ai
// takes it minutes of CPU, so this generator repeats the
// samples of a real log written by inspect-ai (the fixture
// ingest/testdata/inspect/arith-zstd.eval): sample i is the template
// i mod T with id "<template id>-<i/T>", everything else byte-identical;
// header.json and _journal/start.json are the template's with the sample
// count updated. Entries are zstd-compressed (ZIP method 93) as inspect-ai
// writes them. bench/inspect.sh reads the result with inspect-ai's own
// read_eval_log, which validates it.
//
//	go run ./bench/geninspect -samples 10000 -out big.eval
package main

import (
	"archive/zip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"

	"github.com/klauspost/compress/zstd"
)

func main() {
	tmpl := flag.String("template", "ingest/testdata/inspect/arith-zstd.eval", "a log written by inspect-ai (`FILE`)")
	out := flag.String("out", "", "output `FILE` (required)")
	n := flag.Int("samples", 10_000, "samples (id × epoch) to write")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: geninspect -out FILE [-samples N] [-template FILE]")
		os.Exit(2)
	}
	if err := run(*tmpl, *out, *n); err != nil {
		fmt.Fprintln(os.Stderr, "geninspect:", err)
		os.Exit(1)
	}
}

var sampleEntry = regexp.MustCompile(`^samples/[^/]+_epoch_\d+\.json$`)

func run(tmplPath, out string, n int) error {
	zr, err := zip.OpenReader(tmplPath)
	if err != nil {
		return err
	}
	defer zr.Close()
	zr.RegisterDecompressor(93, func(r io.Reader) io.ReadCloser {
		d, err := zstd.NewReader(r)
		if err != nil {
			return io.NopCloser(strings.NewReader(""))
		}
		return d.IOReadCloser()
	})
	entries := map[string][]byte{}
	var samples [][]byte
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			return err
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return fmt.Errorf("read %s: %w", f.Name, err)
		}
		entries[f.Name] = b
		if sampleEntry.MatchString(f.Name) {
			samples = append(samples, b)
		}
	}
	if len(samples) == 0 || entries["header.json"] == nil {
		return fmt.Errorf("%s: no samples or no header.json", tmplPath)
	}
	dst, err := os.Create(out)
	if err != nil {
		return err
	}
	zw := zip.NewWriter(dst)
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	if err != nil {
		return err
	}
	zw.RegisterCompressor(93, func(w io.Writer) (io.WriteCloser, error) {
		enc.Reset(w)
		return enc, nil
	})
	write := func(name string, b []byte) error {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: 93})
		if err != nil {
			return err
		}
		_, err = w.Write(b)
		return err
	}
	start, err := withCount(entries["_journal/start.json"], n, false)
	if err != nil {
		return err
	}
	if err := write("_journal/start.json", start); err != nil {
		return err
	}
	for i := range n {
		t := samples[i%len(samples)]
		var s map[string]json.RawMessage
		if err := json.Unmarshal(t, &s); err != nil {
			return err
		}
		var id string
		var epoch int
		json.Unmarshal(s["id"], &id)
		json.Unmarshal(s["epoch"], &epoch)
		id = fmt.Sprintf("%s-%d", id, i/len(samples))
		s["id"], _ = json.Marshal(id)
		b, err := json.Marshal(s)
		if err != nil {
			return err
		}
		if err := write(fmt.Sprintf("samples/%s_epoch_%d.json", id, epoch), b); err != nil {
			return err
		}
	}
	header, err := withCount(entries["header.json"], n, true)
	if err != nil {
		return err
	}
	if err := write("header.json", header); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return dst.Close()
}

// withCount sets the dataset's sample count (ids dropped) and, in the
// header, the results' sample counts.
func withCount(raw []byte, n int, results bool) ([]byte, error) {
	var h map[string]any
	if err := json.Unmarshal(raw, &h); err != nil {
		return nil, err
	}
	if ev, ok := h["eval"].(map[string]any); ok {
		if ds, ok := ev["dataset"].(map[string]any); ok {
			ds["samples"] = n
			delete(ds, "sample_ids")
		}
	}
	if res, ok := h["results"].(map[string]any); ok && results {
		res["total_samples"], res["completed_samples"] = n, n
	}
	return json.Marshal(h)
}
