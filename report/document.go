package report

import "time"

// FormatVersion is the version of report.json's layout. Fields are only
// ever added; a renamed or removed field would raise it.
const FormatVersion = 1

// Document is everything a report shows; report.json is its JSON. Slices
// are empty (not null) when the lake has no data for a section, and
// pointer sections are null then: renderers show a section only when it has
// data.
type Document struct {
	Format       int           `json:"format"`
	Title        string        `json:"title"`
	Provenance   Provenance    `json:"provenance"`
	Summary      Summary       `json:"summary"`
	Judges       []JudgeRow    `json:"judges"`
	Strata       []StratumRow  `json:"strata"`
	ClaimSway    []Sway        `json:"claim_sway"`
	RewardModels []RewardModel `json:"reward_models"`
	// Calibration and Agreement are null in reports of versions before
	// them.
	Calibration []CalibrationRow `json:"calibration"`
	Agreement   *Agreement       `json:"agreement"`
	// CorrectedRates is null in reports of versions before it, and when
	// the lake has no judged episodes.
	CorrectedRates *CorrectedRates `json:"corrected_rates"`
	Trust          *Trust          `json:"trust"`
	Health         Health          `json:"health"`
	Checklists     []Checklist     `json:"checklists"`
	Gates          []GateResult    `json:"gates"`
	Warnings       []string        `json:"warnings"`
	// ViewURL is the `trustlake view` the HTML's counts link to (report
	// --view-url); absent when none.
	ViewURL string `json:"view_url,omitempty"`
}

// Provenance says what the report was computed from and how.
type Provenance struct {
	Version         string         `json:"trustlake_version"`
	Lake            string         `json:"lake"`
	ManifestVersion int64          `json:"manifest_version"`
	ManifestSHA256  string         `json:"manifest_sha256"`
	GeneratedAt     time.Time      `json:"generated_at"`
	Seed            uint64         `json:"seed"`
	Params          map[string]any `json:"params"`
	Baseline        *BaselineRef   `json:"baseline"`
}

// BaselineRef names the baseline a report was compared with.
type BaselineRef struct {
	Path            string `json:"path"`
	Kind            string `json:"kind"` // "lake" (paired tests possible) or "report" (report.json: two-sample tests)
	ManifestVersion int64  `json:"manifest_version"`
	ManifestSHA256  string `json:"manifest_sha256"`
}

// Summary is the line at the top of the report.
type Summary struct {
	Line               string `json:"line"`
	Compared           int    `json:"compared"`            // figures with a baseline value
	Tested             int    `json:"tested"`              // of those, figures with a significance test
	SignificantChanges int    `json:"significant_changes"` // tested figures whose change is significant
	Regressions        int    `json:"regressions"`         // significant changes in the bad direction
	Alpha              Num    `json:"alpha"`
	// Adjust is the family control of the change tests (bh, holm, none)
	// and Q its level: a change is significant when its adjusted p ≤ Q.
	// SignificantRaw counts the tested figures whose raw p ≤ Q (what an
	// unadjusted report would flag). Empty and null without a baseline.
	Adjust         string `json:"adjust"`
	Q              Num    `json:"q"`
	SignificantRaw int    `json:"significant_raw"`
}

// Estimate is one figure: its value, Wilson and task-cluster bootstrap
// intervals, the counts behind a proportion (K of N; N is 0 when the
// figure is not a proportion) and, with a baseline, its change.
type Estimate struct {
	Value  Num      `json:"value"`
	Wilson Interval `json:"wilson"`
	Boot   Interval `json:"boot"`
	K      int      `json:"k"`
	N      int      `json:"n"`
	Change *Change  `json:"change,omitempty"`
}

// Change is a figure's change against the baseline. Test is
// "paired_cluster_z" (paired: the same episodes on both sides, Paired
// true; the cluster-robust SE of the paired difference over tasks),
// "clustered_two_proportion_z" (unpaired proportions: the pooled z test
// times the design effect of both reports' task-cluster bootstrap
// intervals), "boot_z" (unpaired inflation: the SE from both reports'
// bootstrap intervals), "two_proportion_z" (unpaired, no bootstrap
// interval), or
// "none" (no test for this figure; Significant is then false); reports
// of earlier versions may hold "mcnemar_exact" or "welch_z". P is the raw
// two-sided p-value, PAdjusted the family-adjusted one (Summary.Adjust);
// Significant and Regression follow PAdjusted. SE is the standard error of
// Delta and CI its interval: the paired task-cluster bootstrap, or the
// normal interval Delta ± z·SE.
type Change struct {
	Baseline    Num      `json:"baseline"`
	Delta       Num      `json:"delta"`
	Test        string   `json:"test"`
	Paired      bool     `json:"paired"`
	P           Num      `json:"p"`
	PAdjusted   Num      `json:"p_adjusted"`
	SE          Num      `json:"se"`
	CI          Interval `json:"ci"`
	NPairs      int      `json:"n_pairs,omitempty"`
	Significant bool     `json:"significant"`
	Regression  bool     `json:"regression"`
}

