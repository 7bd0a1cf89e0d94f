-- name: ViewerBlob
-- Where the lake records the content hash $1 (`trustlake view`'s
-- /blobs/{sha256} and /api/packs/{sha256}): kind 'pack' with the pack's
-- hash (an evidence pack, or a pack holding the image $1), or kind
-- 'screen' with the episode folder and the screenshot's path in it (an
-- action's screenshot). Up to one row of each kind.
(SELECT 'pack' AS kind, pack_sha256 AS ref, NULL AS path
 FROM evidence
 WHERE pack_sha256 = $1 OR contains(image_sha256, $1)
 LIMIT 1)
UNION ALL
(SELECT 'screen', e.dir, a.screen
 FROM actions a JOIN episodes e ON e.episode_id = a.episode_id
 WHERE a.screen_sha256 = $1 AND a.screen IS NOT NULL
 LIMIT 1)
