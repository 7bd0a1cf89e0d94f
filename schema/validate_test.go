package schema

import (
	"strings"
	"testing"
)

// TestPartitionLength: a partition value is refused once its folder name
// (every byte outside [A-Za-z0-9._-] percent-encoded, three bytes) passes
// MaxPartitionBytes, on both sides of the short-value shortcut.
func TestPartitionLength(t *testing.T) {
	for _, c := range []struct {
		v  string
		ok bool
	}{
		{strings.Repeat(":", 66), true},  // 198 bytes encoded
		{strings.Repeat(":", 67), false}, // 201
		{strings.Repeat("a", 200), true}, // 200, not encoded
		{strings.Repeat("a", 201), false},
		{strings.Repeat("a", 190) + ":::::", false}, // 205
		{"sim:vlm-a", true},
	} {
		err := checkPartition("judge", c.v)
		if (err == nil) != c.ok {
			t.Errorf("%d bytes, %d encoded: %v, want ok=%v", len(c.v), len(EncodePartitionValue(c.v)), err, c.ok)
		}
	}
}
