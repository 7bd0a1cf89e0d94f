package lake

import (
	"fmt"
	"path"
	"strings"
)

// EncodePartitionValue percent-encodes v for a hive folder name: every byte
// outside [A-Za-z0-9._-] becomes %XX, as DuckDB does.
func EncodePartitionValue(v string) string {
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		c := v[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '.' || c == '_' || c == '-' {
			b.WriteByte(c)
			continue
		}
		fmt.Fprintf(&b, "%%%02X", c)
	}
	return b.String()
}

// PartitionDir returns the folder of a partition relative to the lake root,
// e.g. verdicts/judge=sim%3Avlm-a/condition=E2%2Bclaim.
func PartitionDir(t Table, values []string) (string, error) {
	if len(values) != len(t.Partitions) {
		return "", fmt.Errorf("table %s: %d partition values for %d columns", t.Name, len(values), len(t.Partitions))
	}
	parts := []string{t.Name}
	for i, col := range t.Partitions {
		if values[i] == "" {
			return "", fmt.Errorf("table %s: empty partition value for %s", t.Name, col)
		}
		parts = append(parts, col+"="+EncodePartitionValue(values[i]))
	}
	return path.Join(parts...), nil
}
