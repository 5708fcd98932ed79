#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Many machines in one document: bench_bitcoin -output-json files (schema
sha256bench-results, version 1), one per machine, merged into markdown.

  contrib/merge-results.py [--title=TEXT] a.json b.json ... > results.md

For every benchmark table: one row per implementation, and for each machine
its speed% (vs the portable transform on that machine) and cycles/byte (and,
in tables counted in inputs, transactions or hashes, cycles per one); then
each machine's ranking (fastest first, by speed%), and every pair of
implementations the machines put in a different order, with the gaps (a gap
under 2 points of speed% on a machine is flagged as possibly noise), and how
many pairs were ranked on two machines or more: with none, it says no order was
compared (never that the machines agree). A row is keyed by its benchmark name
("MerkleRoot_9001/autodetect"), not by its label, which carries each machine's
pick ("autodetect (avx512_16way)"): the AutoDetect and baseline rows compare
across machines, labelled with each machine's pick.

Files marked "converted_from" (older results kept only as markdown, turned
into JSON by contrib/results-from-markdown.py) are labelled as such: their
numbers are the older bench's statistics (speed% from slice means, cycles/byte
from the fastest batch), not medians of rounds, and they carry no samples.

Output depends only on the files and their order on the command line. Bad
input (missing file, wrong shape, null, string, NaN or infinite numbers, a
-sanity-check run or an emulated CPU, converted or not) is a one-line error and
exit status 2; so is a file that would add nothing: no results, no row
measured, a row twice, or the same run as another file.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sha256bench_results import (STATUSES, ResultsError, check, converted_source, positive_number,  # noqa: E402
                                 md_cell, one_line, read_json, refuse_sanity_check, run_tool)

NOISE_POINTS = 2.0  # speed% gap below which an order may be noise


def load_machine(path):
    """Returns the document; converted files get a lighter check (they have no medians),
    but the same refusals: a file that would add nothing, or no measurement, is an error."""
    raw = read_json(path)
    if converted_source(raw, path) is not None:
        data = check_converted(raw, path)
    else:
        data = check(raw, path)
    refuse_sanity_check(data, path)
    if not data["results"]:
        raise ResultsError(f"{path}: 'results' is empty: the file would add nothing")
    seen = {}
    for i, row in enumerate(data["results"]):
        j = seen.setdefault((row["table"], row_key(row)), i)
        if j != i:
            raise ResultsError(f"{path}: results[{i}] repeats {row['impl']!r} of table {row['table']!r} "
                               f"(results[{j}]): which one counts?")
        if row["status"] == "ok":
            w = f"{path}: results[{i}]"
            positive_number(row, "speed_pct", w)
            positive_number(row, "cycles_per_byte", w)
            if row.get("cycles_per_unit") is not None:
                positive_number(row, "cycles_per_unit", w)
    if not any(r["status"] == "ok" for r in data["results"]):
        raise ResultsError(f"{path}: no row was measured (every row is 'not run' or 'failed'): the file would add nothing")
    return data


def row_key(row):
    """What a row is across machines: the part of its benchmark name after the
    table's ("autodetect" of "MerkleRoot_9001/autodetect"), not its label, which
    carries the machine's own pick ("autodetect (avx512_16way)") and would split
    the row per machine. Converted files name rows by label alone."""
    name = row.get("name")
    if isinstance(name, str) and "/" in name:
        return name.split("/", 1)[1]
    return row["impl"]


def row_label(key, labels, short=False):
    """A row's name: its label where every machine gives the same one; else, in
    the table, the key with the machines of each pick ("autodetect (avx512_16way:
    M1, M3; shani_4way: M2)"), and in rankings and notes (short) the key alone."""
    distinct = list(dict.fromkeys(labels.values()))
    if len(distinct) == 1:
        return distinct[0]
    if short:
        return key
    by_pick = {}
    for lb, impl in labels.items():
        inner = impl[len(key) + 2:-1] if impl.startswith(key + " (") and impl.endswith(")") else impl
        by_pick.setdefault(inner, []).append(lb)
    return f"{key} (" + "; ".join(f"{pick}: {', '.join(lbs)}" for pick, lbs in by_pick.items()) + ")"


