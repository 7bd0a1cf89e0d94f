package ingest

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
	"testing"
)

// TestEachCSVAllocatesNothingPerRecord: reading a labels or human-labels
// CSV costs per record what encoding/csv allocates (the record and its
// text) and nothing more (7caca11 declared the *csv.ParseError that
// errors.As fills before the error check, one allocation a record).
func TestEachCSVAllocatesNothingPerRecord(t *testing.T) {
	input := func(n int) string {
		var sb strings.Builder
		sb.WriteString("episode_id,category,annotator,note\n")
		for i := range n {
			sb.WriteString("ep" + strconv.Itoa(i) + ",F-ABORT,al,a note\n")
		}
		return sb.String()
	}
	b := &batch{opts: Options{MaxLineBytes: 1 << 20}}
	each := func(in string) float64 {
		return testing.AllocsPerRun(5, func() {
			n, err := b.eachCSV(t.Context(), strings.NewReader(in), "labels.csv", nil, labelColumns, 2,
				func([]string, int64) error { return nil })
			if err != nil || n == 0 || len(b.errs) > 0 {
				t.Fatalf("eachCSV: %d records, %v, %v", n, err, b.errs)
			}
		})
	}
	bare := func(in string) float64 { // encoding/csv alone
		return testing.AllocsPerRun(5, func() {
			r := csv.NewReader(strings.NewReader(in))
			r.FieldsPerRecord = -1
			for {
				if _, err := r.Read(); err == io.EOF {
					return
				}
			}
		})
	}
	small, large := input(1000), input(3000)
	extra := (each(large) - bare(large)) - (each(small) - bare(small))
	if perRecord := extra / 2000; perRecord >= 0.5 {
		t.Errorf("eachCSV: %.2f allocations a record besides encoding/csv's, want 0", perRecord)
	}
}
