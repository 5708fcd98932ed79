#!/usr/bin/env python3
"""Compare two bench_bitcoin -output-json files (before/after a patch, or two machines).

    contrib/compare.py before.json after.json

Prints a markdown table of MB/s per benchmark and the after/before ratio.
Ratios across separate runs carry the machine's run-to-run noise (often 10-30%
on shared VMs); within one run, use the speed% column instead."""
import json
import sys


def load(path):
    try:
        with open(path) as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"compare.py: cannot read {path}: {e}")
    rows = {}
    for r in data.get("results", []):
        if r.get("status") == "ok" and "mb_per_s" in r:
            rows[r["name"]] = r
    return data, rows


def main():
    if len(sys.argv) != 3 or sys.argv[1] in ("-h", "--help"):
        sys.exit(__doc__)
    _, a = load(sys.argv[1])
    _, b = load(sys.argv[2])
    names = [n for n in a if n in b]
    if not names:
        sys.exit("compare.py: the two files have no benchmark in common")
    print(f"| benchmark | {sys.argv[1]} MB/s | {sys.argv[2]} MB/s | ratio |")
    print("|---|---:|---:|---:|")
    for n in names:
        ra, rb = a[n]["mb_per_s"], b[n]["mb_per_s"]
        print(f"| {n} | {ra:.1f} | {rb:.1f} | {rb / ra:.3f} |")
    only = sorted(set(a) ^ set(b))
    if only:
        print(f"\nOnly in one file: {', '.join(only)}")


if __name__ == "__main__":
    main()
