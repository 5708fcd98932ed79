#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks bench_bitcoin's machine-readable output for src/test/cli-tests.sh.

    bench_output_check.py json FILE [--rounds=N] [--mode=M] [--emulated=yes|no]
                                                          the JSON follows doc/benchmarking.md's schema
    bench_output_check.py csv CSV JSON                        the CSV holds the JSON's results, row for row
    bench_output_check.py impls IMPLS_TSV LIST_TXT            -list-impls is well formed and -list follows it
    bench_output_check.py order-fixtures JSON GOOD BAD INFO   measured-looking copies for check-order.py

Prints one "ok" line, or the first problem and exits 1. Nothing here names a
transform: every expectation is derived from the file's own registry rows."""
import csv
import json
import math
import sys


class Bad(Exception):
    pass


def need(cond, what):
    if not cond:
        raise Bad(what)


def load_json(path):
    # Strict UTF-8: a byte sequence that is not UTF-8 is an error here.
    with open(path, "rb") as f:
        raw = f.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise Bad(f"{path} is not valid UTF-8: {e}")
    try:
        return json.loads(text)
    except ValueError as e:
        raise Bad(f"{path} is not valid JSON: {e}")


def close(a, b, rel=2e-3, abs_=1e-2):
    return abs(a - b) <= max(abs_, rel * max(abs(a), abs(b)))


