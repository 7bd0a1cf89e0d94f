"""Read trustlake's exports and lake folders as a notebook does, with pyarrow
and with polars, and print what each reader got as canonical JSON.

Usage: read.py JOBS.json  (a list of {"id", "format", "path", "schema",
"partitions"}). format is parquet, arrow, csv, jsonl, json (the output of
`trustlake sql --format json`) or lake (a table's hive-partitioned folder).
Parquet, Arrow and the lake carry their own types: they are read without a
schema, so the types printed are what the reader inferred. CSV and JSON carry
none: they are read with "schema" (column -> string, int64, float64, bool,
timestamp[UTC]), as a notebook must. Lake partition columns are read as
strings (a hive value such as 1 would otherwise be guessed to be a number).

Output: {id: {reader: {"types": {column: type}, "rows": [{column: value}]}}}
with timestamps as RFC 3339 in UTC (a naive timestamp is marked "naive:"),
or {reader: {"error": "..."}} when a reader fails.
"""
import datetime as dt
import json
import sys

import polars as pl
import pyarrow as pa
import pyarrow.csv as pa_csv
import pyarrow.dataset as pa_ds
import pyarrow.ipc as pa_ipc
import pyarrow.json as pa_json
import pyarrow.parquet as pa_pq

PA_TYPES = {"string": pa.string(), "int64": pa.int64(), "float64": pa.float64(),
            "bool": pa.bool_(), "timestamp[UTC]": pa.timestamp("us", tz="UTC")}
PL_TYPES = {"string": pl.String, "int64": pl.Int64, "float64": pl.Float64,
            "bool": pl.Boolean, "timestamp[UTC]": pl.Datetime("us", "UTC")}
UTC_NAMES = {"UTC", "Etc/UTC", "+00:00"}


def pa_name(t):
    if pa.types.is_dictionary(t):
        return pa_name(t.value_type)
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_string_view(t):
        return "string"
    if pa.types.is_int64(t):
        return "int64"
    if pa.types.is_float64(t):
        return "float64"
    if pa.types.is_boolean(t):
        return "bool"
    if pa.types.is_timestamp(t):
        return "timestamp[UTC]" if t.tz in UTC_NAMES else "timestamp[%s]" % t.tz
    return str(t)


def pl_name(t):
    if t == pl.String:
        return "string"
    if t == pl.Int64:
        return "int64"
    if t == pl.Float64:
        return "float64"
    if t == pl.Boolean:
        return "bool"
    if isinstance(t, pl.Datetime):
        return "timestamp[UTC]" if t.time_zone in UTC_NAMES else "timestamp[%s]" % t.time_zone
    return str(t)


def canon(v):
    if isinstance(v, dt.datetime):
        if v.tzinfo is None:
            return "naive:" + v.isoformat()
        u = v.astimezone(dt.timezone.utc)
        s = u.strftime("%Y-%m-%dT%H:%M:%S")
        if u.microsecond:
            s += (".%06d" % u.microsecond).rstrip("0")
        return s + "Z"
    if isinstance(v, list):
        return [canon(x) for x in v]
    if isinstance(v, dict):
        return {k: canon(x) for k, x in v.items()}
    return v


def with_pyarrow(job):
    fmt, path, schema = job["format"], job["path"], job.get("schema") or {}
    if fmt == "parquet":
        t = pa_pq.read_table(path)
    elif fmt == "arrow":
        t = pa_ipc.open_file(path).read_all()
    elif fmt == "lake":
        parts = pa.schema([(p, pa.string()) for p in job.get("partitions") or []])
        t = pa_ds.dataset(path, format="parquet",
                          partitioning=pa_ds.partitioning(parts, flavor="hive") if len(parts) else None).to_table()
    elif fmt == "csv":
        t = pa_csv.read_csv(path, convert_options=pa_csv.ConvertOptions(
            column_types={c: PA_TYPES[k] for c, k in schema.items()},
            strings_can_be_null=True, quoted_strings_can_be_null=False))
    elif fmt == "jsonl":
        t = pa_json.read_json(path, parse_options=pa_json.ParseOptions(
            explicit_schema=pa.schema([(c, PA_TYPES[k]) for c, k in schema.items()])))
    elif fmt == "json":
        with open(path, encoding="utf-8") as f:
            rows = json.load(f)
        strs = pa.Table.from_pylist(rows, schema=pa.schema([(c, pa.string() if k == "timestamp[UTC]" else PA_TYPES[k]) for c, k in schema.items()]))
        t = strs.cast(pa.schema([(c, PA_TYPES[k]) for c, k in schema.items()]))
    else:
        raise ValueError("unknown format " + fmt)
    return {"types": {f.name: pa_name(f.type) for f in t.schema},
            "rows": [{k: canon(v) for k, v in r.items()} for r in t.to_pylist()]}


def with_polars(job):
    fmt, path, schema = job["format"], job["path"], job.get("schema") or {}
    if fmt == "parquet":
        d = pl.read_parquet(path)
    elif fmt == "arrow":
        d = pl.read_ipc(path)
    elif fmt == "lake":
        parts = job.get("partitions") or []
        d = pl.read_parquet(path + "/**/*.parquet", hive_partitioning=bool(parts),
                            hive_schema={p: pl.String for p in parts} if parts else None)
    elif fmt == "csv":
        d = pl.read_csv(path, schema={c: PL_TYPES[k] for c, k in schema.items()})
    elif fmt == "jsonl":
        d = pl.read_ndjson(path, schema={c: PL_TYPES[k] for c, k in schema.items()})
    elif fmt == "json":
        d = pl.read_json(path, schema={c: PL_TYPES[k] for c, k in schema.items()})
    else:
        raise ValueError("unknown format " + fmt)
    return {"types": {c: pl_name(t) for c, t in d.schema.items()},
            "rows": [{k: canon(v) for k, v in r.items()} for r in d.to_dicts()]}


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        jobs = json.load(f)
    out = {}
    for job in jobs:
        got = {}
        for name, read in (("pyarrow", with_pyarrow), ("polars", with_polars)):
            try:
                got[name] = read(job)
            except Exception as e:  # reported per reader, the test fails on it
                got[name] = {"error": "%s: %s" % (type(e).__name__, e)}
        out[job["id"]] = got
    json.dump(out, sys.stdout, ensure_ascii=False, allow_nan=False)


if __name__ == "__main__":
    main()
