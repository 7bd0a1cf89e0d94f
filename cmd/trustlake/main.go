// Command trustlake is an embedded-analytics data lake for AI-agent
// evaluation results: it measures how much of a recorded success is real.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// version is set by the Makefile with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args, os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