def number(row, key):
    v = row.get(key)
    need(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v),
         f"{row.get('name')}: {key} is {v!r}, expected a number")
    return v


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def check_json(path, rounds=None, mode=None, emulated=None):
    d = load_json(path)
    need(isinstance(d, dict), "top level is not an object")
    need(d.get("schema") == "sha256bench-results" and d.get("version") == 1, "schema/version missing or wrong")
    need(d.get("mode") in ("measured", "sanity-check"), f"mode {d.get('mode')!r}")
    if mode:
        need(d["mode"] == mode, f"mode {d['mode']!r}, expected {mode!r}")
    for key in ("date", "commit"):
        need(isinstance(d.get(key), str) and d[key], f"{key} missing")
    m = d.get("machine", {})
    for key in ("arch", "cpu", "clock_method"):
        need(isinstance(m.get(key), str), f"machine.{key} missing")
    for key in ("family", "model", "stepping", "core_ghz", "tsc_ghz"):
        need(key in m, f"machine.{key} missing")
    if m["arch"] == "x86_64":
        for key in ("family", "model", "stepping"):
            need(isinstance(m[key], int), f"machine.{key} is {m[key]!r} on x86_64")
    need(isinstance(m.get("features"), list), "machine.features is not a list")
    # The SHA unit: both figures or neither (not measured without SHA-NI).
    lat, ivl = m.get("sha256rnds2_latency_cycles", "missing"), m.get("sha256rnds2_interval_cycles", "missing")
    need((lat is None and ivl is None) or (isinstance(lat, (int, float)) and isinstance(ivl, (int, float))
                                           and 0.3 < ivl <= lat < 40),
         f"machine: sha256rnds2 latency {lat!r}, interval {ivl!r}")
    # A scheduled block's mix, and the same block on four chained streams with
    # sha256msg2 and with an add in its place, hold its 32 sha256rnds2: never
    # (beyond timing noise) faster than the rounds alone at the measured interval.
    for key in ("sha_block_mix_cycles", "sha_stream_block_cycles", "sha_stream_block_msg2_add_cycles"):
        v = m.get(key, "missing")
        need((ivl is None and v is None) or (isinstance(v, (int, float)) and isinstance(ivl, (int, float))
                                             and 0.9 * 32 * ivl <= v < 1000),
             f"machine: {key} {v!r} with interval {ivl!r}")
    # The lane kernels' operations by register width: latency and interval
    # both or neither, the interval no longer than the latency.
    vlat, vivl = m.get("vector_op_latency_cycles"), m.get("vector_op_interval_cycles")
    need(isinstance(vlat, dict) and isinstance(vivl, dict) and set(vlat) == set(vivl) == {"128", "256", "512"},
         f"machine: vector_op_latency_cycles {vlat!r}, vector_op_interval_cycles {vivl!r}")
    for bits in vlat:
        a, b = vlat[bits], vivl[bits]
        need((a is None and b is None) or (isinstance(a, (int, float)) and isinstance(b, (int, float))
                                           and 0.05 < b <= a * 1.05 < 40),
             f"machine: {bits}-bit latency {a!r}, interval {b!r}")
    # The one-add loop (one core cycle an iteration on a core this thread has alone).
    loop = m.get("loop_iteration_cycles", "missing")
    need(loop is None or (isinstance(loop, (int, float)) and 0 < loop <= 64),
         f"machine: loop_iteration_cycles {loop!r}")
    need("emulated" in m and (m["emulated"] is None or (isinstance(m["emulated"], str) and m["emulated"])),
         f"machine.emulated is {m.get('emulated', 'missing')!r}: expected null or the reason")
    if emulated is not None:
        need(bool(m["emulated"]) == emulated, f"machine.emulated is {m['emulated']!r}")
    b = d.get("build", {})
    for key in ("compiler", "cxxflags", "cppflags", "assembler", "openssl"):
        need(isinstance(b.get(key), str), f"build.{key} missing")
    o = d.get("options", {})
    for key in ("filter", "min_time_ms", "rounds"):
        need(key in o, f"options.{key} missing")
    if rounds is not None:
        need(o["rounds"] == rounds, f"options.rounds {o['rounds']}, expected {rounds}")
    impls = d.get("implementations")
    need(isinstance(impls, list) and impls, "implementations missing or empty")
    for i in impls:
        for key in ("family", "name", "why_not", "technique"):
            need(isinstance(i.get(key), str), f"implementations: {key} missing in {i}")
        for key in ("built", "supported", "selected", "wide_sha", "uses_transform"):
            need(isinstance(i.get(key), bool), f"implementations: {key} not a boolean in {i}")
        need(type(i.get("ways")) is int and 1 <= i["ways"] <= 64, f"implementations: ways not a count in {i}")
        need(isinstance(i.get("needs"), list), f"implementations: needs not a list in {i}")
        need((i["why_not"] == "") == i["supported"], f"{i['name']}: why_not must be empty exactly when supported")
    why_not = {(i["family"], i["name"]): i["why_not"] for i in impls}
    results = d.get("results")
    need(isinstance(results, list) and results, "results missing or empty")
    numeric = ("median_ns", "min_ns", "max_ns", "spread_pct", "mb_per_s")
    tables = {}
    for r in results:
        for key in ("table", "name", "impl", "family", "status", "reason"):
            need(isinstance(r.get(key), str), f"results: {key} missing in {r}")
        need(isinstance(r.get("baseline"), bool), f"{r['name']}: baseline not a boolean")
        if "unit" in r or "units_per_op" in r:
            need(isinstance(r.get("unit"), str) and r["unit"] and isinstance(r.get("units_per_op"), int)
                 and r["units_per_op"] > 0, f"{r['name']}: unit {r.get('unit')!r} x {r.get('units_per_op')!r}")
        need(r["status"] in ("ok", "not run", "failed"), f"{r['name']}: status {r['status']!r}")
        tables.setdefault(r["table"], []).append(r)
        if r["status"] == "not run":
            need(r["reason"] and not r["reason"].lower().startswith("not run"),
                 f"{r['name']}: a not-run reason must say why, once: {r['reason']!r}")
            need(not any(k in r for k in numeric + ("samples_ns", "speed_pct")), f"{r['name']}: not run, yet numbers")
            if (r["family"], r["impl"]) in why_not and why_not[(r["family"], r["impl"])]:
                need(r["reason"] == why_not[(r["family"], r["impl"])],
                     f"{r['name']}: reason {r['reason']!r} is not the registry's {why_not[(r['family'], r['impl'])]!r}")
            continue
        need((r["status"] == "ok") == (r["reason"] == ""), f"{r['name']}: reason must be empty exactly when ok")
        s = r.get("samples_ns")
        need(isinstance(s, list) and s and all(isinstance(x, (int, float)) for x in s), f"{r['name']}: samples_ns")
        need(len(s) == o["rounds"], f"{r['name']}: {len(s)} samples for {o['rounds']} rounds")
        vals = {k: number(r, k) for k in numeric}
        srt = sorted(s)
        med = median(s)
        # The loop beside the row: one reading a round (none where the machine's
        # was set, not measured), the row's figure their median, else the machine's.
        ls = r.get("loop_iteration_samples")
        need(isinstance(ls, list) and all(number({"v": x}, "v") > 0 for x in ls) and len(ls) in (0, o["rounds"]),
             f"{r['name']}: loop_iteration_samples {ls!r}, expected none or one reading a round")
        if ls:
            need(abs(number(r, "loop_iteration_cycles") - median(ls)) <= 1e-3,
                 f"{r['name']}: loop_iteration_cycles {r['loop_iteration_cycles']} is not the median of {ls}")
        else:
            need(r.get("loop_iteration_cycles", "missing") == loop,
                 f"{r['name']}: loop_iteration_cycles {r.get('loop_iteration_cycles', 'missing')!r} with no readings, "
                 f"not the machine's {loop!r}")
        need(close(vals["median_ns"], med), f"{r['name']}: median_ns {vals['median_ns']} is not the samples' median {med}")
        need(close(vals["min_ns"], srt[0]) and close(vals["max_ns"], srt[-1]), f"{r['name']}: min/max not the samples'")
        need(close(vals["mb_per_s"], r["bytes_per_op"] / med * 1e3), f"{r['name']}: mb_per_s is not from the median")
        if m.get("core_ghz"):
            need(close(number(r, "cycles_per_op"), med * m["core_ghz"], rel=1e-2),
                 f"{r['name']}: cycles_per_op is not median x core clock")
            need(close(number(r, "cycles_per_byte"), r["cycles_per_op"] / r["bytes_per_op"], rel=1e-2),
                 f"{r['name']}: cycles_per_byte is not cycles_per_op / bytes")
            number(r, "best_batch_cycles_per_byte")
            if "unit" in r:
                need(close(number(r, "cycles_per_unit"), r["cycles_per_op"] / r["units_per_op"], rel=1e-2),
                     f"{r['name']}: cycles_per_unit is not cycles_per_op / units_per_op")
            # floor% = the row's sha256rnds2 per unit x the unit's issue interval / its cycles per unit,
            # the interval the row's own reading: the lowest of the start-up one (the machine's) and
            # those taken after each of its slices (one per round).
            def lowest(key, start):
                again = r.get(key.replace("_cycles", "_samples"))
                need(isinstance(again, list) and len(again) == o["rounds"] and all(number({"v": x}, "v") > 0 for x in again),
                     f"{r['name']}: {key.replace('_cycles', '_samples')} is {again!r}, expected one reading a round")
                v = number(r, key)
                need(0 < v and abs(v - min([start] + again)) <= 6e-4,
                     f"{r['name']}: {key} {v} is not the lowest of the start-up {start} and the rounds' {again}")
                return v
            if "sha_rnds2_per_unit" in r and ivl:
                row_ivl = lowest("floor_interval_cycles", ivl)
                need("floor_latency_cycles" not in r, f"{r['name']}: a latency reading on a SHA-NI floor")
                need(close(number(r, "floor_pct"), r["sha_rnds2_per_unit"] * row_ivl / r["cycles_per_unit"] * 100, rel=2e-3),
                     f"{r['name']}: floor_pct is not sha_rnds2_per_unit x floor_interval_cycles / cycles_per_unit")
                need(r.get("floor_bound") == "sha-ni", f"{r['name']}: floor_bound {r.get('floor_bound')!r} on a SHA-NI floor")
            # A lane row's: the larger of its operations x the width's interval
            # and its chain x the width's latency, and which one it is.
            elif "lane_ops_per_unit" in r and vivl.get(str(8 * r["lane_register_bytes"])):
                bits = str(8 * r["lane_register_bytes"])
                row_ivl = lowest("floor_interval_cycles", vivl[bits])
                row_lat = lowest("floor_latency_cycles", vlat[bits])
                thr = r["lane_ops_per_unit"] * row_ivl
                lat = r["lane_chain_per_unit"] * row_lat
                need(close(number(r, "floor_pct"), max(thr, lat) / r["cycles_per_unit"] * 100, rel=2e-3),
                     f"{r['name']}: floor_pct is not max(ops x interval, chain x latency) / cycles_per_unit")
                need(r.get("floor_bound") == ("throughput" if thr >= lat else "latency"),
                     f"{r['name']}: floor_bound {r.get('floor_bound')!r}, throughput {thr:.1f}, latency {lat:.1f}")
        need("cycles_per_unit" not in r or "unit" in r, f"{r['name']}: cycles_per_unit without a unit")
        need("floor_pct" not in r or "sha_rnds2_per_unit" in r or "lane_ops_per_unit" in r,
             f"{r['name']}: floor_pct without sha_rnds2_per_unit or lane_ops_per_unit")
        if "lane_ops_per_unit" in r:
            need("unit" in r and r["lane_ops_per_unit"] > 0 and 0 < r.get("lane_chain_per_unit", 0) < r["lane_ops_per_unit"]
                 and r.get("lane_register_bytes") in (16, 32, 64),
                 f"{r['name']}: lane ops {r['lane_ops_per_unit']!r}, chain {r.get('lane_chain_per_unit')!r}, "
                 f"register bytes {r.get('lane_register_bytes')!r}")
        need("sha_rnds2_per_unit" not in r or ("unit" in r and r["sha_rnds2_per_unit"] > 0),
             f"{r['name']}: sha_rnds2_per_unit {r.get('sha_rnds2_per_unit')!r} without a unit")
    for table, rows in tables.items():
        units = {(r.get("unit"), r.get("units_per_op")) for r in rows}
        need(len(units) == 1, f"{table}: rows disagree on the unit: {sorted(map(str, units))}")
        base = [r for r in rows if r["baseline"]]
        need(len(base) == 1, f"{table}: {len(base)} baseline rows, expected 1")
        if base[0]["status"] != "ok":
            continue
        for r in rows:
            if "median_ns" in r:
                need(close(number(r, "speed_pct"), base[0]["median_ns"] / r["median_ns"] * 100),
                     f"{r['name']}: speed_pct is not the baseline's median / this median")
    print(f"json ok: {len(results)} results, mode {d['mode']}")


