#!/usr/bin/python3
"""Reference numbers for package stats, from statsmodels and scipy.

Run from the stats directory:  /usr/bin/python3 testdata/reference.py > testdata/reference.json
Go tests read the JSON only; they never run Python.
"""
import json
import math

import numpy as np
import pandas as pd
import scipy
import statsmodels
from scipy import stats as st
from statsmodels.formula.api import ols
from statsmodels.stats.anova import anova_lm
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.inter_rater import cohens_kappa, fleiss_kappa
from statsmodels.stats.proportion import proportion_confint

out = {"generator": "statsmodels %s, scipy %s" % (statsmodels.__version__, scipy.__version__)}

# NormalQuantile vs scipy.stats.norm.ppf (Cephes ndtri).
ps = [1e-300, 1e-100, 1e-20, 1e-10, 1e-5, 0.001, 0.01, 0.025, 0.05, 0.1, 0.2, 0.3, 0.4,
      0.425, 0.5, 0.6, 0.075, 0.9, 0.95, 0.975, 0.99, 0.999, 1 - 1e-10]
out["normal_quantile"] = [{"p": p, "want": float(st.norm.ppf(p))} for p in ps]

# Wilson intervals.
wil = []
for k, n, a in [(19, 84, 0.05), (0, 10, 0.05), (10, 10, 0.05), (1, 1, 0.05), (5, 20, 0.1),
                (10, 50, 0.05), (40, 200, 0.05), (3, 1000, 0.01), (999, 1000, 0.05),
                (123, 456, 0.2), (7, 13, 0.001)]:
    lo, hi = proportion_confint(k, n, alpha=a, method="wilson")
    wil.append({"k": k, "n": n, "alpha": a, "lo": float(lo), "hi": float(hi)})
out["wilson"] = wil

# Exact McNemar (binomial test on discordant pairs).
mc = []
for b, c in [(0, 0), (0, 1), (1, 0), (3, 3), (2, 9), (9, 2), (0, 10), (10, 40), (25, 25),
             (100, 140), (480, 520), (1000, 1200), (30000, 31000), (5, 500)]:
    if b + c == 0:
        p = 1.0
    else:
        p = float(mcnemar(np.array([[7, b], [c, 5]]), exact=True).pvalue)
    mc.append({"b": b, "c": c, "p": p})
out["mcnemar"] = mc

# Cohen's kappa; rows judge (success, failure), cols GT (pass, fail).
ck = []
for tp, fp, fn, tn in [(40, 10, 5, 45), (20, 19, 1, 44), (0, 5, 5, 0), (50, 0, 0, 50),
                       (30, 30, 30, 30), (3, 1, 8, 88), (12, 0, 7, 3)]:
    k = cohens_kappa(np.array([[tp, fp], [fn, tn]]), return_results=False)
    ck.append({"tp": tp, "fp": fp, "fn": fn, "tn": tn, "kappa": float(k)})
out["cohen"] = ck

# Fleiss' kappa, equal raters per subject (statsmodels).
fk = []
tables = [
    # Fleiss (1971) example data, 10 subjects x 5 categories, 14 raters (Wikipedia).
    [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
     [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]],
    [[3, 0, 0], [2, 1, 0], [0, 3, 0], [1, 1, 1], [0, 0, 3], [3, 0, 0]],
    [[3, 0], [3, 0], [0, 3], [2, 1], [1, 2], [3, 0], [0, 3]],
]
for t in tables:
    fk.append({"counts": t, "kappa": float(fleiss_kappa(np.array(t), method="fleiss"))})
out["fleiss"] = fk

# Unequal raters: the generalisation documented on FleissKappa, by hand.
def fleiss_unequal(t):
    rows = [r for r in t if sum(r) >= 2]
    pbar = np.mean([sum(v * (v - 1) for v in r) / (sum(r) * (sum(r) - 1)) for r in rows])
    tot = sum(sum(r) for r in rows)
    pj = [sum(r[j] for r in rows) / tot for j in range(len(t[0]))]
    pe = sum(p * p for p in pj)
    return (pbar - pe) / (1 - pe)
fu = []
for t in [[[3, 0], [2, 0], [0, 3], [1, 1], [1, 2], [0, 1], [3, 0]],
          [[2, 1, 0], [0, 2, 0], [1, 1, 1], [0, 0, 3]]]:
    fu.append({"counts": t, "kappa": float(fleiss_unequal(t))})
out["fleiss_unequal"] = fu

# ROC AUC as Mann-Whitney U / (n1 n0), ties counted one half.
rng = np.random.default_rng(20261010)
auc = []
cases = [
    ([0.1, 0.4, 0.35, 0.8], [False, False, True, True]),
    ([1, 1, 1, 0, 0], [True, False, True, False, True]),
    ([0.5, 0.5, 0.5, 0.5], [True, False, True, False]),
]
sc = np.round(rng.normal(size=60), 1)  # rounded: many ties
lab = rng.random(60) < 0.4 + 0.2 * (sc > 0)
cases.append((sc.tolist(), lab.tolist()))
for s, l in cases:
    s, l = np.array(s, dtype=float), np.array(l, dtype=bool)
    u = st.mannwhitneyu(s[l], s[~l], alternative="two-sided").statistic
    auc.append({"scores": s.tolist(), "positive": l.tolist(), "auc": float(u / (l.sum() * (~l).sum()))})
