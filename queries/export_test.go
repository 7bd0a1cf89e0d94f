package queries_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/queries"
)

// TestExportArrowReadsBack writes verdicts as an Arrow IPC file and reads
// it back with arrow-go's IPC file reader (the format pyarrow.ipc.open_file
// and polars.read_ipc read): same rows, same columns, exact values.
func TestExportArrowReadsBack(t *testing.T) {
	dir := t.TempDir()
	l, err := lake.Open(filepath.Join(dir, "lake"), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "v.jsonl")
	os.WriteFile(in, []byte(`{"episode_id":"e1","judge":"sim:a/b","condition":"E2+claim","run":1,"verdict":"success","confidence":0.25}
{"episode_id":"e2","judge":"sim:a/b","condition":"E2+claim","run":1,"verdict":null,"score":0.75}
`), 0o644)
	if _, err := ingest.Verdicts(t.Context(), l, []string{in}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	s, err := queries.Open(t.Context(), l, queries.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out := filepath.Join(dir, "v.arrow")
	n, err := s.Export(t.Context(), "SELECT episode_id, judge, condition, verdict, score FROM verdicts ORDER BY episode_id", "arrow", out)
	if err != nil || n != 2 {
		t.Fatalf("export: %d rows, %v", n, err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := ipc.NewFileReader(f, ipc.WithAllocator(memory.NewGoAllocator()))
	if err != nil {
		t.Fatalf("not an Arrow IPC file: %v", err)
	}
	defer r.Close()
	if got := r.Schema().NumFields(); got != 5 {
		t.Fatalf("fields = %d", got)
	}
	var rows int64
	var judge, verdict string
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.RecordBatch(i)
		if err != nil {
			t.Fatal(err)
		}
		if rows == 0 && rec.NumRows() > 0 {
			judge = rec.Column(1).ValueStr(0)
			verdict = rec.Column(3).ValueStr(0)
			if !rec.Column(3).IsNull(1) || rec.Column(4).ValueStr(1) != "0.75" {
				t.Errorf("row 2: verdict null %v, score %s", rec.Column(3).IsNull(1), rec.Column(4).ValueStr(1))
			}
		}
		rows += rec.NumRows()
	}
	if rows != 2 || judge != "sim:a/b" || verdict != "success" {
		t.Fatalf("read back %d rows, judge %q, verdict %q", rows, judge, verdict)
	}
}
