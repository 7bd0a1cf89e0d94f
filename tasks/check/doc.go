// Package check evaluates a task's declarative checks against a final state
// and combines them into a verifier verdict (the gt.json shape).
//
// It is pure Go with no cgo, so the static trustlake-check binary that runs
// inside the sandbox is built from it. It reads only the final state (and the
// task's initial state, for "unchanged" checks), never screenshots or the
// agent's words. All paths are resolved inside their root with os.Root, so a
// symbolic link in an untrusted snapshot cannot make a check read outside it.
package check
