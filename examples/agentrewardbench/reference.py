#!/usr/bin/env python3
"""Independent figures for examples/agentrewardbench (python stdlib only).

Reads the raw files (not the lake) and computes, with the human expert
annotations as ground truth:
  - per annotated trajectory the majority of its annotators' Successful /
    Unsuccessful judgments ("Unsure" skipped; a tie gives no reference);
  - the number of multi-annotated trajectories, ties, unanimous ones and
    Fleiss' kappa between annotators over the trajectories judged twice or
    more (the usual generalisation: P_i = sum n_ij(n_ij-1) / (n_i(n_i-1)),
    category shares pooled over those trajectories);
  - per WebJudge model, the majority verdict's confusion counts against the
    human reference, accuracy with its 95% Wilson interval, and Cohen's kappa.

The verdict of a judge reply is the last 'Status: success|failure' (quoted or
not) in response.choices[0].message.content, else parse_error (a rejection).
Records from upstream files named "... (1).json" are set aside.

Usage: examples/agentrewardbench/reference.py DATA_DIR
The printed numbers are committed in cmd/trustlake/human_labels_test.go.
"""
import csv
import json
import math
import re
import sys
from collections import defaultdict

STATUS = re.compile(r'Status:\s*"?(success|failure)')


def wilson(k, n, z=1.959963984540054):
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def main(data):
    judged = {}  # (judge, episode) -> verdict
    for line in open(f"{data}/webjudge_on_agentrewardbench.slim.jsonl"):
        r = json.loads(line)
        if "(1)" in r["_source_path"]:
            continue
        content = r["response"]["choices"][0]["message"]["content"]
        found = STATUS.findall(content)
        judged[(r["judge_model_name"], r["agent"] + "/" + r["_task_id"])] = found[-1] if found else "parse_error"

    votes = defaultdict(lambda: [0, 0])  # episode -> [pass, fail]
    annotators = set()
    for a in csv.DictReader(open(f"{data}/annotations.csv")):
        s = a["trajectory_success"]
        if s == "Unsure":
            continue
        annotators.add(a["annotator_name"].strip())
        votes[a["model_name"] + "/" + a["task_id"]][0 if s == "Successful" else 1] += 1
    ref = {e: p > f for e, (p, f) in votes.items() if p != f}
    multi = [(p, f) for p, f in votes.values() if p + f >= 2]
    ties = sum(1 for p, f in votes.values() if p == f)
    unanimous = sum(1 for p, f in multi if p == 0 or f == 0)
    pbar = sum((p * (p - 1) + f * (f - 1)) / ((p + f) * (p + f - 1)) for p, f in multi) / len(multi)
    tot = sum(p + f for p, f in multi)
    pe = (sum(p for p, _ in multi) / tot) ** 2 + (sum(f for _, f in multi) / tot) ** 2
    print(f"human episodes {len(votes)} annotators {len(annotators)} judgments {sum(p + f for p, f in votes.values())}")
    print(f"multi_annotated {len(multi)} unanimous {unanimous} ties {ties} fleiss_kappa {(pbar - pe) / (1 - pe)!r}")

    for judge in sorted({j for j, _ in judged}):
        tp = fp = tn = fn = 0
        for (j, e), v in judged.items():
            if j != judge or e not in ref:
                continue
            accept = v == "success"
            if ref[e]:
                tp, fn = tp + accept, fn + (not accept)
            else:
                fp, tn = fp + accept, tn + (not accept)
        n = tp + fp + tn + fn
        po = (tp + tn) / n
        pe = ((tp + fp) * (tp + fn) + (fn + tn) * (fp + tn)) / (n * n)
        lo, hi = wilson(tp + tn, n)
        print(f"{judge} tp {tp} fp {fp} tn {tn} fn {fn} accuracy {po!r} wilson {lo!r} {hi!r} kappa {(po - pe) / (1 - pe)!r}")


if __name__ == "__main__":
    main(sys.argv[1])
