package judge

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Evidence conditions (seed §3.5).
const (
	E1Final = "E1-final" // task text + final screenshot
	E2LastK = "E2-lastk" // task text + last k screenshots + their actions
	E3Full  = "E3-full"  // task text + all screenshots (capped) + full action log
	E2Claim = "E2+claim" // E2-lastk + the agent's final message
)

// Conditions lists the pack conditions in the seed's order.
var Conditions = []string{E1Final, E2LastK, E3Full, E2Claim}

// Sentinel errors; check them with errors.Is.
var (
	ErrUnknownCondition = errors.New("unknown evidence condition")
	ErrInput            = errors.New("bad input")
	ErrLeak             = errors.New("evidence pack would leak")
	ErrNoPack           = errors.New("no evidence pack")
)

// PackOptions say what goes into a pack (and are bench.yaml's evidence
// section). Zero values mean the defaults.
type PackOptions struct {
	LastK        int `yaml:"last_k"`         // screenshots and actions in E2 conditions; 0 means 4
	MaxImageSide int `yaml:"max_image_side"` // longest image side in pixels after downsampling; 0 means 1280
	MaxImages    int `yaml:"max_images"`     // cap on E3-full screenshots (evenly subsampled, last kept); 0 means 16
}

func (o *PackOptions) applyDefaults() {
	o.LastK = positiveOr(o.LastK, 4)
	o.MaxImageSide = positiveOr(o.MaxImageSide, 1280)
	o.MaxImages = positiveOr(o.MaxImages, 16)
}

// positiveOr returns v, or def when v is not positive.
func positiveOr[T int | int64 | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// Validate rejects negative values.
func (o PackOptions) Validate() error {
	if o.LastK < 0 || o.MaxImageSide < 0 || o.MaxImages < 0 {
		return fmt.Errorf("--k, --max-image-side and --max-images must be positive")
	}
	if o.MaxImageSide > 0 && o.MaxImageSide < 8 {
		return fmt.Errorf("--max-image-side %d is too small (at least 8)", o.MaxImageSide)
	}
	return nil
}

// ParseConditions splits a comma-separated list of pack conditions,
// refusing unknown names; a repeat counts once.
func ParseConditions(list []string) ([]string, error) {
	var out []string
	for _, c := range SplitList(list) {
		if !slices.Contains(Conditions, c) {
			return nil, fmt.Errorf("%w %q (want %s)", ErrUnknownCondition, c, strings.Join(Conditions, ", "))
		}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: none given (want %s)", ErrUnknownCondition, strings.Join(Conditions, ", "))
	}
	return out, nil
}

// SplitList flattens repeated and comma-separated flag values into their
// trimmed, non-empty items.
func SplitList(list []string) []string {
	var out []string
	for _, item := range list {
		for _, c := range strings.Split(item, ",") {
			if c = strings.TrimSpace(c); c != "" {
				out = append(out, c)
			}
		}
	}
	return out
}

// JudgeCondition is a condition a judge runs under: the verdicts' condition
// name and the pack condition it reads. They differ only for a prompt
// variant, which must run under its own name ("E2+claim-noguard=E2+claim").
type JudgeCondition struct {
	Name string // verdicts.condition
	Pack string // evidence.condition
}

// ParseJudgeConditions parses NAME or NAME=PACK items.
func ParseJudgeConditions(list []string) ([]JudgeCondition, error) {
	var out []JudgeCondition
	seen := map[string]bool{}
	for _, c := range SplitList(list) {
		name, pack, alias := strings.Cut(c, "=")
		if !alias {
			pack = name
		}
		if !slices.Contains(Conditions, pack) {
			return nil, fmt.Errorf("%w %q (want %s, or NAME=CONDITION for a prompt variant)", ErrUnknownCondition, pack, strings.Join(Conditions, ", "))
		}
		if name == "" || strings.ContainsAny(name, "/\\\x00") {
			return nil, fmt.Errorf("%w: condition name %q", ErrUnknownCondition, name)
		}
		if alias && slices.Contains(Conditions, name) {
			return nil, fmt.Errorf("%w: %s=%s: a variant needs its own name, not a pack condition's", ErrUnknownCondition, name, pack)
		}
		if seen[name] {
			continue
		}
		seen[name] = true
		out = append(out, JudgeCondition{Name: name, Pack: pack})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: none given (want %s)", ErrUnknownCondition, strings.Join(Conditions, ", "))
	}
	return out, nil
}
