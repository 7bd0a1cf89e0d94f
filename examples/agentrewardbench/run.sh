#!/usr/bin/env bash
# AgentRewardBench × WebJudge: how often do three WebJudge models accept a
# failed web-agent trajectory? Loads the real verdicts with `ingest sql` into
# two lakes that differ only in their ground truth:
#   lake-reward  ground truth = the benchmark's programmatic reward (cum_reward = 1)
#   lake-expert  ground truth = the expert annotations, ingested as human
#                judgments (ingest human-labels, one row per annotator);
#                metrics --gt human takes their majority (a tie gives none)
# and prints the per-judge metrics against each.
#
# Usage: examples/agentrewardbench/run.sh [OUT_DIR]
#   TRUSTLAKE  the binary (default bin/trustlake; make build)
#   ARB_DATA   the data folder (default $TRUSTLAKE_DATA/webjudge-agentrewardbench,
#              TRUSTLAKE_DATA defaulting to ../shared/data beside the repository)
#   BOOTSTRAP  bootstrap resamples (default 2000)
set -euo pipefail
cd "$(dirname "$0")/../.."
T=${TRUSTLAKE:-bin/trustlake}
DATA=$(cd "${ARB_DATA:-${TRUSTLAKE_DATA:-../shared/data}/webjudge-agentrewardbench}" && pwd)
OUT=${1:-examples/agentrewardbench/out}
B=${BOOTSTRAP:-2000}
J="$DATA/webjudge_on_agentrewardbench.slim.jsonl"
A="$DATA/annotations.csv"
rm -rf "$OUT/lake-reward" "$OUT/lake-expert"
mkdir -p "$OUT"

# One record per (judge, trajectory); an episode is a trajectory: agent/task.
# The 16 records from upstream files named "... (1).json" duplicate others
# and are set aside.
SRC="(SELECT * FROM read_json('$J') WHERE _source_path NOT LIKE '%(1)%')"
EPISODES="SELECT DISTINCT agent || '/' || _task_id AS episode_id, _task_id AS task_id,
  'natural' AS source, agent AS agent FROM $SRC"
# WebJudge's evidence (task, action history, key screenshots it selects) is
# its own: condition 'webjudge'. One run per judge; the verdict is the last
# 'Status: success|failure' of the reply, else parse_error. The reply
# (its first 4000 characters) is kept as the verdict's evidence: trustlake
# view shows it as the judge's stated reason.
VERDICTS="SELECT agent || '/' || _task_id AS episode_id, judge_model_name AS judge,
  'webjudge' AS condition, 1 AS run, judge_model_name AS model,
  left(response.choices[1].message.content, 4000) AS evidence,
  coalesce(regexp_extract_all(response.choices[1].message.content,
    'Status:\\s*\"?(success|failure)', 1)[-1], 'parse_error') AS verdict FROM $SRC"
# Programmatic reward: pass when cum_reward = 1 (AssistantBench's partial
# scores count as failures; the score is kept).
REWARD_GT="SELECT DISTINCT agent || '/' || _task_id AS episode_id,
  sha256('agentrewardbench:cum_reward') AS verifier_sha256,
  trajectory_info.summary_info.cum_reward >= 1 AS pass,
  trajectory_info.summary_info.cum_reward AS score FROM $SRC"
# Expert labels: one human judgment per annotation (Successful /
# Unsuccessful; Unsure is skipped by ingest human-labels), written as the
# CSV that ingest human-labels reads.
HUMAN="SELECT model_name || '/' || task_id AS episode_id, trajectory_success AS pass,
  annotator_name AS annotator FROM read_csv('$A', all_varchar = true) ORDER BY ALL"

for L in reward expert; do
  export TRUSTLAKE_LAKE="$OUT/lake-$L"
  "$T" ingest sql --name "$(basename "$J")" episodes "$EPISODES" >/dev/null
  "$T" ingest sql --name "$(basename "$J")" verdicts "$VERDICTS" >/dev/null
done
TRUSTLAKE_LAKE="$OUT/lake-reward" "$T" ingest sql --name "$(basename "$J")" ground_truth "$REWARD_GT" >/dev/null
TRUSTLAKE_LAKE="$OUT/lake-expert" "$T" sql --format csv "$HUMAN" > "$OUT/human-labels.csv"
TRUSTLAKE_LAKE="$OUT/lake-expert" "$T" ingest human-labels "$OUT/human-labels.csv" >/dev/null

echo "== against the programmatic reward (cum_reward = 1)"
TRUSTLAKE_LAKE="$OUT/lake-reward" "$T" metrics --bootstrap "$B"
TRUSTLAKE_LAKE="$OUT/lake-reward" "$T" metrics --bootstrap "$B" --json > "$OUT/metrics-reward.json"
echo
echo "== against the expert labels (human judgments, majority of the annotators)"
TRUSTLAKE_LAKE="$OUT/lake-expert" "$T" metrics --gt human --bootstrap "$B"
TRUSTLAKE_LAKE="$OUT/lake-expert" "$T" metrics --gt human --bootstrap "$B" --json > "$OUT/metrics-expert.json"
echo
echo "== o4-mini vs webjudge-7B on the trajectories both judged (expert labels)"
TRUSTLAKE_LAKE="$OUT/lake-expert" "$T" compare --gt human --bootstrap "$B" o4-mini@webjudge webjudge-7B@webjudge
echo
echo "== the programmatic reward itself against the expert labels"
TRUSTLAKE_LAKE="$OUT/lake-expert" "$T" sql --attach "arb=$J" "
WITH reward AS (
  SELECT DISTINCT agent || '/' || _task_id AS episode_id,
         trajectory_info.summary_info.cum_reward >= 1 AS reward_pass
  FROM arb WHERE _source_path NOT LIKE '%(1)%')
SELECT count(*) AS episodes,
       count_if(reward_pass AND pass)         AS both_pass,
       count_if(reward_pass AND NOT pass)     AS reward_only,
       count_if(NOT reward_pass AND pass)     AS expert_only,
       count_if(NOT reward_pass AND NOT pass) AS both_fail,
       round(cohen_kappa(count_if(reward_pass AND pass)::BIGINT, count_if(reward_pass AND NOT pass)::BIGINT,
                         count_if(NOT reward_pass AND pass)::BIGINT, count_if(NOT reward_pass AND NOT pass)::BIGINT), 3) AS kappa
FROM reward JOIN human_reference USING (episode_id) WHERE pass IS NOT NULL"
