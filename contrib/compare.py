#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare two bench_bitcoin -output-json files (before/after a patch, or two machines).

    contrib/compare.py before.json after.json

Prints a markdown table of MB/s (median of rounds) per benchmark and the
after/before ratio. Ratios across separate runs carry the machine's run-to-run
noise (often 10-30% on shared VMs); within one run, use the speed% column instead.
Exit status 2 when a file cannot be compared: unreadable or wrong shape, a
-sanity-check run, the same run twice, or no benchmark measured in both."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sha256bench_results import ResultsError, load, md_cell, one_line, refuse_sanity_check, run_tool  # noqa: E402

PROG = "compare.py"


def measured_rows(data):
    return {r["name"]: r for r in data["results"] if r["status"] == "ok"}


def main():
    if len(sys.argv) == 2 and sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return 0
    if len(sys.argv) != 3:
        print(f"{PROG}: expected two files: {PROG} before.json after.json (--help for more)", file=sys.stderr)
        return 2
    try:
        a_data, b_data = load(sys.argv[1]), load(sys.argv[2])
        refuse_sanity_check(a_data, sys.argv[1])
        refuse_sanity_check(b_data, sys.argv[2])
    except ResultsError as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        return 2
    if a_data == b_data:
        # A file against itself (or a copy) reads 1.000 on every row: a comparison of nothing.
        print(f"{PROG}: {sys.argv[1]} and {sys.argv[2]} hold the same run: there is nothing to compare "
              "(give the runs before and after the change)", file=sys.stderr)
        return 2
    a, b = measured_rows(a_data), measured_rows(b_data)
    names = [n for n in a if n in b]
    if not names:
        print(f"{PROG}: nothing to compare: no benchmark was measured in both files", file=sys.stderr)
        return 2
    # Names come from the files: escaped, so that none can split a row.
    print(f"| benchmark | {md_cell(sys.argv[1])} MB/s | {md_cell(sys.argv[2])} MB/s | ratio |")
    print("|---|---:|---:|---:|")
    for n in names:
        ra, rb = a[n]["mb_per_s"], b[n]["mb_per_s"]
        print(f"| {md_cell(n)} | {ra:.1f} | {rb:.1f} | {rb / ra:.3f} |")
    only = sorted(set(a) ^ set(b))
    if only:
        print(f"\nOnly in one file: {', '.join(one_line(n) for n in only)}")
    return 0


if __name__ == "__main__":
    run_tool(PROG, main)
