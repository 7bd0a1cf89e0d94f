package sim

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/trustlake/trustlake/schema"
)

// ParseAgents turns "NAME" or "NAME=SKILL" specs (skill on the logit
// scale) into agents. A bare name takes its default skill: 1.0 for
// sim:agent-strong, -0.5 for sim:agent-weak, 0 otherwise.
func ParseAgents(specs []string) ([]Agent, error) {
	defaults := map[string]float64{}
	for _, a := range DefaultAgents() {
		defaults[a.Name] = a.Skill
	}
	var out []Agent
	for _, s := range specs {
		name, val, hasVal := strings.Cut(strings.TrimSpace(s), "=")
		a := Agent{Name: name, Skill: defaults[name]}
		if hasVal {
			v, err := strconv.ParseFloat(val, 64)
			if err != nil {
				return nil, fmt.Errorf("%w: agent %q: skill %q: not a number", ErrOptions, name, val)
			}
			a.Skill = v
		}
		out = append(out, a)
	}
	return out, nil
}

// ParseJudges returns the preset of each judge name (see JudgePreset).
func ParseJudges(names []string) ([]Judge, error) {
	var out []Judge
	for _, n := range names {
		j, err := JudgePreset(strings.TrimSpace(n))
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrOptions, err)
		}
		out = append(out, j)
	}
	return out, nil
}

// ParseSources sets m's source shares from "SOURCE=SHARE" specs; sources
// not named get share 0.
func ParseSources(m *Model, specs []string) error {
	shares := map[string]*float64{
		schema.SourceNatural:   &m.ShareNatural,
		schema.SourceWeakened:  &m.ShareWeakened,
		schema.SourcePerturbed: &m.SharePerturbed,
	}
	for _, p := range shares {
		*p = 0
	}
	for _, s := range specs {
		name, val, ok := strings.Cut(strings.TrimSpace(s), "=")
		p, known := shares[name]
		if !ok || !known {
			return fmt.Errorf("%w: source share %q: want natural=, weakened= or perturbed=SHARE", ErrOptions, s)
		}
		v, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return fmt.Errorf("%w: source share %q: %q is not a number", ErrOptions, s, val)
		}
		*p = v
	}
	return nil
}
