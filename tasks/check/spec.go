package check

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/trustlake/trustlake/schema"
	"github.com/trustlake/trustlake/tasks/sheet"
)

// Check types. Every check reads Path (relative to the final state) unless
// noted.
const (
	TypeFileExists     = "file_exists"      // Path is a regular file
	TypeFileAbsent     = "file_absent"      // Path does not exist
	TypeDirExists      = "dir_exists"       // Path is a directory
	TypeUnchanged      = "unchanged"        // Path has the same bytes as in the initial state (both absent counts as same)
	TypeSHA256         = "sha256"           // sha256 of Path equals SHA256
	TypeTextContains   = "text_contains"    // Path contains Contains
	TypeTextRegex      = "text_regex"       // Path matches Regex (RE2, multi-line mode)
	TypeJSONKey        = "json_key"         // value at Key equals Equals
	TypeYAMLKey        = "yaml_key"         // value at Key equals Equals
	TypeTOMLKey        = "toml_key"         // value at Key equals Equals
	TypeINIKey         = "ini_key"          // Key "section.key" ("key" for no section) equals Equals
	TypeCell           = "cell"             // Cell of Sheet equals Equals; format by extension
	TypeODSCell        = "ods_cell"         // as cell, format ods
	TypeXLSXCell       = "xlsx_cell"        // as cell, format xlsx
	TypeCSVCell        = "csv_cell"         // as cell, format csv
	TypeSheetFind      = "sheet_find"       // some cell of Sheet other than Exclude equals Equals
	TypeSQLiteQuery    = "sqlite_query"     // Query on the database at Path returns Equals
	TypeNoOtherChanges = "no_other_changes" // no file outside Allow globs was added, removed or modified vs the initial state
)

// Types lists every check type.
var Types = []string{
	TypeFileExists, TypeFileAbsent, TypeDirExists, TypeUnchanged, TypeSHA256,
	TypeTextContains, TypeTextRegex, TypeJSONKey, TypeYAMLKey, TypeTOMLKey, TypeINIKey,
	TypeCell, TypeODSCell, TypeXLSXCell, TypeCSVCell, TypeSheetFind, TypeSQLiteQuery,
	TypeNoOtherChanges,
}

// ErrSpec is the reason of every validation error of a Spec.
var ErrSpec = errors.New("invalid check")

// Spec is one declarative check as written in task.json's "checks" list.
//
// A gating check (Refines empty) decides pass: the verdict passes only if
// every gating check holds. Gate gives its severity ("" means critical) and
// Category the failure code to report when it does not hold.
//
// A refining check (Refines names an earlier gating check) never changes
// pass. When the check it refines fails and the refining check holds, the
// refined category replaces that check's category: this is how a task
// tells "not saved" from "saved into the wrong cell" (seed §4.4).
type Spec struct {
	ID       string   `json:"id"`
	Type     string   `json:"type"`
	Gate     string   `json:"gate,omitempty"`
	Category string   `json:"category,omitempty"`
	Refines  string   `json:"refines,omitempty"`
	Not      bool     `json:"not,omitempty"`    // invert the outcome
	Weight   *float64 `json:"weight,omitempty"` // partial score weight; nil means 1
	Note     string   `json:"note,omitempty"`   // for humans

	Path      string   `json:"path,omitempty"`
	SHA256    string   `json:"sha256,omitempty"`
	Contains  string   `json:"contains,omitempty"`
	Regex     string   `json:"regex,omitempty"`
	Key       string   `json:"key,omitempty"`
	Sheet     string   `json:"sheet,omitempty"`
	Cell      string   `json:"cell,omitempty"`
	Exclude   []string `json:"exclude,omitempty"`
	Query     string   `json:"query,omitempty"`
	Allow     []string `json:"allow,omitempty"`
	Equals    any      `json:"equals,omitempty"`
	Tolerance float64  `json:"tolerance,omitempty"` // numeric tolerance; 0 means 1e-9
}

// GateType returns the gate type, critical when unset.
func (s *Spec) GateType() string {
	if s.Gate == "" {
		return schema.GateCritical
	}
	return s.Gate
}

