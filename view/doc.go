// Package view is `trustlake view`: a local web application over the lake
// and its JSON API. It reads the lake through the same query layer as the
// metrics (package queries, one DuckDB session per manifest version) and
// computes the overview with metrics.Run, so every figure it shows is the
// figure `trustlake metrics` prints. With Options.Review it also records
// human reviews (table reviews) through the lake's normal atomic batch.
//
// Everything it serves is embedded (templates, CSS, a small script); no
// request leaves the machine. Files are served by content hash, and only
// hashes the lake records (evidence packs, their images, screenshots of
// actions). See docs/viewer.md.
package view
