package judge

import (
	"context"
	"errors"
	"testing"
	"time"
)

// sleep returns the stop even when its timer fired at the same moment (the
// limiter and the retries wait through it): no further request may go out
// once the run is stopped.
func TestSleepAfterStop(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	for range 200 {
		if err := sleep(ctx, time.Nanosecond); !errors.Is(err, context.Canceled) {
			t.Fatalf("sleep after stop = %v, want context.Canceled", err)
		}
	}
}
