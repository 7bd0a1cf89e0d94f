package metrics

import (
	"context"
	"fmt"

	"github.com/trustlake/trustlake/queries"
)

// leakageItem decides evidence_leakage: every verdict must name a pack
// recorded in the evidence table that passed a leakage guard, and no
// non-claim pack may show the agent's final message, looked for in the
// pack's text (packs.Holds), not in the fields the table lists.
func leakageItem(ctx context.Context, s *queries.Session, jc queries.JudgeCondition, packs PackReader) (Item, error) {
	a, err := s.EvidenceLeakage(ctx, jc)
	if err != nil {
		return Item{}, err
	}
	it := Item{ID: "evidence_leakage", Title: "no leakage in evidence packs",
		Figure: fmt.Sprintf("%d verdicts on %d packs; %d without a recorded pack, %d with a pack missing from the evidence table, %d on unguarded packs",
			a.Verdicts, a.Packs, a.NoPack, a.Unrecorded, a.Unguarded)}
	switch {
	case a.Verdicts == 0:
		it.Status, it.Reason = StatusNotChecked, "no verdicts for this judge and condition"
		return it, nil
	case a.NoPack == a.Verdicts:
		it.Status, it.Reason = StatusNotChecked, "these verdicts were not made by `trustlake judge` (ingested from files): the lake has no record of "+
			"what the judge saw; run `trustlake evidence` and `trustlake judge` to make leakage checkable"
		return it, nil
	case packs == nil:
		it.Status, it.Reason = StatusNotChecked, "the pack store was not given: the packs' text cannot be searched for the final message"
		return it, nil
	}
	held, checked, unreadable, err := finalMessagesHeld(ctx, s, jc, packs)
	if err != nil {
		return Item{}, err
	}
	it.Figure += fmt.Sprintf(", %d of %d non-claim packs showing the final message", held, checked)
	if unreadable > 0 {
		it.Figure += fmt.Sprintf(", %d pack files unreadable", unreadable)
	}
	switch {
	case a.NoPack > 0 || a.Unrecorded > 0 || a.Unguarded > 0 || unreadable > 0:
		it.Status, it.Reason = StatusFail, "some verdicts were made on packs the evidence table does not vouch for"
	case held > 0:
		it.Status, it.Reason = StatusFail, "some packs without the claim show the agent's final message (rebuild them with `trustlake evidence --replace` and judge again)"
	default:
		it.Status = StatusPass
		it.Figure += "; guard " + a.Guards
	}
	return it, nil
}

// finalMessagesHeld counts the non-claim packs behind jc's verdicts that
// show a final message of their episode, and the pack files that cannot be
// read (missing or damaged).
func finalMessagesHeld(ctx context.Context, s *queries.Session, jc queries.JudgeCondition, packs PackReader) (held, checked, unreadable int, err error) {
	msgs, err := s.EvidenceFinalMessages(ctx, jc)
	if err != nil {
		return 0, 0, 0, err
	}
	for _, pack := range runsOf(msgs, func(m queries.PackMessage) string { return m.PackSHA256 }) {
		var texts []string
		for _, m := range pack {
			if m.Message != "" {
				texts = append(texts, m.Message)
			}
		}
		checked++
		if len(texts) == 0 {
			continue
		}
		switch hit, err := packs.Holds(pack[0].PackSHA256, texts...); {
		case err != nil:
			unreadable++
		case hit:
			held++
		}
	}
	return held, checked, unreadable, nil
}