// Validate checks a list of specs; errors name the field like
// "checks[2].cell: bad cell reference". The list must not be empty.
func Validate(specs []Spec) error {
	if len(specs) == 0 {
		return fmt.Errorf("checks: %w: the list is empty", ErrSpec)
	}
	seen := map[string]int{}
	var errs []error
	for i := range specs {
		s := &specs[i]
		bad := func(f, format string, args ...any) {
			errs = append(errs, fmt.Errorf("checks[%d].%s: %w: %s", i, f, ErrSpec, fmt.Sprintf(format, args...)))
		}
		switch {
		case s.ID == "":
			bad("id", "missing")
		case !validID(s.ID):
			bad("id", "%q: use letters, digits, '_', '-' or '.'", s.ID)
		default:
			if j, dup := seen[s.ID]; dup {
				bad("id", "%q already used by checks[%d]", s.ID, j)
			}
			seen[s.ID] = i
		}
		if s.Refines != "" {
			j, ok := seen[s.Refines]
			if !ok || specs[j].Refines != "" {
				bad("refines", "%q is not an earlier gating check", s.Refines)
			}
			if s.Gate != "" {
				bad("gate", "a refining check has no gate")
			}
		}
		if s.Gate != "" && !slices.Contains(schema.GateTypes, s.Gate) {
			bad("gate", "%q not in %s", s.Gate, strings.Join(schema.GateTypes, ", "))
		}
		switch {
		case s.Category == "" && s.Refines != "":
			bad("category", "missing: a refining check sets a category")
		case s.Category == "":
			bad("category", "missing: say which failure code a failed check reports")
		case !schema.IsCategory(s.Category):
			bad("category", "%q not one of %s", s.Category, strings.Join(schema.Categories, ", "))
		}
		if s.Weight != nil && *s.Weight < 0 {
			bad("weight", "must not be negative")
		}
		if !slices.Contains(Types, s.Type) {
			bad("type", "%q not one of %s", s.Type, strings.Join(Types, ", "))
			continue
		}
		validateParams(s, bad)
	}
	return errors.Join(errs...)
}

// needsEquals lists the check types that compare a value with Equals.
var needsEquals = []string{
	TypeJSONKey, TypeYAMLKey, TypeTOMLKey, TypeINIKey, TypeCell, TypeODSCell, TypeXLSXCell, TypeCSVCell,
	TypeSheetFind, TypeSQLiteQuery,
}

// validateParams checks the fields s.Type reads, reporting each problem to bad.
func validateParams(s *Spec, bad func(f, format string, args ...any)) {
	need := func(f, v string) bool {
		if v == "" {
			bad(f, "missing for type %s", s.Type)
		}
		return v != ""
	}
	try := func(f string, err error) {
		if err != nil {
			bad(f, "%s", err)
		}
	}
	if s.Type != TypeNoOtherChanges && need("path", s.Path) {
		try("path", CleanPath(s.Path))
	}
	switch s.Type {
	case TypeSHA256:
		if len(s.SHA256) != 64 || strings.Trim(strings.ToLower(s.SHA256), "0123456789abcdef") != "" {
			bad("sha256", "want 64 hex digits")
		}
	case TypeTextContains:
		need("contains", s.Contains)
	case TypeTextRegex:
		if need("regex", s.Regex) {
			_, err := regexp.Compile(s.Regex)
			try("regex", err)
		}
	case TypeJSONKey, TypeYAMLKey, TypeTOMLKey:
		if need("key", s.Key) {
			_, err := parseKeyPath(s.Key)
			try("key", err)
		}
	case TypeINIKey:
		need("key", s.Key)
	case TypeCell, TypeODSCell, TypeXLSXCell, TypeCSVCell:
		if need("cell", s.Cell) {
			_, err := sheet.ParseRef(s.Cell)
			try("cell", err)
		}
		if s.Type == TypeCell && s.Path != "" {
			_, err := sheet.Format(s.Path)
			try("path", err)
		}
	case TypeSheetFind:
		for k, c := range s.Exclude {
			_, err := sheet.ParseRef(c)
			try(fmt.Sprintf("exclude[%d]", k), err)
		}
	case TypeSQLiteQuery:
		need("query", s.Query)
	case TypeNoOtherChanges:
		for k, g := range s.Allow {
			_, err := path.Match(g, "")
			try(fmt.Sprintf("allow[%d]", k), err)
		}
	}
	if s.Equals == nil && slices.Contains(needsEquals, s.Type) {
		bad("equals", "missing for type %s", s.Type)
	}
}

// CleanPath rejects paths that are absolute, contain "..", or are not clean.
func CleanPath(p string) error {
	if path.IsAbs(p) || strings.HasPrefix(p, "\\") {
		return fmt.Errorf("%q: must be relative to the home directory", p)
	}
	if path.Clean(p) != p || p == "." || strings.HasPrefix(p, "../") || p == ".." {
		return fmt.Errorf("%q: must be a clean relative path without '..'", p)
	}
	return nil
}

// validID accepts check ids of letters, digits, '_', '-' and '.'.
var validID = regexp.MustCompile(`^[A-Za-z0-9_.-]*$`).MatchString
