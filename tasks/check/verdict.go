package check

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/trustlake/trustlake/schema"
	"github.com/trustlake/trustlake/tasks/sheet"
)

// Env says where a check reads its files.
type Env struct {
	Final   string // the final state (home directory) being verified
	Initial string // the task's initial state; "" when the task has none
}

// Diagnostic is what one check found; it goes into gt.json's diagnostics
// under the check's id.
type Diagnostic struct {
	Holds   bool   `json:"holds"`
	Got     any    `json:"got,omitempty"`
	Error   string `json:"error,omitempty"`
	Refines string `json:"refines,omitempty"`
}

// Verdict is the verifier output, the gt.json shape (without episode_id and
// verifier_sha256, which the verify flow adds).
type Verdict struct {
	Pass        bool                  `json:"pass"`
	Category    *string               `json:"category"`
	Diagnostics map[string]Diagnostic `json:"diagnostics"`
	Gates       []schema.Gate         `json:"gates"`
	Score       *float64              `json:"score,omitempty"`
}

// severity ranks gate types: lower is more severe.
func severity(gate string) int {
	if i := slices.Index(schema.GateTypes, gate); i >= 0 {
		return i
	}
	return len(schema.GateTypes)
}

// Evaluate runs every check against env and combines the outcomes.
//
// The verdict passes when every gating check holds. When it fails, the
// category is that of the first failing gating check of the most severe gate
// type (critical, then process, then administrative), in declared order; then
// the first refining check of that check which holds replaces the category.
// A check that cannot read its input (missing file, corrupt workbook) does
// not hold; the reason is in its diagnostic. Evaluate is deterministic: the
// same files give the same verdict. specs must have passed Validate. With
// score, the verdict carries the weighted share of gating checks that hold.
func Evaluate(ctx context.Context, specs []Spec, env Env, score bool) Verdict {
	v := Verdict{Diagnostics: map[string]Diagnostic{}, Gates: []schema.Gate{}}
	held := make([]bool, len(specs))
	var total, sum float64 // weights of the gating checks, and of those that hold
	worst := -1            // the first failing gating check of the most severe gate
	for i := range specs {
		s := &specs[i]
		holds, got, err := evalOne(ctx, s, env)
		if s.Not {
			holds = !holds
		}
		held[i] = holds
		d := Diagnostic{Holds: holds, Got: got, Refines: s.Refines}
		if err != nil {
			d.Error = err.Error()
		}
		v.Diagnostics[s.ID] = d
		if s.Refines == "" {
			v.Gates = append(v.Gates, schema.Gate{ID: s.ID, Type: s.GateType(), Passed: holds})
			w := 1.0
			if s.Weight != nil {
				w = *s.Weight
			}
			total += w
			if holds {
				sum += w
			} else if worst < 0 || severity(s.GateType()) < severity(specs[worst].GateType()) {
				worst = i
			}
		}
	}
	v.Pass = worst < 0
	if !v.Pass {
		cat := specs[worst].Category
		for i := range specs {
			if specs[i].Refines == specs[worst].ID && held[i] {
				cat = specs[i].Category
				break
			}
		}
		v.Category = &cat
	}
	if score {
		share := 0.0
		if total > 0 {
			share = sum / total
		}
		v.Score = &share
	}
	return v
}

// evalOne runs one check. It returns whether the condition holds (before
// Not), what it observed, and why it could not observe when it could not.
func evalOne(ctx context.Context, s *Spec, env Env) (bool, any, error) {
	final, err := os.OpenRoot(env.Final)
	if err != nil {
		return false, nil, fmt.Errorf("open final state: %w", err)
	}
	defer final.Close()
	switch s.Type {
	case TypeFileExists, TypeFileAbsent, TypeDirExists:
		return evalExists(s, final)
	case TypeUnchanged, TypeNoOtherChanges:
		if env.Initial == "" {
			return false, nil, errors.New("the task has no initial state to compare with")
		}
		init, err := os.OpenRoot(env.Initial)
		if err != nil {
			return false, nil, fmt.Errorf("open initial state: %w", err)
		}
		defer init.Close()
		if s.Type == TypeUnchanged {
			return evalUnchanged(s, final, init)
		}
		return evalNoOtherChanges(s, final, init)
	case TypeCell, TypeSheetFind: // the format comes from Path: a wrong one is reported before the file is read
		if _, err := sheet.Format(s.Path); err != nil {
			return false, nil, err
		}
	}
	// Every other check reads the file at Path.
	data, err := readFile(final, s.Path)
	if err != nil {
		return false, nil, shortErr(err)
	}
	switch s.Type {
	case TypeSHA256:
		sum := sha256.Sum256(data)
		got := hex.EncodeToString(sum[:])
		return strings.EqualFold(got, s.SHA256), got, nil
	case TypeTextContains, TypeTextRegex:
		return evalText(s, data)
	case TypeJSONKey, TypeYAMLKey, TypeTOMLKey:
		return evalKey(s, data)
	case TypeINIKey:
		return evalINI(s, data)
	case TypeCell, TypeODSCell, TypeXLSXCell, TypeCSVCell, TypeSheetFind:
		return evalSheet(s, data)
	case TypeSQLiteQuery:
		return evalSQLite(ctx, s, final, data)
	}
	return false, nil, fmt.Errorf("unknown check type %q", s.Type)
}
