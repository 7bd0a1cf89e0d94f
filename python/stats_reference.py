"""Reference numbers for trustlake's statistics (stats/*_reference_test.go).

Reads the cases JSON the Go test writes (argv[1]) and prints, as JSON, what
independent implementations give for them:

- adjust: statsmodels.stats.multitest.multipletests, methods fdr_bh and holm;
- mean_cr1 / diff_cr1: statsmodels OLS with cov_type="cluster" (CR1), the
  intercept of y ~ 1, and the coefficient of the indicator s in y ~ 1 + s,
  with normal p-values (use_t=False);
- clustered_two_prop: the design-effect two-proportion z test, written here
  with numpy and scipy.stats.norm from its formula;
- krippendorff: krippendorff.alpha, level_of_measurement="nominal", on the
  coders × units reliability data with NaN for missing values;
- calibration: Brier score and expected calibration error (equal-width and
  equal-mass bins), written here with numpy.
"""

import json
import sys

import krippendorff
import numpy as np
import scipy
import statsmodels
from scipy.stats import norm
from statsmodels.regression.linear_model import OLS
from statsmodels.stats.multitest import multipletests


def adjust(cases):
    out = []
    for p in cases:
        p = np.asarray(p, dtype=float)
        out.append({
            "bh": multipletests(p, method="fdr_bh")[1].tolist(),
            "holm": multipletests(p, method="holm")[1].tolist(),
        })
    return out


def mean_cr1(cases):
    out = []
    for c in cases:
        y = np.asarray(c["y"], dtype=float)
        g = np.asarray(c["groups"])
        fit = OLS(y, np.ones((len(y), 1))).fit(cov_type="cluster", cov_kwds={"groups": g}, use_t=False)
        out.append({"mean": float(fit.params[0]), "se": float(fit.bse[0])})
    return out


def diff_cr1(cases):
    out = []
    for c in cases:
        y = np.asarray(c["y"], dtype=float)
        s = np.asarray(c["s"], dtype=float)
        g = np.asarray(c["groups"])
        X = np.column_stack([np.ones(len(y)), s])
        fit = OLS(y, X).fit(cov_type="cluster", cov_kwds={"groups": g}, use_t=False)
        out.append({"diff": float(fit.params[1]), "se": float(fit.bse[1]), "p": float(fit.pvalues[1])})
    return out


def clustered_two_prop(cases):
    out = []
    for c in cases:
        ka, na, kb, nb = c["ka"], c["na"], c["kb"], c["nb"]
        deffs = [(d, n) for d, n in ((c["deff_a"], na), (c["deff_b"], nb)) if d is not None]
        d = sum(x * n for x, n in deffs) / sum(n for _, n in deffs) if deffs else 1.0
        d = max(d, 1.0)
        pool = (ka + kb) / (na + nb)
        diff = ka / na - kb / nb
        se = np.sqrt(d * pool * (1 - pool) * (1 / na + 1 / nb))
        if se > 0:
            p = 2 * norm.sf(abs(diff / se))
        else:
            p = 1.0 if diff == 0 else 0.0
        out.append({"diff": diff, "p": float(p)})
    return out


def kripp(cases):
    out = []
    for c in cases:
        data = np.array([[np.nan if v is None else v for v in row] for row in c["data"]], dtype=float)
        try:
            a = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
        except ValueError:
            a = None
        out.append({"alpha": None if a is None or np.isnan(a) else float(a)})
    return out


def calibration(cases):
    out = []
    for c in cases:
        p = np.asarray(c["prob"], dtype=float)
        y = np.asarray(c["y"], dtype=float)
        bins = c["bins"]
        brier = float(np.mean((p - y) ** 2))
        # Equal width: bin b holds b/B <= p < (b+1)/B, the last bin closed.
        idx = np.minimum((p * bins).astype(int), bins - 1)
        ece_w = 0.0
        for b in range(bins):
            m = idx == b
            if m.any():
                ece_w += m.sum() / len(p) * abs(p[m].mean() - y[m].mean())
        # Equal mass: sorted by p, split into B groups of sizes as equal as
        # numpy.array_split makes them (ties kept in input order).
        order = np.argsort(p, kind="stable")
        ece_m = 0.0
        for part in np.array_split(order, bins):
            if len(part):
                ece_m += len(part) / len(p) * abs(p[part].mean() - y[part].mean())
        out.append({"brier": brier, "ece_width": float(ece_w), "ece_mass": float(ece_m)})
    return out


def main():
    with open(sys.argv[1]) as f:
        cases = json.load(f)
    out = {
        "versions": {"statsmodels": statsmodels.__version__, "scipy": scipy.__version__,
                     "krippendorff": getattr(krippendorff, "__version__", "")},
        "adjust": adjust(cases.get("adjust", [])),
        "mean_cr1": mean_cr1(cases.get("mean_cr1", [])),
        "diff_cr1": diff_cr1(cases.get("diff_cr1", [])),
        "clustered_two_prop": clustered_two_prop(cases.get("clustered_two_prop", [])),
        "krippendorff": kripp(cases.get("krippendorff", [])),
        "calibration": calibration(cases.get("calibration", [])),
    }
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
