package ingest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

// inspectRef is what python/inspect_reference.py writes: what inspect-ai's
// own reader reads from each log.
type inspectRef struct {
	InspectAI string `json:"inspect_ai"`
	Logs      []struct {
		File       string   `json:"file"`
		Status     string   `json:"status"`
		Task       string   `json:"task"`
		Model      string   `json:"model"`
		EvalID     string   `json:"eval_id"`
		Reducer    []string `json:"epochs_reducer"`
		GraderRole string   `json:"grader_role"`
		Scorers    []string `json:"scorers"`
		NSamples   int      `json:"n_samples"`
		Samples    []struct {
			ID       string `json:"id"`
			Epoch    int64  `json:"epoch"`
			Final    *string
			Error    *string
			Limit    *string
			Refs     int `json:"attachment_refs"`
			Messages []struct {
				Role      string   `json:"role"`
				Text      string   `json:"text"`
				Types     []string `json:"content_types"`
				Images    []string `json:"image_sha256"`
				Function  string   `json:"function"`
				ToolCalls []struct {
					Function  string          `json:"function"`
					Arguments json.RawMessage `json:"arguments"`
				} `json:"tool_calls"`
			} `json:"messages"`
			Scores map[string]struct {
				Value       json.RawMessage `json:"value"`
				Float       *float64        `json:"float"`
				Explanation *string         `json:"explanation"`
				GraderModel *string         `json:"grader_model"`
			} `json:"scores"`
		} `json:"samples"`
	} `json:"logs"`
}

func readInspectRef(t *testing.T, path string) inspectRef {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var ref inspectRef
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	return ref
}

// lakeRows is every row of the tables the adapter writes, by key.
type lakeRows struct {
	episodes map[string]schema.Episode
	actions  map[string][]schema.Action // episode → steps in order
	results  map[string]schema.Result
	verdicts map[string]schema.Verdict // episode/scorer
	truths   map[string]schema.GroundTruth
}

func readLakeRows(t *testing.T, l *lake.Lake) lakeRows {
	t.Helper()
	r := lakeRows{map[string]schema.Episode{}, map[string][]schema.Action{}, map[string]schema.Result{}, map[string]schema.Verdict{}, map[string]schema.GroundTruth{}}
	for _, e := range tableRows[schema.Episode](t, l, lake.Episodes) {
		r.episodes[e.EpisodeID] = e
	}
	for _, a := range tableRows[schema.Action](t, l, lake.Actions) {
		r.actions[a.EpisodeID] = append(r.actions[a.EpisodeID], a)
	}
	for id, acts := range r.actions {
		byStep := make([]schema.Action, len(acts))
		for _, a := range acts {
			if a.Step < 0 || int(a.Step) >= len(acts) {
				t.Fatalf("%s: step %d out of range", id, a.Step)
			}
			byStep[a.Step] = a
		}
		r.actions[id] = byStep
	}
	for _, x := range tableRows[schema.Result](t, l, lake.Results) {
		r.results[x.ResultID] = x
	}
	for _, v := range tableRows[schema.Verdict](t, l, lake.Verdicts) {
		scorer, _, _ := strings.Cut(v.Judge, ":")
		r.verdicts[v.EpisodeID+"/"+scorer] = v
	}
	for _, g := range tableRows[schema.GroundTruth](t, l, lake.GroundTruth) {
		r.truths[g.EpisodeID] = g
	}
	return r
}

