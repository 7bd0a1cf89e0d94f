-- name: EvidenceFinalMessages
-- The non-claim packs behind judge $1's verdicts under condition $2, each
-- with every final message of its episode: the one recorded (episodes,
-- results) and the agent's last assistant text in its trajectory
-- (actions). The leakage item looks for each in the pack's text.
WITH packs AS (
    SELECT DISTINCT e.episode_id, e.pack_sha256
    FROM verdicts v
    JOIN evidence e ON e.pack_sha256 = v.pack_sha256 AND e.episode_id = v.episode_id
    WHERE v.judge = $1 AND v.condition = $2 AND e.condition <> 'E2+claim'
),
finals AS (
    SELECT episode_id, final_message AS msg FROM episodes
    WHERE final_message IS NOT NULL AND episode_id IN (SELECT episode_id FROM packs)
    UNION
    SELECT episode_id, final_message FROM results
    WHERE final_message IS NOT NULL AND episode_id IN (SELECT episode_id FROM packs)
    UNION
    SELECT episode_id, arg_max(text, step) FROM actions
    WHERE role = 'assistant' AND trim(text) <> '' AND episode_id IN (SELECT episode_id FROM packs)
    GROUP BY episode_id
)
SELECT p.pack_sha256, coalesce(f.msg, '') AS msg
FROM packs p LEFT JOIN finals f USING (episode_id)
ORDER BY p.pack_sha256, msg
