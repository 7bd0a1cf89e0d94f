package runcounts_test

import (
	"testing"

	"github.com/trustlake/trustlake/internal/laketest"
	"github.com/trustlake/trustlake/lake"
)

// oldLake is a lake written before the key index and run_counts (lake's
// test fixture).
const oldLake = "../testdata/oldlake"

func strp(s string) *string { return &s }

// verdict and write are laketest's, named as the tests call them.
var (
	verdict = laketest.Verdict
	write   = laketest.Write
)

func rowsOf[T any](t *testing.T, l *lake.Lake, table string) []T {
	t.Helper()
	var out []T
	if err := lake.ReadTable[T](l, table, func(rows []T) error { out = append(out, rows...); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}
