// Command trustlake is an embedded-analytics data lake for AI-agent
// evaluation results: it measures how much of a recorded success is real.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
)

// version is set by the Makefile with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	// TRUSTLAKE_CPUPROFILE=FILE writes a Go CPU profile (for benchmarks).
	if name := os.Getenv("TRUSTLAKE_CPUPROFILE"); name != "" {
		if f, err := os.Create(name); err == nil {
			pprof.StartCPUProfile(f)
			defer f.Close()
		}
	}
	code := run(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr)
	pprof.StopCPUProfile()
	stop()
	os.Exit(code)
}
