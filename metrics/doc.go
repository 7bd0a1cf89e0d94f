// Package metrics measures judges against ground truth: per judge ×
// condition × stratum confusion counts, false-positive and related rates
// with Wilson and task-clustered bootstrap intervals (Run), paired
// comparisons of two judges or conditions (Compare), reward-model
// thresholds by cross-fitting (Threshold), sample-size and power planning
// (PlanNegatives, PlanPower) and the "usable as a training signal"
// checklist (Checklist).
//
// The heavy work is SQL in package queries (sql/metrics_*.sql): runs are
// reduced to one majority verdict per (judge, condition, episode) and
// summed into per-task cells. This package turns the cells into metrics with
// package stats, so its cost grows with the number of tasks and strata, not
// with the number of verdict rows. Bootstrap resampling is seeded: the same
// lake and options give the same report, byte for byte.
//
// Results are plain structs with stable JSON names (see README.md in this
// folder); undefined values are NaN in Go and null in JSON, never NaN.
package metrics