def check_csv(csv_path, json_path):
    d = load_json(json_path)
    with open(csv_path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    need(rows, "empty CSV")
    header = rows[0]
    for key in ("table", "name", "impl", "family", "status", "reason", "median_ns", "speed_pct", "samples_ns", "unit",
                "units_per_op", "cycles_per_unit", "sha_rnds2_per_unit", "floor_pct", "lane_ops_per_unit",
                "lane_chain_per_unit", "lane_register_bytes", "floor_bound"):
        need(key in header, f"CSV header lacks {key}")
    body = rows[1:]
    need(len(body) == len(d["results"]), f"CSV has {len(body)} rows, JSON {len(d['results'])} results")
    for line, (c, j) in enumerate(zip(body, d["results"]), 2):
        need(len(c) == len(header), f"CSV line {line}: {len(c)} fields, header has {len(header)}")
        c = dict(zip(header, c))
        for key in ("table", "name", "impl", "family", "status", "reason"):
            need(c[key] == j[key], f"CSV line {line}: {key} {c[key]!r} != JSON {j[key]!r}")
        if "median_ns" in j:
            need(close(float(c["median_ns"]), j["median_ns"]), f"CSV line {line}: median_ns differs from the JSON")
            need(len(c["samples_ns"].split()) == len(j["samples_ns"]), f"CSV line {line}: samples differ")
            if "efficiency_pct" in j:
                need(c["threads"] == str(j["threads"]), f"CSV line {line}: threads {c['threads']!r} != JSON {j['threads']}")
                for key in ("aggregate_mb_per_s", "efficiency_pct"):
                    need(c[key] != "" and close(float(c[key]), j[key], rel=1e-3),
                         f"CSV line {line}: {key} {c[key]!r} differs from the JSON's {j[key]}")
            else:
                need(c["threads"] == c["aggregate_mb_per_s"] == c["efficiency_pct"] == "",
                     f"CSV line {line}: thread figures without -threads in the JSON")
        else:
            need(c["median_ns"] == "", f"CSV line {line}: not run, yet a median")
        need(c["unit"] == j.get("unit", "") and c["units_per_op"] == str(j.get("units_per_op", "")),
             f"CSV line {line}: unit {c['unit']!r} x {c['units_per_op']!r} differs from the JSON")
        want = j.get("cycles_per_unit")
        need((c["cycles_per_unit"] == "") == (want is None) and (want is None or close(float(c["cycles_per_unit"]), want)),
             f"CSV line {line}: cycles_per_unit {c['cycles_per_unit']!r} differs from the JSON's {want}")
        need(c["floor_bound"] == (j.get("floor_bound") or ""), f"CSV line {line}: floor_bound differs from the JSON")
        need(c["lane_register_bytes"] == str(j.get("lane_register_bytes", "")), f"CSV line {line}: lane_register_bytes")
        for key in ("sha_rnds2_per_unit", "floor_pct", "lane_ops_per_unit", "lane_chain_per_unit"):
            want = j.get(key)
            need((c[key] == "") == (want is None) and (want is None or close(float(c[key]), want, rel=1e-3)),
                 f"CSV line {line}: {key} {c[key]!r} differs from the JSON's {want}")
    print(f"csv ok: {len(body)} rows")


def check_impls(tsv_path, list_path):
    with open(tsv_path, encoding="utf-8") as f:
        lines = [line.rstrip("\n") for line in f]
    need(lines, "-list-impls printed nothing")
    with open(list_path, encoding="utf-8") as f:
        listed = [line.split()[0] for line in f if line.strip()]
    selected = {}
    for n, line in enumerate(lines, 1):
        fields = line.split("\t")
        need(len(fields) == 10, f"-list-impls line {n}: {len(fields)} fields, expected 10: {line!r}")
        family, name, needs, built, supported, sel, why_not, technique, ways, wide = fields
        need(family and name and needs and technique, f"-list-impls line {n}: empty field")
        need(all(v in ("yes", "no") for v in (built, supported, sel, wide)), f"-list-impls line {n}: yes/no fields")
        need(ways.isdigit() and 1 <= int(ways) <= 64, f"-list-impls line {n}: ways {ways!r}")
        need((why_not == "-") == (supported == "yes"), f"-list-impls line {n}: why_not is '-' exactly when supported")
        need(not (supported == "yes" and built == "no"), f"-list-impls line {n}: supported but not built")
        if sel == "yes":
            need(supported == "yes", f"-list-impls line {n}: selected but not supported")
            need(family not in selected, f"-list-impls: two rows selected in family {family}")
            selected[family] = name
        if family == "transform":
            need(any(b.endswith("/" + name) for b in listed), f"-list has no benchmark for transform {name}")
        if sel == "yes":
            # AutoDetect takes the first supported row (registry order).
            first = next(l.split("\t")[1] for l in lines if l.split("\t")[0] == family and l.split("\t")[4] == "yes")
            need(name == first, f"-list-impls: {name} selected, but {first} is the first supported {family} row")
    need("transform" in selected, "-list-impls: no transform selected")
    print(f"impls ok: {len(lines)} rows, selected {selected}")


def order_fixtures(json_path, good_path, bad_path, info_path):
    """GOOD: each transform row timed by its registry position (consistent);
    BAD: the same with the baseline made 10x faster than everything."""
    d = load_json(json_path)
    d["mode"] = "measured"
    orders = {}
    for i in d["implementations"]:
        orders.setdefault(i["family"], []).append(i["name"])
    for r in d["results"]:
        fam = orders.get(r["family"], [])
        if r["status"] == "ok" and r["impl"] in fam:
            r["median_ns"] = 100.0 * (fam.index(r["impl"]) + 1)
    order = orders.get("transform", [])
    with open(good_path, "w", encoding="utf-8") as f:
        json.dump(d, f)
    base = ""
    others = set()
    for r in d["results"]:
        if r["status"] != "ok" or r["family"] != "transform" or r["impl"] not in order:
            continue
        if r["baseline"]:
            r["median_ns"] = 1.0
            base = r["impl"]
        else:
            others.add(r["impl"])
    with open(bad_path, "w", encoding="utf-8") as f:
        json.dump(d, f)
    # For the caller: the baseline's name and how many other transforms ran.
    with open(info_path, "w", encoding="utf-8") as f:
        f.write(f"{base} {len(others)}\n")
    print("fixtures ok")


def main(argv):
    try:
        if len(argv) >= 2 and argv[0] == "json":
            opts = dict(a[2:].split("=", 1) for a in argv[2:])
            check_json(argv[1], int(opts["rounds"]) if "rounds" in opts else None, opts.get("mode"),
                       {"yes": True, "no": False}[opts["emulated"]] if "emulated" in opts else None)
        elif len(argv) == 3 and argv[0] == "csv":
            check_csv(argv[1], argv[2])
        elif len(argv) == 3 and argv[0] == "impls":
            check_impls(argv[1], argv[2])
        elif len(argv) == 5 and argv[0] == "order-fixtures":
            order_fixtures(*argv[1:])
        else:
            print(__doc__, file=sys.stderr)
            return 2
    except (Bad, OSError, KeyError, ValueError) as e:
        print(f"bench_output_check.py: {type(e).__name__ if not isinstance(e, Bad) else 'FAIL'}: {e}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
