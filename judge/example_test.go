package judge_test

import (
	"fmt"

	"github.com/trustlake/trustlake/judge"
	"github.com/trustlake/trustlake/schema"
)

// A chat trajectory packed under E2+claim: the messages as text evidence,
// the agent's final message shown only because the condition asks for it.
func ExampleBuild() {
	role := func(s string) *string { return &s }
	text := func(s string) *string { return &s }
	final := "I cancelled ABC123."
	src := &judge.Source{EpisodeID: "tau-1", TaskText: "Cancel reservation ABC123.", FinalMessage: &final,
		Secrets: judge.Secrets{Source: schema.SourceNatural}}
	for i, m := range [][2]string{{"user", "cancel ABC123 please"}, {"assistant", "cancelling"}, {"tool", "ok"}, {"assistant", final}} {
		src.Actions = append(src.Actions, schema.Action{EpisodeID: "tau-1", Step: int64(i), Role: role(m[0]), Text: text(m[1])})
	}
	p, err := judge.Build(src, judge.E2Claim, judge.PackOptions{LastK: 2})
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Description)
	for _, m := range p.Messages {
		fmt.Printf("%d %s: %s\n", m.Step, m.Role, m.Text)
	}
	fmt.Println("claim:", *p.FinalMessage)
	fmt.Println(p.Inputs())
	// Output:
	// the last 2 message(s) of the conversation, oldest first, and the agent's final message
	// 1 assistant: cancelling
	// 2 tool: ok
	// claim: I cancelled ABC123.
	// [task_text messages final_message]
}