func deref(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// checkAgainstRef ingests each log of ref (found in dir) into its own lake
// and compares every row with what inspect-ai read.
func checkAgainstRef(t *testing.T, dir string, ref inspectRef) {
	for _, lg := range ref.Logs {
		t.Run(lg.File, func(t *testing.T) {
			l, err := lake.Open(filepath.Join(t.TempDir(), "lake"), runcounts.With(lake.Options{}))
			if err != nil {
				t.Fatal(err)
			}
			st, err := Inspect(t.Context(), l, []string{filepath.Join(dir, lg.File)}, InspectOptions{}, Options{})
			if err != nil {
				t.Fatalf("ingest: %v", err)
			}
			if got := st.Tables[lake.Episodes].Added; got != int64(lg.NSamples) {
				t.Errorf("episodes added = %d, inspect-ai reads %d samples", got, lg.NSamples)
			}
			if lg.Status == "started" && len(st.Warnings) == 0 {
				t.Errorf("unfinished log: no warning")
			}
			rows := readLakeRows(t, l)
			if len(rows.episodes) != lg.NSamples {
				t.Fatalf("episodes in lake = %d, want %d", len(rows.episodes), lg.NSamples)
			}
			nres, nverd, ntruth := 0, 0, 0
			for _, s := range lg.Samples {
				id := fmt.Sprintf("%s/%s/%d", lg.EvalID, s.ID, s.Epoch)
				ep, ok := rows.episodes[id]
				if !ok {
					t.Errorf("%s: no episode", id)
					continue
				}
				if ep.Agent != lg.Model || ep.TaskID != s.ID || *ep.NSteps != int64(len(s.Messages)) {
					t.Errorf("%s: episode agent %q task %q steps %d, want %q %q %d", id, ep.Agent, ep.TaskID, *ep.NSteps, lg.Model, s.ID, len(s.Messages))
				}
				if deref(ep.FinalMessage) != deref(s.Final) {
					t.Errorf("%s: final message %q, want %q", id, deref(ep.FinalMessage), deref(s.Final))
				}
				checkActions(t, id, rows.actions[id], s.Messages)
				for _, scorer := range lg.Scorers {
					sc, scored := s.Scores[scorer]
					res, hasRes := rows.results[id+"/"+scorer]
					switch {
					case s.Error != nil:
						if !hasRes || deref(res.Infra) != *s.Error || res.RecordedScore != 0 {
							t.Errorf("%s %s: errored sample: result %+v, want infra_error %q", id, scorer, res, *s.Error)
						}
					case scored && sc.Float != nil:
						if !hasRes || res.RecordedScore != *sc.Float || res.Trial != s.Epoch || res.Benchmark != lg.Task+":"+scorer || res.Infra != nil {
							t.Errorf("%s %s: result %+v, want score %v trial %d", id, scorer, res, *sc.Float, s.Epoch)
						}
					}
					if hasRes {
						nres++
					}
					v, hasV := rows.verdicts[id+"/"+scorer]
					if strings.HasPrefix(scorer, "model_graded") && scored && s.Error == nil {
						nverd++
						want := map[string]string{`"C"`: "success", `"I"`: "failure", `"P"`: "failure", `"N"`: "failure"}[string(sc.Value)]
						if !hasV || deref(v.Verdict) != want || deref(v.Model) != deref(sc.GraderModel) || v.Judge != scorer+":"+deref(sc.GraderModel) {
							t.Errorf("%s %s: verdict %s by %s (judge %s), want %s by %s", id, scorer, deref(v.Verdict), deref(v.Model), v.Judge, want, deref(sc.GraderModel))
						} else if !strings.Contains(v.Extra, mustJSON(deref(sc.Explanation))) {
							t.Errorf("%s %s: verdict extra %s lacks the explanation", id, scorer, v.Extra)
						}
					} else if hasV {
						t.Errorf("%s %s: unexpected verdict %s", id, scorer, deref(v.Verdict))
					}
				}
				g, hasGT := rows.truths[id]
				if sc, ok := s.Scores["includes"]; ok && s.Error == nil {
					ntruth++
					if !hasGT || g.Pass != (*sc.Float == 1) {
						t.Errorf("%s: ground truth %+v, want pass %v", id, g, *sc.Float == 1)
					}
				} else if hasGT {
					t.Errorf("%s: unexpected ground truth %+v", id, g)
				}
			}
			if len(rows.results) != nres || len(rows.verdicts) != nverd || len(rows.truths) != ntruth {
				t.Errorf("lake has %d results, %d verdicts, %d ground truths; reference gives %d, %d, %d",
					len(rows.results), len(rows.verdicts), len(rows.truths), nres, nverd, ntruth)
			}
		})
	}
}

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return strings.Trim(string(b), `"`)
}

// checkActions compares one episode's actions with the messages inspect-ai read.
func checkActions(t *testing.T, id string, acts []schema.Action, msgs []struct {
	Role      string   `json:"role"`
	Text      string   `json:"text"`
	Types     []string `json:"content_types"`
	Images    []string `json:"image_sha256"`
	Function  string   `json:"function"`
	ToolCalls []struct {
		Function  string          `json:"function"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"tool_calls"`
}) {
	t.Helper()
	if len(acts) != len(msgs) {
		t.Errorf("%s: %d actions, want %d messages", id, len(acts), len(msgs))
		return
	}
	for i, m := range msgs {
		a := acts[i]
		text := a.Text
		if m.Role == "tool" {
			text = a.Observation
			if deref(a.ToolName) != m.Function {
				t.Errorf("%s step %d: tool_name %q, want %q", id, i, deref(a.ToolName), m.Function)
			}
		}
		if deref(a.Role) != m.Role || deref(text) != m.Text || (m.Role == "tool" && a.Text != nil) {
			t.Errorf("%s step %d: %s %q, want %s %q", id, i, deref(a.Role), deref(text), m.Role, m.Text)
		}
		if len(m.ToolCalls) == 1 {
			tc := m.ToolCalls[0]
			if deref(a.ToolName) != tc.Function || a.Arguments == nil || !jsonEqual([]byte(*a.Arguments), tc.Arguments) {
				t.Errorf("%s step %d: tool call %s(%s), want %s(%s)", id, i, deref(a.ToolName), deref(a.Arguments), tc.Function, tc.Arguments)
			}
		}
		var extra struct {
			Images []string `json:"image_sha256"`
		}
		_ = json.Unmarshal([]byte(a.Extra), &extra)
		if len(m.Images) > 0 || len(extra.Images) > 0 {
			if !reflect.DeepEqual(extra.Images, m.Images) {
				t.Errorf("%s step %d: image sha256 %v, want %v", id, i, extra.Images, m.Images)
			}
		}
	}
}

// TestInspectReference ingests every committed fixture and compares the
// lake with what inspect-ai's read_eval_log reads from the same files.
func TestInspectReference(t *testing.T) {
	dir := filepath.Join("testdata", "inspect")
	ref := readInspectRef(t, filepath.Join(dir, "reference.json"))
	if len(ref.Logs) != 6 {
		t.Fatalf("reference has %d logs, want 6", len(ref.Logs))
	}
	images := 0
	for _, lg := range ref.Logs {
		for _, s := range lg.Samples {
			for _, m := range s.Messages {
				images += len(m.Images)
			}
		}
	}
	if images == 0 {
		t.Fatal("reference has no image: the attachments fixture does not test attachment://")
	}
	checkAgainstRef(t, dir, ref)
}
