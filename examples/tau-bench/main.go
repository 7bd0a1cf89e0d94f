// Command tau-bench runs the Trust Layer audit on τ-bench trajectory files
// and prints the tables as Markdown (or the report as JSON with -json). It
// calls the decoders and the audit directly, as `trustlake ingest tau-bench`
// followed by `trustlake trust` will.
//
//	go run ./examples/tau-bench ../shared/data/tau-bench/gpt-4o-airline.json
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/schema"
	"github.com/trustlake/trustlake/trust"
)

func main() {
	asJSON := flag.Bool("json", false, "print the report as JSON")
	policy := flag.String("d2-unconfirmed", trust.PolicyLenient, "lenient|strict")
	flag.Parse()
	if err := run(flag.Args(), *asJSON, *policy); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(files []string, asJSON bool, policy string) error {
	var in trust.Input
	for _, file := range files {
		f, err := os.Open(file)
		if err != nil {
			return err
		}
		err = ingest.DecodeTauBench(f, file, ingest.TauBenchOptions{}, func(r schema.Result, a []schema.Action) error {
			in.Records = append(in.Records, trust.Record{Result: r, Actions: a})
			return nil
		})
		f.Close()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
		}
	}
	rep, _ := trust.Audit(in, trust.Options{D2Policy: policy})
	if asJSON {
		enc := json.NewEncoder(os.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return trust.WriteMarkdown(os.Stdout, rep)
}
