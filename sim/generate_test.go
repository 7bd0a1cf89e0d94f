package sim

import (
	"context"
	"errors"
	"image/png"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/trustlake/trustlake/schema"
)

func smallOptions() Options {
	o := DefaultOptions()
	o.Tasks = 6
	o.EpisodesPerTask = 5
	o.Model.SharePerturbed = 0.3
	return o
}

func TestGenerateDeterministic(t *testing.T) {
	gen := func(o Options) map[string]string {
		t.Helper()
		dir := t.TempDir()
		if _, err := Generate(t.Context(), dir, o); err != nil {
			t.Fatal(err)
		}
		return treeHashes(t, dir)
	}
	base := smallOptions()
	base.Screens = true
	base.Workers = 1
	want := gen(base)
	if len(want) < 100 {
		t.Fatalf("only %d files generated", len(want))
	}

	many := base
	many.Workers = 7
	if diff := cmp.Diff(want, gen(many)); diff != "" {
		t.Errorf("1 worker vs 7 workers: output differs (-1 +7):\n%s", diff)
	}
	again := base
	again.Model = DefaultModel()
	again.Model.SharePerturbed = 0.3
	if diff := cmp.Diff(want, gen(again)); diff != "" {
		t.Errorf("second run with the same seed differs:\n%s", diff)
	}

	other := base
	other.Seed = base.Seed + 1
	got := gen(other)
	same := 0
	for name, h := range got {
		if strings.HasPrefix(name, "verdicts/") && want[name] == h {
			same++
		}
	}
	if same > 0 {
		t.Errorf("seed %d and %d: %d verdict files identical, want all different", base.Seed, other.Seed, same)
	}
}

func TestGenerateVerdictRows(t *testing.T) {
	// 3 judges × 4 conditions × 3 runs = 36 rows per episode.
	cases := []struct {
		name         string
		rows         int
		wantEpisodes int
	}{
		{"one row", 1, 1},
		{"exact multiple", 36 * 20, 20},
		{"one over", 36*20 + 1, 21},
		{"fewer than cells", 36 * 5, 5},
		{"more than cells", 5000, 139},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := DefaultOptions()
			o.Tasks = 8
			o.VerdictRows = tc.rows
			o.SingleVerdictsFile = true
			o.Episodes = EpisodeMinimal
			dir := t.TempDir()
			st, err := Generate(t.Context(), dir, o)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := st.Episodes, tc.wantEpisodes; got != want {
				t.Errorf("episodes = %d, want %d", got, want)
			}
			if got, want := st.VerdictRows, tc.wantEpisodes*36; got != want {
				t.Errorf("stats verdict rows = %d, want %d", got, want)
			}
			lines := 0
			readLines(t, filepath.Join(dir, "verdicts", SingleVerdictsFile), func(int, []byte) { lines++ })
			if lines != st.VerdictRows {
				t.Errorf("verdicts.jsonl has %d lines, stats say %d", lines, st.VerdictRows)
			}
			if lines < tc.rows || lines >= tc.rows+36 {
				t.Errorf("%d rows for %d requested, want in [%d, %d)", lines, tc.rows, tc.rows, tc.rows+36)
			}
			ents, err := os.ReadDir(filepath.Join(dir, "episodes"))
			if err != nil {
				t.Fatal(err)
			}
			if len(ents) != st.Episodes {
				t.Errorf("%d episode folders, want %d", len(ents), st.Episodes)
			}
		})
	}
}

// TestGenerateContent checks every written file: JSON parses strictly,
// names are simulated, references resolve, fields have valid values.
func TestGenerateContent(t *testing.T) {
	for _, screens := range []bool{false, true} {
		t.Run(map[bool]string{false: "no screens", true: "screens"}[screens], func(t *testing.T) {
			o := smallOptions()
			o.Screens = screens
			dir := t.TempDir()
			st, err := Generate(t.Context(), dir, o)
			if err != nil {
				t.Fatal(err)
			}
			metas := checkEpisodes(t, dir, st, screens)
			checkVerdicts(t, dir, st, metas)
		})
	}
}

