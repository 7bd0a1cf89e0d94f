#!/usr/bin/python3
"""Reference numbers for the baseline diff's significance tests, computed
independently of the Go code with the Python standard library only.

Run from the report directory:
    python3 testdata/significance.py > testdata/significance.json
Go tests read the JSON; they never run Python.

- two-proportion z test (pooled standard error for z, as statsmodels'
  proportions_ztest), Wald interval of the difference (unpooled);
- Welch z test of two means, built from explicit per-episode values
  (inflation: +1 false positive, -1 false negative, 0 otherwise) with
  statistics.variance (n - 1);
- exact two-sided McNemar: binomial(b + c, 1/2) tail, doubled, capped at 1.
"""
import json
import math
import statistics
from statistics import NormalDist

N = NormalDist()


def two_prop(ka, na, kb, nb, alpha):
    pa, pb = ka / na, kb / nb
    pool = (ka + kb) / (na + nb)
    se0 = math.sqrt(pool * (1 - pool) * (1 / na + 1 / nb))
    z = (pa - pb) / se0 if se0 > 0 else 0.0
    p = 2 * N.cdf(-abs(z)) if se0 > 0 else 1.0
    se = math.sqrt(pa * (1 - pa) / na + pb * (1 - pb) / nb)
    q = N.inv_cdf(1 - alpha / 2)
    return {"ka": ka, "na": na, "kb": kb, "nb": nb, "alpha": alpha,
            "diff": pa - pb, "p": p, "lo": pa - pb - q * se, "hi": pa - pb + q * se}


def welch(fpa, fna, na, fpb, fnb, nb, alpha):
    xa = [1] * fpa + [-1] * fna + [0] * (na - fpa - fna)
    xb = [1] * fpb + [-1] * fnb + [0] * (nb - fpb - fnb)
    ma, mb = statistics.fmean(xa), statistics.fmean(xb)
    se = math.sqrt(statistics.variance(xa) / na + statistics.variance(xb) / nb)
    z = (ma - mb) / se
    q = N.inv_cdf(1 - alpha / 2)
    return {"fpa": fpa, "fna": fna, "na": na, "fpb": fpb, "fnb": fnb, "nb": nb, "alpha": alpha,
            "diff": ma - mb, "p": 2 * N.cdf(-abs(z)), "lo": ma - mb - q * se, "hi": ma - mb + q * se}


def mcnemar(b, c):
    n = b + c
    if n == 0:
        return {"b": b, "c": c, "p": 1.0}
    tail = sum(math.comb(n, i) for i in range(min(b, c) + 1)) / 2 ** n
    return {"b": b, "c": c, "p": min(1.0, 2 * tail)}


out = {
    "generator": "python %s stdlib (statistics.NormalDist, math.comb)" % ".".join(map(str, __import__("sys").version_info[:3])),
    "two_proportion": [two_prop(*c) for c in [
        (10, 40, 4, 40, 0.05), (20, 40, 10, 40, 0.05), (36, 200, 20, 210, 0.05), (5, 50, 5, 50, 0.05),
        (0, 30, 3, 30, 0.05), (19, 84, 40, 84, 0.1), (150, 1000, 120, 1000, 0.01)]],
    "welch": [welch(*c) for c in [
        (10, 2, 60, 4, 3, 60, 0.05), (30, 5, 200, 12, 9, 200, 0.05), (8, 8, 100, 2, 14, 100, 0.05)]],
    "mcnemar": [mcnemar(*c) for c in [(6, 1), (0, 0), (10, 10), (25, 5), (0, 12), (3, 0), (60, 30)]],
}
print(json.dumps(out, indent=1))
