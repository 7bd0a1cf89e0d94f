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
echo "== How often does each judge accept a failure? (trustlake metrics: majority of 3 runs,"
echo "   natural episodes, Wilson [..] and task-clustered bootstrap {..} intervals; the reward model at score >= 0.5)"
"$T" metrics --condition E2-lastk --by hardness --threshold 0.5

echo
echo "== Does the agent's own claim sway sim:vlm-b? (paired on the same failures, exact McNemar)"
"$T" compare --claim-sway sim:vlm-b

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
echo "== Is sim:vlm-a@E3-full usable as a training signal? (a nightly gate: exit 4 unless every item passes)"
"$T" checklist --judge sim:vlm-a --condition E3-full --fpr-target 0.2 || echo "(gate not passed: exit $?)"

echo
echo "== The lake itself"
"$T" lake check
