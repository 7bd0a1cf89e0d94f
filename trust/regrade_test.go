package trust

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/trustlake/trustlake/schema"
)

func TestRegradeFromGroundTruth(t *testing.T) {
	gt := func(sha string, pass bool, gates string, det *bool) schema.GroundTruth {
		return schema.GroundTruth{EpisodeID: "e", VerifierSHA256: sha, Pass: pass, Gates: gates, Deterministic: det}
	}
	cases := []struct {
		name string
		in   []schema.GroundTruth
		want *Regrade
	}{
		{"none", nil, nil},
		{"pass with gates", []schema.GroundTruth{gt("aa", true, `[{"id":"saved","type":"administrative","passed":true}]`, ptr(true))},
			&Regrade{Pass: true, Gates: []schema.Gate{{ID: "saved", Type: schema.GateAdministrative, Passed: true}}}},
		{"fail without gates", []schema.GroundTruth{gt("aa", false, "[]", nil)}, &Regrade{Pass: false, Gates: []schema.Gate{}}},
		{"not deterministic", []schema.GroundTruth{gt("aabbccddeeff00", true, "[]", ptr(false))},
			&Regrade{Err: "verifier aabbccddeeff is not deterministic"}},
		{"versions disagree", []schema.GroundTruth{gt("aa", true, "[]", nil), gt("bb", false, "[]", nil)},
			&Regrade{Err: "2 verifier versions disagree on pass"}},
		{"bad gates", []schema.GroundTruth{gt("aa", true, `{"x":1}`, nil)}, nil},
	}
	for _, c := range cases {
		got := RegradeFromGroundTruth(c.in)
		if c.name == "bad gates" {
			if got == nil || got.Err == "" {
				t.Errorf("%s: got %+v, want an Err", c.name, got)
			}
			continue
		}
		if diff := cmp.Diff(c.want, got); diff != "" {
			t.Errorf("%s: (-want +got)\n%s", c.name, diff)
		}
	}
}

// TestRegradeDecidesD1 checks the lake-episode path end to end: a recorded
// pass whose ground truth fails is a contradiction; a recorded fail whose
// only failed gate is an unrequested administrative one stays a
// confirmation without ValuesMatch (no upgrade without evidence).
func TestRegradeDecidesD1(t *testing.T) {
	res := schema.Result{ResultID: "r", Benchmark: "b", TaskID: "t", Agent: "a", RecordedScore: 1, RecordedPass: true, Grader: "{}"}
	rg := RegradeFromGroundTruth([]schema.GroundTruth{{Pass: false, Gates: `[{"id":"total","type":"critical","passed":false}]`}})
	_, rows := Audit(Input{Records: []Record{{Result: res, Regrade: rg}}}, Options{})
	if got, want := rows[0].D1Outcome, schema.D1Contradiction; got != want {
		t.Errorf("D1 = %s, want %s", got, want)
	}
	res.RecordedScore, res.RecordedPass = 0, false
	rg = RegradeFromGroundTruth([]schema.GroundTruth{{Pass: false, Gates: `[{"id":"name","type":"administrative","passed":false}]`}})
	_, rows = Audit(Input{Records: []Record{{Result: res, Regrade: rg}}}, Options{})
	if got, want := rows[0].D1Outcome, schema.D1Confirm; got != want {
		t.Errorf("D1 = %s, want %s", got, want)
	}
}

// TestAuditorWorkers checks that the parallel audit gives the same rows in
// the same order whatever the number of workers.
func TestAuditorWorkers(t *testing.T) {
	in := conjunctionInput("", "d4")
	_, one := Audit(in, Options{Workers: 1})
	_, many := Audit(in, Options{Workers: 4})
	if len(one) == 0 {
		t.Fatal("no rows")
	}
	if diff := cmp.Diff(one, many); diff != "" {
		t.Errorf("rows differ with 4 workers (-1 +4):\n%s", diff)
	}
}
