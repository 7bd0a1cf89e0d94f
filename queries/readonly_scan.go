package queries

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
)

// readPragmas are the PRAGMA statements sql runs: they only describe the
// session or the lake's views. Every other PRAGMA changes the session
// (enable_profiling, disable_optimizer, force_checkpoint, …).
var readPragmas = map[string]bool{
	"version": true, "platform": true, "user_agent": true, "show_tables": true, "show_tables_expanded": true,
	"show_databases": true, "database_list": true, "database_size": true, "table_info": true, "show": true,
	"storage_info": true, "metadata_info": true, "functions": true, "collations": true,
}

// sessionFunctions are table and scalar functions that change the session
// or the database, write, or run SQL text the filter cannot see
// (query('…'), json_execute_serialized_sql). Names starting with enable_,
// disable_ or verify_ are session switches too.
var sessionFunctions = map[string]bool{
	"checkpoint": true, "force_checkpoint": true, "import_database": true, "copy_database": true, "add_parquet_key": true,
	"setseed": true, "truncate_duckdb_logs": true, "query": true, "json_execute_serialized_sql": true,
}

func isSessionFunction(name string) bool {
	name = strings.ToLower(name)
	return sessionFunctions[name] || strings.HasPrefix(name, "enable_") || strings.HasPrefix(name, "disable_") ||
		strings.HasPrefix(name, "verify_")
}

var (
	analyzeWord = regexp.MustCompile(`(?i)\banaly[sz]e\b`)
	leadingName = regexp.MustCompile(`(?i)^\s*(?:pragma|call)\s+"?([a-z_][a-z0-9_]*)`)
	callWord    = regexp.MustCompile(`(?i)"?\b([a-z_][a-z0-9_]*)"?\s*\(`)
)

// readKeywords are the first words of the statements ReadOnlyQuery
// prepares; any other statement is refused unprepared (preparing EXPORT
// DATABASE already creates its folder).
var readKeywords = map[string]bool{
	"select": true, "from": true, "with": true, "values": true, "table": true, "describe": true, "show": true,
	"summarize": true, "pivot": true, "unpivot": true, "explain": true, "pragma": true, "call": true, "(": true,
}

// firstWord returns the first keyword of a statement without comments, or
// "(" for a parenthesised query.
func firstWord(plain string) string {
	plain = strings.TrimSpace(plain)
	if strings.HasPrefix(plain, "(") {
		return "("
	}
	end := strings.IndexFunc(plain, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_') })
	if end < 0 {
		end = len(plain)
	}
	return plain[:end]
}

// stripComments replaces SQL comments (-- to the end of the line, /* … */)
// outside string literals and quoted names with a space.
func stripComments(q string) string {
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		switch c := q[i]; {
		case c == '\'' || c == '"':
			j := i + 1
			for j < len(q) && (q[j] != c || j+1 < len(q) && q[j+1] == c) {
				if q[j] == c {
					j++ // doubled quote
				}
				j++
			}
			b.WriteString(q[i:min(j+1, len(q))])
			i = j
		case c == '-' && i+1 < len(q) && q[i+1] == '-':
			for i < len(q) && q[i] != '\n' {
				i++
			}
			b.WriteByte(' ')
		case c == '/' && i+1 < len(q) && q[i+1] == '*':
			end := strings.Index(q[i+2:], "*/")
			if end < 0 {
				i = len(q)
			} else {
				i += end + 3 // the loop's i++ steps past the closing '/'
			}
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// refusedCall names a function or PRAGMA in query that changes the
// session or writes, or "" when there is none. A SELECT's functions come
// from DuckDB's own parse (json_serialize_sql); when that cannot serialize
// it (DESCRIBE, SUMMARIZE, …) every name followed by '(' counts.
func (s *Session) refusedCall(ctx context.Context, query string, pragma bool) string {
	plain := stripComments(query)
	m := leadingName.FindStringSubmatch(plain)
	switch {
	case pragma && (m == nil || !readPragmas[strings.ToLower(m[1])]):
		// CHECKPOINT and FORCE CHECKPOINT are PRAGMA statements too.
		if m != nil {
			return strings.ToLower(m[1])
		}
		return strings.ToLower(firstWord(plain))
	case m != nil && isSessionFunction(m[1]):
		return strings.ToLower(m[1])
	}
	var doc string
	err := s.conn.QueryRowContext(ctx, "SELECT json_serialize_sql(?::VARCHAR)::VARCHAR", query).Scan(&doc)
	if err == nil {
		var tree struct {
			Error bool `json:"error"`
		}
		if json.Unmarshal([]byte(doc), &tree) == nil && !tree.Error {
			return refusedInTree(doc)
		}
	}
	for _, m := range callWord.FindAllStringSubmatch(plain, -1) {
		if isSessionFunction(m[1]) {
			return strings.ToLower(m[1])
		}
	}
	return ""
}

// refusedInTree returns the first session function named in a serialized
// statement (any "function_name" value), or "".
func refusedInTree(doc string) string {
	var v any
	if json.Unmarshal([]byte(doc), &v) != nil {
		return ""
	}
	var found string
	var walk func(any)
	walk = func(x any) {
		switch t := x.(type) {
		case map[string]any:
			for k, e := range t {
				if name, ok := e.(string); ok && k == "function_name" && found == "" && isSessionFunction(name) {
					found = strings.ToLower(name)
				}
				walk(e)
			}
		case []any:
			for _, e := range t {
				walk(e)
			}
		}
	}
	walk(v)
	return found
}
