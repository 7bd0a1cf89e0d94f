package report

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Gate is a parsed --fail-on expression:
//
//	NAME[{LABEL="VALUE",...}][.FIELD] OP NUMBER
//
// NAME is a figure (FigureNames), FIELD one of value (the default),
// wilson_lo, wilson_hi, boot_lo, boot_hi, k, n, baseline, delta, p,
// significant, regression; OP one of > >= < <= == !=. The labels select
// the figures whose labels have those values (labels not given match
// anything). The gate fails when any selected figure's field satisfies the
// comparison; undefined (null) fields never do.
type Gate struct {
	Expr   string
	Name   string
	Labels map[string]string
	Field  string
	Op     string
	Number float64
}

// GateError is a gate expression that does not parse: Pos is the 1-based
// character position of the problem.
type GateError struct {
	Expr string
	Pos  int
	Msg  string
}

func (e *GateError) Error() string {
	return fmt.Sprintf("--fail-on %q: position %d: %s", e.Expr, e.Pos, e.Msg)
}

var gateOps = []string{">=", "<=", "==", "!=", ">", "<"}

// gateParser reads one expression; pos indexes runes.
type gateParser struct {
	src []rune
	pos int
	in  string
}

func (p *gateParser) fail(format string, args ...any) error {
	return &GateError{Expr: p.in, Pos: p.pos + 1, Msg: fmt.Sprintf(format, args...)}
}

func (p *gateParser) space() {
	for p.pos < len(p.src) && (p.src[p.pos] == ' ' || p.src[p.pos] == '\t') {
		p.pos++
	}
}

func isIdent(r rune, first bool) bool {
	return r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (!first && r >= '0' && r <= '9')
}

func (p *gateParser) ident(what string) (string, error) {
	p.space()
	start := p.pos
	for p.pos < len(p.src) && isIdent(p.src[p.pos], p.pos == start) {
		p.pos++
	}
	if p.pos == start {
		if p.pos >= len(p.src) {
			return "", p.fail("want %s, got the end of the expression", what)
		}
		return "", p.fail("want %s, got %q", what, string(p.src[p.pos]))
	}
	return string(p.src[start:p.pos]), nil
}

