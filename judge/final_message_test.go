package judge

import (
	"strings"
	"testing"

	"github.com/trustlake/trustlake/ingest"
	"github.com/trustlake/trustlake/internal/testenv"
	"github.com/trustlake/trustlake/lake"
	"github.com/trustlake/trustlake/lake/runcounts"
	"github.com/trustlake/trustlake/schema"
)

// tauShaped is a chat trajectory in τ-bench's shape: the agent's final
// message is followed by the user's stop and a tool message, and an earlier
// message with a tool call carries text too.
func tauShaped(final string, recorded bool) *Source {
	role := func(r string) *string { return &r }
	src := &Source{EpisodeID: "tau-1", TaskText: "Cancel reservation ABC123.", Secrets: Secrets{Source: "natural"}}
	if recorded {
		src.FinalMessage = &final
	}
	type m struct{ role, text, tool string }
	msgs := []m{{"system", "You are an airline agent.", ""}, {"user", "please cancel ABC123", ""},
		{"assistant", "Let me look it up.", "get_reservation"}, {"tool", "", "get_reservation"},
		{"assistant", final, ""}, {"user", "###STOP###", ""}, {"tool", "", "transfer_to_human_agents"}}
	for i, x := range msgs {
		a := schema.Action{EpisodeID: "tau-1", Step: int64(i), Role: role(x.role), Extra: "{}"}
		if x.text != "" {
			a.Text = &x.text
		}
		if x.tool != "" {
			a.ToolName = &x.tool
			if x.role == "tool" {
				a.Observation = sp(`{"status":"ok"}`)
			}
		}
		src.Actions = append(src.Actions, a)
	}
	return src
}

// TestFinalMessageOnlyUnderClaim: wherever the agent's last message stands,
// only E2+claim carries it, in its own field (issue 24 item 3).
func TestFinalMessageOnlyUnderClaim(t *testing.T) {
	const final = "Your reservation ABC123 has been cancelled and refunded."
	for _, recorded := range []bool{true, false} {
		src := tauShaped(final, recorded)
		for _, cond := range Conditions {
			p, err := Build(src, cond, PackOptions{LastK: 4})
			if err != nil {
				t.Fatal(err)
			}
			inTrajectory := false
			for _, m := range p.Messages {
				inTrajectory = inTrajectory || strings.Contains(m.Text, "cancelled and refunded")
			}
			if inTrajectory {
				t.Errorf("recorded %v, %s: the final message is in the trajectory", recorded, cond)
			}
			if got := p.FinalMessage != nil && *p.FinalMessage == final; got != (cond == E2Claim) {
				t.Errorf("recorded %v, %s: final_message field = %v", recorded, cond, p.FinalMessage)
			}
			if p.Holds(final) != (cond == E2Claim) {
				t.Errorf("recorded %v, %s: Holds(final) = %v", recorded, cond, p.Holds(final))
			}
			if cond == E3Full && len(p.Messages) != 6 {
				t.Errorf("recorded %v: E3-full has %d messages, want 6 (all but the final one)", recorded, len(p.Messages))
			}
		}
	}
	// The tool call of a message whose text is the final message stays.
	src := tauShaped("placeholder", true)
	src.Actions[4].ToolName = sp("cancel_reservation")
	src.FinalMessage = sp("Cancelling now, your reservation is being refunded.")
	src.Actions[4].Text = src.FinalMessage
	p, err := Build(src, E3Full, PackOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Messages) != 7 || p.Messages[4].Text != "[tool call] cancel_reservation" || p.Holds(*src.FinalMessage) {
		t.Errorf("E3-full messages %+v", p.Messages)
	}
}

// TestTauBenchPacksHoldNoFinalMessage: on the real τ-bench gpt-4o-airline
// trajectories (200 results), no E1-final, E2-lastk or E3-full pack holds the
// agent's final message and every E2+claim pack does (issue 24 item 3: 196
// of 200 E2-lastk and 200 of 200 E3-full packs held it).
func TestTauBenchPacksHoldNoFinalMessage(t *testing.T) {
	file := testenv.DataFile(t, "tau-bench/gpt-4o-airline.json")
	l, err := lake.Open(t.TempDir(), runcounts.With(lake.Options{}))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.TauBench(t.Context(), l, []string{file}, ingest.TauBenchOptions{}, ingest.Options{}); err != nil {
		t.Fatal(err)
	}
	srcs, err := LoadSources(l, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(srcs) != 200 {
		t.Fatalf("%d sources, want 200", len(srcs))
	}
	held := map[string]int{}
	for _, src := range srcs {
		if src.FinalMessage == nil {
			t.Fatalf("%s: no final message recorded", src.EpisodeID)
		}
		for _, cond := range Conditions {
			p, err := Build(src, cond, PackOptions{})
			if err != nil {
				t.Fatalf("%s %s: %v", src.EpisodeID, cond, err)
			}
			if p.Holds(*src.FinalMessage) {
				held[cond]++
			}
		}
	}
	want := map[string]int{E2Claim: 200}
	for _, cond := range Conditions {
		if held[cond] != want[cond] {
			t.Errorf("%s: %d of 200 packs hold the final message, want %d", cond, held[cond], want[cond])
		}
	}
}
