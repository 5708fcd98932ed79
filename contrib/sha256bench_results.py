# SPDX-License-Identifier: MIT
"""Reads a bench_bitcoin -output-json file (schema "sha256bench-results", version 1)
and checks its shape, so the contrib tools fail with one clear line instead of a
traceback or a silent wrong answer. Every problem raises ResultsError."""
import json
import math

SCHEMA = "sha256bench-results"
VERSION = 1
MODES = ("measured", "sanity-check")
STATUSES = ("ok", "not run", "failed")


class ResultsError(Exception):
    pass


def _kind(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "an object"
    return repr(v)


def _need(obj, key, where, types, what):
    if not isinstance(obj, dict) or key not in obj:
        raise ResultsError(f"{where}: missing key '{key}'")
    v = obj[key]
    if not isinstance(v, types) or isinstance(v, bool) and bool not in types:
        raise ResultsError(f"{where}.{key} is {_kind(v)}, expected {what}")
    return v


def positive_number(obj, key, where):
    v = obj.get(key) if isinstance(obj, dict) else None
    if key not in obj:
        raise ResultsError(f"{where}: missing key '{key}'")
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0:
        raise ResultsError(f"{where}.{key} is {_kind(v)}, expected a positive number")
    return float(v)


def _no_constant(name):
    raise ValueError(f"{name} is not a number (bench_bitcoin writes null where it has none)")


def _finite(text):
    v = float(text)
    if not math.isfinite(v):
        raise ValueError(f"{text} is out of range for a number")
    return v


def _unique(pairs):
    obj = {}
    for k, v in pairs:
        if k in obj:
            raise ValueError(f"duplicate key {k!r} in one object (which one counts?)")
        obj[k] = v
    return obj


def read_json(path):
    """The parsed file. NaN, Infinity, numbers beyond a double and an object
    with the same key twice are errors: each would pass a check and then print
    as nan or inf, or silently hide one of two values."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f, parse_constant=_no_constant, parse_float=_finite, object_pairs_hook=_unique)
    except (OSError, UnicodeDecodeError) as e:
        raise ResultsError(f"cannot read {path}: {e}")
    except ValueError as e:
        raise ResultsError(f"{path} is not valid JSON: {e}")


def converted_source(data, path):
    """What a file was converted from ("markdown"), or None for bench_bitcoin's own output."""
    if not isinstance(data, dict) or "converted_from" not in data:
        return None
    c = data["converted_from"]
    if not isinstance(c, str) or not c.strip():
        raise ResultsError(f"{path}.converted_from is {json.dumps(c)}, expected the format the file was converted "
                           "from (contrib/results-from-markdown.py writes \"markdown\")")
    return c


def load(path):
    """Returns the parsed document after checking the fields the tools use."""
    return check(read_json(path), path)


def check(data, path):
    where = path
    if not isinstance(data, dict):
        raise ResultsError(f"{where}: the top level is {_kind(data)}, expected an object (a bench_bitcoin -output-json file)")
    if data.get("schema") != SCHEMA or data.get("version") != VERSION:
        raise ResultsError(f"{where}: not a {SCHEMA} version {VERSION} file "
                           f"(schema={data.get('schema')!r}, version={data.get('version')!r})")
    mode = _need(data, "mode", where, (str,), "a string")
    if mode not in MODES:
        raise ResultsError(f"{where}.mode is {mode!r}, expected one of {', '.join(MODES)}")
    impls = _need(data, "implementations", where, (list,), "a list")
    for i, row in enumerate(impls):
        w = f"{where}: implementations[{i}]"
        if not isinstance(row, dict):
            raise ResultsError(f"{w} is {_kind(row)}, expected an object")
        _need(row, "family", w, (str,), "a string")
        _need(row, "name", w, (str,), "a string")
    results = _need(data, "results", where, (list,), "a list")
    for i, row in enumerate(results):
        w = f"{where}: results[{i}]"
        if not isinstance(row, dict):
            raise ResultsError(f"{w} is {_kind(row)}, expected an object")
        for key in ("table", "name", "impl", "family", "status"):
            _need(row, key, w, (str,), "a string")
        if row["status"] not in STATUSES:
            raise ResultsError(f"{w}.status is {row['status']!r}, expected one of {', '.join(STATUSES)}")
        if row["status"] == "ok":
            positive_number(row, "median_ns", w)
            positive_number(row, "mb_per_s", w)
    first = {}
    for i, row in enumerate(results):
        j = first.setdefault(row["name"], i)
        if j != i:
            raise ResultsError(f"{where}: results[{i}] repeats the name {row['name']!r} of results[{j}] (which one counts?)")
    return data


def refuse_sanity_check(data, path):
    """Timings that mean nothing: a -sanity-check run, or one on an emulated CPU."""
    if data["mode"] == "sanity-check":
        raise ResultsError(f"{path} is a -sanity-check run (each benchmark once; its timings mean nothing): "
                           "refusing to draw conclusions; run bench_bitcoin without -sanity-check")
    emulated = data["machine"].get("emulated") if isinstance(data.get("machine"), dict) else None
    if emulated:
        raise ResultsError(f"{path} ran on an emulated CPU ({emulated}): its timings are not measurements; "
                           "refusing to draw conclusions; run it on the real CPU")


def registry_order(data):
    """{family: [names in registry order]} from the file's implementations list."""
    order = {}
    for row in data["implementations"]:
        order.setdefault(row["family"], [])
        if row["name"] not in order[row["family"]]:
            order[row["family"]].append(row["name"])
    return order
