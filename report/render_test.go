package report

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// External references a self-contained page must not have.
var external = regexp.MustCompile(`(?i)<script|<link|<img|<iframe|<object|<embed|\bsrc=|\bhref=|url\(|@import|@font-face`)

func TestHTMLSelfContainedWithEveryChart(t *testing.T) {
	d := sampleDocument()
	var b bytes.Buffer
	if err := WriteHTML(&b, d); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if m := external.FindString(page); m != "" {
		t.Errorf("report.html references something outside itself: %q", m)
	}
	// FPR forest, three strata dimensions, claim sway, one ROC, funnel, D4.
	if got, want := strings.Count(page, `<svg class="chart"`), 1+3+1+1+2; got != want {
		t.Errorf("%d charts, want %d", got, want)
	}
	for _, id := range []string{"summary", "judges", "strata", "claim-sway", "reward-models", "trust", "health", "checklists", "provenance", "warnings"} {
		if !strings.Contains(page, `id="`+id+`"`) {
			t.Errorf("section %s missing", id)
		}
	}
	if !strings.Contains(page, "sample &lt;report&gt; &amp; co") || strings.Contains(page, "<report>") {
		t.Error("the title is not escaped")
	}
}

func TestSectionsOnlyWithData(t *testing.T) {
	d := &Document{Format: FormatVersion, Title: "empty", Summary: Summary{Line: "x"}, Health: Health{Lake: LakeHealth{Problems: []Problem{}}}}
	var h, m bytes.Buffer
	if err := WriteHTML(&h, d); err != nil {
		t.Fatal(err)
	}
	if err := WriteMarkdown(&m, d); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"judges", "strata", "claim-sway", "reward-models", "trust", "checklists", "gates"} {
		if strings.Contains(h.String(), `id="`+id+`"`) {
			t.Errorf("empty report shows section %s", id)
		}
	}
	if n := strings.Count(h.String(), "<svg"); n != 0 {
		t.Errorf("empty report has %d charts", n)
	}
	for _, s := range []string{"## Judges", "## Trust Layer", "## Reward models", "## Claim sway"} {
		if strings.Contains(m.String(), s) {
			t.Errorf("empty Markdown report has %q", s)
		}
	}
}

func TestMarkdownHasEveryFigure(t *testing.T) {
	var m bytes.Buffer
	if err := WriteMarkdown(&m, sampleDocument()); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"| j1 | E2-lastk | 60 | 40 | 0.250 [0.140, 0.400] |", "recorded passes 84 → D1 84", "| hardness | hard | 20 | 6 | 0.300",
		"| j1 | 40 | 6 | 1 | 0.125 |", "| rm | E1-final | 0.050 | 0.800 |", "F-WEIRD (2 episodes)", "FPR upper bound"} {
		if !strings.Contains(m.String(), s) {
			t.Errorf("Markdown lacks %q", s)
		}
	}
}

func TestJSONRoundTrip(t *testing.T) {
	d := sampleDocument()
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "NaN") {
		t.Error("report.json holds NaN")
	}
	var back Document
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	b2, _ := json.Marshal(&back)
	if string(b) != string(b2) {
		t.Errorf("round trip changed the JSON:\n%s\n%s", b, b2)
	}
}
