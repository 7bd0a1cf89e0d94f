package lake

import (
	"fmt"
	"path"

	"github.com/trustlake/trustlake/schema"
)

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
		parts = append(parts, col+"="+schema.EncodePartitionValue(values[i]))
	}
	return path.Join(parts...), nil
}
