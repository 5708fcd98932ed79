#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Does AutoDetect's preference order hold on this machine?

    src/bench/bench_bitcoin -output-json=bench.json   (configure with CPPFLAGS=-DBENCH_RORX)
    contrib/check-order.py bench.json

The preference order is the registry's (src/crypto/sha256.cpp), read from the
file's "implementations" list: AutoDetect takes the first built row whose needs
the CPU has. For each table this lists the rows that ran, fastest first (median
of rounds), and flags every pair the registry orders one way while this machine
measured the other, beyond a tolerance (default 5%: the noise of one
interleaved run at the default -min-time; shorter runs are noisier).

Only choices AutoDetect can face are judged. A row that runs CSHA256 with the
selected transform (the multi-buffer 1-way rows; "uses_transform" in the file)
was measured at that transform's speed, so it counts as needing what that
transform needs too. The registry's preference of A over B is judged unless a
built row listed above A needs nothing beyond what A and B need together: that
row is then picked wherever both measured rows run, and AutoDetect never
chooses between them. Such pairs are listed as "not judged", with the row.

Exit status: 0 consistent, 1 at least one pair contradicted, 2 the file cannot
be judged (unreadable or wrong shape, a -sanity-check run, or nothing to compare)."""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sha256bench_results import ResultsError, load, one_line, refuse_sanity_check, run_tool  # noqa: E402

PROG = "check-order.py"
# Committed result files predate "uses_transform"; their 1-way rows say so in the technique.
USES_TRANSFORM_TEXT = "with the selected transform"


def tolerance(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number")
    if not math.isfinite(v) or v < 0:
        raise argparse.ArgumentTypeError(f"'{text}' must be a finite percentage >= 0")
    return v


class Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, not argparse's usage block and then the error
        raise ResultsError(f"{message} (see --help)")


def registry(data, path):
    """({family: [row in registry order]}, selected transform row or None); each row a dict with
    name, needs (a set), built and uses_transform."""
    impls = data["implementations"]
    has_field = any("uses_transform" in r for r in impls)
    families, selected = {}, []
    for i, r in enumerate(impls):
        w = f"{path}: implementations[{i}]"
        needs = r.get("needs")
        if not isinstance(needs, list) or not all(isinstance(n, str) for n in needs):
            raise ResultsError(f"{w}.needs is {needs!r}, expected a list of feature names")
        for key in ("built", "selected", "uses_transform"):
            if key in r and not isinstance(r[key], bool):
                raise ResultsError(f"{w}.{key} is {r[key]!r}, expected true or false")
        if has_field:
            uses = r.get("uses_transform") is True
        else:
            technique = r.get("technique")
            uses = r["family"] == "multi" and isinstance(technique, str) and USES_TRANSFORM_TEXT in technique
        # Names as printed: on one line each, so that none can forge a line of the verdict.
        row = {"name": one_line(r["name"]), "needs": {n for n in needs if n != "none"},
               "built": r.get("built", True) is not False, "uses_transform": uses}
        fam = families.setdefault(r["family"], [])
        if all(x["name"] != row["name"] for x in fam):
            fam.append(row)
        if r["family"] == "transform" and r.get("selected") is True:
            selected.append(row)
    if len(selected) > 1:
        raise ResultsError(f"{path}: {len(selected)} transforms are marked selected "
                           f"({', '.join(s['name'] for s in selected)}); AutoDetect picks one")
    return families, selected[0] if selected else None


def main():
    ap = Parser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json_file")
    ap.add_argument("--tolerance", type=tolerance, default=5.0, help="percent (default 5)")
    args = ap.parse_args()
    try:
        data = load(args.json_file)
        refuse_sanity_check(data, args.json_file)
        families, selected = registry(data, args.json_file)
    except ResultsError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2

    def effective(row):
        """What a row's measured speed needs: its own features, and the selected transform's if it runs it."""
        if not row["uses_transform"]:
            return row["needs"]
        return row["needs"] | selected["needs"] if selected else None

    tables = {}
    for r in data["results"]:
        impl = one_line(r["impl"])
        if r["status"] == "ok" and any(x["name"] == impl for x in families.get(r["family"], [])):
            tables.setdefault((one_line(r["table"]), r["family"]), {})[impl] = r["median_ns"]

    # Said once, for the rows this file measured: why they count as needing more than their own needs.
    users = list(dict.fromkeys(r["name"] for (_, fam), t in tables.items() for r in families[fam]
                               if r["uses_transform"] and r["name"] in t))
    if users and selected:
        print(f"{', '.join(users)} run(s) CSHA256 with the selected transform {selected['name']}: judged as needing "
              f"{', '.join(sorted(selected['needs'])) or 'nothing more'} too")
    elif users:
        print(f"{', '.join(users)} run(s) CSHA256 with the selected transform, but the file marks none selected: "
              "their pairs are not judged")

    flagged = compared = skipped = 0
    for (table, family), t in tables.items():
        rows = families[family]
        ran = [(i, x) for i, x in enumerate(rows) if x["name"] in t]
        print(f"{table}: fastest first: " + ", ".join(f"{n} ({t[n]:.1f} ns)" for n in sorted(t, key=t.get)))
        not_judged = {}  # why -> [pairs]
        for k, (ai, a) in enumerate(ran):
            for _, b in ran[k + 1:]:
                pair = f"{a['name']} vs {b['name']}"
                ea, eb = effective(a), effective(b)
                if ea is None or eb is None:
                    not_judged.setdefault("the selected transform is unknown", []).append(pair)
                    continue
                # A built row above a that needs no more than both measured rows together
                # is AutoDetect's pick wherever they both run.
                above = next((x for x in rows[:ai] if x["built"] and x["needs"] <= ea | eb), None)
                if above is not None:
                    not_judged.setdefault(f"{above['name']} is listed above and picked wherever both run", []).append(pair)
                    continue
                compared += 1
                # The registry prefers a over b: a should not be measurably slower.
                ta, tb = t[a["name"]], t[b["name"]]
                if ta > tb * (1 + args.tolerance / 100):
                    flagged += 1
                    print(f"  ORDER: registry prefers {a['name']} over {b['name']}, but {a['name']} took "
                          f"{ta / tb:.3f}x {b['name']}'s time")
        if not_judged:
            skipped += sum(len(p) for p in not_judged.values())
            print("  not judged: " + "; ".join(f"{', '.join(p)} ({why})" for why, p in not_judged.items()))
    if compared == 0:
        why = "every pair of measured rows is one AutoDetect never chooses between" if skipped else \
            "no table holds two measured registry rows"
        print(f"{PROG}: nothing to compare in {args.json_file}: {why}", file=sys.stderr)
        return 2
    measured = {n for t in tables.values() for n in t}
    missing = [r["name"] for rs in families.values() for r in rs if r["name"] not in measured]
    if missing:
        print("not measured here (not built, not supported, or RORX rows without -DBENCH_RORX): " + ", ".join(missing))
    print(f"AutoDetect order ({compared} pair(s) compared, {skipped} not judged): "
          + ("consistent with this machine" if not flagged else f"{flagged} pair(s) contradicted"))
    return 1 if flagged else 0


if __name__ == "__main__":
    run_tool(PROG, main)
