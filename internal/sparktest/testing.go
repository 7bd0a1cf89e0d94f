package sparktest

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/trustlake/trustlake/internal/testenv"
)

// RemoteEnv names the variable holding the address of a running Connect
// server (sc://HOST:PORT). make test-spark starts one cluster and sets it
// for every package; without it a test process starts its own cluster on
// first use, and Main stops it.
const RemoteEnv = "TRUSTLAKE_SPARK_REMOTE"

var shared struct {
	once    sync.Once
	cluster *Cluster
	dir     string
	err     error
}

// Remote returns the Connect address the test should use: $TRUSTLAKE_SPARK_REMOTE,
// else a cluster started once for this test process. Without pyspark or
// Java the test skips (fails when spark is required).
func Remote(t testing.TB) string {
	t.Helper()
	if r := os.Getenv(RemoteEnv); r != "" {
		return r
	}
	home, err := SparkHome(testenv.RepoRoot(t))
	if err != nil {
		testenv.Missing(t, testenv.Spark, "%v", err)
	}
	shared.once.Do(func() {
		shared.dir, shared.err = os.MkdirTemp("", "trustlake-spark-")
		if shared.err != nil {
			return
		}
		shared.cluster, shared.err = Start(context.Background(), Options{SparkHome: home, Dir: shared.dir})
	})
	if shared.err != nil {
		t.Fatalf("start spark cluster: %v", shared.err)
	}
	return shared.cluster.Remote
}

// Main runs the tests and then stops the cluster Remote started, if any.
// Call it from TestMain: os.Exit(sparktest.Main(m)).
func Main(m *testing.M) int {
	code := m.Run()
	if shared.cluster != nil {
		if err := shared.cluster.Stop(); err != nil {
			fmt.Fprintln(os.Stderr, "stop spark cluster:", err)
			code = 1
		}
		os.RemoveAll(shared.dir)
	}
	return code
}
