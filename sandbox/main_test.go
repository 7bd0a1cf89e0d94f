package sandbox

import (
	"fmt"
	"os"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) {
		if fx.dir != "" {
			os.RemoveAll(fx.dir)
		}
		if err := removeTestImage(); err != nil {
			fmt.Fprintf(os.Stderr, "remove test image %s: %v\n", testImage, err)
			if code == 0 {
				code = 1
			}
		}
		os.Exit(code)
	}))
}
