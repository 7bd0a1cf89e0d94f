// Package stats implements the statistics trustlake reports, over plain Go
// values.
//
// It imports only the standard library. Callers (package queries) compute
// per-task sufficient statistics in SQL and hand them here, so costs grow
// with the number of tasks, not with the number of rows. Functions that can
// be undefined on their input return NaN, which callers render as null.
//
//   - Proportions and sample size: Wilson, WilsonHalfWidth,
//     NegativesForHalfWidth, SmallestN, NormalQuantile, NormalCDF, TwoProportionZ,
//     WelchZ, ZTest, and for clustered data MeanCR1, DiffMeansCR1,
//     DesignEffect, ClusteredTwoProportionZ; AdjustP for families of tests.
//   - Corrected success rates (prediction-powered inference, PPI and PPI++,
//     as ppi-python's ppi_mean_ci) and label planning: PPIMean,
//     PPIMeanTuned, ClassicalMean, PPIBootstrap, PPILabelsForHalfWidth, and
//     the labelled-versus-unlabelled mix test CompareMix.
//   - Paired tests and power: McNemarExact, PairedPower, PairedPowerExact.
//   - Agreement and calibration: CohenKappa, FleissKappa, ClusterAlpha
//     (Krippendorff), Calibrate, Reliability, ClusterCalibration.
//   - Task-clustered percentile bootstrap, one engine (seeded: resample r
//     draws from its own stream of (seed, r) over the clusters sorted by id;
//     independent of the number of goroutines; no state kept between
//     calls): ClusterBootstrap, ClusterBootstrapN, ClusterCounts,
//     BootstrapSums, BootstrapRatios, Percentiles, SumDot.
//   - Reward-model scores and thresholds: ROCAUC, ROCCurve,
//     CrossFitThreshold.
//   - Trust Layer D4 (repeat stability): OneWayVariance, PassHatK.
//
// Every function is safe for concurrent use; none keeps its arguments.
// Reference values in testdata/reference.json come from statsmodels and
// scipy (testdata/reference.py).
package stats
