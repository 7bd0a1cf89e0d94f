package report

import (
	"bytes"
	"strings"
	"testing"
)

// TestCorrectedRatesRendered checks the corrected success rates section
// and the D4 intervals in Markdown and HTML, names escaped.
func TestCorrectedRatesRendered(t *testing.T) {
	d := sampleDocument()
	var m, h bytes.Buffer
	if err := WriteMarkdown(&m, d); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(&h, d); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"## Corrected success rates", "assumption: a random subset",
		`| (all) | j<b>\|x | E2-lastk | 30 | 90 | 0.600 [0.550, 0.650] {0.540, 0.660} | 0.400 [0.220, 0.580] {0.210, 0.590} | 0.420 [0.300, 0.540] | 0.430 [0.320, 0.540] {0.310, 0.550} | 0.800 | 42 |`,
		`- warning: j<b>\|x@E2-lastk (all): labelled and unlabelled`,
		"### D4 reliability", "| b | a | 50 | 0.520 {0.380, 0.660} | 48 | pass^1 0.700 {0.600, 0.800}; pass^2 0.550 |"} {
		if !strings.Contains(m.String(), s) {
			t.Errorf("Markdown lacks %q", s)
		}
	}
	page := h.String()
	for _, s := range []string{`id="corrected-rates"`, "<td>j&lt;b&gt;|x</td>", "<td>0.430 [0.320, 0.540] {0.310, 0.550}</td>",
		"<strong>Warning:</strong> j&lt;b&gt;|x@E2-lastk", "Assumption:</strong> a random subset",
		"0.520 {0.380, 0.660}", "pass^1 0.700 {0.600, 0.800}; pass^2 0.550"} {
		if !strings.Contains(page, s) {
			t.Errorf("HTML lacks %q", s)
		}
	}
	if strings.Contains(page, "j<b>") {
		t.Error("HTML: a judge name is not escaped")
	}
	// Without the section neither format shows it.
	d.CorrectedRates = nil
	m.Reset()
	h.Reset()
	WriteMarkdown(&m, d)
	WriteHTML(&h, d)
	if strings.Contains(m.String(), "Corrected success rates") || strings.Contains(h.String(), "corrected-rates") {
		t.Error("a report without corrected rates shows the section")
	}
}
