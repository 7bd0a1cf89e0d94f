#!/usr/bin/env bash
# The main job on an embedded example: generate simulated episodes and
# verdicts, ingest them into a lake, and ask the questions trustlake exists
# for. Everything here is simulated (names start with sim:).
set -euo pipefail
cd "$(dirname "$0")/../.."
T=${TRUSTLAKE:-bin/trustlake}
DEMO=${DEMO_DIR:-demo}
export TRUSTLAKE_LAKE="$DEMO/lake"
rm -rf "$DEMO"

echo "== generate (seeded): 60 tasks x 2 agents x 2 episodes, 3 judges x 4 conditions x 3 runs"
"$T" gen --out "$DEMO/data" --tasks 60 --episodes-per-task 2

echo "== ingest"
"$T" ingest episodes "$DEMO/data/episodes"
"$T" ingest verdicts "$DEMO/data/verdicts/"*.jsonl
echo "== ingest again: nothing changes"
"$T" ingest verdicts "$DEMO/data/verdicts/"*.jsonl

echo
echo "== How often does each VLM judge accept a failure? (natural episodes, majority of 3 runs, 95% Wilson)"
"$T" sql "
WITH maj AS (
  SELECT judge, condition, episode_id,
         count_if(verdict = 'success') > count_if(verdict IN ('failure', 'uncertain')) AS accepted
  FROM verdicts WHERE verdict IS NOT NULL AND verdict <> 'parse_error'
  GROUP BY ALL)
SELECT judge, condition,
       count(*) FILTER (NOT g.pass)                    AS negatives,
       count(*) FILTER (NOT g.pass AND accepted)       AS false_pos,
       round(false_pos / negatives, 3)                 AS fpr,
       round(wilson_lo(false_pos, negatives), 3)       AS lo,
       round(wilson_hi(false_pos, negatives), 3)       AS hi
FROM maj JOIN ground_truth g USING (episode_id) JOIN episodes e USING (episode_id)
WHERE e.source = 'natural'
GROUP BY ALL ORDER BY judge, condition"

echo
echo "== Which failures fool sim:vlm-a on E2-lastk? (FPR by effective category: label, else verifier)"
"$T" sql "
WITH maj AS (
  SELECT episode_id, count_if(verdict = 'success') > count_if(verdict IN ('failure', 'uncertain')) AS accepted
  FROM verdicts WHERE judge = 'sim:vlm-a' AND condition = 'E2-lastk' AND verdict <> 'parse_error'
  GROUP BY ALL)
SELECT c.category, count(*) AS negatives, count_if(accepted) AS false_pos,
       round(count_if(accepted) / count(*), 3) AS fpr,
       round(wilson_lo(count_if(accepted), count(*)), 3) AS lo,
       round(wilson_hi(count_if(accepted), count(*)), 3) AS hi
FROM maj JOIN categories c USING (episode_id) JOIN episodes e USING (episode_id)
WHERE NOT c.gt_pass AND e.source = 'natural'
GROUP BY ALL ORDER BY fpr DESC"

echo
echo "== Claim sway: does the agent's final message make sim:vlm-a accept more failures? (exact McNemar)"
"$T" sql "
WITH maj AS (
  SELECT condition, episode_id, count_if(verdict = 'success') > count_if(verdict IN ('failure', 'uncertain')) AS accepted
  FROM verdicts WHERE judge = 'sim:vlm-a' AND condition IN ('E2-lastk', 'E2+claim') AND verdict <> 'parse_error'
  GROUP BY ALL),
pairs AS (
  SELECT a.episode_id, a.accepted AS with_claim, b.accepted AS without_claim
  FROM maj a JOIN maj b USING (episode_id) JOIN ground_truth g USING (episode_id)
  WHERE a.condition = 'E2+claim' AND b.condition = 'E2-lastk' AND NOT g.pass)
SELECT count(*) AS negatives,
       count_if(with_claim AND NOT without_claim) AS b,
       count_if(without_claim AND NOT with_claim) AS c,
       round((count_if(with_claim) - count_if(without_claim)) / count(*), 3) AS fpr_diff,
       mcnemar_p(b, c) AS mcnemar_p
FROM pairs"

echo
echo "== The lake itself"
"$T" lake check
