package sim

import (
	"errors"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/schema"
)

func TestOptionsValidate(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(*Options)
		want   string // substring of the error; "" means valid
	}{
		{"defaults", func(*Options) {}, ""},
		{"zero value", func(o *Options) { *o = Options{} }, ""},
		{"negative tasks", func(o *Options) { o.Tasks = -1 }, "tasks: -1"},
		{"negative rows", func(o *Options) { o.VerdictRows = -5 }, "verdict rows: -5"},
		{"agent without prefix", func(o *Options) { o.Agents = []Agent{{Name: "gpt"}} }, `agent "gpt": name must start with "sim:"`},
		{"bare prefix", func(o *Options) { o.Agents = []Agent{{Name: "sim:"}} }, `agent "sim:"`},
		{"duplicate judge", func(o *Options) { o.Judges = append(o.Judges, o.Judges[0]) }, `judge "sim:vlm-a": duplicate name`},
		{"judge with slash", func(o *Options) { o.Judges[0].Name = "sim:a/b" }, "slashes"},
		{"fpr missing", func(o *Options) { delete(o.Judges[0].FPR, schema.CatClaim) }, "fpr F-CLAIM: missing"},
		{"fpr above 1", func(o *Options) { o.Judges[1].FPR[schema.CatAbort] = 1.5 }, "fpr F-ABORT: 1.5"},
		{"unknown kind", func(o *Options) { o.Judges[0].Kind = "llm" }, `kind "llm"`},
		{"model not simulated", func(o *Options) { o.Judges[0].Model = "gpt-4o" }, `model "gpt-4o"`},
		{"unknown condition", func(o *Options) { o.Conditions = []string{"E9"} }, `condition "E9"`},
		{"correlations over 1", func(o *Options) { o.Model.TaskCorr, o.Model.EpisodeCorr = 0.6, 0.5 }, "task corr + episode corr"},
		{"rm run SD too large", func(o *Options) { o.Judges[2].RunScoreSD = 0.9 }, "run score SD"},
		{"no natural or weakened", func(o *Options) { o.Model.ShareNatural, o.Model.ShareWeakened = 0, 0 }, "source shares"},
		{"category missing", func(o *Options) { delete(o.Model.Categories, schema.CatPartial) }, "category F-PARTIAL: missing"},
		{"all weights zero", func(o *Options) {
			for c, p := range o.Model.Categories {
				p.Weight = 0
				o.Model.Categories[c] = p
			}
		}, "weights sum to 0"},
		{"bad steps", func(o *Options) { o.Model.PassMinSteps = 0 }, "pass steps"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultOptions()
			tc.mutate(&o)
			err := o.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Validate() = %v, want nil", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, ErrOptions)):
				t.Errorf("Validate() = %v, want ErrOptions containing %q", err, tc.want)
			}
		})
	}
}

func TestJudgePreset(t *testing.T) {
	cases := []struct {
		name, kind string
		tpr        float64
		wantErr    bool
	}{
		{"sim:vlm-a", KindVLM, 0.92, false},
		{"sim:vlm-b", KindVLM, 0.88, false},
		{"sim:rm-1", KindRewardModel, 0.85, false},
		{"sim:rm-large", KindRewardModel, 0.85, false},
		{"sim:vlm-c", KindVLM, 0.92, false},
		{"vlm-c", "", 0, true},
	}
	for _, tc := range cases {
		j, err := JudgePreset(tc.name)
		if (err != nil) != tc.wantErr {
			t.Errorf("JudgePreset(%q) error = %v, want error %v", tc.name, err, tc.wantErr)
			continue
		}
		if got, want := j.Kind, tc.kind; got != want {
			t.Errorf("JudgePreset(%q).Kind = %q, want %q", tc.name, got, want)
		}
		if got, want := j.TPR, tc.tpr; got != want {
			t.Errorf("JudgePreset(%q).TPR = %v, want %v", tc.name, got, want)
		}
	}
}

func TestCellSizes(t *testing.T) {
	o := DefaultOptions()
	o.Tasks = 3
	o.VerdictRows = 36*7 + 1 // 8 episodes over 6 cells
	got := cellSizes(o.withDefaults(), 36)
	want := []int{2, 2, 1, 1, 1, 1}
	if len(got) != len(want) {
		t.Fatalf("cellSizes = %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("cellSizes = %v, want %v", got, want)
		}
	}
}
