#!/usr/bin/env python3
"""Does AutoDetect's preference order hold on this machine?

    src/bench/bench_bitcoin -output-json=bench.json   (configure with CPPFLAGS=-DBENCH_RORX)
    contrib/check-order.py bench.json

The registry (src/crypto/sha256.cpp) prefers shani, rorx_x8ms, rorx, avx,
sse4, basic, in that order. For each table this lists the transforms that ran,
fastest first, and flags every pair the registry orders one way while this
machine measured the other, beyond a tolerance (default 5%: the noise of one
interleaved run at the default -min-time; shorter runs are noisier, and
rorx_x8ms runs rorx's code below 48 blocks, so those two differ only by noise). Exit status 1 if any pair is flagged, so a reviewer
can paste the result into the PR that reorders the registry."""
import argparse
import json
import sys

PREFERENCE = ["shani", "rorx_x8ms", "rorx", "avx", "sse4", "basic"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json_file")
    ap.add_argument("--tolerance", type=float, default=5.0, help="percent (default 5)")
    args = ap.parse_args()
    try:
        with open(args.json_file) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"check-order.py: cannot read {args.json_file}: {e}")

    tables = {}
    for r in data.get("results", []):
        if r.get("status") == "ok" and r.get("impl") in PREFERENCE:
            tables.setdefault(r["table"], {})[r["impl"]] = r["avg_ns"]
    if not tables:
        sys.exit("check-order.py: no transform rows with results in the file")

    flagged = 0
    for table, avg in tables.items():
        ran = [i for i in PREFERENCE if i in avg]
        print(f"{table}: fastest first: " + ", ".join(f"{i} ({avg[i]:.1f} ns)" for i in sorted(ran, key=avg.get)))
        for a_i, a in enumerate(ran):
            for b in ran[a_i + 1:]:
                # The registry prefers a over b: a should not be measurably slower.
                if avg[a] > avg[b] * (1 + args.tolerance / 100):
                    flagged += 1
                    print(f"  ORDER: registry prefers {a} over {b}, but {a} took {avg[a] / avg[b]:.3f}x {b}'s time")
    missing = [i for i in PREFERENCE if not any(i in t for t in tables.values())]
    if missing:
        print("not measured here (not built, not supported, or RORX rows without -DBENCH_RORX): " + ", ".join(missing))
    print("AutoDetect order: " + ("consistent with this machine" if not flagged else f"{flagged} pair(s) contradicted"))
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
