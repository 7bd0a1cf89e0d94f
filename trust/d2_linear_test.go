package trust

import (
	"fmt"
	"math"
	"testing"

	"github.com/trustlake/trustlake/schema"
)

// longTrajectory builds a trajectory of about n messages: read tool calls
// with outputs holding distinct amounts and ids, user turns, and a final
// message quoting many values.
func longTrajectory(n int) Record {
	var msgs []msg
	final := "Done. "
	for i := 0; len(msgs) < n; i++ {
		msgs = append(msgs,
			msg{role: "assistant", tool: "get_reservation_details", args: fmt.Sprintf(`{"reservation_id":"R%06d"}`, i)},
			msg{role: "tool", tool: "get_reservation_details", obs: fmt.Sprintf(`{"reservation_id": "R%06d", "price": %d, "flight": "HAT%04d"}`, i, 1000+i, i)},
			msg{role: "user", text: fmt.Sprintf("And reservation R%06d costs %d?", i+1, 5000+i)})
		final += fmt.Sprintf("R%06d costs $%d. ", i, 1000+i)
	}
	msgs = append(msgs, msg{role: "assistant", text: final})
	return Record{Result: schema.Result{ResultID: "r", FinalMessage: &final}, Actions: actions("r", msgs...)}
}

// TestProvenanceLinear checks that tracing is linear in the trajectory:
// ten times the messages (and ten times the answer values) cost ten times
// the work, counted as bytes scanned plus index look-ups.
func TestProvenanceLinear(t *testing.T) {
	small, large := longTrajectory(300), longTrajectory(3000)
	a := auditD2(&small, nil, DefaultReadOnlyTools())
	b := auditD2(&large, nil, DefaultReadOnlyTools())
	if a.values < 100 || b.values < 10*a.values-20 {
		t.Fatalf("values traced: %d and %d", a.values, b.values)
	}
	ratio := float64(b.ops) / float64(a.ops)
	if math.Abs(ratio-10) > 1 {
		t.Errorf("work ratio for 10× trajectory = %.2f (%d vs %d ops), want ≈ 10", ratio, b.ops, a.ops)
	}
	if b.counts[0] != b.values {
		t.Errorf("counts %v: every value comes from a tool output", b.counts)
	}
}

func BenchmarkProvenance3000(b *testing.B) {
	r := longTrajectory(3000)
	ro := DefaultReadOnlyTools()
	b.ReportAllocs()
	for b.Loop() {
		auditD2(&r, nil, ro)
	}
}
