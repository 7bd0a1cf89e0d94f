package ingest

// gt.json: an episode's ground truth written by verify.

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/schema"
)

// groundTruth ingests gt.json when present.
func (b *batch) groundTruth(ctx context.Context, dir, episodeID string) error {
	name := filepath.Join(dir, "gt.json")
	if _, err := os.Lstat(name); os.IsNotExist(err) {
		return nil
	}
	data, fields, line, err := readObject(ctx, name, b.opts.MaxLineBytes)
	var g schema.GroundTruth
	if err == nil {
		line, err = decodeGroundTruth(fields, data, &g)
	}
	if err == nil && g.EpisodeID != episodeID {
		err = &schema.FieldError{Field: "episode_id", Err: schema.Reason(schema.ErrValue, "%q does not match meta.json's %q", g.EpisodeID, episodeID)}
	}
	if err != nil {
		b.reject(name, line, err)
		return nil
	}
	if g.Category == nil && g.CategoryRaw != nil {
		b.stats.NeedsReview++
	}
	g.SrcFile = name
	return add(b, lake.GroundTruth, &g)
}

func decodeGroundTruth(fields []field, data []byte, g *schema.GroundTruth) (int64, error) {
	seen := map[string]bool{}
	var extra []byte
	g.Diagnostics, g.Gates = "null", "[]"
	for i := range fields {
		f := &fields[i]
		k := string(f.key)
		seen[k] = true
		var err error
		switch k {
		case "episode_id":
			g.EpisodeID, err = f.str()
		case "verifier_sha256":
			g.VerifierSHA256, err = f.str()
		case "pass":
			g.Pass, err = f.boolean()
		case "score":
			g.Score, err = f.optFloat()
		case "category":
			var raw *string
			raw, err = f.optStr()
			g.Category, g.CategoryRaw = schema.NormalizeCategory(raw)
		case "diagnostics":
			g.Diagnostics = string(f.val)
		case "gates":
			g.Gates, err = decodeGates(f)
		case "deterministic":
			g.Deterministic, err = f.optBool()
		case "source":
			g.Source, err = f.str()
		case "annotator":
			g.Annotator, err = f.optStr()
		default:
			extra = appendExtra(extra, f)
		}
		if err != nil {
			return lineOf(data, f.off), bad(f, err)
		}
	}
	for _, req := range []string{"episode_id", "pass"} {
		if !seen[req] {
			return 0, &schema.FieldError{Field: req, Err: schema.ErrMissing}
		}
	}
	g.Source = cmp.Or(g.Source, schema.GTVerifier)
	if g.Pass && g.CategoryRaw != nil {
		return 0, &schema.FieldError{Field: "category", Err: schema.Reason(schema.ErrValue, "a passing episode has no failure category (got %q)", *g.CategoryRaw)}
	}
	if len(extra) > 0 {
		// Keep unknown verifier fields with the diagnostics rather than drop them.
		g.Diagnostics = fmt.Sprintf(`{"diagnostics":%s,"extra":%s}`, g.Diagnostics, closeExtra(extra))
	}
	return 0, g.Validate()
}

// decodeGates validates "gates": [{"id","type","passed"}] and returns it as
// canonical JSON.
func decodeGates(f *field) (string, error) {
	if f.kind == kNull {
		return "[]", nil
	}
	if f.kind != kArray {
		return "", f.typeErr("array")
	}
	var gates []schema.Gate
	dec := json.NewDecoder(bytes.NewReader(f.val))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&gates); err != nil {
		return "", &schema.FieldError{Field: "gates", Err: schema.Reason(schema.ErrType, "%v", err)}
	}
	for i, g := range gates {
		if g.ID == "" {
			return "", &schema.FieldError{Field: fmt.Sprintf("gates[%d].id", i), Err: schema.ErrMissing}
		}
		if !slices.Contains(schema.GateTypes, g.Type) {
			return "", &schema.FieldError{Field: fmt.Sprintf("gates[%d].type", i), Err: schema.Reason(schema.ErrValue, "%q is not one of %s", g.Type, strings.Join(schema.GateTypes, ", "))}
		}
	}
	out, _ := json.Marshal(gates)
	return string(out), nil
}
