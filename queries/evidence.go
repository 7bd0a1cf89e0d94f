package queries

import (
	"context"
	"fmt"
)

// EvidenceAudit says what a judge saw under a condition, as recorded in the
// evidence table (checklist item evidence_leakage).
type EvidenceAudit struct {
	Verdicts   int64  // verdict rows
	Packs      int64  // distinct packs they name
	NoPack     int64  // verdicts without a pack_sha256 (ingested from files)
	Unrecorded int64  // verdicts whose pack is not in the evidence table
	Unguarded  int64  // verdicts on packs that record no leakage guard
	Guards     string // the guard versions seen
}

// EvidenceLeakage audits the packs behind jc's verdicts (sql/evidence_leakage.sql).
func (s *Session) EvidenceLeakage(ctx context.Context, jc JudgeCondition) (EvidenceAudit, error) {
	var a EvidenceAudit
	row := s.conn.QueryRowContext(ctx, sqlFile("evidence_leakage"), jc.Judge, jc.Condition)
	if err := row.Scan(&a.Verdicts, &a.Packs, &a.NoPack, &a.Unrecorded, &a.Unguarded, &a.Guards); err != nil {
		return EvidenceAudit{}, fmt.Errorf("audit evidence: %w", err)
	}
	return a, nil
}

// PackMessage is one final message of the episode of a non-claim pack.
type PackMessage struct {
	PackSHA256 string
	Message    string // "" when the episode records none
}

// EvidenceFinalMessages lists the non-claim packs behind jc's verdicts with
// the final messages of their episodes, sorted by pack
// (sql/evidence_final_messages.sql).
func (s *Session) EvidenceFinalMessages(ctx context.Context, jc JudgeCondition) ([]PackMessage, error) {
	return collect(ctx, s, "query final messages of packs", "final messages of packs",
		func(m *PackMessage) []any { return []any{&m.PackSHA256, &m.Message} },
		sqlFile("evidence_final_messages"), jc.Judge, jc.Condition)
}
