package ingest

// ResultsFormat documents the results JSONL format (the help of trustlake
// ingest results; README "Results format" says the same).
const ResultsFormat = `One JSON object per line (blank lines skipped); every error of a line is
reported as FILE:LINE: FIELD: reason.

  field          type                  required  meaning
  benchmark      string (non-empty)    yes       partition benchmark=
  task_id        string (non-empty)    yes       the task; trials of one task are D4 repeats
  agent          string (non-empty)    yes       the agent or model configuration
  trial          integer >= 0          yes       the run number of this task and agent
  score          number                yes       the recorded score; score/scale must lie in [0, 1]
  scale          number > 0            no        declared scale of score (default 1)
  pass           boolean               no        the recorded verdict (default score/scale == 1)
  result_id      string                no        default "<benchmark>/<agent>/<task_id>/<trial>"
  episode_id     string                no        lake episode or trajectory (actions) of the run
  final_message  string                no        the agent's last message (D3)
  instruction    string                no        the task prompt (D2: GIVEN values); equal across trials
  grader         object                no        what D1 can re-run: {"kind":"outputs","outputs":[...]}
                                                 or {"kind":"tau-bench",...}; default {}
  infra_error    non-empty string      no        the run failed for infrastructure reasons (why);
                                                 absent or null for a valid run; "" is rejected
  other keys     any JSON              no        kept in the results column extra

Example:
  {"benchmark":"ale","task_id":"t07","agent":"sonnet","trial":0,"score":0.8,"pass":false,
   "final_message":"All tests pass.","grader":{"kind":"outputs","outputs":["42"]}}
  {"benchmark":"ale","task_id":"t07","agent":"sonnet","trial":1,"score":0,"infra_error":"sandbox timeout"}
`
