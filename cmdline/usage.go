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
