package cmdline

import (
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// UsageError is a mistake in the command line (exit 2): Msg says what,
// Hint what to try ("" for none). Packages that check options declare their
// own error with a UsageHint method; the command maps both alike.
type UsageError struct{ Msg, Hint string }

func (e *UsageError) Error() string { return e.Msg }

// UsageHint is what to try instead.
func (e *UsageError) UsageHint() string { return e.Hint }

func usage(hint, format string, args ...any) error {
	return &UsageError{Msg: fmt.Sprintf(format, args...), Hint: hint}
}

// FlagUsageError turns urfave/cli's flag-parsing error of command c into a
// usage error: it suggests the nearest flag name for an unknown flag, and
// the command's help.
func FlagUsageError(c *cli.Context, err error) error {
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
		if s := Closest(strings.TrimLeft(bad, "-"), names); s != "" {
			dash := "--"
			if len(s) == 1 {
				dash = "-"
			}
			msg += fmt.Sprintf(": did you mean %s%s?", dash, s)
		}
	}
	return usage(help, "%s", msg)
}

// UsageOnEveryCommand makes a flag-parsing error of any command a usage
// error (exit 2), as the app's own is.
func UsageOnEveryCommand(cmds []*cli.Command, onUsage cli.OnUsageErrorFunc) {
	for _, c := range cmds {
		if c.OnUsageError == nil {
			c.OnUsageError = onUsage
		}
		UsageOnEveryCommand(c.Subcommands, onUsage)
	}
}

// NoArgs wraps the action of a command that takes no arguments: one is a
// usage error naming the command, with example as what to try.
func NoArgs(example string, action cli.ActionFunc) cli.ActionFunc {
	return func(c *cli.Context) error {
		if c.NArg() > 0 {
			return usage(example, "%s: unexpected argument %q", c.Command.Name, c.Args().First())
		}
		return action(c)
	}
}

// NeedArgs wraps the action of a command that needs arguments: none is the
// usage error missing, with example as what to try.
func NeedArgs(example, missing string, action cli.ActionFunc) cli.ActionFunc {
	return func(c *cli.Context) error {
		if c.NArg() == 0 {
			return usage(example, "%s", missing)
		}
		return action(c)
	}
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
	if s := Closest(name, names); s != "" {
		return usage(where+" "+s+" --help", "unknown command %q: did you mean %q?", strings.Join(append(path[1:], name), " "), strings.Join(append(path[1:], s), " "))
	}
	return usage(where+" --help", "unknown command %q; commands: %s", strings.Join(append(path[1:], name), " "), strings.Join(names, ", "))
}

// closest returns the candidate nearest to s by edit distance when it is
// near enough to be a slip (at most 1 edit for short names, 2 otherwise,
// or s is a prefix of it), else "".
func Closest(s string, candidates []string) string {
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

// ShellQuote quotes s for a POSIX shell when it needs it.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:,@%+-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
