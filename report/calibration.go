package report

// CalibrationRow is the calibration of one judge × condition's probability
// of success (Forecast: a verdict's stated confidence, or a reward model's
// score) against ground truth: Brier score and expected calibration error
// over Bins equal-width and Bins equal-mass bins, each with a task-cluster
// bootstrap interval (Wilson null), and the equal-width bins of the
// reliability diagram.
type CalibrationRow struct {
	Judge       string           `json:"judge"`
	Condition   string           `json:"condition"`
	Forecast    string           `json:"forecast"`
	N           int              `json:"n"`
	Tasks       int              `json:"tasks"`
	Bins        int              `json:"bins"`
	Brier       Estimate         `json:"brier"`
	ECEWidth    Estimate         `json:"ece_equal_width"`
	ECEMass     Estimate         `json:"ece_equal_mass"`
	Reliability []ReliabilityBin `json:"reliability"`
}

// ReliabilityBin is one bin of a reliability diagram: forecasts in [Lo,
// Hi), their mean and the share of episodes that passed (null when empty).
type ReliabilityBin struct {
	Lo    Num `json:"lo"`
	Hi    Num `json:"hi"`
	N     int `json:"n"`
	MeanP Num `json:"mean_forecast"`
	FracY Num `json:"frac_pass"`
}

// Agreement is nominal Krippendorff's α between each judge × condition's
// runs, between the judges under each condition, and between human
// annotators (null without episodes judged by two or more), each with a
// task-cluster bootstrap interval.
type Agreement struct {
	Runs   []AlphaRow `json:"runs"`
	Judges []AlphaRow `json:"judges"`
	Human  *AlphaRow  `json:"human"`
}

// AlphaRow is one α over Units pairable episodes of Tasks tasks (Coders:
// the most judges one episode had, between judges only).
type AlphaRow struct {
	Judge     string   `json:"judge,omitempty"`
	Condition string   `json:"condition,omitempty"`
	Units     int      `json:"units"`
	Tasks     int      `json:"tasks"`
	Coders    int      `json:"coders,omitempty"`
	Alpha     Estimate `json:"alpha"`
}
