package schema

import (
	"reflect"
	"testing"
)

// lakeRow mirrors lake.RowPtr (schema must not import lake).
type lakeRow interface {
	Key() string
	KeyHash() [2]uint64
	Hash() uint64
	Partition() []string
	Where() (string, int64)
	SetPartition([]string)
}

var _ lakeRow = (*Trust)(nil)

func sampleTrust() Trust {
	b, s, f := true, "critical", 0.25
	return Trust{
		ResultID: "tb/a/1/0", Benchmark: "tb", TaskID: "1", Agent: "a", Trial: 0, RecordedScore: 1, RecordedPass: true,
		D1Outcome: D1Confirm, D1Regraded: &b, D1FailedGate: &s, D2Status: D2Clean, D2Values: 3, D2Derived: 2, D2Given: 1,
		D3Claim: ClaimCompletion, D3Severity: &s, D4Status: D4Stable, D4Tier: TierPass, D4RepeatTier: &s, D4Repeats: 4,
		D4Gap: &f, Trusted: true, Reasons: `{"d1":"ok"}`,
		D1Check: CheckPassed, D1CheckReason: &s, D2Check: CheckNotCheckable, D2CheckReason: &s, D3Check: CheckPassed,
		D3CheckReason: &s, D4Check: CheckFailed, D4CheckReason: &s, Dimensions: "D1,D3,D4", Auditable: true,
		InfraError: &s, InfraPolicy: "exclude",
		Provenance: Provenance{SrcFile: "x.json", SrcLine: 2},
	}
}

// TestTrustHashCoversEveryField changes each stored field in turn: the
// content hash must change, except for provenance; the key hash depends on
// result_id only.
func TestTrustHashCoversEveryField(t *testing.T) {
	base := sampleTrust()
	h0, k0 := base.Hash(), base.KeyHash()
	typ := reflect.TypeOf(base)
	for i := 0; i < typ.NumField(); i++ {
		f := typ.Field(i)
		mod := sampleTrust()
		v := reflect.ValueOf(&mod).Elem().Field(i)
		switch v.Kind() {
		case reflect.String:
			v.SetString(v.String() + "x")
		case reflect.Int64:
			v.SetInt(v.Int() + 1)
		case reflect.Float64:
			v.SetFloat(v.Float() + 1)
		case reflect.Bool:
			v.SetBool(!v.Bool())
		case reflect.Pointer:
			v.Set(reflect.Zero(v.Type())) // nil differs from every value
		case reflect.Struct: // Provenance
			mod.SrcFile, mod.SrcLine = "other.json", 9
			if got := mod.Hash(); got != h0 {
				t.Errorf("provenance changes the content hash")
			}
			continue
		default:
			t.Fatalf("field %s: kind %s not covered by this test", f.Name, v.Kind())
		}
		if mod.Hash() == h0 {
			t.Errorf("field %s: content hash unchanged", f.Name)
		}
		if got := mod.KeyHash() != k0; got != (f.Name == "ResultID") {
			t.Errorf("field %s: key hash changed = %v", f.Name, got)
		}
	}
}

func TestTrustPartition(t *testing.T) {
	r := sampleTrust()
	if got, want := r.Partition(), []string{"tb"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Partition() = %v, want %v", got, want)
	}
	r.SetPartition([]string{"other"})
	if got, want := r.Benchmark, "other"; got != want {
		t.Errorf("after SetPartition: Benchmark = %q, want %q", got, want)
	}
	if got, want := r.Key(), "tb/a/1/0"; got != want {
		t.Errorf("Key() = %q, want %q", got, want)
	}
	if f, l := r.Where(); f != "x.json" || l != 2 {
		t.Errorf("Where() = %s:%d", f, l)
	}
}
