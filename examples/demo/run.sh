#!/usr/bin/env bash
# The whole pipeline on the embedded example, as a nightly job would run it:
#   task library -> scripted episodes with screenshots -> verifier self-tests
#   -> sandboxed verify -> perturb -> evidence packs -> judges -> metrics
#   -> trust -> report.
# The judges are SIMULATED (examples/demo/simjudge: a deterministic rule, not
# a model) unless TRUSTLAKE_JUDGE_BACKEND is set (then that real backend
# judges too; see the README). Every agent and judge name starts with sim:
# or demo:, nothing here is a measurement of a real system.
set -euo pipefail
cd "$(dirname "$0")/../.."
T=${TRUSTLAKE:-bin/trustlake}
J=${SIMJUDGE:-$PWD/bin/trustlake-simjudge}
CHECK=${CHECK_BINARY:-bin/trustlake-check}
DEMO=${DEMO_DIR:-demo}
TASKS=tasks/library
export TRUSTLAKE_LAKE="$DEMO/lake"
rm -rf "$DEMO"
mkdir -p "$DEMO"

# The demo's tasks: 16 of the library's declarative tasks over all six
# domains, the seed's sheet_set_cell_d14 among them (DEMO_TASKS=all takes
# every task with declarative checks; the script verifier of
# sheet_set_cell_d14_py needs the python image, which a fresh machine may
# not have). Sixteen keep the Docker sandbox's container runs near 450.
TASK_IDS="app_calendar_event app_inventory_update app_todo_complete browser_chromium_bookmark
  browser_download_report browser_firefox_homepage config_env_debug config_json_tabsize
  config_yaml_replicas csv_fix_price files_move_invoices files_rename_report ods_fill_week
  sheet_set_cell_d14 terminal_count_errors xlsx_set_total"
if [ "${DEMO_TASKS:-}" = all ]; then
  TASK_IDS=$(cd "$TASKS" && for d in */; do d=${d%/}; [ -f "$d/task.json" ] && [ "$d" != sheet_set_cell_d14_py ] && echo "$d"; done)
fi

# The sandbox: Docker when an engine answers and the image exists, else
# bubblewrap when it can create namespaces here, else the in-process
# declarative checks only (no verifier code runs on the host).
SANDBOX=none
if [ -z "${DEMO_SANDBOX:-}" ]; then
  if docker info >/dev/null 2>&1 && docker image inspect trustlake-check:latest >/dev/null 2>&1; then
    SANDBOX=docker
  elif command -v bwrap >/dev/null 2>&1 && bwrap --ro-bind / / --unshare-all true >/dev/null 2>&1; then
    SANDBOX=bwrap
  fi
else
  SANDBOX=$DEMO_SANDBOX
fi
SB=(--sandbox "$SANDBOX" --check-binary "$CHECK" -j 4)
START=$SECONDS
took() { echo "   ($((SECONDS - START)) s since the start)"; }

echo "== 1. scripted episodes from the task library: each fixture's ending, 2 trials each,"
echo "      with scripted actions and PNG screenshots (reference solutions and scripted failures)"
"$T" tasks episodes --tasks "$TASKS" --script --copies 2 --out "$DEMO/episodes" $TASK_IDS

took
echo
echo "== 2. self-test the verifiers on their pass and fail fixtures (recorded for the report), sandbox: $SANDBOX"
"$T" tasks check --tasks "$TASKS" "${SB[@]}" --record $TASK_IDS | tail -n 1

took
echo
echo "== 3. verify: each task's verifier on each final state, twice, sandbox: $SANDBOX"
"$T" verify --tasks "$TASKS" "${SB[@]}" "$DEMO/episodes" | tail -n 3

