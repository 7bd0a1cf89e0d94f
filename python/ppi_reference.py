"""Reference numbers for trustlake rate (stats/ppi.go, stats/mix.go).

Reads a JSON list of cases on stdin and prints, for each, what ppi-python and
scipy compute:
  {"y": [...], "yhat": [...], "yhat_unlabeled": [...], "alpha": a}
    -> ppi (lam=1), tuned (lam=None, with the lambda ppi_mean_ci tunes),
       classical (lam=0), gt_only and judge_only (classical_mean_ci):
       each {"value", "lo", "hi"}
  {"a": [...], "b": [...]}  (category counts of two groups)
    -> chi2_contingency(correction=False): {"chi2", "df", "p"}
  {"rho": r, "n0": n0, "n_max": M}
    -> ppi_power's labels n for the effective sample size n0 with n + N = M
       (predictions nearly free): {"n"}
Run by stats TestPPIMatchesPython with the pinned python/requirements-stats.txt.
"""

import json
import sys

import numpy as np
from ppi_py import classical_mean_ci, ppi_mean_ci, ppi_mean_pointestimate, ppi_power
from ppi_py.ppi import _calc_lam_glm
from scipy.stats import chi2_contingency


def tuned_lambda(y, yhat, yhat_u):
    """The lambda ppi_mean_ci(lam=None) uses, by its own code path."""
    est = ppi_mean_pointestimate(y, yhat, yhat_u, lam=1)
    return float(
        _calc_lam_glm(
            (y - est).reshape(-1, 1),
            (yhat - est).reshape(-1, 1),
            (yhat_u - est).reshape(-1, 1),
            np.eye(1),
            clip=True,
        )
    )


def interval(value, ci):
    lo, hi = ci
    return {"value": float(np.squeeze(value)), "lo": float(np.squeeze(lo)), "hi": float(np.squeeze(hi))}


def ppi_case(c):
    y = np.asarray(c["y"], dtype=float)
    yhat = np.asarray(c["yhat"], dtype=float)
    yhat_u = np.asarray(c["yhat_unlabeled"], dtype=float)
    a = c["alpha"]
    out = {}
    for name, lam in (("ppi", 1), ("classical", 0), ("tuned", None)):
        ci = ppi_mean_ci(y, yhat, yhat_u, alpha=a, lam=lam)
        est = ppi_mean_pointestimate(y, yhat, yhat_u, lam=lam)
        out[name] = interval(est, ci)
    out["tuned"]["lambda"] = tuned_lambda(y, yhat, yhat_u)
    out["gt_only"] = interval(y.mean(), classical_mean_ci(y, alpha=a))
    both = np.concatenate([yhat, yhat_u])
    out["judge_only"] = interval(both.mean(), classical_mean_ci(both, alpha=a))
    return out


def mix_case(c):
    table = np.array([c["a"], c["b"]], dtype=float)
    table = table[:, table.sum(axis=0) > 0]
    chi2, p, df, _ = chi2_contingency(table, correction=False)
    return {"chi2": float(chi2), "df": int(df), "p": float(p)}


def power_case(c):
    r = ppi_power(c["rho"], cost_X=0, cost_Y=1, cost_Yhat=1e-9, effective_n=c["n0"], n_max=c["n_max"])
    return {"n": int(r["n"]), "N": int(r["N"])}


def main():
    cases = json.load(sys.stdin)
    out = [ppi_case(c) if "y" in c else power_case(c) if "rho" in c else mix_case(c) for c in cases]
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
