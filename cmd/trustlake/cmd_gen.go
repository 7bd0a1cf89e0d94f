package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/cmdline"
	"github.com/trustlake/trustlake/sim"
)

func genCommand() *cli.Command {
	d := sim.DefaultOptions()
	var judges, agents []string
	for _, j := range d.Judges {
		judges = append(judges, j.Name)
	}
	for _, a := range d.Agents {
		agents = append(agents, fmt.Sprintf("%s=%g", a.Name, a.Skill))
	}
	return &cli.Command{
		Name:      "gen",
		Usage:     "generate simulated episodes and judge verdicts from a parametric model",
		ArgsUsage: " ",
		Description: "Writes DIR/episodes/<episode_id>/{meta.json,actions.jsonl,gt.json[,screens/]} and\n" +
			"DIR/verdicts/<judge>__<condition>.jsonl (or DIR/verdicts/verdicts.jsonl with\n" +
			"--single-verdicts-file). Everything is simulated: agent, judge and model names\n" +
			"start with sim:. The same seed and flags give byte-identical files. Reward-model\n" +
			"rows are score-only (\"verdict\": null). The model is documented in package sim.\n" +
			"DIR/episodes and DIR/verdicts must be absent or empty.\n" + exitCodesHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "out", Usage: "output `DIR`", Required: true},
			&cli.IntFlag{Name: "tasks", Value: d.Tasks, Usage: "number of tasks"},
			&cli.IntFlag{Name: "episodes-per-task", Value: d.EpisodesPerTask, Usage: "episodes per task and agent"},
			&cli.IntFlag{Name: "verdict-rows", Usage: "make about `N` verdict rows (at least N, fewer than N + rows per episode); overrides --episodes-per-task"},
			&cli.IntFlag{Name: "runs", Value: d.Runs, Usage: "runs per judge × condition"},
			&cli.Uint64Flag{Name: "seed", Value: d.Seed, Usage: "random seed"},
			&cli.StringSliceFlag{Name: "agents", Value: cli.NewStringSlice(agents...), Usage: "agents as `NAME[=SKILL]` (logit skill)"},
			&cli.StringSliceFlag{Name: "judges", Value: cli.NewStringSlice(judges...), Usage: "judge `NAME`s; sim:rm* are reward models, others VLM-style"},
			&cli.StringSliceFlag{Name: "conditions", Value: cli.NewStringSlice(d.Conditions...), Usage: "evidence `CONDITION`s"},
			&cli.StringSliceFlag{Name: "sources", Value: cli.NewStringSlice("natural=0.8", "weakened=0.1", "perturbed=0.1"), Usage: "episode source shares as `SOURCE=SHARE`"},
			&cli.BoolFlag{Name: "single-verdicts-file", Usage: "write all verdicts to DIR/verdicts/verdicts.jsonl"},
			&cli.BoolFlag{Name: "screens", Usage: "write tiny PNG screenshots and name them in actions.jsonl"},
			&cli.BoolFlag{Name: "no-episodes", Usage: "episode folders hold only meta.json and gt.json (fast)"},
			&cli.BoolFlag{Name: "verdicts-only", Usage: "write no episode folders at all"},
			&cli.IntFlag{Name: "workers", Usage: "parallel workers (0: one per CPU); output does not depend on it"},
		},
		Action: cmdline.NoArgs("trustlake gen --out demo --verdict-rows 1000000", func(c *cli.Context) error {
			o, err := simOptions(c)
			if err != nil {
				return err
			}
			return runGen(c.Context, c.String("out"), o, c.App.Writer, c.App.ErrWriter)
		}),
	}
}

// simOptions turns flags into sim.Options; every mistake is a usage error.
func simOptions(c *cli.Context) (sim.Options, error) {
	o := sim.DefaultOptions()
	o.Tasks, o.EpisodesPerTask, o.Runs = c.Int("tasks"), c.Int("episodes-per-task"), c.Int("runs")
	o.VerdictRows, o.Seed, o.Conditions = c.Int("verdict-rows"), c.Uint64("seed"), c.StringSlice("conditions")
	o.SingleVerdictsFile, o.Screens, o.Workers = c.Bool("single-verdicts-file"), c.Bool("screens"), c.Int("workers")
	noEpisodes, verdictsOnly := c.Bool("no-episodes"), c.Bool("verdicts-only")
	if o.Tasks < 1 || o.EpisodesPerTask < 1 || o.Runs < 1 || o.VerdictRows < 0 {
		return o, usageErrorf("gen: --tasks, --episodes-per-task and --runs must be ≥ 1, --verdict-rows ≥ 0")
	}
	if noEpisodes && verdictsOnly {
		return o, usageErrorf("gen: give at most one of --no-episodes and --verdicts-only")
	}
	if o.Screens && (noEpisodes || verdictsOnly) {
		return o, usageErrorf("gen: --screens needs full episode folders (drop --no-episodes / --verdicts-only)")
	}
	switch {
	case verdictsOnly:
		o.Episodes = sim.EpisodeNone
	case noEpisodes:
		o.Episodes = sim.EpisodeMinimal
	}
	var err error
	if o.Agents, err = sim.ParseAgents(c.StringSlice("agents")); err != nil {
		return o, usageErrorf("gen: %v", err)
	}
	if o.Judges, err = sim.ParseJudges(c.StringSlice("judges")); err != nil {
		return o, usageErrorf("gen: %v", err)
	}
	if err := sim.ParseSources(o.Model, c.StringSlice("sources")); err != nil {
		return o, usageErrorf("gen: %v", err)
	}
	if err := o.Validate(); err != nil {
		return o, usageErrorf("gen: %v", err)
	}
	return o, nil
}

func runGen(ctx context.Context, out string, o sim.Options, stdout, stderr io.Writer) error {
	if isTerminal(stderr) {
		o.Progress = func(done, total int) {
			fmt.Fprintf(stderr, "\rgen: %d/%d episodes", done, total)
			if done == total {
				fmt.Fprintln(stderr)
			}
		}
	}
	st, err := sim.Generate(ctx, out, o)
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case errors.Is(err, sim.ErrOutputNotEmpty):
		return usageHint("trustlake gen --out NEW_DIR ...", "gen: %v", err)
	case errors.Is(err, sim.ErrOptions):
		return usageErrorf("gen: %v", err)
	case err != nil:
		return fmt.Errorf("gen: %w", err)
	}
	what := ""
	switch o.Episodes {
	case sim.EpisodeMinimal:
		what = " (meta.json and gt.json only)"
	case sim.EpisodeNone:
		what = " (verdicts only, no folders)"
	}
	fmt.Fprintf(stdout, "wrote %d episodes%s, %d verdict rows (%d file(s)) to %s\n",
		st.Episodes, what, st.VerdictRows, len(st.VerdictFiles), filepath.Clean(out))
	return nil
}
