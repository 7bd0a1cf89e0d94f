// Package cmdline checks and normalises a urfave/cli command line before
// urfave/cli reads it, and turns its mistakes into usage errors that say
// what to run instead.
package cmdline

import (
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
)

// The command line is checked and normalised before urfave/cli reads it:
// global flags may follow the command name (they are moved before it), an
// unknown command is a usage error with a suggestion, and a command's flag
// after its arguments is a usage error naming the exact command line to run
// instead (urfave/cli stops reading flags at the first argument, so
// `ingest verdicts v.jsonl --replace` would otherwise read "--replace" as a
// file name and silently not replace).

// argToken splits a command-line token into a flag name and whether it
// carries its value ("--lake=DIR"); ok is false for a non-flag.
func argToken(a string) (name string, inline, ok bool) {
	if len(a) < 2 || a[0] != '-' || a == "--" {
		return "", false, false
	}
	name = strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
	name, _, inline = strings.Cut(name, "=")
	return name, inline, name != ""
}

// flagArity maps every name of flags to whether the flag takes a value.
func flagArity(flags []cli.Flag) map[string]bool {
	m := map[string]bool{"help": false, "h": false}
	for _, f := range flags {
		_, isBool := f.(*cli.BoolFlag)
		for _, n := range f.Names() {
			m[n] = !isBool
		}
	}
	return m
}

// HoistGlobalFlags returns args with every global flag found after the
// command name moved in front of it, so that `trustlake sql --lake L Q` and
// `trustlake sql Q --lake L` both mean `trustlake --lake L sql Q`. Nothing
// after "--" moves.
func HoistGlobalFlags(args []string, globals []cli.Flag) []string {
	arity := flagArity(globals)
	i := 1
	for i < len(args) { // leading global flags
		name, inline, ok := argToken(args[i])
		takes, global := arity[name]
		if !ok || !global {
			break
		}
		i++
		if takes && !inline && i < len(args) {
			i++
		}
	}
	if i >= len(args) {
		return args
	}
	var hoisted, rest []string
	for j := i; j < len(args); j++ {
		if args[j] == "--" {
			rest = append(rest, args[j:]...)
			break
		}
		name, inline, ok := argToken(args[j])
		takes, global := arity[name]
		if !ok || !global || name == "help" || name == "h" {
			rest = append(rest, args[j])
			continue
		}
		hoisted = append(hoisted, args[j])
		if takes && !inline && j+1 < len(args) {
			j++
			hoisted = append(hoisted, args[j])
		}
	}
	out := slices.Clone(args[:i])
	out = append(out, hoisted...)
	return append(out, rest...)
}

// Check walks args (global flags first, as HoistGlobalFlags leaves them)
// down app's command tree and returns a usage error for an unknown command
// or a flag placed after the command's arguments. The commands named raw
// take arguments that may start with "-" (SQL text): only their own flag
// names count as misplaced flags there.
func Check(app *cli.App, args []string, raw ...string) error {
	return check(app.Name, args, app.Flags, app.Commands, raw)
}

func check(root string, args []string, globals []cli.Flag, cmds []*cli.Command, raw []string) error {
	arity := flagArity(globals)
	i := 1
	// skipFlags steps over the flags at i; false for an unknown flag, which
	// urfave/cli reports itself.
	skipFlags := func() bool {
		for i < len(args) {
			name, inline, ok := argToken(args[i])
			if !ok {
				return true
			}
			takes, known := arity[name]
			if !known {
				return false
			}
			i++
			if takes && !inline && i < len(args) {
				i++
			}
		}
		return true
	}
	if !skipFlags() {
		return nil
	}
	path := []string{root}
	var cmd *cli.Command
	for i < len(args) && args[i] != "--" {
		name := args[i]
		var next *cli.Command
		for _, c := range cmds {
			if c.HasName(name) {
				next = c
			}
		}
		if next == nil {
			if cmd != nil && cmd.Action != nil {
				break // the first argument of cmd
			}
			if name == "help" || name == "h" { // urfave/cli's help command
				if i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
					return check(root, append([]string{args[0]}, args[i+1:]...), nil, cmds, raw)
				}
				return nil
			}
			return unknownCommand(path, name, cmds)
		}
		cmd, cmds, path = next, next.Subcommands, append(path, next.Name)
		arity = flagArity(next.Flags)
		i++
		if !skipFlags() {
			return nil
		}
	}
	if cmd == nil || i >= len(args) {
		return nil
	}
	return checkFlagOrder(path, cmd, args, i, slices.Contains(raw, cmd.Name))
}

// checkFlagOrder refuses a flag of cmd after its first argument (args[first]).
func checkFlagOrder(path []string, cmd *cli.Command, args []string, first int, raw bool) error {
	arity := flagArity(cmd.Flags)
	var flags, rest []string
	var misplaced string
	for j := first; j < len(args); j++ {
		if args[j] == "--" {
			rest = append(rest, args[j:]...)
			break
		}
		name, inline, ok := argToken(args[j])
		takes, known := arity[name]
		if !ok || (raw && !known) || name == "generate-bash-completion" {
			rest = append(rest, args[j])
			continue
		}
		if misplaced == "" {
			misplaced = args[j]
		}
		flags = append(flags, args[j])
		if takes && !inline && j+1 < len(args) {
			j++
			flags = append(flags, args[j])
		}
	}
	if misplaced == "" {
		return nil
	}
	what := "the arguments"
	if raw {
		what = "the query"
	}
	line := slices.Concat(path[:1], args[1:first], flags, rest)
	for k := range line {
		line[k] = ShellQuote(line[k])
	}
	return usage(strings.Join(line, " "), "%s: flag %s after %s: flags go before them",
		strings.Join(path[1:], " "), misplaced, what)
}
