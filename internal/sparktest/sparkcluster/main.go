// Command sparkcluster starts a Spark standalone cluster (a master, two
// 1-core workers, a Spark Connect server; pyspark from the project's
// .venv), runs a command with TRUSTLAKE_SPARK_REMOTE set to the Connect
// address, stops the cluster and exits with the command's status.
//
//	go run ./internal/sparktest/sparkcluster [-workers N] -- COMMAND ARGS...
package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"syscall"

	"github.com/trustlake/trustlake/internal/sparktest"
)

func main() { os.Exit(run()) }

func run() int {
	workers := flag.Int("workers", 2, "workers (1 core, 1g each)")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: sparkcluster [-workers N] -- COMMAND ARGS...")
		return 2
	}
	fail := func(err error) int {
		fmt.Fprintln(os.Stderr, "sparkcluster:", err)
		return 1
	}
	repo, err := os.Getwd()
	if err != nil {
		return fail(err)
	}
	home, err := sparktest.SparkHome(repo)
	if err != nil {
		return fail(err)
	}
	dir, err := os.MkdirTemp("", "trustlake-spark-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(dir)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c, err := sparktest.Start(ctx, sparktest.Options{SparkHome: home, Dir: dir, Workers: *workers})
	if err != nil {
		return fail(err)
	}
	fmt.Fprintf(os.Stderr, "sparkcluster: %s (master %s, %d workers) up in %.1fs\n", c.Remote, c.Master, *workers, c.Took.Seconds())
	cmd := exec.CommandContext(ctx, flag.Arg(0), flag.Args()[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), sparktest.RemoteEnv+"="+c.Remote)
	code := 0
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else {
			code = fail(err)
		}
	}
	if err := c.Stop(); err != nil {
		code = cmp.Or(code, fail(err)) // the command's own failure wins
	}
	return code
}
