#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Does AutoDetect's preference order hold on this machine?

    src/bench/bench_bitcoin -output-json=bench.json   (configure with CPPFLAGS=-DBENCH_RORX)
    contrib/check-order.py bench.json

The preference order is the registry's (src/crypto/sha256.cpp), read from the
file's "implementations" list: AutoDetect takes the first supported row. For
each table this lists the transforms that ran, fastest first (median of rounds),
and flags every pair the registry orders one way while this machine measured
the other, beyond a tolerance (default 5%: the noise of one interleaved run at
the default -min-time; shorter runs are noisier).

Exit status: 0 consistent, 1 at least one pair contradicted, 2 the file cannot
be judged (unreadable or wrong shape, a -sanity-check run, or nothing to compare)."""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sha256bench_results import ResultsError, load, refuse_sanity_check, registry_order  # noqa: E402

PROG = "check-order.py"


def tolerance(text):
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a number")
    if not math.isfinite(v) or v < 0:
        raise argparse.ArgumentTypeError(f"'{text}' must be a finite percentage >= 0")
    return v


def main():
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json_file")
    ap.add_argument("--tolerance", type=tolerance, default=5.0, help="percent (default 5)")
    args = ap.parse_args()
    try:
        data = load(args.json_file)
        refuse_sanity_check(data, args.json_file)
    except ResultsError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2

    order = registry_order(data)
    tables = {}
    for r in data["results"]:
        if r["status"] == "ok" and r["impl"] in order.get(r["family"], []):
            tables.setdefault((r["table"], r["family"]), {})[r["impl"]] = r["median_ns"]

    flagged = 0
    compared = 0
    for (table, family), t in tables.items():
        ran = [i for i in order[family] if i in t]
        print(f"{table}: fastest first: " + ", ".join(f"{i} ({t[i]:.1f} ns)" for i in sorted(ran, key=t.get)))
        for a_i, a in enumerate(ran):
            for b in ran[a_i + 1:]:
                compared += 1
                # The registry prefers a over b: a should not be measurably slower.
                if t[a] > t[b] * (1 + args.tolerance / 100):
                    flagged += 1
                    print(f"  ORDER: registry prefers {a} over {b}, but {a} took {t[a] / t[b]:.3f}x {b}'s time")
    if compared == 0:
        print(f"{PROG}: nothing to compare in {args.json_file}: no table holds two measured registry rows", file=sys.stderr)
        return 2
    measured = {i for t in tables.values() for i in t}
    missing = [i for fam in order.values() for i in fam if i not in measured]
    if missing:
        print("not measured here (not built, not supported, or RORX rows without -DBENCH_RORX): " + ", ".join(missing))
    print(f"AutoDetect order ({compared} pair(s) compared): "
          + ("consistent with this machine" if not flagged else f"{flagged} pair(s) contradicted"))
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
