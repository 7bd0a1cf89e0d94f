package lake

import (
	"fmt"
	"net/url"
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

// DecodePartitionValue reverses EncodePartitionValue.
func DecodePartitionValue(s string) (string, error) {
	v, err := url.PathUnescape(s)
	if err != nil {
		return "", fmt.Errorf("%w: bad escape in %q", ErrBadPath, s)
	}
	return v, nil
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

// ParsePartitionDir splits a file path relative to the lake root into its
// table and partition values. It rejects paths that do not follow the layout.
func ParsePartitionDir(rel string) (Table, []string, error) {
	segs := strings.Split(path.Clean(rel), "/")
	if len(segs) < 2 {
		return Table{}, nil, fmt.Errorf("%w: %q", ErrBadPath, rel)
	}
	t, err := LookupTable(segs[0])
	if err != nil {
		return Table{}, nil, err
	}
	if len(segs) != len(t.Partitions)+2 {
		return Table{}, nil, fmt.Errorf("%w: %q: want %d partition folders", ErrBadPath, rel, len(t.Partitions))
	}
	values := make([]string, len(t.Partitions))
	for i, col := range t.Partitions {
		k, v, ok := strings.Cut(segs[i+1], "=")
		if !ok || k != col {
			return Table{}, nil, fmt.Errorf("%w: %q: want %s=...", ErrBadPath, rel, col)
		}
		if values[i], err = DecodePartitionValue(v); err != nil {
			return Table{}, nil, err
		}
		if values[i] == "" {
			return Table{}, nil, fmt.Errorf("%w: %q: empty %s", ErrBadPath, rel, col)
		}
	}
	return t, values, nil
}
