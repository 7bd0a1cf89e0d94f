package sim

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestWriteTauBench(t *testing.T) {
	opts := ResultsOptions{Results: 50, Trials: 5, Steps: 30, Seed: 7}
	var a, b bytes.Buffer
	st, err := WriteTauBench(&a, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := WriteTauBench(&b, opts); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("same options gave different output")
	}
	if st.Results != 50 || st.Tasks != 10 || st.Bytes != int64(a.Len()) {
		t.Errorf("stats = %+v (buffer %d bytes)", st, a.Len())
	}
	var recs []struct {
		TaskID int               `json:"task_id"`
		Trial  int               `json:"trial"`
		Reward float64           `json:"reward"`
		Traj   []json.RawMessage `json:"traj"`
	}
	if err := json.Unmarshal(a.Bytes(), &recs); err != nil {
		t.Fatal(err)
	}
	passes := 0
	seen := map[[2]int]bool{}
	for _, r := range recs {
		if len(r.Traj) != 30 {
			t.Errorf("task %d trial %d: %d messages, want 30", r.TaskID, r.Trial, len(r.Traj))
		}
		if r.Reward == 1 {
			passes++
		}
		seen[[2]int{r.TaskID, r.Trial}] = true
	}
	if len(recs) != 50 || len(seen) != 50 || passes != st.Passes || passes == 0 || passes == 50 {
		t.Errorf("records %d distinct %d passes %d (stats %d)", len(recs), len(seen), passes, st.Passes)
	}
	var c bytes.Buffer
	if _, err := WriteTauBench(&c, ResultsOptions{Results: 50, Trials: 5, Steps: 30, Seed: 8}); err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(a.Bytes(), c.Bytes()) {
		t.Error("different seeds gave the same output")
	}
}
