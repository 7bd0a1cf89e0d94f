package spark

import (
	"errors"
	"log/slog"
	"strings"
	"testing"

	"github.com/trustlake/trustlake/internal/sparktest"
)

func TestBind(t *testing.T) {
	thr := 0.1
	got := bind("-- $1 in a comment\nSELECT $1, $2, $3, $4, $5 -- tail\n", `it's \ $2`, true, nil, &thr, 1e-300)
	want := `SELECT 'it\'s \\ $2', true, CAST(NULL AS DOUBLE), CAST('0.1' AS DOUBLE), CAST('1e-300' AS DOUBLE) -- tail`
	if got != want {
		t.Errorf("bind:\n got %s\nwant %s", got, want)
	}
}

func TestStatements(t *testing.T) {
	got := statements("-- a; comment\nSET a = 1;\n\n-- x\nSET b = 2\n")
	if len(got) != 2 || got[0] != "SET a = 1" || got[1] != "SET b = 2" {
		t.Errorf("statements = %q", got)
	}
}

func TestGlobEscape(t *testing.T) {
	if got := globEscape(`/a{b}[c]*?,\`); got != `/a\{b\}\[c\]\*\?\,\\` {
		t.Errorf("globEscape = %s", got)
	}
}

// TestSparkIncompatibleSQL: a statement the engine's SQL does not accept
// (DuckDB's dialect of metrics_cells, as a Spark version lacking a feature
// would) fails naming the engine and the statement.
func TestSparkIncompatibleSQL(t *testing.T) {
	remote := sparktest.Remote(t)
	dir := t.TempDir()
	s, err := Open(t.Context(), remote, Options{LakeURI: "file://" + dir})
	if err == nil {
		s.Close()
		t.Fatal("Open on a folder without a manifest succeeded")
	}
	var ee *EngineError
	if !errors.As(err, &ee) || ee.Statement != "read manifest" || !errors.Is(err, ErrEngine) {
		t.Fatalf("Open without a manifest: %v", err)
	}
	s = &Session{remote: remote, opts: Options{Logger: slog.New(slog.DiscardHandler)}}
	s.sess, err = connect(t.Context(), remote)
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.run(t.Context(), "spark query", "metrics_cells", "SELECT 7 // 2 AS x GROUP BY ALL ORDER BY ALL")
	if err == nil {
		t.Fatal("Spark accepted DuckDB's // operator")
	}
	for _, w := range []string{"engine " + remote, "statement metrics_cells", "PARSE_SYNTAX_ERROR"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %q: %v", w, err)
		}
	}
}
