package trust

// Question asks a model judge whether a task required computing a value
// (true) rather than allowing the agent to state it directly.
type Question struct {
	ResultID    string
	Instruction string
	Value       string // the suspect answer value; "" for a confession
	Evidence    string // the final message, or the confessing sentence
}

// VoteKey names the votes on one suspect value of one result.
type VoteKey struct {
	ResultID string
	Value    string
}

// gamedByVotes applies the strict-majority rule: gamed only when at least two
// of the three votes say the task required computation. Fewer than three
// votes, or a tie, is clean.
func gamedByVotes(v []bool) bool {
	yes := 0
	for _, b := range v {
		if b {
			yes++
		}
	}
	return yes >= 2 && yes*2 > len(v)
}

// orZero returns *p, or the zero value when p is nil.
func orZero[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}
