#!/usr/bin/env python3
"""pass^k of a tau-bench results file, by tau-bench's own definition.

Independent of trustlake (python stdlib only). It follows
tau_bench/run.py display_metrics: a run is successful when its reward is
within 1e-6 of 1; num_trials is the number of distinct trial numbers; for
each task c = its successful runs; pass^k = mean over tasks of
C(c, k) / C(num_trials, k), for k = 1..num_trials.

Usage: examples/tau-bench/passk.py FILE.json   (prints one line per k)
The figures are committed in cmd/trustlake/trust_passk_test.go.
"""
import json
import sys
from math import comb


def pass_hat_k(results):
    num_trials = len({r["trial"] for r in results})
    c = {}
    for r in results:
        ok = (1 - 1e-6) <= r["reward"] <= (1 + 1e-6)
        c[r["task_id"]] = c.get(r["task_id"], 0) + (1 if ok else 0)
    return {k: sum(comb(ci, k) / comb(num_trials, k) for ci in c.values()) / len(c)
            for k in range(1, num_trials + 1)}, len(c)


def main():
    with open(sys.argv[1]) as f:
        results = json.load(f)
    ks, tasks = pass_hat_k(results)
    print(f"tasks {tasks}")
    for k, v in ks.items():
        print(f"pass^{k} {v!r}")


if __name__ == "__main__":
    main()
