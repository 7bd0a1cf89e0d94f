// Package nightly builds the nightly report from a lake: every section
// (judges, strata, claim sway, reward models, Trust Layer, health,
// checklists) as a report.Document, and its comparison with a baseline
// (a previous report or lake) with change tests. Rendering and gates are
// package report's; cmd/trustlake wires flags to Options.
package nightly