out["auc"] = auc

# One-way random-effects ANOVA via statsmodels OLS + anova_lm.
ow = []
groups_list = [
    [[1.0, 1.0, 0.8, 1.0, 0.9], [0.2, 0.0, 0.1, 0.3, 0.2], [0.5, 0.7, 0.6, 0.4, 0.6]],
    [[1, 0, 1], [0, 0], [1, 1, 1, 1], [0.5], [0, 1, 0, 0, 1]],
    [[0.1, 0.9], [0.2, 0.8], [0.9, 0.1]],  # MSB < MSW: truncated
]
for groups in groups_list:
    y = [float(v) for g in groups for v in g]
    g = [i for i, gr in enumerate(groups) for _ in gr]
    df = pd.DataFrame({"y": y, "g": g})
    tab = anova_lm(ols("y ~ C(g)", data=df).fit())
    msb, msw = tab["mean_sq"].iloc[0], tab["mean_sq"].iloc[1]
    ns = np.array([len(gr) for gr in groups], dtype=float)
    N, k = ns.sum(), len(groups)
    n0 = (N - (ns ** 2).sum() / N) / (k - 1)
    between = max(0.0, (msb - msw) / n0)
    ow.append({"groups": groups, "between": float(between), "within": float(msw),
               "rho": float(between / (between + msw))})
out["oneway"] = ow

# pass^k with exact integer binomials.
pk = []
for c, n, k in [([5, 3, 0, 2], [5, 5, 5, 5], 1), ([5, 3, 0, 2], [5, 5, 5, 5], 2),
                ([5, 3, 0, 2], [5, 5, 5, 5], 3), ([8, 1, 4], [8, 2, 6], 3),
                ([90, 45], [100, 50], 8)]:
    vals = [math.comb(ci, k) / math.comb(ni, k) for ci, ni in zip(c, n) if ni >= k]
    pk.append({"c": c, "n": n, "k": k, "want": sum(vals) / len(vals)})
out["pass_hat_k"] = pk

# Exact paired power, summed with scipy's binomial distributions.
def exact_power(fa, fb, n, R, alpha):
    d = fa - fb
    if R == 0:
        R = abs(d)
    p10, p01 = (R + d) / 2, (R - d) / 2
    q = p10 / R
    power = 0.0
    for D in range(1, n + 1):
        pd_ = st.binom.pmf(D, n, R)
        crit = -1
        for m in range(0, D // 2 + 1):
            if min(1.0, 2 * st.binom.cdf(m, D, 0.5)) <= alpha:
                crit = m
            else:
                break
        if crit < 0:
            continue
        power += pd_ * (st.binom.cdf(crit, D, q) + st.binom.cdf(crit, D, 1 - q))
    return power
pw = []
for fa, fb, n, R, a in [(0.20, 0.10, 200, 0.0, 0.05), (0.20, 0.15, 300, 0.15, 0.05),
                        (0.30, 0.20, 100, 0.20, 0.05), (0.25, 0.05, 80, 0.0, 0.01)]:
    pw.append({"fpr_a": fa, "fpr_b": fb, "n": n, "discordance": R, "alpha": a,
               "power": float(exact_power(fa, fb, n, R, a))})
out["paired_power_exact"] = pw

# Real data, when present: tau-bench gpt-4o airline, 50 tasks x 4 trials
# (tau-bench/gpt-4o-airline.json in the shared data: $TRUSTLAKE_DATA, else
# ../shared/data beside the repository, as internal/testenv finds it).
import collections
import os
DATA = os.environ.get("TRUSTLAKE_DATA") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../shared/data")
TAU = os.path.join(DATA, "tau-bench/gpt-4o-airline.json")
if os.path.exists(TAU):
    recs = json.load(open(TAU))
    by_task = collections.defaultdict(list)
    for r in recs:
        by_task[r["task_id"]].append(float(r["reward"]))
    cs = [int(sum(v)) for v in by_task.values()]
    ns = [len(v) for v in by_task.values()]
    pass_k = {str(k): float(np.mean([math.comb(c, k) / math.comb(n, k) for c, n in zip(cs, ns)]))
              for k in range(1, 5)}
    df = pd.DataFrame({"y": [y for v in by_task.values() for y in v],
                       "g": [t for t, v in by_task.items() for _ in v]})
    tab = anova_lm(ols("y ~ C(g)", data=df).fit())
    msb, msw = tab["mean_sq"].iloc[0], tab["mean_sq"].iloc[1]
    between = max(0.0, (msb - msw) / 4)  # balanced: n0 = 4
    k_succ = int(sum(cs))
    lo, hi = proportion_confint(k_succ, len(recs), alpha=0.05, method="wilson")
    out["tau_bench_airline"] = {"records": len(recs), "tasks": len(by_task), "successes": k_succ,
                                "pass_hat_k": pass_k, "between": float(between), "within": float(msw),
                                "rho": float(between / (between + msw)), "wilson_lo": float(lo),
                                "wilson_hi": float(hi)}

print(json.dumps(out, indent=1))
