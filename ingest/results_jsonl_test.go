package ingest

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/trustlake/trustlake/schema"
)

func TestDecodeResults(t *testing.T) {
	in := strings.Join([]string{
		`{"benchmark":"ale","task_id":"t1","agent":"a","trial":0,"score":1,"final_message":"Done.","instruction":"compute x","grader":{"kind":"outputs","outputs":["42"]},"run_url":"u"}`,
		``,
		`{"benchmark":"ale","task_id":"t1","agent":"a","trial":1,"score":80,"scale":100,"pass":true,"infra_error":null}`,
		`{"benchmark":"ale","task_id":"t1","agent":"a","trial":2,"score":3}`,                                // outside [0,1], no scale
		`{"benchmark":"ale","task_id":"t1","agent":"a","trial":3,"score":0,"instruction":"something else"}`, // task identity
		`{"benchmark":"ale","task_id":"t1","agent":"a","trial":0,"score":0}`,                                // duplicate result_id
		`{"benchmark":"ale","agent":"a","trial":"x","score":"1"}`,                                           // several field errors
		`not json`,
		`{"benchmark":"ale","task_id":"t2","agent":"a","trial":0,"score":0,"infra_error":"sandbox OOM"}`,
	}, "\n")
	var got []schema.Result
	err := DecodeResults(strings.NewReader(in), "r.jsonl", func(r schema.Result) error {
		got = append(got, r)
		return nil
	})
	if len(got) != 3 {
		t.Fatalf("emitted %d results, want 3", len(got))
	}
	if got[0].ResultID != "ale/a/t1/0" || !got[0].RecordedPass || got[0].Grader != `{"kind":"outputs","outputs":["42"]}` || got[0].Extra != `{"run_url":"u"}` || got[0].SrcLine != 1 {
		t.Errorf("first = %+v", got[0])
	}
	if got[1].RecordedScore != 0.8 || !got[1].RecordedPass || got[1].Infra != nil || got[1].SrcLine != 3 {
		t.Errorf("second = %+v", got[1])
	}
	if got[2].Infra == nil || *got[2].Infra != "sandbox OOM" || got[2].RecordedPass {
		t.Errorf("third = %+v", got[2])
	}
	var re RecordErrors
	if !errors.As(err, &re) {
		t.Fatalf("err = %v, want RecordErrors", err)
	}
	var msgs []string
	for _, e := range re {
		msgs = append(msgs, e.Error())
	}
	want := []string{
		"r.jsonl:4: score: invalid value: 3 is outside [0, 1] and no scale is declared",
		"r.jsonl:5: instruction: invalid value: task t1 has a different instruction at line 1: trials disagree on task identity",
		`r.jsonl:6: result_id: duplicate key: "ale/a/t1/0" already at line 1`,
		"r.jsonl:7: task_id: missing",
		`r.jsonl:7: trial: wrong type: got "x", want a number`,
		`r.jsonl:7: score: wrong type: got "1", want a number`,
		"r.jsonl:8: malformed: invalid character 'o' in literal null (expecting 'u')",
	}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("errors (-want +got):\n%s", diff)
	}
}

func TestDecodeResultsLongLine(t *testing.T) {
	in := `{"benchmark":"b","task_id":"t","agent":"a","trial":0,"score":1}` + "\n" + strings.Repeat("x", maxResultLine+10) + "\n" +
		`{"benchmark":"b","task_id":"t","agent":"a","trial":1,"score":1}`
	n := 0
	err := DecodeResults(strings.NewReader(in), "r.jsonl", func(schema.Result) error { n++; return nil })
	if n != 2 || !errors.Is(err, schema.ErrTooLong) || !strings.HasPrefix(err.Error(), "r.jsonl:2:") {
		t.Errorf("n=%d err=%v, want 2 results and r.jsonl:2 too long", n, err)
	}
}
