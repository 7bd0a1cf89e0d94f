package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/cmdline"
	"github.com/trustlake/trustlake/judge"
)

// backendFlags are shared by judge and trust --labeler.
func backendFlags() []cli.Flag {
	return []cli.Flag{
		&cli.StringFlag{Name: "model", Usage: "model `ID` sent to the backend (recorded on every row)"},
		&cli.StringFlag{Name: "base-url", EnvVars: []string{"TRUSTLAKE_JUDGE_BASE_URL"}, Usage: "backend `URL` (openai: https://api.openai.com/v1, anthropic: https://api.anthropic.com; rm-http: required)"},
		&cli.StringFlag{Name: "api-key-env", Usage: "environment `VARIABLE` holding the API key (default OPENAI_API_KEY, ANTHROPIC_API_KEY or RM_API_KEY)"},
		&cli.StringFlag{Name: "exec", Usage: "exec backend: shell `COMMAND` reading a pack on stdin, printing a verdict"},
		&cli.StringSliceFlag{Name: "pass-env", Usage: "exec backend: hand environment variable `NAME` to the command (repeatable); it gets only " +
			strings.Join(judge.ExecEnv, ", ") + " otherwise"},
		&cli.Float64Flag{Name: "temperature", Value: 0, Usage: "sampling temperature"},
		&cli.IntFlag{Name: "max-tokens", Value: 400, Usage: "reply token cap"},
		&cli.IntFlag{Name: "concurrency", Value: 4, Usage: "calls in flight"},
		&cli.Float64Flag{Name: "rpm", Usage: "request rate cap per minute (0: none)"},
		&cli.Int64Flag{Name: "max-calls", Usage: "budget of backend calls, retries included (0: none)"},
		&cli.IntFlag{Name: "retries", Value: 5, Usage: "retries per call on 429/5xx/timeouts/resets (jittered backoff, Retry-After honoured)"},
		&cli.DurationFlag{Name: "timeout", Value: 120 * time.Second, Usage: "per-call timeout"},
	}
}

func judgeCommand() *cli.Command {
	return &cli.Command{
		Name:      "judge",
		Usage:     "run a model judge or reward model on the evidence packs, resumably",
		ArgsUsage: " ",
		Description: "Asks one judge about every episode with a pack in the evidence table, --runs\n" +
			"times per condition, and commits each verdict to the lake in atomic batches as\n" +
			"it arrives (verdicts/judge=NAME/condition=C). A rerun skips (episode, judge,\n" +
			"condition, run) already in the lake, so a killed run resumes. Backends: openai\n" +
			"(chat completions, images as data URLs; vLLM, Ollama, llama.cpp, LM Studio,\n" +
			"hosted APIs via --base-url), anthropic (messages API, base64 image blocks),\n" +
			"exec (--exec CMD reads {prompt, pack, ...} JSON on stdin, prints the rubric\n" +
			"JSON or {\"score\": x}), rm-http (POST instruction + screenshots, a score back,\n" +
			"stored raw). The default prompt is the seed's §4.3 rubric; its sha256 is on\n" +
			"every row. A prompt variant (--prompt rubric-v1-no-claim-rule or a file) runs\n" +
			"only under its own condition names: --conditions NAME=E2+claim. API keys are read\n" +
			"from the environment only. Exit 6 when verdicts are left (budget spent, backend\n" +
			"failing): the rest is committed; rerun to resume.\n" + exitCodesHelp + " 6 incomplete.",
		Flags: append([]cli.Flag{
			&cli.StringFlag{Name: "backend", Usage: "openai, anthropic, exec or rm-http"},
			&cli.StringFlag{Name: "judge", Required: true, Usage: "judge `NAME` (verdicts.judge; the key of judges: in --config)"},
			&cli.IntFlag{Name: "runs", Value: 3, Usage: "runs per episode and condition"},
			&cli.StringSliceFlag{Name: "conditions", Value: cli.NewStringSlice(judge.Conditions...), Usage: "`CONDITIONS`, each a pack condition or NAME=CONDITION for a prompt variant"},
			&cli.StringFlag{Name: "prompt", Value: judge.DefaultPrompt, Usage: "rubric: a built-in name (" + judge.DefaultPrompt + ", " + judge.NoClaimRulePrompt + ") or a template `FILE` with {task_text}, {evidence_description}, {evidence_text}"},
			&cli.StringSliceFlag{Name: "episodes", Usage: "only these episode `IDS`"},
			&cli.StringFlag{Name: "config", Usage: "bench.yaml (seed §4.6): judges.NAME.{backend, base_url, model, command, temperature, runs, conditions}"},
			&cli.IntFlag{Name: "batch-rows", Value: 256, Usage: "commit after this many verdicts"},
			&cli.DurationFlag{Name: "batch-interval", Value: 2 * time.Second, Usage: "or after this long"},
			&cli.IntFlag{Name: "max-failures", Value: 20, Usage: "stop after this many verdicts in a row failed"},
			&cli.DurationFlag{Name: "max-retry-wait", Value: judge.MaxRetryWait, Usage: "cap of the wait a Retry-After header asks for (at most 10m)"},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the plan (calls per condition, images, bytes); call nothing"},
			&cli.BoolFlag{Name: "json", Usage: "print the summary as JSON"},
		}, backendFlags()...),
		Action: cmdline.NoArgs("trustlake judge --backend exec --exec ./judge.sh --judge NAME", func(c *cli.Context) error {
			r, err := judgeRunOptions(c)
			if err != nil {
				return err
			}
			return runJudge(c.Context, globals(c), r, c.Bool("json"), c.App.Writer)
		}),
	}
}

