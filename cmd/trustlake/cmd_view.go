package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/cmdline"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/metrics"
	"github.com/trustlake/trustlake/view"
)

func viewCommand() *cli.Command {
	return &cli.Command{
		Name:  "view",
		Usage: "browse the lake in a local web app: overview, episodes, packs, verdicts; record human reviews",
		Description: "Serves a web application over the lake on --addr (loopback by default) and prints\n" +
			"`trustlake view: http://127.0.0.1:PORT/` as its first line on stderr. Pages: / (the\n" +
			"figures of trustlake metrics; every count links to its episodes), /episodes (filters,\n" +
			"pages), /episodes/ID (task, packs as the judges saw them, every run with its reason,\n" +
			"the verifier's findings, reviews), /review (a queue with one-key actions); a JSON API\n" +
			"under /api/ (docs/viewer.md). It picks up newer manifest versions on the next request.\n" +
			"Read-only unless --review: then each review (category, pass/fail, note) is committed\n" +
			"to the table reviews with who and when; metrics, compare, report and trust use the\n" +
			"latest. Stops on SIGINT/SIGTERM after in-flight requests (exit 0).\n" + exitCodesHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: "127.0.0.1:0", Usage: "listen on `HOST:PORT` (port 0: any free port); a non-loopback host is warned about"},
			&cli.BoolFlag{Name: "review", Usage: "accept reviews (POST /api/reviews with the session's CSRF token)"},
			&cli.StringFlag{Name: "reviewer", Usage: "the reviewer's `NAME` recorded on every review (default $USER)"},
			&cli.BoolFlag{Name: "open", Usage: "open the page in the default browser (xdg-open)"},
			&cli.StringSliceFlag{Name: "allow-host", Usage: "also answer this Host header `NAME` (besides loopback names and --addr)"},
			&cli.Float64Flag{Name: "threshold", Usage: "score-only judges (reward models): score >= `T` is success"},
			&cli.IntFlag{Name: "threads", Usage: "DuckDB threads (0: all cores)"},
			&cli.IntFlag{Name: "max-cached-list", Value: view.DefaultMaxCachedList, Usage: "hold lists of up to `N` episodes in memory; longer ones page through SQL and link an episode's neighbours through step links"},
		},
		Action: cmdline.NoArgs("trustlake view --review", func(c *cli.Context) error {
			g := globals(c)
			o := view.Options{Review: c.Bool("review"), Reviewer: c.String("reviewer"), Threads: c.Int("threads"),
				MaxCachedList: c.Int("max-cached-list"), Metrics: metrics.Options{Threshold: thresholdOpt(c)}, Logger: g.logger()}
			if o.MaxCachedList < 1 {
				return usageErrorf("--max-cached-list %d: must be positive", o.MaxCachedList)
			}
			if o.Review && o.Reviewer == "" {
				o.Reviewer = os.Getenv("USER")
				if o.Reviewer == "" {
					return usageHint("trustlake view --review --reviewer NAME", "--review: no reviewer name (--reviewer, or $USER)")
				}
			}
			return runView(c.Context, g, c.String("addr"), c.Bool("open"), c.StringSlice("allow-host"), o)
		}),
	}
}

// runView serves until ctx ends, then lets in-flight requests finish.
func runView(ctx context.Context, g globalOptions, addr string, open bool, allowHosts []string, o view.Options) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return usageHint("trustlake view --addr 127.0.0.1:8080", "--addr %q: %v", addr, err)
	}
	var src *lake.Lake
	if src, err = g.openLakeRead(); err != nil {
		return err
	}
	if o.Review {
		if src, err = g.openLake(); err != nil {
			return err
		}
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return usageHint("trustlake view --addr 127.0.0.1:0", "listen on %s: %v", addr, err)
	}
	stderr := g.stderr
	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(stderr, "trustlake view: %s\n", url)
	if !isLoopback(host) {
		fmt.Fprintf(stderr, "warning: --addr %s is not a loopback address: anyone who can reach it can read the lake%s\n",
			addr, map[bool]string{true: " and record reviews", false: ""}[o.Review])
	}
	o.Hosts = append([]string{addr, ln.Addr().String(), host}, allowHosts...)
	srv, err := view.New(src, o)
	if err != nil {
		ln.Close()
		return usageErrorf("%v", err)
	}
	defer srv.Close()
	hs := &http.Server{Handler: srv.Handler(), ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() { done <- hs.Serve(ln) }()
	if open {
		if err := exec.Command("xdg-open", url).Start(); err != nil {
			fmt.Fprintf(stderr, "warning: --open: %v\n", err)
		}
	}
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := hs.Shutdown(shut); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// isLoopback reports whether a listen host stays on this machine.
func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