def check_converted(data, path):
    if data.get("schema") != "sha256bench-results" or data.get("version") != 1:
        raise ResultsError(f"{path}: not a sha256bench-results version 1 file")
    if data.get("mode") != "measured":
        raise ResultsError(f"{path}: a converted file must record mode 'measured', not {data.get('mode')!r}")
    results = data.get("results")
    if not isinstance(results, list):
        raise ResultsError(f"{path}.results is missing or not a list")
    for i, row in enumerate(results):
        w = f"{path}: results[{i}]"
        if not isinstance(row, dict):
            raise ResultsError(f"{w} is not an object")
        for key in ("table", "impl", "status"):
            if not isinstance(row.get(key), str):
                raise ResultsError(f"{w}.{key} is missing or not a string")
        if row["status"] not in STATUSES:
            raise ResultsError(f"{w}.status is {row['status']!r}, expected one of {', '.join(STATUSES)}")
    if not isinstance(data.get("implementations", []), list):
        raise ResultsError(f"{path}.implementations is not a list")
    data.setdefault("implementations", [])
    return data


def text(v, default="?"):
    return str(v) if isinstance(v, (str, int, float)) and not isinstance(v, bool) else default


def machine_row(label, path, data):
    m = data.get("machine") if isinstance(data.get("machine"), dict) else {}
    b = data.get("build") if isinstance(data.get("build"), dict) else {}
    o = data.get("options") if isinstance(data.get("options"), dict) else {}
    feats = m.get("features")
    feats = " ".join(feats) if isinstance(feats, list) and feats else "?"
    fms = "/".join(text(m.get(k)) for k in ("family", "model", "stepping"))
    clocks = f"core {text(m.get('core_ghz'))} GHz, TSC {text(m.get('tsc_ghz'))} GHz"
    compiler = " ".join(x for x in (text(b.get("compiler"), ""), text(b.get("compiler_version"), "")) if x) or "?"
    flags = " ".join(x for x in (text(b.get("cppflags"), ""), text(b.get("cxxflags"), ""), text(b.get("flags"), "")) if x)
    build = f"{compiler} {flags}".strip() + (f", {b['assembler']}" if isinstance(b.get("assembler"), str) else "")
    date = text(data.get("date"))[:10]
    if data.get("converted_from") is not None:
        stats = (f"converted from {text(data.get('converted_from'))} ({os.path.basename(text(data.get('source'), path))}): "
                 "speed% from slice means, cycles/byte from the fastest batch; no per-round samples")
    else:
        stats = f"median of {text(o.get('rounds'))} rounds, {text(o.get('min_time_ms'))} ms per benchmark"
    # Every cell from the files is escaped: a pipe or a newline in a name must not split the row.
    def code(v):
        return f"`{md_cell(v).replace('`', chr(39))}`"
    cells = [md_cell(c) for c in (label, text(m.get("cpu")), text(m.get("arch")), fms, feats, clocks, build)]
    cells += [code(text(data.get("commit"))), md_cell(date), md_cell(stats), code(os.path.basename(path))]
    return "| " + " | ".join(cells) + " |"


