package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/render"
	"github.com/trustlake/trustlake/tasks"
)

func verifyCommand() *cli.Command {
	return &cli.Command{
		Name:      "verify",
		Usage:     "label episodes with ground truth: run each task's verifier on the final state in the sandbox, twice (--runs)",
		ArgsUsage: "EPISODES...",
		Description: "EPISODES are episode folders or folders of them. For each episode the final\n" +
			"state (final_state.tar.zst) is extracted safely and the task's verifier runs twice\n" +
			"(--runs N), each time in a fresh sandbox. When all runs agree, gt.json is written once, with\n" +
			"verifier_sha256 and deterministic=true (an identical gt.json is left alone; a\n" +
			"different one is kept unless --force), and the episodes are ingested into the lake\n" +
			"(episodes, actions, ground_truth; --no-ingest skips that). A verifier that crashes,\n" +
			"times out or disagrees with itself gives no label: the episode is reported as\n" +
			"verifier_error or nondeterministic, never counted as a failure.\n" +
			exitCodesHelp + " Exit 4 means some episodes got no label.",
		Flags: append(taskFlags(),
			&cli.BoolFlag{Name: "force", Usage: "overwrite a gt.json with different content (and replace it in the lake)"},
			&cli.BoolFlag{Name: "no-ingest", Usage: "write gt.json files only"},
		),
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usageHint("trustlake verify --tasks tasks/library episodes/", "verify: no EPISODES given")
			}
			g, o, force, noIngest := globals(c), taskRunFlags(c), c.Bool("force"), c.Bool("no-ingest")
			ctx, stdout := c.Context, c.App.Writer
			// The same expansion as ingest episodes: a symlinked or incomplete
			// episode folder is refused here rather than labelled and then
			// rejected by the ingest.
			dirs, bad, err := ingest.EpisodeDirs(c.Args().Slice())
			if err != nil {
				return err
			}
			if len(bad) > 0 {
				return printRejected(g.stderr, &ingest.Rejected{Errors: bad})
			}
			o.Progress = countProgress(g.stderr, "episodes")
			res, err := withTaskRunner(ctx, g, &o, func(lib *tasks.Library, r tasks.Runner) ([]tasks.VerifyResult, error) {
				return tasks.Verify(ctx, lib, r, dirs,
					tasks.VerifyOptions{Force: force, ReadMeta: ingestMeta(ctx), RunOptions: o.RunOptions})
			})
			if err != nil {
				return err
			}
			clearProgress(g.stderr)
			var labeled []string
			counts := map[string]int{}
			for _, x := range res {
				counts[x.Status]++
				if x.Labeled() {
					labeled = append(labeled, x.Dir)
				}
			}
			var st ingest.Stats
			if !noIngest && len(labeled) > 0 {
				dst, err := g.openLake()
				if err != nil {
					return err
				}
				st, err = ingest.Episodes(ctx, dst, labeled, ingest.Options{Replace: force})
				if err != nil {
					return printRejected(g.stderr, err)
				}
			}
			if o.json {
				if err := render.JSON(stdout, struct {
					Results     []tasks.VerifyResult `json:"results"`
					Counts      map[string]int       `json:"counts"`
					Determinism determinism          `json:"determinism"`
					Ingest      *ingest.Stats        `json:"ingest,omitempty"`
				}{res, counts, determinism{o.Runs, tasks.UnnoticedCoinFlip(o.Runs)}, ingestStatsOrNil(noIngest, st)}); err != nil {
					return err
				}
			} else {
				tasks.WriteVerifyText(stdout, res, o.Runs)
				if !noIngest && len(labeled) > 0 {
					ingest.WriteSummary(stdout, st)
				}
			}
			if len(labeled) < len(res) {
				return &summaryError{exitCheckFailed, fmt.Sprintf("verify: %d of %d episode(s) got no label",
					len(res)-len(labeled), len(res))}
			}
			return nil
		},
	}
}

// determinism is how strong the determinism check of a verify run is.
type determinism struct {
	Runs int `json:"runs"`
	// UnnoticedCoinFlip: probability that a verifier whose verdict is a fair
	// coin flip agrees with itself on one episode, 2^(1-runs).
	UnnoticedCoinFlip float64 `json:"unnoticed_coin_flip"`
}

// ingestMeta reads meta.json with ingest's decoder (tasks.VerifyOptions.ReadMeta).
func ingestMeta(ctx context.Context) func(dir string) (tasks.Meta, error) {
	return func(dir string) (tasks.Meta, error) {
		ep, err := ingest.ReadMeta(ctx, dir)
		if err != nil {
			return tasks.Meta{}, err
		}
		m := tasks.Meta{EpisodeID: ep.EpisodeID, TaskID: ep.TaskID, Source: ep.Source, Agent: tasks.Agent{Name: ep.Agent}}
		if ep.AgentVersion != nil {
			m.Agent.Version = *ep.AgentVersion
		}
		return m, nil
	}
}

func ingestStatsOrNil(skip bool, st ingest.Stats) *ingest.Stats {
	if skip {
		return nil
	}
	return &st
}