// Tests of Change.Test.
const (
	TestPairedCluster    = "paired_cluster_z"
	TestBootZ            = "boot_z"
	TestClusteredTwoProp = "clustered_two_proportion_z"
	TestTwoProp          = "two_proportion_z"
	TestNone             = "none"
	// Tests of reports written by earlier versions.
	TestMcNemar = "mcnemar_exact"
	TestWelch   = "welch_z"
)

// JudgeRow holds the headline figures of one judge under one condition
// (natural episodes unless Provenance.Params says otherwise).
type JudgeRow struct {
	Judge           string   `json:"judge"`
	Condition       string   `json:"condition"`
	NEpisodes       int      `json:"n_episodes"`
	NPos            int      `json:"n_pos"`
	NNeg            int      `json:"n_neg"`
	TP              int      `json:"tp"`
	FP              int      `json:"fp"`
	TN              int      `json:"tn"`
	FN              int      `json:"fn"`
	NTasks          int      `json:"n_tasks"`
	FPR             Estimate `json:"fpr"`
	FDR             Estimate `json:"fdr"`
	TPR             Estimate `json:"tpr"`
	Inflation       Estimate `json:"inflation"`
	Kappa           Estimate `json:"kappa"`
	SelfConsistency Estimate `json:"self_consistency"`
	UncertainRate   Estimate `json:"uncertain_rate"`
	ParseErrorRate  Estimate `json:"parse_error_rate"`
}

// Strata dimensions of StratumRow.By.
const (
	ByCategory = "category"
	ByHardness = "hardness"
	BySource   = "source"
)

// StratumRow is the FPR of one judge × condition on one stratum of the
// GT failures: a failure category, hard or obvious failures, or one
// episode source (natural, weakened, perturbed: never mixed).
type StratumRow struct {
	Judge     string   `json:"judge"`
	Condition string   `json:"condition"`
	By        string   `json:"by"`
	Value     string   `json:"value"`
	NNeg      int      `json:"n_neg"`
	FP        int      `json:"fp"`
	FPR       Estimate `json:"fpr"`
}

// Sway is a judge's claim sway: FPR with the agent's final message
// (Claim condition) minus FPR without it (Base), paired on the same GT
// failures, with the exact McNemar p of the discordant pairs.
type Sway struct {
	Judge       string   `json:"judge"`
	Claim       string   `json:"claim_condition"`
	Base        string   `json:"base_condition"`
	NPairs      int      `json:"n_pairs"`
	B           int      `json:"b"` // accepted with the claim, rejected without
	C           int      `json:"c"`
	McNemarP    Num      `json:"mcnemar_p"`
	FPRClaim    Estimate `json:"fpr_claim"`
	FPRBase     Estimate `json:"fpr_base"`
	Sway        Estimate `json:"sway"`
	Significant bool     `json:"significant"`
}

// RewardModel is a score-only judge: its ROC curve and the threshold
// chosen by task-split cross-fitting at the FPR target, with held-out
// rates.
type RewardModel struct {
	Judge      string     `json:"judge"`
	Condition  string     `json:"condition"`
	TargetFPR  Num        `json:"fpr_target"`
	Threshold  Num        `json:"threshold"`
	Folds      int        `json:"folds"`
	NPos       int        `json:"n_pos"`
	NNeg       int        `json:"n_neg"`
	HeldOutFPR Estimate   `json:"heldout_fpr"`
	HeldOutTPR Estimate   `json:"heldout_tpr"`
	AUC        Estimate   `json:"roc_auc"`
	ROC        []ROCPoint `json:"roc"` // at most a few hundred points, from (0,0) to (1,1)
}

// ROCPoint is one point of a ROC curve.
type ROCPoint struct {
	FPR Num `json:"fpr"`
	TPR Num `json:"tpr"`
}

// Trust is the Trust Layer section: the funnel of recorded passes through
// D1–D4, the per-agent table (the paper's Table 5) and D4 reliability.
type Trust struct {
	D2Policy string `json:"d2_policy"`
	Repeats  int    `json:"repeats"`
	// Dimensions is the conjunction audited; Scope states the auditable
	// passes and what could not be checked; Notices name dimensions that
	// could check nothing (trust.Report's fields of the same names).
	Dimensions  []string     `json:"dimensions"`
	InfraPolicy string       `json:"infra_policy"`
	Scope       string       `json:"scope"`
	Notices     []string     `json:"notices"`
	Funnel      []Stage      `json:"funnel"`
	Agents      []TrustAgent `json:"agents"`
	Total       TrustAgent   `json:"total"`
}

