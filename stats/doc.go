// Package stats implements the statistics trustlake reports, over plain Go
// values.
//
// It imports only the standard library. Callers (package queries) compute
// per-task sufficient statistics in SQL and hand them here, so costs grow
// with the number of tasks, not with the number of rows. Functions that can
// be undefined on their input return NaN, which callers render as null.
//
// Proportions and sample size:
//
//	Wilson(k, n int, alpha float64) (lo, hi float64)
//	WilsonHalfWidth(p float64, n int, alpha float64) float64
//	NegativesForHalfWidth(p, w, alpha float64) int
//	NormalQuantile(p float64) float64
//	NormalCDF(x float64) float64
//
// Corrected success rates (prediction-powered inference, PPI and PPI++, as
// ppi-python's ppi_mean_ci), their task-cluster bootstrap, label planning
// and the labelled-versus-unlabelled mix test:
//
//	PPIMean(s PPISums, lambda, alpha float64) PPIEstimate
//	PPIMeanTuned(s PPISums, alpha float64) PPIEstimate
//	ClassicalMean(n, sum, sumsq, alpha float64) PPIEstimate
//	PPIBootstrap(ids []string, cells []PPISums, opts BootstrapOptions) (PPIBoot, error)
//	PPILabelsForHalfWidth(a PPIAgreement, w, alpha float64, episodes int) (PPILabelPlan, error)
//	CompareMix(a, b []float64) MixDifference
//
// Paired tests and power:
//
//	McNemarExact(b, c int) float64
//	PairedPower(stop <-chan struct{}, fprA, fprB float64, n int, discordance, alpha float64, sims int, seed uint64) (float64, error)
//	PairedPowerExact(stop <-chan struct{}, fprA, fprB float64, n int, discordance, alpha float64) (float64, error)
//
// Agreement:
//
//	CohenKappa(tp, fp, fn, tn int) float64
//	FleissKappa(counts [][]int) float64
//
// Task-clustered percentile bootstrap, one engine (seeded: resample r
// draws from its own stream of (seed, r) over the clusters sorted by id;
// independent of the number of goroutines; no state kept between calls):
//
//	ClusterBootstrap(ids []string, stat func(idx []int) float64, opts BootstrapOptions) (Interval, error)
//	ClusterCounts(ids []string, opts BootstrapOptions, fn func(worker, r int, counts []int)) error
//	BootstrapSums(ids []string, groups []SumGroup, opts BootstrapOptions) ([][]Interval, error)
//	BootstrapRatios(ids []string, stats []RatioStat, opts BootstrapOptions) ([]Interval, error)
//	Percentiles(vals []float64, alpha float64) Interval
//	SumDot(w, x []float64) float64
//
// Reward-model scores and thresholds:
//
//	ROCAUC(scores []float64, positive []bool) float64
//	ThresholdForFPR(negScores []float64, target float64) float64
//	CrossFitThreshold(items []Scored, opts CrossFitOptions) (CrossFit, error)
//
// Trust Layer D4 (repeat stability):
//
//	OneWayVariance(groups [][]float64) (between, within, rho float64)
//	PassHatK(c, n []int, k int) float64
//	Binomial(n, k int) float64
//
// Every function is safe for concurrent use; none keeps its arguments.
// Reference values in testdata/reference.json come from statsmodels and
// scipy (testdata/reference.py).
package stats
