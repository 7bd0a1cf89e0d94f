package main

import (
	"fmt"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/sim"
	"github.com/trustlake/trustlake/tasks"
)

func tasksEpisodesCommand() *cli.Command {
	return &cli.Command{
		Name:      "episodes",
		Usage:     "write episode folders from the library's fixtures (real final states with known verdicts)",
		ArgsUsage: "[TASK_ID...]",
		Description: "One episode per fixture and copy: meta.json (agent \"fixture\") and\n" +
			"final_state.tar.zst. They feed `trustlake verify`, demos and benchmarks.\n" + exitCodesHelp,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "tasks", Value: "tasks/library", EnvVars: []string{"TRUSTLAKE_TASKS"}, Usage: "task library `DIR`"},
			&cli.StringFlag{Name: "out", Required: true, Usage: "output `DIR` (must not exist or be empty)"},
			&cli.IntFlag{Name: "copies", Value: 1, Usage: "episodes per fixture"},
			&cli.BoolFlag{Name: "script", Usage: "also write scripted actions and PNG screenshots (reference solution or scripted failure, recorded in meta.json as \"script\")"},
		},
		Action: func(c *cli.Context) error {
			g := globals(c)
			lib, err := loadTaskLibrary(g.stderr, c.String("tasks"))
			if err != nil {
				return err
			}
			out := c.String("out")
			if entries, err := os.ReadDir(out); err == nil && len(entries) > 0 {
				return usageErrorf("tasks episodes: %s is not empty", out)
			}
			eps, err := tasks.FixtureEpisodes(lib, c.Args().Slice(), out, c.Int("copies"))
			if err != nil {
				return err
			}
			if c.Bool("script") {
				for _, e := range eps {
					t, err := lib.Task(e.TaskID)
					if err != nil {
						return err
					}
					err = sim.WriteScript(e.Dir, sim.Script{TaskID: e.TaskID, Instruction: t.Instruction, Ending: e.Fixture.Name,
						Pass: e.Fixture.Pass, Category: e.Fixture.Category})
					if err != nil {
						return err
					}
				}
			}
			fmt.Fprintf(c.App.Writer, "wrote %d episode(s) to %s\n", len(eps), out)
			return nil
		},
	}
}
