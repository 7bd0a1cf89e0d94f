// Package judge builds evidence packs (seed §3.5) and runs model judges and
// reward models on them: every judge of a condition gets the byte-identical
// pack, recorded by its sha256 in the lake's evidence table; verdicts are
// committed to the lake in atomic batches as they arrive, so a run can be
// killed and resumed.
//
// The files: condition.go (conditions and pack options), pack.go (the pack
// and its canonical encoding), image.go (PNG downsampling), build.go (packs
// from lake rows and episode folders), guard.go (the leakage guard),
// store.go (content-addressed pack files), prompt.go (the rubric),
// backend_*.go (one wire format each), strict.go (the strict JSON decoding
// of replies and envelopes), redact.go (secrets kept out of messages and
// the lake), parse.go (the reply), runner.go, run.go and commit.go (the
// resumable runner). docs/judges-hardening.md lists every cap.
package judge
