package main

import (
	"fmt"
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

// rawArgCommands take arguments that may start with "-" (SQL text): only
// their own flag names count as misplaced flags.
var rawArgCommands = map[string]bool{"sql": true}

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

// hoistGlobalFlags returns args with every global flag found after the
// command name moved in front of it, so that `trustlake sql --lake L Q` and
// `trustlake sql Q --lake L` both mean `trustlake --lake L sql Q`. Nothing
// after "--" moves.
func hoistGlobalFlags(args []string, globals []cli.Flag) []string {
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

// checkCommandLine walks args (global flags first, as hoistGlobalFlags
// leaves them) down the command tree and returns a usage error for an
// unknown command or a flag placed after the command's arguments.
func checkCommandLine(args []string, globals []cli.Flag, cmds []*cli.Command) error {
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
	path := []string{"trustlake"}
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
					return checkCommandLine(append([]string{args[0]}, args[i+1:]...), nil, cmds)
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
	return checkFlagOrder(path, cmd, args, i)
}

// checkFlagOrder refuses a flag of cmd after its first argument (args[first]).
func checkFlagOrder(path []string, cmd *cli.Command, args []string, first int) error {
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
		if !ok || (rawArgCommands[cmd.Name] && !known) || name == "generate-bash-completion" {
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
	if rawArgCommands[cmd.Name] {
		what = "the query"
	}
	line := slices.Concat(path[:1], args[1:first], flags, rest)
	for k := range line {
		line[k] = shellQuote(line[k])
	}
	return usageHint(strings.Join(line, " "), "%s: flag %s after %s: flags go before them",
		strings.Join(path[1:], " "), misplaced, what)
}

// unknownCommand is the usage error for name, which is not a command of
// path; it suggests the closest command name when one is close.
func unknownCommand(path []string, name string, cmds []*cli.Command) error {
	var names []string
	for _, c := range cmds {
		if !c.Hidden {
			names = append(names, c.Name)
		}
	}
	where := strings.Join(path, " ")
	if s := closest(name, names); s != "" {
		return usageHint(where+" "+s+" --help", "unknown command %q: did you mean %q?", strings.Join(append(path[1:], name), " "), strings.Join(append(path[1:], s), " "))
	}
	return usageHint(where+" --help", "unknown command %q; commands: %s", strings.Join(append(path[1:], name), " "), strings.Join(names, ", "))
}

// closest returns the candidate nearest to s by edit distance when it is
// near enough to be a slip (at most 1 edit for short names, 2 otherwise,
// or s is a prefix of it), else "".
func closest(s string, candidates []string) string {
	best, bestD := "", -1
	for _, c := range candidates {
		d := editDistance(s, c)
		if len(s) >= 3 && strings.HasPrefix(c, s) {
			d = min(d, 1)
		}
		if bestD < 0 || d < bestD {
			best, bestD = c, d
		}
	}
	limit := 2
	if len(s) <= 4 {
		limit = 1
	}
	if bestD < 0 || bestD > limit {
		return ""
	}
	return best
}

// editDistance is the Damerau–Levenshtein distance (optimal string
// alignment: insertions, deletions, substitutions, adjacent swaps).
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,@%+-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// flagUsageError turns urfave/cli's flag-parsing error of command c into a
// usage error: it suggests the nearest flag name for an unknown flag, and
// the command's help.
func flagUsageError(c *cli.Context, err error) error {
	help := "trustlake --help"
	var flags []cli.Flag
	if c != nil && c.Command != nil && c.Command.HelpName != "" {
		help, flags = c.Command.HelpName+" --help", c.Command.Flags
	} else if c != nil && c.App != nil {
		flags = c.App.Flags
	}
	msg := err.Error()
	if bad, ok := strings.CutPrefix(msg, "flag provided but not defined: "); ok {
		var names []string
		for _, f := range flags {
			names = append(names, f.Names()...)
		}
		if s := closest(strings.TrimLeft(bad, "-"), names); s != "" {
			dash := "--"
			if len(s) == 1 {
				dash = "-"
			}
			msg += fmt.Sprintf(": did you mean %s%s?", dash, s)
		}
	}
	return usageHint(help, "%s", msg)
}

// usageOnEveryCommand makes a flag-parsing error of any command a usage
// error (exit 2), as the app's own is.
func usageOnEveryCommand(cmds []*cli.Command, onUsage cli.OnUsageErrorFunc) {
	for _, c := range cmds {
		if c.OnUsageError == nil {
			c.OnUsageError = onUsage
		}
		usageOnEveryCommand(c.Subcommands, onUsage)
	}
}
