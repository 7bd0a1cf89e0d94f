// Command gen writes the shipped task library (tasks/library/<id>/):
// task.json, initial/ and fixtures/ of every task, from the definitions in
// this folder. Output is deterministic, so the committed library can be
// checked against a fresh run (the tasks package test does that).
//
// Usage: go run ./tasks/library/gen [-out tasks/library]
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	out := flag.String("out", "tasks/library", "library folder to (re)write")
	flag.Parse()
	if err := Write(*out); err != nil {
		fmt.Fprintf(os.Stderr, "gen: %v\n", err)
		os.Exit(1)
	}
}
