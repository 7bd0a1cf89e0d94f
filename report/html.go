package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"net/url"
	"strings"
)

//go:embed report.html.tmpl
var htmlTemplate string

// htmlView is what the template renders: the document and its charts.
type htmlView struct {
	*Document
	Base      bool
	FPRChart  template.HTML
	Strata    []strataView
	SwayChart template.HTML
	ROC       []template.HTML
	Diagrams  []template.HTML // reliability diagrams, one per calibration row
	Funnel    template.HTML
	D4Chart   template.HTML
}

type strataView struct {
	By    string
	Chart template.HTML
	Rows  []StratumRow
}

// WriteHTML writes report.html: one self-contained file (inline CSS and
// SVG, no script, nothing fetched).
func WriteHTML(w io.Writer, d *Document) error {
	t, err := template.New("report").Funcs(template.FuncMap{
		"est": est, "chg": chg, "chgClass": chgClass, "num": num, "pval": pString,
		"pass": passWord, "join": strings.Join,
		"view": func(judge, condition, outcome, by, value string) string {
			return viewLink(d, judge, condition, outcome, by, value)
		},
		"rate": rateCell, "lambda": lambdaString, "labels": labelsWorth, "passk": passHatK,
		"boot": func(iv Interval) string { return ivString(iv, "{", "}") },
		"time": func(p Provenance) string { return p.GeneratedAt.Format("2006-01-02 15:04:05Z07:00") },
	}).Parse(htmlTemplate)
	if err != nil {
		return fmt.Errorf("parse report template: %w", err)
	}
	v := htmlView{Document: d, Base: d.Provenance.Baseline != nil}
	if len(d.Judges) > 0 {
		var rows []forestRow
		for _, r := range d.Judges {
			rows = append(rows, forestEstimate(r.Judge+" @ "+r.Condition, r.FPR))
		}
		v.FPRChart = template.HTML(forest("False-positive rate by judge and condition", rows, 0, 1, -1))
	}
	for _, by := range []string{ByHardness, ByCategory, BySource} {
		sv := strataView{By: by}
		var rows []forestRow
		last := ""
		for _, s := range d.Strata {
			if s.By != by {
				continue
			}
			if g := s.Judge + " @ " + s.Condition; g != last {
				rows = append(rows, forestRow{Label: g, Group: true})
				last = g
			}
			sv.Rows = append(sv.Rows, s)
			rows = append(rows, forestEstimate(s.Value, s.FPR))
		}
		if len(sv.Rows) > 0 {
			sv.Chart = template.HTML(forest("FPR by "+by, rows, 0, 1, -1))
			v.Strata = append(v.Strata, sv)
		}
	}
	if len(d.ClaimSway) > 0 {
		var rows []forestRow
		for _, s := range d.ClaimSway {
			r := forestEstimate(s.Judge, s.Sway)
			r.Bad = s.Significant
			rows = append(rows, r)
		}
		v.SwayChart = template.HTML(forest("Claim sway: FPR(E2+claim) − FPR(E2-lastk)", rows, -0.5, 0.5, 0))
	}
	for _, r := range d.RewardModels {
		op := ROCPoint{FPR: r.HeldOutFPR.Value, TPR: r.HeldOutTPR.Value}
		v.ROC = append(v.ROC, template.HTML(roc("ROC "+r.Judge+" @ "+r.Condition, r.ROC, op)))
	}
	for _, c := range d.Calibration {
		v.Diagrams = append(v.Diagrams, template.HTML(reliability("Reliability "+c.Judge+" @ "+c.Condition+" ("+c.Forecast+")", c.Reliability)))
	}
	if t := d.Trust; t != nil {
		v.Funnel = template.HTML(bars("Trust Layer funnel: recorded passes left", t.Funnel))
		v.D4Chart = template.HTML(stacked("D4 tiers of recorded passes", t.Agents))
	}
	return t.Execute(w, v)
}

// forestEstimate is a forest row for an estimate, marked when its change
// is a regression.
func forestEstimate(label string, e Estimate) forestRow {
	r := forestRow{Label: label, Value: e.Value, Wilson: e.Wilson, Boot: e.Boot, Baseline: NaN()}
	if c := e.Change; c != nil {
		r.Bad = c.Regression
		r.Baseline = c.Baseline
		r.Note = chg(e)
	}
	return r
}

// viewLink returns the `trustlake view` URL of the episodes behind a count
// of the report (judge × condition, an outcome, a stratum), or "" without a
// viewer URL (Document.ViewURL). The list uses the report's source and
// uncertain policy, so its length is the count.
func viewLink(d *Document, judge, condition, outcome, by, value string) string {
	if d.ViewURL == "" {
		return ""
	}
	q := url.Values{"judge": {judge}, "condition": {condition}}
	if outcome != "" {
		q.Set("outcome", outcome)
	}
	source := "natural"
	if s, ok := d.Provenance.Params["source"].(string); ok && s != "" {
		source = s
	}
	if p, ok := d.Provenance.Params["uncertain_policy"].(string); ok && p != "" {
		q.Set("uncertain", p)
	}
	switch by {
	case ByHardness:
		q.Set("hardness", value)
	case ByCategory:
		if strings.HasPrefix(value, "(") {
			return "" // (pass) and (none) are not one category
		}
		q.Set("category", value)
	case BySource:
		source = value
	}
	q.Set("source", source)
	return strings.TrimSuffix(d.ViewURL, "/") + "/episodes?" + q.Encode()
}
