-- name: EvidenceLeakage
-- What a judge saw under a condition, from the evidence table: verdicts
-- without a recorded pack (ingested from files), verdicts whose pack is not
-- in the evidence table, and packs that did not pass a leakage guard
-- (whether a pack holds the final message is checked on its content:
-- evidence_final_messages.sql). Parameters: judge, condition.
SELECT
    count(*)                                                                   AS verdicts,
    count(DISTINCT v.pack_sha256)                                              AS packs,
    count(*) FILTER (WHERE v.pack_sha256 IS NULL)                              AS no_pack,
    count(*) FILTER (WHERE v.pack_sha256 IS NOT NULL AND e.pack_sha256 IS NULL) AS unrecorded,
    count(*) FILTER (WHERE e.pack_sha256 IS NOT NULL AND coalesce(e.guard, '') = '') AS unguarded,
    coalesce(string_agg(DISTINCT e.guard, ', ' ORDER BY e.guard), '')          AS guards
FROM verdicts v
LEFT JOIN evidence e ON e.pack_sha256 = v.pack_sha256 AND e.episode_id = v.episode_id
WHERE v.judge = ? AND v.condition = ?
