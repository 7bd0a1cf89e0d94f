package trust

import (
	"encoding/json"
	"fmt"

	"github.com/trustlake/trustlake/schema"
)

// RegradeFromGroundTruth turns the lake's ground truth of one episode (the
// task verifier re-run on the saved final state, one row per verifier
// version) into a Regrade for D1. It returns nil when gts is empty (D1
// then falls back to Result.Grader). A verifier marked non-deterministic,
// verifiers that disagree on pass, or unreadable gates give a Regrade with
// Err set, so D1 reports the result unverified.
func RegradeFromGroundTruth(gts []schema.GroundTruth) *Regrade {
	if len(gts) == 0 {
		return nil
	}
	for _, g := range gts {
		if g.Deterministic != nil && !*g.Deterministic {
			return &Regrade{Err: fmt.Sprintf("verifier %.12s is not deterministic", g.VerifierSHA256)}
		}
		if g.Pass != gts[0].Pass {
			return &Regrade{Err: fmt.Sprintf("%d verifier versions disagree on pass", len(gts))}
		}
	}
	g := gts[0]
	rg := &Regrade{Pass: g.Pass, Score: g.Score}
	if g.Gates != "" && g.Gates != "null" {
		if err := json.Unmarshal([]byte(g.Gates), &rg.Gates); err != nil {
			return &Regrade{Err: fmt.Sprintf("read gates of verifier %.12s: %v", g.VerifierSHA256, err)}
		}
	}
	return rg
}
