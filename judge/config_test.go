package judge

import (
	"errors"
	"strings"
	"testing"
)

const seedConfig = `# config/bench.yaml (seed §4.6)
seed: 20261010
episodes_per_task: 4
evidence:
  last_k: 4
  max_image_side: 1280
judges:
  vlm:
    model: ${VLM_MODEL}
    temperature: 0
    runs: 3
    uncertain_policy: failure      # how "uncertain" is mapped for headline metrics
  rm:
    path: ${RM_PATH}
    runs: 3
    threshold_policy: fpr_target   # see section 6.3
    fpr_target: 0.05
metrics:
  ci: wilson
  alpha: 0.05
  bootstrap_resamples: 2000
  cluster_by: task_id
`

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestParseSeedConfig(t *testing.T) {
	c, err := ParseConfig("bench.yaml", []byte(seedConfig), env(map[string]string{"VLM_MODEL": "gpt-4o", "RM_PATH": "/models/orm"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Seed != 20261010 || c.Evidence.LastK != 4 || c.Evidence.MaxImageSide != 1280 || c.Judges["vlm"].Model != "gpt-4o" ||
		c.Judges["vlm"].Runs != 3 || *c.Judges["vlm"].Temperature != 0 || c.Judges["rm"].Path != "/models/orm" || *c.Judges["rm"].FPRTarget != 0.05 ||
		c.Metrics.BootstrapResamples != 2000 {
		t.Errorf("parsed %+v", c)
	}
}

func TestParseConfigErrors(t *testing.T) {
	cases := []struct{ name, text, want string }{
		{"unset variable", seedConfig, "bench.yaml:14: ${RM_PATH} is not set"},
		{"unknown key", "evidence:\n  last_kk: 4\n", "line 2: field last_kk not found"},
		{"bad policy", "judges:\n  vlm:\n    uncertain_policy: maybe\n", "judges.vlm.uncertain_policy"},
		{"bad type", "evidence:\n  last_k: four\n", "line 2"},
	}
	for _, c := range cases {
		_, err := ParseConfig("bench.yaml", []byte(c.text), env(map[string]string{"VLM_MODEL": "m"}))
		if !errors.Is(err, ErrConfig) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}
