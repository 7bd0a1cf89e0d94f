package report

import (
	"errors"
	"strings"
	"testing"
)

func TestParseGate(t *testing.T) {
	cases := []struct {
		expr   string
		name   string
		labels map[string]string
		field  string
		op     string
		num    float64
	}{
		{`fpr{judge="vlm:x",condition="E2-lastk"}.wilson_hi > 0.10`, "fpr", map[string]string{"judge": "vlm:x", "condition": "E2-lastk"}, "wilson_hi", ">", 0.10},
		{`trusted_rate.value < 0.2`, "trusted_rate", map[string]string{}, "value", "<", 0.2},
		{`regressions > 0`, "regressions", map[string]string{}, "value", ">", 0},
		{`  fpr_hardness { hardness = "hard" } . p<=1e-3 `, "fpr_hardness", map[string]string{"hardness": "hard"}, "p", "<=", 1e-3},
		{`claim_sway{judge="a \"quoted\", judge"}!=-0.5`, "claim_sway", map[string]string{"judge": `a "quoted", judge`}, "value", "!=", -0.5},
		{`fpr{}.delta>=0`, "fpr", map[string]string{}, "delta", ">=", 0},
	}
	for _, c := range cases {
		g, err := ParseGate(c.expr)
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		if g.Name != c.name || g.Field != c.field || g.Op != c.op || g.Number != c.num || len(g.Labels) != len(c.labels) {
			t.Errorf("%s: got %+v", c.expr, g)
		}
		for k, v := range c.labels {
			if g.Labels[k] != v {
				t.Errorf("%s: label %s = %q, want %q", c.expr, k, g.Labels[k], v)
			}
		}
	}
}

func TestParseGateErrorsNamePosition(t *testing.T) {
	cases := []struct {
		expr string
		pos  int
		msg  string
	}{
		{`fpx > 1`, 1, `unknown figure "fpx"`},
		{`fpr{judge="a" condition="b"} > 1`, 15, "want ',' or '}'"},
		{`fpr{judge=a} > 1`, 11, "want a double-quoted value"},
		{`fpr{judge="a} > 1`, 11, "unterminated string"},
		{`fpr.wilson > 1`, 5, `unknown field "wilson"`},
		{`fpr{judge="a"}.value`, 21, "want a comparison"},
		{`fpr => 1`, 5, "want a comparison"},
		{`fpr > x`, 7, "want a number"},
		{`fpr > 1 and tpr < 2`, 9, "unexpected"},
		{``, 1, "want a figure name"},
		{`fpr{judge}`, 10, "want '=' after label judge"},
	}
	for _, c := range cases {
		_, err := ParseGate(c.expr)
		var ge *GateError
		if !errors.As(err, &ge) {
			t.Errorf("%q: err = %v, want a GateError", c.expr, err)
			continue
		}
		if ge.Pos != c.pos || !strings.Contains(ge.Msg, c.msg) {
			t.Errorf("%q: position %d %q, want position %d containing %q", c.expr, ge.Pos, ge.Msg, c.pos, c.msg)
		}
		if !strings.Contains(err.Error(), "position") {
			t.Errorf("%q: message %q does not name the position", c.expr, err)
		}
	}
}

func TestGateEval(t *testing.T) {
	doc := sampleDocument()
	figs := doc.Figures()
	cases := []struct {
		expr   string
		failed bool
		fired  int
	}{
		{`fpr{judge="j1",condition="E2-lastk"}.wilson_hi > 0.10`, true, 1},
		{`fpr{judge="j1",condition="E2-lastk"}.wilson_hi > 0.9`, false, 0},
		{`fpr.value > 0.2`, true, 1},          // j1 0.25, j2 0.1: one fires
		{`fpr.value >= 0.1`, true, 2},         // both
		{`kappa.wilson_lo < 1`, false, 0},     // undefined fields never fire
		{`trusted_rate.value < 0.5`, true, 2}, // the agent and the total
		{`trusted_rate{benchmark="all"}.value < 0.5`, true, 1},
		{`regressions > 0`, false, 0},
		{`lake_problems == 0`, true, 1},
		{`fpr_hardness{hardness="hard"}.k == 6`, true, 1},
	}
	for _, c := range cases {
		g, err := ParseGate(c.expr)
		if err != nil {
			t.Fatalf("%s: %v", c.expr, err)
		}
		res, err := g.Eval(figs)
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		if res.Failed != c.failed || len(res.Fired) != c.fired {
			t.Errorf("%s: failed %v fired %v, want %v and %d", c.expr, res.Failed, res.Fired, c.failed, c.fired)
		}
	}
	g, _ := ParseGate(`fpr{judge="nobody"} > 0`)
	var nf *ErrNoFigure
	if _, err := g.Eval(figs); !errors.As(err, &nf) {
		t.Errorf("gate selecting nothing: err = %v, want ErrNoFigure", err)
	}
}

func FuzzParseGate(f *testing.F) {
	for _, s := range []string{`fpr{judge="a",condition="b"}.wilson_hi > 0.1`, `regressions > 0`, `x{`, `fpr{a="\`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		g, err := ParseGate(s)
		if err != nil {
			var ge *GateError
			if !errors.As(err, &ge) || ge.Pos < 1 || ge.Pos > len([]rune(s))+1 {
				t.Fatalf("%q: error %v has no position inside the expression", s, err)
			}
			return
		}
		if g.Op == "" || g.Name == "" {
			t.Fatalf("%q parsed without a name or operator: %+v", s, g)
		}
	})
}
