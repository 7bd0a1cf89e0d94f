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
	ctx, stop := signalContext()
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

// signalContext is cancelled by the first SIGINT or SIGTERM (every command
// then stops within about a second and exits 130). After it, the default
// handling is back: a second Ctrl-C ends the process at once.
func signalContext() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() { <-ctx.Done(); stop() }()
	return ctx, stop
}
