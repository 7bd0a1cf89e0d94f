package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"

	"github.com/trustlake/trustlake/cmdline"
)

func TestHoistGlobalFlags(t *testing.T) {
	cases := []struct{ in, want string }{
		{"trustlake sql Q", "trustlake sql Q"},
		{"trustlake --lake L sql Q", "trustlake --lake L sql Q"},
		{"trustlake sql --lake L Q", "trustlake --lake L sql Q"},
		{"trustlake sql Q --lake=L --verbose", "trustlake --lake=L --verbose sql Q"},
		{"trustlake --verbose ingest verdicts --lock-timeout 1s --replace v.jsonl", "trustlake --verbose --lock-timeout 1s ingest verdicts --replace v.jsonl"},
		{"trustlake sql -- --lake L", "trustlake sql -- --lake L"},
		{"trustlake sql --help", "trustlake sql --help"},
		{"trustlake sql Q --lake", "trustlake --lake sql Q"}, // no value: urfave/cli reports it
	}
	for _, c := range cases {
		got := strings.Join(cmdline.HoistGlobalFlags(strings.Fields(c.in), globalFlags()), " ")
		if got != c.want {
			t.Errorf("hoistGlobalFlags(%s) = %s, want %s", c.in, got, c.want)
		}
	}
}

// TestNoCommandShadowsGlobalFlag keeps hoisting unambiguous: no command
// defines a flag named like a global one.
func TestNoCommandShadowsGlobalFlag(t *testing.T) {
	var globals []string
	for _, f := range globalFlags() {
		globals = append(globals, f.Names()...)
	}
	var walk func(path string, cmds []*cli.Command)
	walk = func(path string, cmds []*cli.Command) {
		for _, c := range cmds {
			for _, f := range c.Flags {
				for _, n := range f.Names() {
					if slices.Contains(globals, n) {
						t.Errorf("%s %s: flag --%s is also a global flag", path, c.Name, n)
					}
				}
			}
			walk(path+" "+c.Name, c.Subcommands)
		}
	}
	walk("trustlake", commands())
}
