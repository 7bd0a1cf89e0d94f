package report

// writeCalibrationMarkdown writes the calibration and agreement sections.
func writeCalibrationMarkdown(p func(string, ...any), d *Document) {
	if len(d.Calibration) > 0 {
		p("## Calibration\n\nEach judge's probability of success (stated confidence, or a reward model's score) against ground truth; value {task-cluster bootstrap}.\n\n")
		p("| judge | condition | forecast | n | bins | Brier | ECE equal-width | ECE equal-mass |\n|---|---|---|--:|--:|---|---|---|\n")
		for _, c := range d.Calibration {
			p("| %s | %s | %s | %d | %d | %s | %s | %s |\n", md(c.Judge), c.Condition, c.Forecast, c.N, c.Bins, est(c.Brier), est(c.ECEWidth), est(c.ECEMass))
		}
		p("\n")
	}
	if a := d.Agreement; a != nil && (len(a.Runs) > 0 || len(a.Judges) > 0 || a.Human != nil) {
		p("## Agreement: Krippendorff's α\n\nNominal α, missing runs allowed; value {task-cluster bootstrap}.\n\n")
		p("| between | judge | condition | episodes | tasks | α |\n|---|---|---|--:|--:|---|\n")
		for _, r := range a.Runs {
			p("| runs | %s | %s | %d | %d | %s |\n", md(r.Judge), r.Condition, r.Units, r.Tasks, est(r.Alpha))
		}
		for _, r := range a.Judges {
			p("| %d judges |  | %s | %d | %d | %s |\n", r.Coders, r.Condition, r.Units, r.Tasks, est(r.Alpha))
		}
		if h := a.Human; h != nil {
			p("| human annotators |  |  | %d | %d | %s |\n", h.Units, h.Tasks, est(h.Alpha))
		}
		p("\n")
	}
}
