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
	i, _ := skipFlags(args, 1, arity) // the leading global flags
	if i >= len(args) {
		return args
	}
	hoisted, rest := splitFlags(args[i:], arity, func(name string, global bool) bool {
		return global && name != "help" && name != "h"
	})
	return slices.Concat(args[:i], hoisted, rest)
}

// skipFlags returns the index of the first argument from i on that is not
// a flag of arity (or its value), and false when it is an unknown flag.
func skipFlags(args []string, i int, arity map[string]bool) (int, bool) {
	for i < len(args) {
		name, inline, ok := argToken(args[i])
		if !ok {
			return i, true
		}
		takes, known := arity[name]
		if !known {
			return i, false
		}
		i++
		if takes && !inline && i < len(args) {
			i++
		}
	}
	return i, true
}

// splitFlags splits args into the flags move picks (each with its value)
// and the rest, both in order; nothing after "--" is a flag.
func splitFlags(args []string, arity map[string]bool, move func(name string, known bool) bool) (flags, rest []string) {
	for j := 0; j < len(args); j++ {
		if args[j] == "--" {
			return flags, append(rest, args[j:]...)
		}
		name, inline, ok := argToken(args[j])
		takes, known := arity[name]
		if !ok || !move(name, known) {
			rest = append(rest, args[j])
			continue
		}
		flags = append(flags, args[j])
		if takes && !inline && j+1 < len(args) {
			j++
			flags = append(flags, args[j])
		}
	}
	return flags, rest
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
	// An unknown flag stops the check: urfave/cli reports it itself.
	i, ok := skipFlags(args, 1, flagArity(globals))
	if !ok {
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
		if i, ok = skipFlags(args, i+1, flagArity(next.Flags)); !ok {
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
	flags, rest := splitFlags(args[first:], flagArity(cmd.Flags), func(name string, known bool) bool {
		return (!raw || known) && name != "generate-bash-completion"
	})
	if len(flags) == 0 {
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
		strings.Join(path[1:], " "), flags[0], what)
}
