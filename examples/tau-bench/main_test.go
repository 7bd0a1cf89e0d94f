package main

import (
	"bufio"
	"bytes"
	"flag"

	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/schema"
	"github.com/trustlake/trustlake/sim"
	"github.com/trustlake/trustlake/trust"
)

var benchResults = flag.Int("results", 100_000, "recorded results generated for BenchmarkAudit")

func realFile(t testing.TB) string {
	p := filepath.Join("..", "..", "..", "shared", "data", "tau-bench", "gpt-4o-airline.json")
	if _, err := os.Stat(p); err != nil {
		t.Skipf("real τ-bench data not available at %s: %v", p, err)
	}
	return p
}

func load(t testing.TB, file, name string) trust.Input {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var in trust.Input
	err = ingest.DecodeTauBench(bufio.NewReaderSize(f, 1<<20), name, ingest.TauBenchOptions{}, func(r schema.Result, a []schema.Action) error {
		in.Records = append(in.Records, trust.Record{Result: r, Actions: a})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// TestRealTauBench audits the real gpt-4o airline file and checks the
// figures quoted in README.md.
func TestRealTauBench(t *testing.T) {
	in := load(t, realFile(t), "gpt-4o-airline.json")
	rep, rows := trust.Audit(in, trust.Options{})
	if len(rows) != 200 || len(rep.PerAgent) != 1 {
		t.Fatalf("rows %d, agents %d", len(rows), len(rep.PerAgent))
	}
	a := rep.PerAgent[0]
	if a.RecordedPasses != 84 {
		t.Errorf("recorded passes = %d, want 84", a.RecordedPasses)
	}
	// τ-bench's own figure for gpt-4o airline: pass^1 = 0.42 (84/200).
	if got := float64(a.D4.PassHatK[0]); got < 0.4199 || got > 0.4201 {
		t.Errorf("pass^1 = %v, want 0.42", got)
	}
	// D1 recomputes τ-bench's reward: it must agree with every recorded
	// reward it can verify (no contradiction on this file).
	if a.D1.Contradiction != 0 || a.D1.Confirm+a.D1.Unverified != 200 {
		t.Errorf("D1 = %+v", a.D1)
	}
	for _, r := range rows {
		if r.D1Outcome == schema.D1Unverified && r.RecordedPass {
			t.Errorf("%s: recorded pass unverified", r.ResultID)
		}
	}
	var md bytes.Buffer
	if err := trust.WriteMarkdown(&md, rep); err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(readme, md.Bytes()) {
		t.Errorf("README.md does not hold the current tables; regenerate with `go run . ../../../shared/data/tau-bench/gpt-4o-airline.json`:\n%s", md.String())
	}
}

// BenchmarkAudit generates -results recorded results (5 trials each,
// 30-message trajectories), decodes them, and audits them. It reports the
// decode and audit rates and the peak resident memory.
func BenchmarkAudit(b *testing.B) {
	file := filepath.Join(b.TempDir(), "sim:agent-airline.json")
	f, err := os.Create(file)
	if err != nil {
		b.Fatal(err)
	}
	st, err := sim.WriteTauBench(f, sim.ResultsOptions{Results: *benchResults, Trials: 5, Steps: 30, Seed: 1})
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		t0 := time.Now()
		in := load(b, file, filepath.Base(file))
		decode := time.Since(t0)
		t1 := time.Now()
		rep, rows := trust.Audit(in, trust.Options{})
		audit := time.Since(t1)
		if len(rows) != st.Results || rep.Total.RecordedPasses != st.Passes {
			b.Fatalf("rows %d passes %d, want %d %d", len(rows), rep.Total.RecordedPasses, st.Results, st.Passes)
		}
		b.ReportMetric(float64(st.Results)/decode.Seconds(), "decoded/s")
		b.ReportMetric(float64(st.Results)/audit.Seconds(), "audited/s")
		b.ReportMetric(audit.Seconds()/decode.Seconds(), "audit/decode")
		runtime.KeepAlive(in)
	}
	b.ReportMetric(float64(st.Bytes)/(1<<20), "input-MiB")
	b.ReportMetric(peakRSSMiB(), "peak-RSS-MiB")
}

// peakRSSMiB reads VmHWM from /proc/self/status (0 where unavailable).
func peakRSSMiB() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}