// Stage is one step of the funnel: recorded passes still standing after
// the dimensions named.
type Stage struct {
	Name   string `json:"name"`
	Passes int    `json:"passes"`
}

// TrustAgent is one row of the Trust Layer table.
type TrustAgent struct {
	Benchmark      string   `json:"benchmark"`
	Agent          string   `json:"agent"`
	Results        int      `json:"results"`
	RecordedPasses int      `json:"recorded_passes"`
	RemovedD1      int      `json:"removed_d1"`
	RemovedD2      int      `json:"removed_d2"`
	RemovedD3      int      `json:"removed_d3"`
	RemovedD4      int      `json:"removed_d4"`
	Trusted        int      `json:"trusted"`
	TrustedRate    Estimate `json:"trusted_rate"`
	D4             D4       `json:"d4"`
}

// D4 summarises repeat reliability: recorded passes per D4 status and the
// variance decomposition of scores over tasks.
type D4 struct {
	Stable        int `json:"stable"`
	StableOther   int `json:"stable_other"`
	Varied        int `json:"varied"`
	Insufficient  int `json:"insufficient"`
	VariedRate    Num `json:"varied_rate"`
	Sigma2Between Num `json:"sigma2_between"`
	Sigma2Within  Num `json:"sigma2_within"`
	Rho           Num `json:"rho"`
	// The fields below are trust.D4Stats' of the same JSON names (absent
	// from reports of versions before them). Tasks have two or more valid
	// trials; VariedRateBoot is the task-cluster bootstrap interval of
	// VariedRate; PassHatK is pass^k for k = 1..PassK on the PassKTasks
	// tasks with at least PassK valid trials, PassHatKBoot the interval of
	// each (null when undefined).
	Tasks          int        `json:"tasks"`
	VariedRateBoot Interval   `json:"varied_rate_boot"`
	PassHatK       []Num      `json:"pass_hat_k"`
	PassHatKBoot   []Interval `json:"pass_hat_k_boot"`
	PassK          int        `json:"pass_k"`
	PassKTasks     int        `json:"pass_k_tasks"`
}

// Health is verifier and data health.
type Health struct {
	Lake        LakeHealth     `json:"lake"`
	Verifiers   VerifierHealth `json:"verifiers"`
	NeedsReview []ReviewCount  `json:"needs_review"`
}

// LakeHealth is the lake's manifest-level check (lake.CheckSizes: files
// present with their manifest sizes, orphans; no re-hashing).
type LakeHealth struct {
	Files    int              `json:"files"`
	Rows     map[string]int64 `json:"rows"`
	Problems []Problem        `json:"problems"`
	Damaged  bool             `json:"damaged"`
}

// Problem is one lake check finding.
type Problem struct {
	Path   string `json:"path"`
	Kind   string `json:"kind"`
	Detail string `json:"detail"`
	Damage bool   `json:"damage"`
}

// VerifierHealth counts verifier self-tests and ground-truth labels.
type VerifierHealth struct {
	Verifiers        int `json:"verifiers"`         // verifiers behind the ground truth
	Tested           int `json:"tested"`            // of those, with a pass and a fail fixture self-test recorded
	SelfTests        int `json:"selftests"`         // recorded fixture runs
	SelfTestFailures int `json:"selftest_failures"` // fixture runs whose verdict was not the expected one
	Nondeterministic int `json:"nondeterministic"`  // verifiers that disagreed with themselves (self-tests or ground truth)
	Episodes         int `json:"episodes"`
	WithoutGT        int `json:"episodes_without_gt"` // no label: verifier error, nondeterministic, or never verified
}

// ReviewCount counts GT failures whose category needs human review, by
// raw category.
type ReviewCount struct {
	Raw      string `json:"category_raw"`
	Episodes int    `json:"episodes"`
}

// Checklist is one "usable as a training signal" checklist.
type Checklist struct {
	Judge      string          `json:"judge"`
	Condition  string          `json:"condition"`
	Pass       bool            `json:"pass"`
	Failed     int             `json:"failed"`
	NotChecked int             `json:"not_checked"`
	Items      []ChecklistItem `json:"items"`
}

// ChecklistItem is one line of a checklist.
type ChecklistItem struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Status string `json:"status"` // pass, fail, not_checked
	Figure string `json:"figure"`
	Reason string `json:"reason,omitempty"`
}

// GateResult is one --fail-on expression and whether it fired.
type GateResult struct {
	Expr    string   `json:"expr"`
	Failed  bool     `json:"failed"`
	Matched int      `json:"matched"` // figures the expression selected
	Fired   []string `json:"fired"`   // the figures that satisfied it, with their value
}
