-- name: EvidenceLeakage
-- What a judge saw under a condition, from the evidence table: verdicts
-- without a recorded pack (ingested from files), verdicts whose pack is not
-- in the evidence table, packs that did not pass a leakage guard, and
-- non-claim packs holding the agent's final message. Parameters: judge,
-- condition.
SELECT
    count(*)                                                                   AS verdicts,
    count(DISTINCT v.pack_sha256)                                              AS packs,
    count(*) FILTER (WHERE v.pack_sha256 IS NULL)                              AS no_pack,
    count(*) FILTER (WHERE v.pack_sha256 IS NOT NULL AND e.pack_sha256 IS NULL) AS unrecorded,
    count(*) FILTER (WHERE e.pack_sha256 IS NOT NULL AND coalesce(e.guard, '') = '') AS unguarded,
    count(*) FILTER (WHERE e.condition <> 'E2+claim' AND contains(e.inputs, '"final_message"')) AS claim_outside,
    coalesce(string_agg(DISTINCT e.guard, ', ' ORDER BY e.guard), '')          AS guards
FROM verdicts v
LEFT JOIN evidence e ON e.pack_sha256 = v.pack_sha256 AND e.episode_id = v.episode_id
WHERE v.judge = ? AND v.condition = ?
