package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/cmdline"
	"github.com/trustlake/trustlake/judge"
	"github.com/trustlake/trustlake/render"
	"github.com/trustlake/trustlake/tasks"
)

func evidenceCommand() *cli.Command {
	return &cli.Command{
		Name:      "evidence",
		Usage:     "build one evidence pack per episode and condition, identical for every judge",
		ArgsUsage: " ",
		Description: "Builds the packs of seed §3.5 from the lake (episodes, actions, results) and the\n" +
			"episode folders: E1-final (task + final screenshot), E2-lastk (task + last k\n" +
			"screenshots + their actions), E3-full (task + all screenshots, subsampled to\n" +
			"--max-images, + the full action log), E2+claim (E2-lastk + the agent's final\n" +
			"message). Chat trajectories without screens get their messages as text.\n" +
			"Screenshots are downsampled to --max-image-side (PNG). Each pack is stored under\n" +
			"its sha256 in LAKE/_evidence/ and recorded in the evidence table; the leakage\n" +
			"guard refuses a pack revealing verifier output, files the verifier reads, the\n" +
			"source label, the category or a perturbation's parent. Any bad episode (missing\n" +
			"screenshot, unreadable PNG, no task text, a leak) is printed and nothing is\n" +
			"recorded (exit 3).\n" + exitCodesHelp,
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "conditions", Value: cli.NewStringSlice(judge.Conditions...), Usage: "pack `CONDITIONS` (comma-separated)"},
			&cli.IntFlag{Name: "k", Value: 4, Usage: "screenshots and actions in E2 conditions"},
			&cli.IntFlag{Name: "max-image-side", Value: 1280, Usage: "longest image side in `PIXELS` after downsampling"},
			&cli.IntFlag{Name: "max-images", Value: 16, Usage: "cap on E3-full screenshots (evenly subsampled, the last kept)"},
			&cli.StringFlag{Name: "tasks", EnvVars: []string{"TRUSTLAKE_TASKS"}, Usage: "task library `DIR` whose task.json instructions are the task text"},
			&cli.StringSliceFlag{Name: "episodes", Usage: "only these episode `IDS`"},
			&cli.StringFlag{Name: "config", Usage: "bench.yaml (seed §4.6): evidence.last_k, max_image_side, max_images"},
			&cli.IntFlag{Name: "workers", Value: 4, Usage: "parallel pack builders"},
			&cli.BoolFlag{Name: "replace", Usage: "record packs that differ from those recorded before"},
			&cli.BoolFlag{Name: "json", Usage: "print the summary as JSON"},
		},
		Action: cmdline.NoArgs("trustlake evidence --conditions E2-lastk", func(c *cli.Context) error {
			conds, err := judge.ParseConditions(c.StringSlice("conditions"))
			if err != nil {
				return usageHint("trustlake evidence --conditions E1-final,E2-lastk,E3-full,E2+claim", "evidence: %v", err)
			}
			g := globals(c)
			build := judge.EvidenceOptions{Conditions: conds, Workers: c.Int("workers"), Replace: c.Bool("replace"),
				Pack: judge.PackOptions{LastK: c.Int("k"), MaxImageSide: c.Int("max-image-side"), MaxImages: c.Int("max-images")}}
			if name := c.String("config"); name != "" {
				cfg, err := judge.LoadConfig(name, os.LookupEnv)
				if err != nil {
					return &summaryError{exitRejected, err.Error()}
				}
				cfg.Evidence.ApplyTo(&build.Pack, c.IsSet)
			}
			if err := build.Pack.Validate(); err != nil {
				return usageErrorf("evidence: %v", err)
			}
			l, err := g.openLakeRead()
			if err != nil {
				return err
			}
			var texts map[string]string // the task library's instructions, if --tasks
			if dir := c.String("tasks"); dir != "" {
				if texts, err = tasks.Instructions(dir); err != nil {
					return &summaryError{exitRejected, fmt.Sprintf("evidence: --tasks %s: %v", dir, err)}
				}
			}
			episodes := idSet(judge.SplitList(c.StringSlice("episodes")))
			srcs, err := judge.LoadSources(l, judge.LoadOptions{TaskTexts: texts, Episodes: episodes})
			if err != nil {
				return judgeInputError(g.stderr, err)
			}
			if len(srcs) == 0 {
				return usageHint("trustlake ingest episodes DIR", "evidence: the lake holds no episodes")
			}
			build.Progress = countProgress(g.stderr, "evidence packs")
			st, err := judge.WriteEvidence(c.Context, l, srcs, build)
			clearProgress(g.stderr)
			if err != nil {
				return judgeInputError(g.stderr, err)
			}
			if c.Bool("json") {
				return render.JSON(c.App.Writer, st)
			}
			fmt.Fprintf(c.App.Writer, "evidence: %d packs (%d episodes × %d conditions): %d added, %d unchanged, "+
				"%d replaced; %d images, %.1f MB\n", st.Packs, len(srcs), len(build.Conditions), st.Added, st.Unchanged,
				st.Replaced, st.Images, float64(st.Bytes)/1e6)
			return nil
		}),
	}
}

// judgeInputError prints every bad episode of a build and maps input
// errors to exit 3.
func judgeInputError(stderr io.Writer, err error) error {
	var be *judge.BuildErrors
	if errors.As(err, &be) {
		printCapped(stderr, be.Errs, "")
		return &summaryError{exitRejected, fmt.Sprintf("evidence: %d pack(s) refused; nothing recorded", len(be.Errs))}
	}
	if errors.Is(err, judge.ErrInput) {
		return &summaryError{exitRejected, err.Error()}
	}
	return err
}
