package sim

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseAgents(t *testing.T) {
	cases := []struct {
		in      []string
		want    []Agent
		wantErr bool
	}{
		{[]string{"sim:agent-strong", "sim:agent-weak"}, DefaultAgents(), false},
		{[]string{"sim:a=2.5", " sim:b = "}, nil, true},
		{[]string{"sim:a=2.5", "sim:b"}, []Agent{{"sim:a", 2.5}, {"sim:b", 0}}, false},
		{[]string{"sim:a=high"}, nil, true},
	}
	for _, tc := range cases {
		got, err := ParseAgents(tc.in)
		if (err != nil) != tc.wantErr || (err != nil && !errors.Is(err, ErrOptions)) {
			t.Errorf("ParseAgents(%q) error = %v, want error %v", tc.in, err, tc.wantErr)
			continue
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("ParseAgents(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
}

func TestParseSources(t *testing.T) {
	m := DefaultModel()
	if err := ParseSources(m, []string{"natural=0.5", "perturbed=0.5"}); err != nil {
		t.Fatal(err)
	}
	if got, want := [3]float64{m.ShareNatural, m.ShareWeakened, m.SharePerturbed}, [3]float64{0.5, 0, 0.5}; got != want {
		t.Errorf("shares = %v, want %v", got, want)
	}
	for _, bad := range []string{"natural", "synthetic=1", "natural=x"} {
		if err := ParseSources(DefaultModel(), []string{bad}); !errors.Is(err, ErrOptions) {
			t.Errorf("ParseSources(%q) = %v, want ErrOptions", bad, err)
		}
	}
}

func TestParseJudges(t *testing.T) {
	js, err := ParseJudges([]string{"sim:vlm-a", "sim:rm-2"})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := []string{js[0].Kind, js[1].Kind}, []string{KindVLM, KindRewardModel}; !cmp.Equal(got, want) {
		t.Errorf("kinds = %v, want %v", got, want)
	}
	if _, err := ParseJudges([]string{"gpt-4o"}); !errors.Is(err, ErrOptions) {
		t.Errorf("ParseJudges(gpt-4o) = %v, want ErrOptions", err)
	}
}
