package judge

import (
	"errors"
	"testing"
)

// A verifier output the task text itself states is given to every judge;
// the same value in the agent's actions (not in the task) is still a leak.
func TestGuardAllowsValuesTheTaskStates(t *testing.T) {
	s := Secrets{Source: "natural", VerifierOutput: []string{"https://intranet.local", "checked 3 files in /etc"}}
	given := &Pack{TaskText: "Set the homepage to https://intranet.local and save.", Steps: []Step{{Step: 1, Action: "type \"https://intranet.local\""}}}
	if err := Guard(given, s); err != nil {
		t.Errorf("a value the task states: %v", err)
	}
	leak := &Pack{TaskText: "Set the homepage and save.", Steps: []Step{{Step: 1, Action: "type \"https://intranet.local\""}}}
	if err := Guard(leak, s); !errors.Is(err, ErrLeak) {
		t.Errorf("a verifier value the task does not state: err = %v, want ErrLeak", err)
	}
	other := &Pack{TaskText: "Set the homepage to https://intranet.local.", FinalMessage: ptr("I checked 3 files in /etc")}
	if err := Guard(other, s); !errors.Is(err, ErrLeak) {
		t.Errorf("another verifier value: err = %v, want ErrLeak", err)
	}
}

func ptr(s string) *string { return &s }
