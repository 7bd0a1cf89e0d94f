package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"
)

// DeadlineFlag starts the wrapper mode the Docker sandbox uses as the
// container's first process: "trustlake-check -deadline 9s -- CMD ARGS..."
// runs CMD and kills it, with everything it started, when the deadline
// passes, then exits 124. The deadline lives inside the container, so a
// verifier stops by itself even when trustlake was killed (kill -9) and can
// no longer stop it. As PID 1 of the container, its exit ends every other
// process in it.
const DeadlineFlag = "-deadline"

// exitDeadline is the exit code after the deadline (as coreutils timeout).
const exitDeadline = 124

func runDeadline(args []string, stderr io.Writer) int {
	if len(args) < 3 || args[1] != "--" {
		fmt.Fprintln(stderr, "usage: trustlake-check -deadline DURATION -- CMD [ARGS...]")
		return 2
	}
	d, err := time.ParseDuration(args[0])
	if err != nil || d <= 0 {
		fmt.Fprintf(stderr, "trustlake-check: -deadline %q: want a positive duration\n", args[0])
		return 2
	}
	cmd := exec.Command(args[2], args[3:]...)
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(stderr, "trustlake-check: start %s: %v\n", args[2], err)
		return 127
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	timer := time.NewTimer(d)
	select {
	case err := <-done:
		var ee *exec.ExitError
		switch {
		case err == nil:
			return 0
		case errors.As(err, &ee):
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				return 128 + int(ws.Signal())
			}
			return ee.ExitCode()
		default:
			fmt.Fprintf(stderr, "trustlake-check: wait %s: %v\n", args[2], err)
			return 1
		}
	case <-timer.C:
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Process.Kill()
		fmt.Fprintf(stderr, "trustlake-check: deadline %s passed; killed %s\n", d, args[2])
		return exitDeadline
	}
}
