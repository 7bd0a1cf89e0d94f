package sandbox

import (
	"os"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		if fx.dir != "" {
			os.RemoveAll(fx.dir)
		}
		os.Exit(code)
	}))
}
