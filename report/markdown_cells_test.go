package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestMarkdownTableCellsEscaped: a '|' in any cell (condition, stratum
// dimension, gate expression, status) stays inside its cell, so every row
// of a table has as many cells as its header (issue 24 item 5).
func TestMarkdownTableCellsEscaped(t *testing.T) {
	d := sampleDocument()
	for i := range d.Judges {
		d.Judges[i].Condition = "E2|lastk"
	}
	d.Strata[0].Condition, d.Strata[0].By = "c|x", "by|y"
	d.RewardModels[0].Condition = "E1|final"
	d.ClaimSway[0].Judge = "j|1"
	d.Checklists[0].Condition, d.Checklists[0].Items[0].Status = "E2|lastk", "fail|x"
	d.Gates = []GateResult{{Expr: "fpr(j1@E2|lastk) > 0.1", Failed: true, Fired: []string{"j1|E2"}}}
	d.Health.NeedsReview[0].Raw = "F-|WEIRD"
	var b bytes.Buffer
	if err := WriteMarkdown(&b, d); err != nil {
		t.Fatal(err)
	}
	header := 0
	tables := 0
	for _, line := range strings.Split(b.String(), "\n") {
		if !strings.HasPrefix(line, "|") {
			header = 0
			continue
		}
		n := mdCells(line)
		if header == 0 {
			header = n
			tables++
			continue
		}
		if n != header {
			t.Errorf("row has %d cells, header %d: %s", n, header, line)
		}
	}
	if tables < 6 {
		t.Errorf("%d tables checked, want every table of the sample (at least 6)", tables)
	}
}

// mdCells counts the cells of a GFM table row: pipes not escaped by a
// backslash, less the outer two.
func mdCells(line string) int {
	n := 0
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case '\\':
			i++
		case '|':
			n++
		}
	}
	return n - 1
}
