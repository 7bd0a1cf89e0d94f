#!/usr/bin/python3
"""Reference numbers for TestReportBaselineSignificance, computed
independently of trustlake with the Python standard library only.

    trustlake gen --out /tmp/g --tasks 30 --episodes-per-task 2   # the test's data (seeded)
    python3 baseline_reference.py /tmp/g > baseline_reference.json

The baseline lake holds the generated verdicts; the current lake the same
episodes with changed verdicts (the rule below, which the Go test applies
too): for sim:vlm-a@E2-lastk every run on a GT failure of a task whose
number is divisible by 3 says "success"; for sim:vlm-b@E2-lastk only the
runs of task 7's GT failures do. For each judge x condition this script
derives the majority verdict per natural episode with ground truth (parse
errors dropped; the verdict with strictly more runs than each other, else
uncertain; uncertain counts as a rejection), then the FPR on both sides,
the paired exact McNemar p (b: accepted now, rejected in the baseline),
the two-proportion z test p (pooled standard error) and the paired
task-clustered z test p: the mean over negatives of (accepted now −
accepted in the baseline), its cluster-robust (CR1) standard error over
tasks, sqrt(G/(G−1) · Σ_t (d_t − mean·n_t)²) / N with d_t the task's sum
of differences and n_t its negatives, and the normal two-sided p.
"""
import collections
import glob
import json
import math
import os
import sys
from statistics import NormalDist

CHANGED = {("sim:vlm-a", "E2-lastk"): lambda task: task % 3 == 0,
           ("sim:vlm-b", "E2-lastk"): lambda task: task == 7}


def majority(runs):
    c = collections.Counter(v for v in runs if v != "parse_error")
    for v in ("success", "failure", "uncertain"):
        if all(c[v] > c[o] for o in ("success", "failure", "uncertain") if o != v):
            return v
    return "uncertain"


def main(root):
    eps = {}
    for d in glob.glob(os.path.join(root, "episodes", "*")):
        meta = json.load(open(os.path.join(d, "meta.json")))
        gt = json.load(open(os.path.join(d, "gt.json")))
        eps[meta["episode_id"]] = (meta["source"], int(meta["task_id"].rsplit("-", 1)[1]), gt["pass"])
    out = {}
    for (judge, cond), rule in sorted(CHANGED.items()):
        base = collections.defaultdict(list)
        cur = collections.defaultdict(list)
        for f in glob.glob(os.path.join(root, "verdicts", "*.jsonl")):
            for line in open(f):
                v = json.loads(line)
                if v["judge"] != judge or v["condition"] != cond:
                    continue
                ep = v["episode_id"]
                base[ep].append(v["verdict"])
                source, task, gt_pass = eps[ep]
                cur[ep].append("success" if (not gt_pass and rule(task)) else v["verdict"])
        neg = [ep for ep in base if eps[ep][0] == "natural" and not eps[ep][2]]
        acc_b = {ep: majority(base[ep]) == "success" for ep in neg}
        acc_c = {ep: majority(cur[ep]) == "success" for ep in neg}
        b = sum(1 for ep in neg if acc_c[ep] and not acc_b[ep])
        c = sum(1 for ep in neg if acc_b[ep] and not acc_c[ep])
        n = b + c
        p_mcnemar = 1.0 if n == 0 else min(1.0, 2 * sum(math.comb(n, i) for i in range(min(b, c) + 1)) / 2 ** n)
        d_t, n_t = collections.Counter(), collections.Counter()
        for ep in neg:
            d_t[eps[ep][1]] += int(acc_c[ep]) - int(acc_b[ep])
            n_t[eps[ep][1]] += 1
        big_n = sum(n_t.values())
        mean = sum(d_t.values()) / big_n
        g = len(n_t)
        se_c = math.sqrt(g / (g - 1) * sum((d_t[t] - mean * n_t[t]) ** 2 for t in n_t)) / big_n
        if se_c > 0:
            p_cluster = 2 * NormalDist().cdf(-abs(mean / se_c))
        else:
            p_cluster = 1.0 if mean == 0 else 0.0
        kc, kb, m = sum(acc_c.values()), sum(acc_b.values()), len(neg)
        pool = (kc + kb) / (2 * m)
        se = math.sqrt(pool * (1 - pool) * 2 / m)
        z = (kc / m - kb / m) / se if se > 0 else 0.0
        out[judge + "@" + cond] = {"negatives": m, "fp_current": kc, "fp_baseline": kb, "b": b, "c": c,
                                   "fpr_current": kc / m, "fpr_baseline": kb / m,
                                   "mcnemar_p": p_mcnemar, "paired_cluster_p": p_cluster, "two_proportion_p": 2 * NormalDist().cdf(-abs(z)) if se > 0 else 1.0}
    print(json.dumps(out, indent=1, sort_keys=True))


main(sys.argv[1])
