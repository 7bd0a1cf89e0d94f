// Package tasks loads verifiable tasks (task.json, initial state, verifier,
// fixtures) and runs their verifiers in a sandbox: the fixture self-test,
// the verification of recorded episodes into gt.json, and state
// perturbations of passing episodes.
//
// A verifier reads only the final state of an episode, never screenshots or
// the agent's words; its verdict is the reference label. Verifier code is
// untrusted and runs only through a runner (package sandbox). Declarative
// checks (package tasks/check) run in the static trustlake-check binary
// inside the trustlake-check image; script verifiers run in their own image.
// See README.md in this folder for the task format.
package tasks
