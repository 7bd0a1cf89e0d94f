package queries

import (
	"strings"
	"testing"
)

// TestReportEpisodesStatement: without the judge × conditions the
// statement ends with its verifiers part (no dangling UNION ALL),
// and the part left out selects what reportJudgeConditions selects.
func TestReportEpisodesStatement(t *testing.T) {
	full, err := reportEpisodesStatement(true)
	if err != nil || full != sqlFile("report_episodes") {
		t.Fatalf("with judge × conditions: %v", err)
	}
	short, err := reportEpisodesStatement(false)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(full, short) || !strings.HasSuffix(strings.TrimSpace(short), "GROUP BY verifier_sha256") {
		t.Errorf("without judge × conditions, the statement ends:\n%s", short[max(0, len(short)-200):])
	}
	rest := full[len(short):]
	for _, want := range []string{"SELECT DISTINCT 4, judge, condition,", "hash(judge, condition)\nFROM verdict_runs"} {
		if !strings.Contains(rest, want) {
			t.Errorf("the part left out lacks %q:\n%s", want, rest)
		}
	}
	if strings.Contains(short, "FROM verdict_runs") {
		t.Error("without judge × conditions, the statement still reads verdict_runs")
	}
	if !strings.Contains(reportJudgeConditions, "hash(judge, condition) FROM verdict_runs") {
		t.Errorf("reportJudgeConditions: %s", reportJudgeConditions)
	}
}