took
echo
echo "== 4. perturb the reference solutions (stress stratum, source=perturbed) and verify them"
"$T" perturb --tasks "$TASKS" "${SB[@]}" --out "$DEMO/perturbed" "$DEMO"/episodes/*__pass-*__1 | tail -n 2 || true
"$T" ingest episodes "$DEMO/perturbed" | tail -n 2

took
echo
echo "== 5. evidence packs (E1-final, E2-lastk, E3-full, E2+claim), the same for every judge"
"$T" evidence --tasks "$TASKS" | tail -n 2

took
echo
echo "== 6. judges: SIMULATED (examples/demo/simjudge, deterministic, not a model), 3 runs each"
for j in "sim:vlm-lenient sim-lenient-1" "sim:vlm-careful sim-careful-1" "sim:rm sim-rm-1"; do
  set -- $j
  "$T" judge --backend exec --exec "$J" --judge "$1" --model "$2" --runs 3 --concurrency 4 | tail -n 1
done
if [ -n "${TRUSTLAKE_JUDGE_BACKEND:-}" ]; then
  echo "   and a real judge: $TRUSTLAKE_JUDGE_BACKEND ${TRUSTLAKE_JUDGE_MODEL:-}"
  "$T" judge --backend "$TRUSTLAKE_JUDGE_BACKEND" --judge "${TRUSTLAKE_JUDGE_NAME:-real:judge}" \
    --model "${TRUSTLAKE_JUDGE_MODEL:?set TRUSTLAKE_JUDGE_MODEL}" ${TRUSTLAKE_JUDGE_BASE_URL:+--base-url "$TRUSTLAKE_JUDGE_BASE_URL"} \
    --runs "${TRUSTLAKE_JUDGE_RUNS:-1}" | tail -n 1
fi

took
echo
echo "== 7. How often does each judge accept a failure? (natural episodes; Wilson [..], task bootstrap {..})"
"$T" metrics --condition E2-lastk --by hardness

took
echo
echo "== 8. Does the agent's claim sway sim:vlm-lenient? (paired on the same failures, exact McNemar)"
"$T" compare --claim-sway sim:vlm-lenient

took
echo
echo "== 9. Trust Layer over the recorded results: the benchmark recorded sim:vlm-lenient's E2+claim"
echo "      majority as its score (a judge-scored benchmark); trials are the episode copies"
"$T" sql -f jsonl "
WITH r AS (
  SELECT e.episode_id, e.task_id,
         CASE WHEN e.extra LIKE '%reference solution%' THEN 'demo:reference' ELSE 'demo:scripted-failures' END AS agent,
         CASE WHEN count_if(v.verdict = 'success') > count_if(v.verdict <> 'success') THEN 1 ELSE 0 END AS score
  FROM episodes e JOIN verdicts v USING (episode_id)
  WHERE v.judge = 'sim:vlm-lenient' AND v.condition = 'E2+claim' AND e.source = 'natural'
  GROUP BY ALL)
SELECT 'demo/' || episode_id AS result_id, 'demo-judge-scored' AS benchmark, task_id, agent,
       row_number() OVER (PARTITION BY task_id, agent ORDER BY episode_id) AS trial, score, episode_id
FROM r ORDER BY episode_id" > "$DEMO/results.jsonl"
"$T" ingest results "$DEMO/results.jsonl" | tail -n 1
"$T" trust | sed -n 1,9p

took
echo
echo "== 10. The nightly report (gates: exit 4 when one fails)"
set +e
"$T" report --out "$DEMO/report" --title "trustlake demo (simulated judges)" --fpr-target 0.2 \
  --checklist sim:vlm-careful@E3-full --fail-on 'fpr{judge="sim:vlm-careful",condition="E3-full"}.wilson_hi > 0.5'
code=$?
set -e
took
echo "(report exit code $code; sandbox used: $SANDBOX)"
echo "Open $DEMO/report/report.html"
echo
echo "Next: look at the episodes behind every number (Ctrl-C stops it):"
echo "  $T --lake $DEMO/lake view --open            # read-only"
echo "  $T --lake $DEMO/lake view --review --open   # record human reviews"
echo "  $T --lake $DEMO/lake report --out $DEMO/report --view-url http://127.0.0.1:PORT/   # counts link to the viewer"
