package spark

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The Go client of Spark Connect sends SQL text without parameters, so a
// statement's $1, $2, ... are replaced by literals rendered here.

// literal renders a Spark SQL string literal. Spark reads backslash escapes
// inside quotes, so both the quote and the backslash are escaped.
func literal(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`)
	return "'" + r.Replace(s) + "'"
}

// value renders one argument: string, bool, int, int64, nil, *float64 or float64 (a
// DOUBLE, written so that it parses back to the same float64).
func value(a any) string {
	switch v := a.(type) {
	case nil:
		return "CAST(NULL AS DOUBLE)"
	case string:
		return literal(v)
	case bool:
		return strconv.FormatBool(v)
	case int:
		return strconv.Itoa(v)
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		return "CAST(" + literal(strconv.FormatFloat(v, 'g', -1, 64)) + " AS DOUBLE)"
	case *float64:
		if v == nil {
			return "CAST(NULL AS DOUBLE)"
		}
		return value(*v)
	}
	panic(fmt.Sprintf("spark: no literal for %T", a))
}

// placeholder matches $1, $2, ... in a statement.
var placeholder = regexp.MustCompile(`\$[0-9]+`)

// bind drops the comment lines of stmt and replaces each $N by the literal
// of args[N-1], in one pass (a literal holding "$2" stays as it is).
func bind(stmt string, args ...any) string {
	stmts := statements(stmt)
	if len(stmts) != 1 {
		panic(fmt.Sprintf("spark: bind wants one statement, got %d", len(stmts)))
	}
	return placeholder.ReplaceAllStringFunc(stmts[0], func(m string) string {
		n, _ := strconv.Atoi(m[1:])
		if n < 1 || n > len(args) {
			panic(fmt.Sprintf("spark: %s without an argument", m))
		}
		return value(args[n-1])
	})
}
