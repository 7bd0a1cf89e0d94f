package main

import (
	"context"
	"fmt"
	"io"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/tasks"
)

type perturbOptions struct {
	taskRunOptions
	out      string
	episodes []string
}

func perturbCommand() *cli.Command {
	return &cli.Command{
		Name:      "perturb",
		Usage:     "derive perturbed (stress-test) episodes from passing ones and re-verify them",
		ArgsUsage: "EPISODE_DIR...",
		Description: "For each episode that passes its verifier (re-run twice in the sandbox), applies\n" +
			"each perturbation its task declares (skip_save, shift_cell, sibling_folder,\n" +
			"save_as_copy, delete_unrelated) to a copy of the final state, writes a new episode\n" +
			"folder OUT/<episode>__<perturbation> (source \"perturbed\", parent_episode_id) with\n" +
			"its gt.json, and reports perturbations the verifier did NOT catch (\"survived\").\n" +
			"Exit code 4 when a perturbation survived or could not be verified.\n" + exitCodesHelp,
		Flags: append(taskFlags(), &cli.StringFlag{Name: "out", Usage: "output `DIR` for the new episode folders (required)"}),
		Action: func(c *cli.Context) error {
			o := perturbOptions{taskRunOptions: taskRunFlags(c), out: c.String("out"), episodes: c.Args().Slice()}
			if o.out == "" || len(o.episodes) == 0 {
				return usageHint("trustlake perturb --tasks tasks/library --out episodes/perturbed episodes/ep_0001", "perturb: give --out and at least one episode folder")
			}
			return runPerturb(c.Context, globals(c), o, c.App.Writer)
		},
	}
}

func runPerturb(ctx context.Context, g globalOptions, o perturbOptions, stdout io.Writer) error {
	res, err := withTaskRunner(ctx, g, &o.taskRunOptions, func(lib *tasks.Library, r tasks.Runner) ([]tasks.PerturbResult, error) {
		return tasks.Perturb(ctx, lib, r, o.episodes, o.out, tasks.RunOptions{Jobs: o.jobs, CheckBinary: o.checkBinary, Logger: g.logger()})
	})
	if err != nil {
		return err
	}
	counts := map[string]int{}
	for _, x := range res {
		counts[x.Status]++
	}
	if err := output(stdout, g.stderr, o.json, res, tasks.WritePerturbText, nil); err != nil {
		return err
	}
	if n := counts[tasks.PerturbSurvived] + counts[tasks.PerturbError] + counts[tasks.PerturbVerifierError] + counts[tasks.PerturbNondet]; n > 0 {
		return &summaryError{exitCheckFailed, fmt.Sprintf("perturb: %d perturbation(s) survived or could not be verified",
			n)}
	}
	return nil
}