func (p *gateParser) peek() rune {
	p.space()
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

func (p *gateParser) str() (string, error) {
	if p.peek() != '"' {
		return "", p.fail("want a double-quoted value")
	}
	start := p.pos
	p.pos++
	var b strings.Builder
	for p.pos < len(p.src) {
		r := p.src[p.pos]
		switch r {
		case '"':
			p.pos++
			return b.String(), nil
		case '\\':
			if p.pos+1 < len(p.src) {
				p.pos++
				r = p.src[p.pos]
			}
		}
		b.WriteRune(r)
		p.pos++
	}
	p.pos = start
	return "", p.fail("unterminated string")
}

// ParseGate parses a --fail-on expression. Errors are *GateError naming
// the position.
func ParseGate(expr string) (Gate, error) {
	p := &gateParser{src: []rune(expr), in: expr}
	g := Gate{Expr: expr, Field: "value", Labels: map[string]string{}}
	nameAt := p.pos
	name, err := p.ident("a figure name such as fpr or trusted_rate")
	if err != nil {
		return g, err
	}
	if !slices.Contains(FigureNames(), name) {
		p.pos = nameAt
		p.space()
		return g, p.fail("unknown figure %q; known: %s", name, strings.Join(FigureNames(), ", "))
	}
	g.Name = name
	if p.peek() == '{' {
		p.pos++
		for p.peek() != '}' {
			if len(g.Labels) > 0 {
				if p.peek() != ',' {
					return g, p.fail("want ',' or '}' in the label list")
				}
				p.pos++
			}
			label, err := p.ident("a label name such as judge")
			if err != nil {
				return g, err
			}
			if p.peek() != '=' {
				return g, p.fail("want '=' after label %s", label)
			}
			p.pos++
			v, err := p.str()
			if err != nil {
				return g, err
			}
			g.Labels[label] = v
		}
		p.pos++
	}
	if p.peek() == '.' {
		p.pos++
		at := p.pos
		f, err := p.ident("a field name")
		if err != nil {
			return g, err
		}
		if !slices.Contains(fieldNames, f) {
			p.pos = at
			return g, p.fail("unknown field %q; known: %s", f, strings.Join(fieldNames, ", "))
		}
		g.Field = f
	}
	p.space()
	rest := string(p.src[p.pos:])
	for _, op := range gateOps {
		if strings.HasPrefix(rest, op) {
			g.Op = op
			break
		}
	}
	if g.Op == "" {
		if p.pos >= len(p.src) {
			return g, p.fail("want a comparison (> >= < <= == !=), got the end of the expression")
		}
		return g, p.fail("want a comparison (> >= < <= == !=)")
	}
	p.pos += len(g.Op)
	p.space()
	start := p.pos
	for p.pos < len(p.src) && strings.ContainsRune("+-.0123456789eE", p.src[p.pos]) {
		p.pos++
	}
	num := string(p.src[start:p.pos])
	x, err := strconv.ParseFloat(num, 64)
	if err != nil || num == "" {
		p.pos = start
		return g, p.fail("want a number")
	}
	g.Number = x
	p.space()
	if p.pos < len(p.src) {
		return g, p.fail("unexpected %q after the number", string(p.src[p.pos:]))
	}
	return g, nil
}

// ErrNoFigure is returned by Eval when a gate selects no figure: a gate
// that checks nothing would pass silently.
type ErrNoFigure struct{ Expr string }

func (e *ErrNoFigure) Error() string {
	return fmt.Sprintf("--fail-on %q selects no figure of this report", e.Expr)
}

func (g Gate) selects(f Figure) bool {
	if f.Name != g.Name {
		return false
	}
	for k, v := range g.Labels {
		if f.Labels[k] != v {
			return false
		}
	}
	return true
}

func (g Gate) holds(x float64) bool {
	switch g.Op {
	case ">":
		return x > g.Number
	case ">=":
		return x >= g.Number
	case "<":
		return x < g.Number
	case "<=":
		return x <= g.Number
	case "==":
		return x == g.Number
	}
	return x != g.Number
}

// Eval evaluates the gate over figs. It returns *ErrNoFigure when the
// gate selects nothing.
func (g Gate) Eval(figs []Figure) (GateResult, error) {
	res := GateResult{Expr: g.Expr, Fired: []string{}}
	for _, f := range figs {
		if !g.selects(f) {
			continue
		}
		res.Matched++
		x := f.Fields[g.Field]
		if x.Defined() && g.holds(float64(x)) {
			res.Fired = append(res.Fired, fmt.Sprintf("%s.%s = %s", f, g.Field, strconv.FormatFloat(float64(x), 'g', 6, 64)))
		}
	}
	if res.Matched == 0 {
		return res, &ErrNoFigure{Expr: g.Expr}
	}
	res.Failed = len(res.Fired) > 0
	return res, nil
}

// ApplyGates evaluates gates over doc's figures and the checklists'
// verdicts into doc.Gates, and returns the expressions that failed. It
// stops with *ErrNoFigure at the first gate that selects nothing.
func ApplyGates(doc *Document, gates []Gate) ([]string, error) {
	figs := doc.Figures()
	var failed []string
	for _, g := range gates {
		res, err := g.Eval(figs)
		if err != nil {
			return nil, err
		}
		doc.Gates = append(doc.Gates, res)
		if res.Failed {
			failed = append(failed, g.Expr)
		}
	}
	for _, c := range doc.Checklists {
		expr := "--checklist " + c.Judge + "@" + c.Condition
		res := GateResult{Expr: expr, Failed: !c.Pass, Matched: 1, Fired: []string{}}
		if !c.Pass {
			res.Fired = append(res.Fired, fmt.Sprintf("%d failed, %d not checked", c.Failed, c.NotChecked))
			failed = append(failed, expr)
		}
		doc.Gates = append(doc.Gates, res)
	}
	return failed, nil
}
