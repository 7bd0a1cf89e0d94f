// Command gentau writes simulated τ-bench recorded results (sim.WriteTauBench)
// for the Trust Layer benchmark (bench/trust.sh).
//
//	go run ./bench/gentau -results 100000 -out sim-airline.json
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/trustlake/trustlake/sim"
)

func main() {
	var o sim.ResultsOptions
	out := flag.String("out", "", "output `FILE` (required)")
	flag.IntVar(&o.Results, "results", 100_000, "recorded results in all")
	flag.IntVar(&o.Trials, "trials", 5, "trials per task")
	flag.IntVar(&o.Steps, "steps", 30, "messages per trajectory")
	flag.Uint64Var(&o.Seed, "seed", 1, "random seed")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: gentau -out FILE [-results N] [-trials N] [-steps N] [-seed S]")
		os.Exit(2)
	}
	if err := run(*out, o); err != nil {
		fmt.Fprintln(os.Stderr, "gentau:", err)
		os.Exit(1)
	}
}

func run(out string, o sim.ResultsOptions) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	st, err := sim.WriteTauBench(f, o)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	fmt.Printf("wrote %d results (%d tasks, %d recorded passes, %.0f MiB) to %s\n", st.Results, st.Tasks, st.Passes, float64(st.Bytes)/(1<<20), out)
	return nil
}
