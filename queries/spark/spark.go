// Package spark runs trustlake's sufficient-statistics SQL on an Apache
// Spark cluster through Spark Connect (github.com/apache/spark-connect-go).
// A Session defines one temporary view per lake table over exactly the
// files of the lake's manifest, read by the engine from the lake's URI, and
// returns the same typed results as a DuckDB queries.Session; the
// statistics stay in Go.
//
// The statements are plain SQL that both engines accept where that is
// possible (metrics_cells, the heavy one, and the categories and
// human_reference views are queries/sql's files themselves); the others are
// kept in Spark's dialect beside DuckDB's (sql/*.sql here, one file per
// statement of queries/sql). The parity tests check that
// both engines return the same rows.
package spark

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/apache/spark-connect-go/spark/sparkerrors"
	sparksql "github.com/apache/spark-connect-go/spark/sql"
	"github.com/apache/spark-connect-go/spark/sql/types"
)

//go:embed sql/*.sql
var sqlFiles embed.FS

// sqlFile returns the text of an embedded statement file.
func sqlFile(name string) string {
	b, err := sqlFiles.ReadFile("sql/" + name + ".sql")
	if err != nil {
		panic(fmt.Sprintf("missing embedded sql/%s.sql", name))
	}
	return string(b)
}

// ErrEngine marks every failure of the engine: unreachable, a path it
// cannot read, a statement it refuses. The CLI exits 1 on it.
var ErrEngine = errors.New("engine")

// EngineError is a statement the engine could not run: it names the
// engine, the statement (the .sql file, or what was done) and the cause.
type EngineError struct {
	Engine    string // sc://host:port
	Statement string // e.g. "metrics_cells" or "create view verdicts"
	Err       error
}

func (e *EngineError) Error() string {
	return fmt.Sprintf("engine %s: statement %s: %v", e.Engine, e.Statement, e.Err)
}

func (e *EngineError) Unwrap() []error { return []error{ErrEngine, e.Err} }

// Options configure Open.
type Options struct {
	// LakeURI is the lake's root as the engine sees it, e.g.
	// file:///shared/lake or s3a://bucket/lake. The manifest is read from
	// there too, so the engine reads the files of the version it listed.
	LakeURI string
	Logger  *slog.Logger // nil discards
}

// Session is a Spark Connect session with the lake's views. It is not safe
// for concurrent use.
type Session struct {
	remote string
	sess   sparksql.SparkSession
	opts   Options
	me     string // the statement that defined the view metric_episodes ("" before)
}

// Open connects to remote (sc://HOST:PORT), configures the session and
// defines the views of the lake at opts.LakeURI.
func Open(ctx context.Context, remote string, opts Options) (*Session, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if !strings.HasPrefix(remote, "sc://") {
		return nil, &EngineError{Engine: remote, Statement: "connect", Err: errors.New("want sc://HOST:PORT")}
	}
	if opts.LakeURI == "" {
		return nil, &EngineError{Engine: remote, Statement: "connect", Err: errors.New("no lake URI")}
	}
	sess, err := connect(ctx, remote)
	if err != nil {
		return nil, err
	}
	s := &Session{remote: remote, sess: sess, opts: opts}
	for _, stmt := range statements(sqlFile("session_conf")) {
		if err := s.exec(ctx, "session_conf", stmt); err != nil {
			s.Close()
			return nil, err
		}
	}
	if err := s.createViews(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// connect checks that the engine answers and starts a session.
func connect(ctx context.Context, remote string) (sparksql.SparkSession, error) {
	if err := dial(ctx, remote); err != nil {
		return nil, &EngineError{Engine: remote, Statement: "connect", Err: err}
	}
	sess, err := sparksql.NewSessionBuilder().Remote(remote).Build(ctx)
	if err != nil {
		return nil, &EngineError{Engine: remote, Statement: "connect", Err: cause(err)}
	}
	return sess, nil
}

// dialTimeout bounds the reachability check of Open.
const dialTimeout = 10 * time.Second

// dial checks that the engine's port answers, so that an unreachable
// engine fails at once and says so (gRPC would retry in the background).
func dial(ctx context.Context, remote string) error {
	hostport := strings.TrimPrefix(remote, "sc://")
	if i := strings.IndexAny(hostport, "/;"); i >= 0 {
		hostport = hostport[:i]
	}
	if _, _, err := net.SplitHostPort(hostport); err != nil {
		hostport = net.JoinHostPort(hostport, "15002") // Spark Connect's default port
	}
	d := net.Dialer{Timeout: dialTimeout}
	conn, err := d.DialContext(ctx, "tcp", hostport)
	if err != nil {
		return fmt.Errorf("unreachable: %w", err)
	}
	return conn.Close()
}

// Close ends the session.
func (s *Session) Close() error {
	if s.sess == nil {
		return nil
	}
	err := s.sess.Stop()
	s.sess = nil
	return err
}

// exec runs a statement for its side effect. A command runs when it is
// submitted; a query relation returned instead (SET) is collected so that
// its errors surface here.
func (s *Session) exec(ctx context.Context, name, stmt string) error {
	_, err := s.run(ctx, "spark exec", name, stmt)
	return err
}

// run runs a statement and collects its (small) result, logging kind
// ("spark exec", "spark query") at debug.
func (s *Session) run(ctx context.Context, kind, name, stmt string) ([]types.Row, error) {
	s.opts.Logger.Debug(kind, "statement", name)
	df, err := s.sess.Sql(ctx, stmt)
	var rows []types.Row
	if err == nil {
		rows, err = df.Collect(ctx)
	}
	if err != nil {
		return nil, &EngineError{Engine: s.remote, Statement: name, Err: cause(err)}
	}
	return rows, nil
}

// cause shortens a Spark Connect error to its first line: the server's
// error class and message, without the plan or a stack trace.
func cause(err error) error {
	var se *sparkerrors.SparkError
	if errors.As(err, &se) && se.Message != "" {
		if strings.HasPrefix(se.Message, "[") {
			return errors.New(firstLine(se.Message)) // [ERROR_CLASS] message. SQLSTATE: ...
		}
		return errors.New(firstLine(se.Error()))
	}
	return errors.New(firstLine(err.Error()))
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	const max = 400
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}

// statements drops the comment lines of a file and splits the rest at ';'
// (the files hold no ';' in a string).
func statements(text string) []string {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "--") {
			lines = append(lines, l)
		}
	}
	var out []string
	for _, part := range strings.Split(strings.Join(lines, "\n"), ";") {
		if strings.TrimSpace(part) != "" {
			out = append(out, strings.TrimSpace(part))
		}
	}
	return out
}

// Query runs one SQL statement on the engine over the lake's views and
// collects the whole result: for small results (tests, sufficient
// statistics), never for a table's rows at scale.
func (s *Session) Query(ctx context.Context, stmt string) ([]types.Row, error) {
	return s.run(ctx, "spark query", "query", stmt)
}

// The Go client of Spark Connect sends SQL text without parameters, so a
// statement's $1, $2, ... are replaced by literals rendered here.

// literal renders a Spark SQL string literal. Spark reads backslash escapes
// inside quotes, so both the quote and the backslash are escaped.
func literal(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`)
	return "'" + r.Replace(s) + "'"
}

// value renders one argument: string, bool, int, int64, nil, *float64, float64 (a
// DOUBLE, written so that it parses back to the same float64) or []string (an ARRAY<STRING>).
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
	case []string:
		lits := make([]string, len(v))
		for i, s := range v {
			lits[i] = literal(s)
		}
		return "CAST(array(" + strings.Join(lits, ", ") + ") AS ARRAY<STRING>)"
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
