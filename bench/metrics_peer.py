"""The metrics peers of bench/metrics_peers.sh: FPR per judge × condition ×
category with a Wilson interval and a 2000-resample task-cluster bootstrap,
computed from a trustlake lake's Parquet files by polars or by pandas.

usage: metrics_peer.py polars|pandas LAKE THRESHOLD OUT.json

The same definitions as `trustlake metrics` (docs/metrics.md): a run is a
success when its verdict is "success", or, score-only, when score >= the
threshold; parse errors are not valid; an episode's majority is the verdict
with strictly more valid runs than each other one; FPR = majority successes
among episodes whose ground truth fails; episodes of source "natural" only
(trustlake's default --source). It computes fewer figures than
trustlake (no FDR, κ, agreement, strata by source) and prints the cells.
"""
import json
import sys

import numpy as np

Z = 1.959963984540054
RESAMPLES = 2000


def wilson(k, n):
    if n == 0:
        return [None, None]
    p = k / n
    d = 1 + Z * Z / n
    c = (p + Z * Z / (2 * n)) / d
    h = Z * np.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / d
    return [c - h, c + h]


def cell_figures(fp, neg, rng):
    """fp, neg: per-task counts of one cell (numpy arrays)."""
    k, n = int(fp.sum()), int(neg.sum())
    draws = rng.integers(0, len(fp), size=(RESAMPLES, len(fp)))
    bn = neg[draws].sum(axis=1)
    rates = fp[draws].sum(axis=1)[bn > 0] / bn[bn > 0]
    boot = np.percentile(rates, [2.5, 97.5]).tolist() if len(rates) else [None, None]
    return {"fp": k, "n_neg": n, "fpr": k / n if n else None, "wilson": wilson(k, n), "boot": boot}


def with_polars(lake, threshold):
    import polars as pl
    v = pl.scan_parquet(f"{lake}/verdicts/**/*.parquet", hive_partitioning=True)
    scored = pl.col("verdict").is_null() & pl.col("score").is_not_null()
    s = (pl.col("verdict") == "success") | (scored & (pl.col("score") >= threshold))
    f = (pl.col("verdict") == "failure") | (scored & (pl.col("score") < threshold))
    u = pl.col("verdict") == "uncertain"
    per_episode = v.group_by("judge", "condition", "episode_id").agg(
        s=s.fill_null(False).sum(), f=f.fill_null(False).sum(), u=u.fill_null(False).sum())
    gt = pl.scan_parquet(f"{lake}/ground_truth/**/*.parquet").filter(pl.col("source") != "human")
    gt = gt.select("episode_id", "pass", pl.col("category").fill_null(""))
    ep = pl.scan_parquet(f"{lake}/episodes/**/*.parquet", hive_partitioning=True)
    ep = ep.filter(pl.col("source") == "natural").select("episode_id", "task_id")
    d = (per_episode.join(gt, on="episode_id").join(ep, on="episode_id")
         .filter(~pl.col("pass"))
         .with_columns(fp=((pl.col("s") > pl.col("f")) & (pl.col("s") > pl.col("u"))).cast(pl.Int64)))
    per_task = (d.group_by("judge", "condition", "category", "task_id")
                .agg(fp=pl.col("fp").sum(), neg=pl.len()).sort("judge", "condition", "category", "task_id")
                .collect())
    cells = per_task.partition_by("judge", "condition", "category", as_dict=True, maintain_order=True)
    return {key: (t["fp"].to_numpy(), t["neg"].to_numpy().astype(np.int64)) for key, t in cells.items()}


def with_pandas(lake, threshold):
    import pandas as pd
    v = pd.read_parquet(f"{lake}/verdicts", columns=["judge", "condition", "episode_id", "verdict", "score"])
    scored = v["verdict"].isna() & v["score"].notna()
    v["s"] = (v["verdict"] == "success") | (scored & (v["score"] >= threshold))
    v["f"] = (v["verdict"] == "failure") | (scored & (v["score"] < threshold))
    v["u"] = v["verdict"] == "uncertain"
    per_episode = v.groupby(["judge", "condition", "episode_id"], observed=True)[["s", "f", "u"]].sum().reset_index()
    gt = pd.read_parquet(f"{lake}/ground_truth", columns=["episode_id", "pass", "category", "source"])
    gt = gt[gt["source"] != "human"]
    gt["category"] = gt["category"].fillna("")
    ep = pd.read_parquet(f"{lake}/episodes", columns=["episode_id", "task_id", "source"])
    ep = ep.loc[ep["source"] == "natural", ["episode_id", "task_id"]]
    d = per_episode.merge(gt[["episode_id", "pass", "category"]], on="episode_id").merge(ep, on="episode_id")
    d = d[~d["pass"].astype(bool)]
    d["fp"] = ((d["s"] > d["f"]) & (d["s"] > d["u"])).astype(np.int64)
    per_task = (d.groupby(["judge", "condition", "category", "task_id"], observed=True)
                .agg(fp=("fp", "sum"), neg=("fp", "size")).reset_index())
    return {key: (t["fp"].to_numpy(), t["neg"].to_numpy().astype(np.int64))
            for key, t in per_task.groupby(["judge", "condition", "category"], observed=True, sort=True)}


def main():
    lib, lake, threshold, out = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
    cells = (with_polars if lib == "polars" else with_pandas)(lake, threshold)
    rng = np.random.default_rng(20261202)
    rows = [{"judge": str(j), "condition": str(c), "category": str(g), **cell_figures(fp, neg, rng)}
            for (j, c, g), (fp, neg) in sorted(cells.items(), key=lambda kv: tuple(map(str, kv[0])))]
    with open(out, "w") as fh:
        json.dump(rows, fh)


if __name__ == "__main__":
    main()
