// Package report renders a nightly report of a lake: report.json (stable,
// documented in the README), report.md and report.html, one self-contained
// file whose charts are inline SVG drawn here (no scripts from elsewhere, no
// network, no fonts). It also compares a report with a baseline report
// (Diff: the change of every headline figure and whether it is
// statistically significant) and evaluates gates (ParseGate, Gate.Eval)
// over the figures of a report.
//
// The package computes nothing from the lake: package cmd fills a Document
// from the typed results of metrics and trust and hands it here.
package report
