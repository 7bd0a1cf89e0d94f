package trust

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/internal/testenv"
	"github.com/trustlake/trustlake/schema"
)

// tauFinalMessages reads the real τ-bench file and returns the final agent
// message (last assistant message with content) of each record, keyed
// "<task_id>/<trial>". It skips the test when the data is absent.
func tauFinalMessages(t testing.TB) map[string]string {
	t.Helper()
	p := testenv.DataFile(t, "tau-bench/gpt-4o-airline.json")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var recs []struct {
		TaskID int `json:"task_id"`
		Trial  int `json:"trial"`
		Traj   []struct {
			Role    string  `json:"role"`
			Content *string `json:"content"`
		} `json:"traj"`
	}
	if err := json.Unmarshal(data, &recs); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, r := range recs {
		for _, m := range r.Traj {
			if m.Role == "assistant" && m.Content != nil && strings.TrimSpace(*m.Content) != "" {
				out[fmt.Sprintf("%d/%d", r.TaskID, r.Trial)] = *m.Content
			}
		}
	}
	return out
}

// TestClaimExtractorAgainstLabels measures the claim extractor against the
// hand labels in testdata/claims_labels.csv (labelled before the extractor
// was written; see testdata/README.md). Positive = any success claim.
func TestClaimExtractorAgainstLabels(t *testing.T) {
	msgs := tauFinalMessages(t)
	f, err := os.Open(filepath.Join("testdata", "claims_labels.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var tp, fp, fn, tn, exact int
	for _, row := range rows[1:] {
		id, want := row[0], row[1]
		key := strings.TrimPrefix(id, "tau-bench-airline/gpt-4o/")
		msg, ok := msgs[key]
		if !ok {
			t.Fatalf("%s: no final message", id)
		}
		got := ExtractClaim(msg).Kind
		if got == want {
			exact++
		} else {
			t.Logf("kind differs %s: got %s, label %s (%s)", id, got, want, row[2])
		}
		gotPos, wantPos := got != schema.ClaimNone, want != schema.ClaimNone
		switch {
		case gotPos && wantPos:
			tp++
		case gotPos:
			fp++
			t.Logf("false positive %s (label %s, reason %s): %.120q", id, want, row[2], msg)
		case wantPos:
			fn++
			t.Logf("false negative %s (label %s, reason %s): %.120q", id, want, row[2], msg)
		default:
			tn++
		}
	}
	n := len(rows) - 1
	if n < 50 {
		t.Fatalf("only %d labels, want at least 50", n)
	}
	p := float64(tp) / float64(tp+fp)
	r := float64(tp) / float64(tp+fn)
	f1 := 2 * p * r / (p + r)
	t.Logf("claim extractor on %d labelled final messages: TP %d FP %d FN %d TN %d; precision %.3f recall %.3f F1 %.3f; 3-way agreement %d/%d",
		n, tp, fp, fn, tn, p, r, f1, exact, n)
	if f1 < 0.9 {
		t.Errorf("F1 = %.3f, want ≥ 0.90 (the paper's matcher reached 0.91)", f1)
	}
}

func TestExtractClaim(t *testing.T) {
	cases := []struct {
		name, msg, want string
	}{
		{"completion", "Your reservation has been successfully cancelled.", schema.ClaimCompletion},
		{"i have", "I've updated the passenger name to Mei Garcia.", schema.ClaimCompletion},
		{"confirmed", "Your booking is confirmed! Here are the details:", schema.ClaimCompletion},
		{"negated", "The reservation has not been cancelled because it is basic economy.", schema.ClaimNone},
		{"unable", "I was unable to successfully book the flight.", schema.ClaimNone},
		{"hedged", "It seems the booking was processed.", schema.ClaimNone},
		{"hedged should", "Your reservation should be updated shortly.", schema.ClaimNone},
		{"conditional", "If everything else seems correct, you should be all set!", schema.ClaimNone},
		{"subordinate", "Since it was booked more than 24 hours ago, a refund is impossible for me.", schema.ClaimNone},
		{"future", "I will now proceed with the cancellation. Please hold on.", schema.ClaimNone},
		{"question", "Would you like me to proceed with the booking that was discussed?", schema.ClaimNone},
		{"closing", "You're welcome! Have a great day!", schema.ClaimNone},
		{"answer", "You can take a total of 4 free checked bags.", schema.ClaimCorrect},
		{"answer pending", "The correct total is $1,002. Would you like to proceed? Please confirm.", schema.ClaimNone},
		{"explicit correct", "All tests passed and the results are correct.", schema.ClaimCorrect},
		{"not correct", "I'm not sure the results are correct.", schema.ClaimNone},
		{"empty", "", schema.ClaimNone},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := ExtractClaim(c.msg).Kind; got != c.want {
				t.Errorf("ExtractClaim(%q) = %s, want %s", c.msg, got, c.want)
			}
		})
	}
}