def merge(paths, title):
    machines = []
    for i, p in enumerate(paths):
        data = load_machine(p)
        for label, q, other in machines:
            if other == data:
                raise ResultsError(f"{p} holds the same run as {q} ({label}): merging it would count one machine twice")
        machines.append((f"M{i + 1}", p, data))
    tables = []  # table names in first-seen order
    impls = {}   # table -> row keys (row_key) in first-seen order
    cell = {}    # (table, key, label) -> row
    picks = {}   # (table, key) -> {machine label: the row's label there}
    units = {}   # table -> its unit ("input", ...), for tables counted in something other than bytes
    for label, _, data in machines:
        for row in data["results"]:
            t = row["table"]
            if isinstance(row.get("unit"), str) and row["unit"]:
                units.setdefault(t, row["unit"])
            if t not in impls:
                tables.append(t)
                impls[t] = []
            k = row_key(row)
            if k not in impls[t]:
                impls[t].append(k)
            cell.setdefault((t, k, label), row)
            picks.setdefault((t, k), {})[label] = row["impl"]
    if not any(r["status"] == "ok" for _, _, d in machines for r in d["results"]):
        raise ResultsError("nothing to merge: no benchmark row with status ok in any file")

    out = [f"# {one_line(title)}", "",
           f"Generated by `contrib/merge-results.py` from {len(machines)} file(s); do not edit by hand. "
           f"speed% is relative to the portable transform on the same machine (= 100); cycles/byte are core cycles "
           f"(bench_bitcoin's clock method per machine). Higher speed% is faster; lower cycles/byte is faster.", "",
           "## Machines", "",
           "| | CPU | arch | family/model/stepping | features | clocks | build | commit | date | statistics | file |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    out += [machine_row(label, p, d) for label, p, d in machines]
    labels = [m[0] for m in machines]
    for t in tables:
        out += ["", f"## {md_cell(t)}", ""]
        # A table counted in inputs, transactions or hashes adds cycles per one of them.
        unit = units.get(t)
        cols = ["speed%", "cycles/byte"] + ([f"cycles/{unit}"] if unit else [])
        out.append("| implementation | " + " | ".join(f"{lb} {md_cell(c)}" for lb in labels for c in cols) + " |")
        out.append("|---|" + "---:|" * (len(cols) * len(labels)))
        shown = {k: row_label(k, picks[(t, k)]) for k in impls[t]}
        short = {k: row_label(k, picks[(t, k)], short=True) for k in impls[t]}
        for name in impls[t]:
            cells = []
            for lb in labels:
                r = cell.get((t, name, lb))
                if r is None:
                    cells += ["—", "—"]
                elif r["status"] != "ok":
                    cells += [r["status"], "—"]
                else:
                    cells += [f"{float(r['speed_pct']):.1f}", f"{float(r['cycles_per_byte']):.2f}"]
                if unit:
                    c = r.get("cycles_per_unit") if r is not None and r["status"] == "ok" else None
                    cells.append(f"{float(c):.0f}" if isinstance(c, (int, float)) and not isinstance(c, bool) else "—")
            out.append(f"| {md_cell(shown[name])} | " + " | ".join(cells) + " |")
        # Rankings, then order disagreements.
        out += ["", "Ranking, fastest first (speed%):", ""]
        speeds = {}
        for lb in labels:
            ok = [(float(cell[(t, n, lb)]["speed_pct"]), n) for n in impls[t]
                  if (t, n, lb) in cell and cell[(t, n, lb)]["status"] == "ok"]
            ok.sort(key=lambda x: (-x[0], impls[t].index(x[1])))
            speeds[lb] = {n: s for s, n in ok}
            out.append(f"- {lb}: " + (" > ".join(one_line(short[n]) for _, n in ok) if ok else "nothing measured"))
        notes = []
        compared = 0  # pairs of rows both measured on at least two machines
        names = impls[t]
        for i in range(len(names)):
            for j in range(i + 1, len(names)):
                a, b = names[i], names[j]
                na, nb = one_line(short[a]), one_line(short[b])
                both = [lb for lb in labels if a in speeds[lb] and b in speeds[lb]]
                if len(both) >= 2:
                    compared += 1
                ahead_a = [lb for lb in both if speeds[lb][a] > speeds[lb][b]]
                ahead_b = [lb for lb in both if speeds[lb][b] > speeds[lb][a]]
                if ahead_a and ahead_b:
                    gaps = []
                    small = False
                    for lb in both:
                        g = speeds[lb][a] - speeds[lb][b]
                        small = small or abs(g) < NOISE_POINTS
                        gaps.append(f"{lb} {na} {speeds[lb][a]:.1f} vs {nb} {speeds[lb][b]:.1f}")
                    notes.append(f"- {na} vs {nb}: {na} ahead on {', '.join(ahead_a)}, {nb} ahead on {', '.join(ahead_b)} "
                                 f"({'; '.join(gaps)})" + (f" — a gap under {NOISE_POINTS:g} points: may be noise"
                                                           if small else ""))
        out += [""]
        if len([lb for lb in labels if speeds[lb]]) < 2:
            out.append("Order disagreements: fewer than two machines measured this table.")
        elif compared == 0:
            out.append("Order disagreements: no pair of rows was measured on two machines, so no order was compared.")
        elif notes:
            out += [f"Where the machines disagree about the order ({compared} pair(s) compared):", ""] + notes
        else:
            out.append(f"The machines agree about the order ({compared} pair(s) compared).")
    return "\n".join(out) + "\n"


def main(argv):
    title = "sha256bench results across machines"
    paths = []
    for a in argv:
        if a.startswith("--title="):
            title = a.split("=", 1)[1]
        elif a in ("-h", "--help"):
            print(__doc__.strip())
            return 0
        elif a.startswith("-"):
            raise ResultsError(f"unknown option {a} (usage: merge-results.py [--title=TEXT] a.json b.json ...)")
        else:
            paths.append(a)
    if not paths:
        raise ResultsError("usage: merge-results.py [--title=TEXT] a.json b.json ... (no file given)")
    if len(set(os.path.realpath(p) for p in paths)) != len(paths):
        raise ResultsError("the same file is given twice")
    sys.stdout.write(merge(paths, title))
    return 0


if __name__ == "__main__":
    run_tool("merge-results.py", lambda: main(sys.argv[1:]))
