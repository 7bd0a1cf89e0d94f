package judge

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// Config is the seed's bench.yaml (§4.6). Judges are keyed by the name
// given to --judge. ${VAR} in any value is replaced from the environment.
type Config struct {
	Seed            int64                  `yaml:"seed"`
	EpisodesPerTask int                    `yaml:"episodes_per_task"`
	Evidence        PackOptions            `yaml:"evidence"`
	Judges          map[string]ConfigJudge `yaml:"judges"`
	Metrics         ConfigMetrics          `yaml:"metrics"`
}

// ConfigJudge is one judge of bench.yaml. Backend, BaseURL and Conditions
// extend the seed's fields; Path is a reward model's location (its model id).
type ConfigJudge struct {
	Backend         string   `yaml:"backend"`
	BaseURL         string   `yaml:"base_url"`
	Model           string   `yaml:"model"`
	Path            string   `yaml:"path"`
	Command         string   `yaml:"command"`
	Temperature     *float64 `yaml:"temperature"`
	Runs            int      `yaml:"runs"`
	Conditions      []string `yaml:"conditions"`
	UncertainPolicy string   `yaml:"uncertain_policy"`
	ThresholdPolicy string   `yaml:"threshold_policy"`
	FPRTarget       *float64 `yaml:"fpr_target"`
}

// ConfigMetrics is bench.yaml's metrics section.
type ConfigMetrics struct {
	CI                 string  `yaml:"ci"`
	Alpha              float64 `yaml:"alpha"`
	BootstrapResamples int     `yaml:"bootstrap_resamples"`
	ClusterBy          string  `yaml:"cluster_by"`
}

var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// ErrConfig marks a bad bench.yaml.
var ErrConfig = errors.New("bad config")

// ParseConfig reads bench.yaml. lookup resolves ${VAR}; an unset variable,
// an unknown key or a bad value is an error naming file:line and field.
func ParseConfig(name string, data []byte, lookup func(string) (string, bool)) (*Config, error) {
	var errs []string
	lines := bytes.Split(data, []byte("\n"))
	for i, ln := range lines {
		lines[i] = envRef.ReplaceAllFunc(ln, func(m []byte) []byte {
			v, ok := lookup(string(m[2 : len(m)-1]))
			if !ok {
				errs = append(errs, fmt.Sprintf("%s:%d: %s is not set in the environment", name, i+1, m))
			}
			return []byte(v)
		})
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%w: %s", ErrConfig, strings.Join(errs, "; "))
	}
	dec := yaml.NewDecoder(bytes.NewReader(bytes.Join(lines, []byte("\n"))))
	dec.KnownFields(true)
	var c Config
	if err := dec.Decode(&c); err != nil {
		return nil, fmt.Errorf("%w: %s: %s", ErrConfig, name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	for jn, j := range c.Judges {
		switch {
		case j.UncertainPolicy != "" && j.UncertainPolicy != "failure" && j.UncertainPolicy != "success" && j.UncertainPolicy != "exclude":
			return nil, fmt.Errorf("%w: %s: judges.%s.uncertain_policy: %q (want failure, success or exclude)", ErrConfig, name, jn, j.UncertainPolicy)
		case j.ThresholdPolicy != "" && j.ThresholdPolicy != "fpr_target" && j.ThresholdPolicy != "fixed":
			return nil, fmt.Errorf("%w: %s: judges.%s.threshold_policy: %q (want fpr_target or fixed)", ErrConfig, name, jn, j.ThresholdPolicy)
		case j.Runs < 0:
			return nil, fmt.Errorf("%w: %s: judges.%s.runs: %d", ErrConfig, name, jn, j.Runs)
		}
	}
	if c.Evidence.LastK < 0 || c.Evidence.MaxImageSide < 0 || c.Evidence.MaxImages < 0 {
		return nil, fmt.Errorf("%w: %s: evidence: negative value", ErrConfig, name)
	}
	return &c, nil
}

// LoadConfig reads and parses a bench.yaml file.
func LoadConfig(name string, lookup func(string) (string, bool)) (*Config, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrConfig, err)
	}
	return ParseConfig(name, data, lookup)
}
