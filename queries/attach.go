package queries

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/trustlake/trustlake/lake"
)

var viewName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Attach exposes an external Parquet, CSV or JSON file (or glob) as a view
// called name, so lake tables can be joined with other eval results. The
// reader is chosen by extension: .parquet, .csv/.tsv, .json/.jsonl/.ndjson.
func (s *Session) Attach(ctx context.Context, name, path string) error {
	if !viewName.MatchString(name) {
		return fmt.Errorf("%w: view name %q: use letters, digits and _", ErrBadAttach, name)
	}
	taken := []string{"categories"}
	for _, t := range lake.Tables() {
		taken = append(taken, t.Name)
	}
	for _, t := range taken {
		if strings.EqualFold(name, t) {
			return fmt.Errorf("%w: %q is a lake view; pick another name", ErrBadAttach, name)
		}
	}
	var reader string
	switch ext := strings.ToLower(filepath.Ext(strings.TrimSuffix(strings.TrimSuffix(path, ".gz"), ".zst"))); ext {
	case ".parquet", ".pq":
		reader = "read_parquet(%s)"
	case ".csv", ".tsv":
		reader = "read_csv(%s)"
	case ".json", ".jsonl", ".ndjson":
		reader = "read_json(%s)"
	default:
		return fmt.Errorf("%w: %s: unknown extension %q (want .parquet, .csv, .tsv, .json, .jsonl)", ErrBadAttach, path, ext)
	}
	q := fmt.Sprintf("CREATE OR REPLACE VIEW %s AS SELECT * FROM "+reader, name, quote(path))
	if err := s.Exec(ctx, q); err != nil {
		return fmt.Errorf("%w: %s=%s: %v", ErrBadAttach, name, path, err)
	}
	return nil
}
