package schema

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// hashCoversEveryField changes each stored field of a row in turn: the
// content hash must change, except for provenance; the key hash must change
// exactly for the key fields.
func hashCoversEveryField[T any, P interface {
	*T
	Hash() uint64
	KeyHash() [2]uint64
}](t *testing.T, sample func() T, keys ...string) {
	t.Helper()
	base := sample()
	h0, k0 := P(&base).Hash(), P(&base).KeyHash()
	typ := reflect.TypeOf(base)
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		mod := sample()
		v := reflect.ValueOf(&mod).Elem().Field(i)
		switch v.Kind() {
		case reflect.String:
			v.SetString(v.String() + "x")
		case reflect.Int64:
			v.SetInt(v.Int() + 1)
		case reflect.Pointer:
			v.Set(reflect.Zero(v.Type()))
		case reflect.Struct: // Provenance
			v.Set(reflect.ValueOf(Provenance{SrcFile: "other", SrcLine: 9}))
			if P(&mod).Hash() != h0 {
				t.Errorf("provenance changes the content hash")
			}
			continue
		default:
			t.Fatalf("field %s: kind %s not covered by this test", f.Name, v.Kind())
		}
		if P(&mod).Hash() == h0 {
			t.Errorf("field %s: content hash unchanged", f.Name)
		}
		isKey := strings.Contains(","+strings.Join(keys, ",")+",", ","+f.Name+",")
		if got := P(&mod).KeyHash() != k0; got != isKey {
			t.Errorf("field %s: key hash changed = %v, want %v", f.Name, got, isKey)
		}
	}
}

func TestEvidenceHashCoversEveryField(t *testing.T) {
	hashCoversEveryField[Evidence](t, func() Evidence {
		return Evidence{EpisodeID: "ep1", Condition: "E2-lastk", PackSHA256: strings.Repeat("a", 64), TaskID: "t",
			Inputs: `["task_text"]`, Steps: "[1]", ImageSHA256: "[]", NImages: 1, ImageBytes: 2, PackBytes: 3,
			LastK: 4, MaxImageSide: 5, MaxImages: 6, Guard: "g1", Provenance: Provenance{SrcFile: "f", SrcLine: 1}}
	}, "EpisodeID", "Condition")
}

func TestVerdictHashCoversEveryField(t *testing.T) {
	s := func(v string) *string { return &v }
	n := func(v int64) *int64 { return &v }
	f := func(v float64) *float64 { return &v }
	now := time.Unix(1, 0)
	hashCoversEveryField[Verdict](t, func() Verdict {
		return Verdict{EpisodeID: "ep1", Judge: "j", Condition: "c", Run: 1, Verdict: s("success"), Score: f(1),
			Confidence: f(0.5), Model: s("m"), CalledAt: &now, Extra: "{}", PackSHA256: s("p"), PromptSHA256: s("q"),
			LatencyMS: n(3), InputTokens: n(4), OutputTokens: n(5), Raw: s("r")}
	}, "EpisodeID", "Judge", "Condition", "Run")
}
