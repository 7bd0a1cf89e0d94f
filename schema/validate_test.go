package schema

import (
	"strings"
	"testing"
)

// TestPartitionLength: a partition value is refused once its folder name
// (every byte outside [A-Za-z0-9._-] percent-encoded, three bytes) passes
// MaxPartitionBytes, on both sides of the short-value shortcut.
func TestPartitionLength(t *testing.T) {
	for _, c := range []struct {
		v  string
		ok bool
	}{
		{strings.Repeat(":", 66), true},  // 198 bytes encoded
		{strings.Repeat(":", 67), false}, // 201
		{strings.Repeat("a", 200), true}, // 200, not encoded
		{strings.Repeat("a", 201), false},
		{strings.Repeat("a", 190) + ":::::", false}, // 205
		{"sim:vlm-a", true},
	} {
		err := checkPartition("judge", c.v)
		if (err == nil) != c.ok {
			t.Errorf("%d bytes, %d encoded: %v, want ok=%v", len(c.v), len(EncodePartitionValue(c.v)), err, c.ok)
		}
	}
}

// TestValidVerdictAllocatesNothing: Validate runs on every ingested row, so
// a valid verdict must not allocate (a collect whose argument slice escaped
// cost ingest about a tenth of its CPU).
func TestValidVerdictAllocatesNothing(t *testing.T) {
	verdict, conf := VerdictSuccess, 0.8
	v := &Verdict{EpisodeID: "ep1", Judge: "vlm:judge-a", Condition: "E1-final", Run: 1, Verdict: &verdict, Confidence: &conf}
	if err := v.Validate(); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _ = v.Validate() }); n != 0 {
		t.Errorf("Validate of a valid verdict: %v allocations, want 0", n)
	}
}

// TestLongPartitionValueAllocatesNothing: a judge (or agent, benchmark)
// name over a third of MaxPartitionBytes is counted on every row that
// names it; counting must not build the encoded folder name (7caca11 made
// it percent-encode the value, six allocations a row).
func TestLongPartitionValueAllocatesNothing(t *testing.T) {
	verdict := VerdictSuccess
	judge := "model_graded_qa:openrouter/meta-llama/" + strings.Repeat("x", 40) // 78 bytes, 90 encoded
	v := &Verdict{EpisodeID: "ep1", Judge: judge, Condition: "E1-final", Run: 1, Verdict: &verdict}
	if err := v.Validate(); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _ = v.Validate() }); n != 0 {
		t.Errorf("Validate of a verdict with a %d-byte judge: %v allocations, want 0", len(judge), n)
	}
	for _, s := range []string{"", judge, "a:b/c d%é", strings.Repeat(":", 67)} {
		if n, want := encodedLen(s), len(EncodePartitionValue(s)); n != want {
			t.Errorf("encodedLen(%q) = %d, want %d", s, n, want)
		}
	}
}
