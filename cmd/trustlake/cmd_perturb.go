package main

import (
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/tasks"
)

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
			g, o, out, episodes := globals(c), taskRunFlags(c), c.String("out"), c.Args().Slice()
			if out == "" || len(episodes) == 0 {
				return usageHint("trustlake perturb --tasks tasks/library --out episodes/perturbed episodes/ep_0001", "perturb: give --out and at least one episode folder")
			}
			perturb := func(lib *tasks.Library, r tasks.Runner) ([]tasks.PerturbResult, error) {
				return tasks.Perturb(c.Context, lib, r, episodes, out,
					tasks.RunOptions{Jobs: o.Jobs, CheckBinary: o.CheckBinary, Logger: o.Logger})
			}
			res, err := withTaskRunner(c.Context, g, &o, perturb)
			if err != nil {
				return err
			}
			counts := map[string]int{}
			for _, x := range res {
				counts[x.Status]++
			}
			if err := output(c.App.Writer, g.stderr, o.json, res, tasks.WritePerturbText, nil); err != nil {
				return err
			}
			n := counts[tasks.PerturbSurvived] + counts[tasks.PerturbError] + counts[tasks.PerturbVerifierError] +
				counts[tasks.PerturbNondet]
			if n > 0 {
				return &summaryError{exitCheckFailed,
					fmt.Sprintf("perturb: %d perturbation(s) survived or could not be verified", n)}
			}
			return nil
		},
	}
}