// loadPrompt resolves --prompt: a built-in name or a template file.
func loadPrompt(arg string) (judge.Prompt, error) {
	if p, err := judge.BuiltinPrompt(arg); err == nil {
		return p, nil
	}
	data, err := os.ReadFile(arg)
	if err != nil {
		return judge.Prompt{}, usageErrorf("--prompt %s: neither a built-in prompt (%s, %s) nor a readable file", arg, judge.DefaultPrompt, judge.NoClaimRulePrompt)
	}
	p, err := judge.NewPrompt(arg, string(data))
	if err != nil {
		return judge.Prompt{}, &summaryError{exitRejected, err.Error()}
	}
	return p, nil
}

// judgeRunOptions reads the flags of trustlake judge.
func judgeRunOptions(c *cli.Context) (judge.RunOptions, error) {
	spec := judge.BackendSpec{Name: c.String("backend"), Model: c.String("model"), BaseURL: c.String("base-url"),
		KeyEnv: c.String("api-key-env"), Command: c.String("exec"), PassEnv: c.StringSlice("pass-env"), Conns: c.Int("concurrency")}
	r := judge.RunOptions{Judge: c.String("judge"), Temperature: c.Float64("temperature"), MaxTokens: c.Int("max-tokens"),
		Runs: c.Int("runs"), Concurrency: c.Int("concurrency"), RatePerMinute: c.Float64("rpm"), MaxCalls: c.Int64("max-calls"),
		MaxRetries: c.Int("retries"), MaxRetryWait: c.Duration("max-retry-wait"), Timeout: c.Duration("timeout"), MaxFailures: c.Int("max-failures"),
		BatchRows: c.Int("batch-rows"), BatchInterval: c.Duration("batch-interval"), DryRun: c.Bool("dry-run")}
	if r.MaxRetries == 0 {
		r.MaxRetries = -1 // --retries 0 means none
	}
	condList := c.StringSlice("conditions")
	if name := c.String("config"); name != "" {
		cfg, err := judge.LoadConfig(name, os.LookupEnv)
		if err != nil {
			return r, &summaryError{exitRejected, err.Error()}
		}
		jc, ok := cfg.Judges[r.Judge]
		if !ok {
			return r, usageErrorf("judge: %s has no judges.%s entry", name, r.Judge)
		}
		jc.ApplyTo(&spec, &r, &condList, c.IsSet)
	}
	conds, err := judge.ParseJudgeConditions(condList)
	if err != nil {
		return r, usageHint("trustlake judge --conditions E2-lastk,E2+claim ...", "judge: %v", err)
	}
	r.Conditions = conds
	if err := judge.CheckRun(r); err != nil {
		return r, err
	}
	prompt, err := loadPrompt(c.String("prompt"))
	if err != nil {
		return r, err
	}
	if err := judge.CheckVariant(prompt, c.String("prompt"), conds); err != nil {
		return r, err
	}
	r.Prompt = prompt
	if !r.DryRun {
		b, err := judge.NewBackend(spec)
		if err != nil {
			return r, err
		}
		r.Backend = b
	}
	r.BackendName, r.Model = spec.Name, spec.Model
	r.Episodes = idSet(judge.SplitList(c.StringSlice("episodes")))
	return r, nil
}

func runJudge(ctx context.Context, g globalOptions, r judge.RunOptions, asJSON bool, stdout io.Writer) error {
	l, err := g.openLake()
	if err != nil {
		return err
	}
	r.Logger = g.logger()
	r.Progress = judgeProgress(g.stderr, r.Judge)
	sum, err := judge.Run(ctx, l, r)
	clearProgress(g.stderr)
	switch {
	case errors.Is(err, judge.ErrNoPack):
		return usageHint("trustlake evidence --conditions ...", "judge: %v", err)
	case errors.Is(err, judge.ErrPromptChanged):
		return usageErrorf("judge: %v", err)
	case err != nil && !errors.Is(err, judge.ErrIncomplete):
		return err
	}
	text := func(w io.Writer, s judge.Summary) { judge.WriteSummaryText(w, r.Judge, s) }
	if werr := output(stdout, g.stderr, asJSON, sum, text, nil); werr != nil {
		return werr
	}
	if err != nil {
		return &summaryError{exitIncomplete, "judge: " + err.Error()}
	}
	return nil
}

// judgeProgress draws "done/total, rate, ETA, failures" on a terminal.
func judgeProgress(w io.Writer, name string) func(judge.Progress) {
	if !isTerminal(w) {
		return nil
	}
	var last time.Time
	return func(p judge.Progress) {
		if p.Done < p.Total && time.Since(last) < 200*time.Millisecond {
			return
		}
		last = time.Now()
		rate := float64(p.Done) / max(p.Elapsed.Seconds(), 1e-3)
		eta := "?"
		if rate > 0 {
			eta = time.Duration(float64(p.Total-p.Done) / rate * float64(time.Second)).Round(time.Second).String()
		}
		fmt.Fprintf(w, "\r\033[Kjudge %s: %d/%d verdicts, %.1f/s, ETA %s, %d failed, %d retries", name, p.Done, p.Total, rate, eta, p.Failed, p.Retries)
	}
}