func checkEpisodes(t *testing.T, dir string, st Stats, screens bool) map[string]metaFile {
	t.Helper()
	ents, err := os.ReadDir(filepath.Join(dir, "episodes"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != st.Episodes {
		t.Fatalf("%d episode folders, want %d", len(ents), st.Episodes)
	}
	metas := map[string]metaFile{}
	gts := map[string]gtFile{}
	passes, perturbed := 0, 0
	for _, ent := range ents {
		ep := filepath.Join(dir, "episodes", ent.Name())
		var m metaFile
		readJSON(t, filepath.Join(ep, "meta.json"), &m)
		var g gtFile
		readJSON(t, filepath.Join(ep, "gt.json"), &g)
		metas[m.EpisodeID], gts[m.EpisodeID] = m, g
		switch {
		case m.EpisodeID != ent.Name() || g.EpisodeID != ent.Name():
			t.Errorf("%s: episode ids %q (meta), %q (gt)", ep, m.EpisodeID, g.EpisodeID)
		case !strings.HasPrefix(m.EpisodeID, "sim-") || !strings.HasPrefix(m.TaskID, "sim-task-"):
			t.Errorf("%s: ids not marked simulated: %q, %q", ep, m.EpisodeID, m.TaskID)
		case !strings.HasPrefix(m.Agent.Name, NamePrefix):
			t.Errorf("%s: agent %q", ep, m.Agent.Name)
		case !slices.Contains(schema.Sources, m.Source):
			t.Errorf("%s: source %q", ep, m.Source)
		case m.Agent.Version == "" || m.Agent.Seed == nil || m.FinalMessage == "" || m.SandboxImage == "":
			t.Errorf("%s: meta.json incomplete: %+v", ep, m)
		case m.NSteps < 1:
			t.Errorf("%s: n_steps %d", ep, m.NSteps)
		}
		checkTime(t, ep+"/meta.json: created_at", m.CreatedAt)
		if (m.Source == schema.SourcePerturbed) != (m.ParentEpisodeID != nil && m.Perturbation != nil) {
			t.Errorf("%s: source %s with parent %v, perturbation %v", ep, m.Source, m.ParentEpisodeID, m.Perturbation)
		}
		if m.Source == schema.SourcePerturbed {
			perturbed++
		}
		checkGT(t, ep, g)
		if *g.Pass {
			passes++
		}
		checkActions(t, ep, m.NSteps, screens)
	}
	for id, m := range metas {
		if m.ParentEpisodeID == nil {
			continue
		}
		p, ok := metas[*m.ParentEpisodeID]
		switch {
		case !ok:
			t.Errorf("%s: parent %s does not exist", id, *m.ParentEpisodeID)
		case p.Source != schema.SourceNatural || !*gts[p.EpisodeID].Pass || p.TaskID != m.TaskID:
			t.Errorf("%s: parent %s is %s, pass %v, task %s; want a passing natural episode of task %s",
				id, p.EpisodeID, p.Source, *gts[p.EpisodeID].Pass, p.TaskID, m.TaskID)
		case p.FinalMessage != m.FinalMessage:
			t.Errorf("%s: final message %q differs from parent's %q", id, m.FinalMessage, p.FinalMessage)
		}
	}
	if passes != st.Passes || perturbed != st.Perturbed {
		t.Errorf("passes %d, perturbed %d; stats say %d, %d", passes, perturbed, st.Passes, st.Perturbed)
	}
	if perturbed == 0 || passes == 0 || passes == st.Episodes {
		t.Errorf("degenerate sample: %d passes, %d perturbed of %d", passes, perturbed, st.Episodes)
	}
	return metas
}

func checkGT(t *testing.T, ep string, g gtFile) {
	t.Helper()
	if g.Pass == nil || g.Score == nil || g.Deterministic == nil || !*g.Deterministic || len(g.Gates) != 3 {
		t.Fatalf("%s/gt.json incomplete: %+v", ep, g)
	}
	if len(g.VerifierSHA256) != 64 || strings.Trim(g.VerifierSHA256, "0123456789abcdef") != "" {
		t.Errorf("%s: verifier_sha256 %q", ep, g.VerifierSHA256)
	}
	failedGates := 0
	for _, gate := range g.Gates {
		if !slices.Contains(schema.GateTypes, gate.Type) || gate.Passed == nil {
			t.Errorf("%s: gate %+v", ep, gate)
		} else if !*gate.Passed {
			failedGates++
		}
	}
	switch {
	case *g.Pass && (g.Category != nil || failedGates != 0 || *g.Score != 1):
		t.Errorf("%s: pass with category %v, %d failed gates, score %v", ep, g.Category, failedGates, *g.Score)
	case !*g.Pass && (g.Category == nil || !schema.IsCategory(*g.Category) || failedGates != 1):
		t.Errorf("%s: failure with category %v, %d failed gates", ep, g.Category, failedGates)
	}
}

func checkActions(t *testing.T, ep string, nSteps int, screens bool) {
	t.Helper()
	path := filepath.Join(ep, "actions.jsonl")
	n := 0
	readLines(t, path, func(line int, b []byte) {
		n++
		var a actionLine
		if err := strictUnmarshal(b, &a); err != nil {
			t.Fatalf("%s:%d: %v", path, line, err)
		}
		if a.Step != line || a.Action == "" {
			t.Errorf("%s:%d: step %d, action %q", path, line, a.Step, a.Action)
		}
		switch {
		case !screens && a.Screen != nil:
			t.Errorf("%s:%d: names screen %q without --screens", path, line, *a.Screen)
		case screens && a.Screen == nil:
			t.Errorf("%s:%d: no screen with --screens", path, line)
		case screens:
			f, err := os.Open(filepath.Join(ep, filepath.FromSlash(*a.Screen)))
			if err != nil {
				t.Errorf("%s:%d: screen %s: %v", path, line, *a.Screen, err)
				break
			}
			img, err := png.Decode(f)
			f.Close()
			if err != nil || img.Bounds().Dx() != 160 || img.Bounds().Dy() != 100 {
				t.Errorf("%s:%d: screen %s: not a 160x100 PNG (%v)", path, line, *a.Screen, err)
			}
		}
	})
	if n != nSteps {
		t.Errorf("%s: %d lines, n_steps %d", path, n, nSteps)
	}
	if _, err := os.Stat(filepath.Join(ep, "screens")); screens == errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s: screens folder exists = %v, want %v", ep, err == nil, screens)
	}
}

func checkTime(t *testing.T, what, s string) {
	t.Helper()
	ts, err := time.Parse(time.RFC3339, s)
	if err != nil || !strings.HasSuffix(s, "Z") || ts.Year() != 2026 {
		t.Errorf("%s: %q is not an RFC 3339 UTC time in 2026 (%v)", what, s, err)
	}
}

func checkVerdicts(t *testing.T, dir string, st Stats, metas map[string]metaFile) {
	t.Helper()
	vs := readVerdicts(t, dir, st)
	if len(vs) != st.VerdictRows {
		t.Fatalf("%d verdict rows, stats say %d", len(vs), st.VerdictRows)
	}
	type key struct {
		ep, judge, cond string
		run             int
	}
	seen := map[key]bool{}
	for i, v := range vs {
		k := key{v.EpisodeID, v.Judge, v.Condition, v.Run}
		if seen[k] {
			t.Errorf("row %d: duplicate key %+v", i, k)
		}
		seen[k] = true
		if _, ok := metas[v.EpisodeID]; !ok {
			t.Errorf("row %d: episode %q has no folder", i, v.EpisodeID)
		}
		if !strings.HasPrefix(v.Judge, NamePrefix) || !strings.HasPrefix(v.Model, NamePrefix) {
			t.Errorf("row %d: judge %q, model %q not simulated", i, v.Judge, v.Model)
		}
		if !slices.Contains(DefaultConditions(), v.Condition) || v.Run < 1 || v.Run > 3 {
			t.Errorf("row %d: condition %q run %d", i, v.Condition, v.Run)
		}
		checkTime(t, "called_at", v.CalledAt)
		isRM := v.Judge == "sim:rm-1"
		switch {
		case v.Verdict != nil && *v.Verdict == schema.VerdictParseError:
			if v.Score != nil || v.Confidence != nil {
				t.Errorf("row %d: parse_error with score or confidence: %+v", i, v)
			}
		case isRM:
			if v.Verdict != nil || v.Score == nil || *v.Score < 0 || *v.Score > 1 || v.Confidence != nil {
				t.Errorf("row %d: reward-model row not score-only: %+v", i, v)
			}
		default:
			if v.Verdict == nil || !slices.Contains(schema.Verdicts, *v.Verdict) || v.Score != nil ||
				v.Confidence == nil || *v.Confidence < 0 || *v.Confidence > 1 {
				t.Errorf("row %d: bad VLM row: %+v", i, v)
			}
		}
	}
	if want := len(metas) * 36; len(seen) != want {
		t.Errorf("%d distinct verdict keys, want %d", len(seen), want)
	}
}

func TestGenerateEpisodeModes(t *testing.T) {
	cases := []struct {
		mode EpisodeFiles
		want []string // files in one episode folder
	}{
		{EpisodeFull, []string{"actions.jsonl", "gt.json", "meta.json"}},
		{EpisodeMinimal, []string{"gt.json", "meta.json"}},
		{EpisodeNone, nil},
	}
	for _, tc := range cases {
		o := smallOptions()
		o.Episodes = tc.mode
		dir := t.TempDir()
		if _, err := Generate(t.Context(), dir, o); err != nil {
			t.Fatal(err)
		}
		var got []string
		if ents, err := os.ReadDir(filepath.Join(dir, "episodes", "sim-20261010-t0001-a1-e001")); err == nil {
			for _, e := range ents {
				got = append(got, e.Name())
			}
		}
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("mode %d: episode files (-want +got):\n%s", tc.mode, diff)
		}
	}
}

