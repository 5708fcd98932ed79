#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Bitcoin Core's bench_bitcoin -output-json (nanobench's JSON template) to this
project's results schema (sha256bench-results version 1), so that
contrib/bench_compare.py, the engine of contrib/bench-compare.sh, compares
Core unpatched and patched the same way it compares two revisions of ours.

  core_bench_json.py convert --side=base|head --label=S --compiler=S --core-ghz=X
                     [--cross=NEW=OLD ...] [--min-time=MS] --out=FILE CORE.json...
  core_bench_json.py cycles COMPARE.json GHZ
  core_bench_json.py loops --cpu=N CORE.loop...

convert: one row per benchmark in the CORE.json files (one file per process:
contrib/core-patch.sh runs every benchmark in a process of its own), named
"<benchmark> (ns/<unit>)" with median_ns = nanobench's median(elapsed) per
unit (median(elapsed) / batch). --cross=NEW=OLD adds a row "NEW vs OLD": HEAD's NEW against BASE's OLD
(e.g. the patched AVX-512 path against unpatched Core's AVX2 path, which has no
AVX-512 row).
A row whose name claims a kernel (SHA256D64_1024_AVX512: "avx512(16way)",
_AVX2: "avx2(8way)", _SHANI: "x86_shani(", _SSE4: "sse41(4way)") but whose
implementation string, the one Core's SHA256AutoDetect(mask) returned in that
run and bench_bitcoin put in the benchmark's name, lacks it (a CPU without the
feature: Core falls back silently, e.g. to "sse4(1way),sse41(4way)") is
written with status "not run" and the reason, never as a measurement of the
kernel it names; so is a cross row whose side's benchmark lacks its claim.
bench_compare.py then lists it as not compared, with that reason.
Where CORE.loop lies beside CORE.json (core-patch.sh: the one-add loop just
before and after that process, two numbers), every row from it gets the larger
as loop_iteration_cycles: a pair whose sides disagree on a shared core is left
out of that row (bench_compare.py, doc/ab-testing.md). A malformed one stops.
cycles: the table of compare.json (bench_compare.py --json) in core cycles at
GHZ: per 64-byte input for the SHA256D64 rows (ns/byte x 64), per unit otherwise.
loops: the A/B's summary line: how many runs on CPU N read a shared core (the
larger of a run's two readings at bench_compare.py's SHARED_CORE_LOOP or more).
Errors: one line on stderr, exit 2.
"""
import json
import os
import platform
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from sha256bench_results import ResultsError  # noqa: E402
from bench_compare import SHARED_CORE_LOOP  # noqa: E402

TABLE = "Core bench_bitcoin"


def split_name(full):
    """'SHA256D64_1024_SHANI using the 'x86_shani(1way,2way)' SHA256 implementation' -> (bench, impl)."""
    marker = " using the '"
    if marker in full:
        bench, rest = full.split(marker, 1)
        return bench, rest.split("'", 1)[0]
    return full, "auto"


# What a benchmark's name claims Core ran: a part of SHA256AutoDetect's string.
CLAIMS = {
    "SHA256D64_1024_SSE4": "sse41(4way)",
    "SHA256D64_1024_AVX2": "avx2(8way)",
    "SHA256D64_1024_SHANI": "x86_shani(",
    "SHA256D64_1024_AVX512": "avx512(16way)",
}


def not_run_reason(bench, impl):
    """Why a row did not measure what its name claims, or "" when it did (or claims nothing)."""
    claim = CLAIMS.get(bench)
    if claim is None or claim in impl:
        return ""
    return (f"Core's SHA256AutoDetect gave '{impl}' for {bench}: no {claim.rstrip('(')} on this CPU, "
            "so it ran another kernel than its name's")


def read_core(path):
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, UnicodeDecodeError) as e:
        raise ResultsError(f"cannot read {path}: {e}")
    except ValueError as e:
        raise ResultsError(f"{path} is not valid JSON (bench_bitcoin -output-json): {e}")
    results = doc.get("results") if isinstance(doc, dict) else None
    if not isinstance(results, list) or not results:
        raise ResultsError(f"{path}: no 'results' list (is it bench_bitcoin -output-json output?)")
    rows = []
    for i, r in enumerate(results):
        try:
            # median(elapsed) is seconds per iteration; an iteration is `batch` units.
            sec = float(r["median(elapsed)"]) / float(r.get("batch") or 1)
            unit = str(r.get("unit") or "op")
            name = str(r["name"])
        except (KeyError, TypeError, ValueError):
            raise ResultsError(f"{path}: results[{i}] has no usable name/median(elapsed)")
        if not sec > 0:
            raise ResultsError(f"{path}: results[{i}] ({name}) has median(elapsed) {sec}")
        bench, impl = split_name(name)
        rows.append({"bench": bench, "impl": impl, "unit": unit, "ns": sec * 1e9})
    return rows


def read_loop(path):
    """The one-add loop's readings beside a run (core-patch.sh: CORE.loop next to CORE.json, the
    readings just before and after it): the larger, or None where there is no such file."""
    loop = path if path.endswith(".loop") else path[:-5] + ".loop" if path.endswith(".json") else path + ".loop"
    try:
        with open(loop, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return None
    except OSError as e:
        raise ResultsError(f"cannot read {loop}: {e}")
    try:
        values = [float(x) for x in text.split()]
    except ValueError:
        values = []
    if len(values) != 2 or not all(0 < v <= 64 for v in values):
        raise ResultsError(f"{loop}: expected two one-add loop readings (core cycles an iteration), got {text.strip()!r}")
    return max(values)


def machine(core_ghz):
    cpu, fam, model, step, flags = "unknown CPU", "?", "?", "?", []
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                k, _, v = line.partition(":")
                k, v = k.strip(), v.strip()
                if k == "model name" and cpu == "unknown CPU":
                    cpu = v
                elif k == "cpu family" and fam == "?":
                    fam = v
                elif k == "model" and model == "?":
                    model = v
                elif k == "stepping" and step == "?":
                    step = v
                elif k == "flags" and not flags:
                    have = set(v.split())
                    flags = [x for x in ("sse4_1", "avx2", "sha_ni", "avx512f", "avx512bw", "avx512vl") if x in have]
    except OSError:
        pass
    return {"cpu": cpu, "arch": platform.machine(), "family": fam, "model": model, "stepping": step,
            "features": flags, "core_ghz": core_ghz}


def convert(argv):
    side = label = compiler = out = None
    core_ghz, min_time, crosses, files = None, None, [], []
    for a in argv:
        if a.startswith("--side="):
            side = a.split("=", 1)[1]
        elif a.startswith("--label="):
            label = a.split("=", 1)[1]
        elif a.startswith("--compiler="):
            compiler = a.split("=", 1)[1]
        elif a.startswith("--core-ghz="):
            try:
                core_ghz = round(float(a.split("=", 1)[1]), 3)
            except ValueError:
                raise ResultsError(f"{a}: expected a number of GHz")
        elif a.startswith("--min-time="):
            min_time = a.split("=", 1)[1]
        elif a.startswith("--cross="):
            spec = a.split("=", 1)[1]
            if spec.count("=") != 1:
                raise ResultsError(f"{a}: expected --cross=NEW=OLD")
            crosses.append(tuple(spec.split("=")))
        elif a.startswith("--out="):
            out = a.split("=", 1)[1]
        elif a.startswith("-"):
            raise ResultsError(f"unknown option {a}")
        else:
            files.append(a)
    if side not in ("base", "head") or not out or not files:
        raise ResultsError("usage: core_bench_json.py convert --side=base|head --out=FILE CORE.json...")
    rows, seen = [], set()
    for path in files:
        loop = read_loop(path)
        for r in read_core(path):
            r["loop"] = loop
            if r["bench"] in seen:
                raise ResultsError(f"{path}: {r['bench']} appears twice in one side's runs")
            seen.add(r["bench"])
            rows.append(r)
    def result(name, r):
        why = not_run_reason(r["bench"], r["impl"])
        if why:
            return {"table": TABLE, "name": name, "impl": r["impl"], "family": "core", "status": "not run",
                    "reason": why, "unit": r["unit"]}
        row = {"table": TABLE, "name": name, "impl": r["impl"], "family": "core", "status": "ok",
               "median_ns": r["ns"], "mb_per_s": 1e3 / r["ns"], "unit": r["unit"]}
        if r["loop"] is not None:
            row["loop_iteration_cycles"] = r["loop"]
        return row
    results = []
    for r in rows:
        results.append(result(f"{r['bench']} (ns/{r['unit']})", r))
        for new, old in crosses:
            if r["bench"] == (new if side == "head" else old):
                results.append(result(f"{new} vs {old} (ns/{r['unit']})", r))
    impls = []
    for r in rows:
        if {"family": "core", "name": r["impl"]} not in impls:
            impls.append({"family": "core", "name": r["impl"]})
    opts = {"process": "one benchmark per process"}
    if min_time:
        opts["min-time"] = min_time
    doc = {"schema": "sha256bench-results", "version": 1, "mode": "measured", "commit": label or side,
           "build": {"compiler": compiler or "unknown compiler"}, "machine": machine(core_ghz),
           "options": opts, "implementations": impls, "results": results}
    try:
        with open(out, "w", encoding="utf-8") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
    except OSError as e:
        raise ResultsError(f"cannot write {out}: {e}")
    return 0


def cycles(argv):
    if len(argv) != 2:
        raise ResultsError("usage: core_bench_json.py cycles COMPARE.json GHZ")
    try:
        with open(argv[0], encoding="utf-8") as f:
            doc = json.load(f)
        ghz = float(argv[1])
    except (OSError, ValueError) as e:
        raise ResultsError(f"cannot read {argv[0]} or GHz '{argv[1]}': {e}")
    print(f"In core cycles at {ghz:.2f} GHz (the core clock while a chain of dependent adds runs, "
          "contrib/core-series/clock.cpp):")
    print()
    print("| benchmark | BASE cycles | HEAD cycles | HEAD/BASE |")
    print("|---|---:|---:|---:|")
    for r in doc.get("rows", []):
        name = r["name"]
        per, mult = name.rsplit("(ns/", 1)[-1].rstrip(")"), 1
        if name.startswith("SHA256D64") and per == "byte":
            per, mult = "64-byte input", 64
        b, h = r["base_median_ns"] * ghz * mult, r["head_median_ns"] * ghz * mult
        print(f"| {name.rsplit(' (ns/', 1)[0]} | {b:.1f} per {per} | {h:.1f} per {per} | {h / b:.3f}x |")
    return 0


def loops(argv):
    if len(argv) < 2 or not argv[0].startswith("--cpu="):
        raise ResultsError("usage: core_bench_json.py loops --cpu=N CORE.loop...")
    cpu = argv[0][len("--cpu="):]
    readings = []
    for path in argv[1:]:
        if not path.endswith(".loop"):
            raise ResultsError(f"{path}: expected a .loop file")
        v = read_loop(path)
        if v is None:
            raise ResultsError(f"{path}: no such file")
        readings.append(v)
    shared = sum(v >= SHARED_CORE_LOOP for v in readings)
    print(f"Every run on CPU {cpu}. The one-add loop before and after each of the {len(readings)} runs read "
          f"{min(readings):.2f}-{max(readings):.2f} core cycles an iteration; {shared} run(s) at "
          f"{SHARED_CORE_LOOP:g} or more ran on a shared core (doc/benchmarking.md, \"Shared core\").")
    return 0


def main(argv):
    if argv and argv[0] == "convert":
        return convert(argv[1:])
    if argv and argv[0] == "cycles":
        return cycles(argv[1:])
    if argv and argv[0] == "loops":
        return loops(argv[1:])
    raise ResultsError("usage: core_bench_json.py convert ... | cycles COMPARE.json GHZ | loops --cpu=N CORE.loop... "
                       "(see its header)")


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except ResultsError as e:
        print(f"core_bench_json: {e}", file=sys.stderr)
        sys.exit(2)
    except KeyboardInterrupt:
        sys.exit(130)