func TestGenerateVerdictFileNames(t *testing.T) {
	dir := t.TempDir()
	st, err := Generate(t.Context(), dir, smallOptions())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(st.VerdictFiles), 12; got != want {
		t.Fatalf("%d verdict files, want %d", got, want)
	}
	if !slices.Contains(st.VerdictFiles, "verdicts/sim_vlm-a__E2_claim.jsonl") {
		t.Errorf("verdict files %v lack verdicts/sim_vlm-a__E2_claim.jsonl", st.VerdictFiles)
	}
	for _, f := range st.VerdictFiles {
		judge, cond, _ := strings.Cut(strings.TrimSuffix(filepath.Base(f), ".jsonl"), "__")
		readLines(t, filepath.Join(dir, f), func(line int, b []byte) {
			var v verdictLine
			if err := strictUnmarshal(b, &v); err != nil {
				t.Fatalf("%s:%d: %v", f, line, err)
			}
			if safeName(v.Judge) != judge || safeName(v.Condition) != cond {
				t.Fatalf("%s:%d: row of %s × %s in the wrong file", f, line, v.Judge, v.Condition)
			}
		})
	}
}

func TestGenerateRefusesNonEmptyOutput(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "verdicts"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "verdicts", "old.jsonl"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Generate(t.Context(), dir, smallOptions())
	if !errors.Is(err, ErrOutputNotEmpty) {
		t.Errorf("err = %v, want ErrOutputNotEmpty", err)
	}
}

func TestGenerateCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := Generate(ctx, t.TempDir(), smallOptions())
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestGenerateProgress(t *testing.T) {
	o := smallOptions()
	o.VerdictRows = 600 * 36
	var calls [][2]int
	o.Progress = func(done, total int) { calls = append(calls, [2]int{done, total}) }
	if _, err := Generate(t.Context(), t.TempDir(), o); err != nil {
		t.Fatal(err)
	}
	want := [][2]int{{256, 600}, {512, 600}, {600, 600}}
	if diff := cmp.Diff(want, calls); diff != "" {
		t.Errorf("progress calls (-want +got):\n%s", diff)
	}
}

// TestGenerateWriteError: a failure in a worker stops the run with the
// error, without deadlock, whatever is in flight.
func TestGenerateWriteError(t *testing.T) {
	o := smallOptions()
	o.VerdictRows = 3000 * 36
	o.Workers = 1
	dir := t.TempDir()
	p, err := newPlan(o)
	if err != nil {
		t.Fatal(err)
	}
	last := p.episodes[len(p.episodes)-1].id
	o.Progress = func(done, total int) {
		if done == batchSize {
			// Batch 1 of 12 is written; at most 2 batches are in flight,
			// so the last episode's folder does not exist yet.
			if err := os.Mkdir(filepath.Join(dir, "episodes", last), 0o755); err != nil {
				t.Error(err)
			}
		}
	}
	_, err = Generate(t.Context(), dir, o)
	if !errors.Is(err, fs.ErrExist) || !strings.Contains(err.Error(), last) {
		t.Errorf("err = %v, want an ErrExist naming episode %s", err, last)
	}
}
