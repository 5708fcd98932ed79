#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Second half of contrib/bench-report.sh: turns its bench_bitcoin runs (a
directory holding main.{md,json} and capN.{md,json,cap}) into the markdown
report (report.md; the chart beside it is bench_report_plot.py's). Table titles come from the runs; which of our transforms matches an
OpenSSL code path is decided by the CPU features each registry row needs."""
import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sha256bench_results import ResultsError, load, md_cell, one_line, run_tool  # noqa: E402

# OpenSSL's x86-64 SHA-256 path -> the feature set our matching transforms use.
# A row matches when it needs every feature of `have` and none of `lacks`.
PATH_FEATURES = {
    "sha-ni": ({"sha-ni"}, set()),
    "avx2+bmi": ({"avx2", "bmi2"}, {"sha-ni"}),
    "avx": ({"avx"}, {"avx2", "sha-ni"}),
    "ssse3": ({"ssse3"}, {"avx", "avx2", "sha-ni"}),
}


def needs_of(row):
    needs = row.get("needs", [])
    if isinstance(needs, str):
        needs = needs.replace(",", " ").split()
    if not isinstance(needs, list) or not all(isinstance(n, str) for n in needs):
        raise ResultsError(f"implementations row {row.get('name')!r}: needs is {needs!r}, "
                           "expected a list of feature names")
    return {n for n in needs if n != "none"}


def ours_for(path, impls):
    have, lacks = PATH_FEATURES.get(path, (set(), None))
    out = []
    for row in impls:
        if row.get("family") != "transform":
            continue
        needs = needs_of(row)
        if lacks is None:
            match = not needs  # OpenSSL's portable code: our portable rows
        else:
            match = have <= needs and not (needs & lacks)
        if match:
            out.append(row["name"])
    return out


def openssl_path(md_text):
    m = re.search(r", path (\S+)", md_text)
    return m.group(1) if m else "unknown"


def fmt(v):
    return f"{v:.2f}" if isinstance(v, (int, float)) else "-"


def main():
    d = sys.argv[1]
    try:
        main_json = load(os.path.join(d, "main.json"))
        with open(os.path.join(d, "main.md"), encoding="utf-8", errors="replace") as f:
            md = f.read()
        header, _, tables = md.partition("\n###")
        m = main_json.get("machine") if isinstance(main_json.get("machine"), dict) else {}
        b = main_json.get("build") if isinstance(main_json.get("build"), dict) else {}
        commit = one_line(main_json.get("commit", "unknown")).replace("`", "'")
        print(f"- commit: `{commit}` (recorded by configure)")
        print(f"- CPU: {one_line(m.get('cpu', 'unknown'))} (family {one_line(m.get('family', '?'))}, "
              f"model {one_line(m.get('model', '?'))}, stepping {one_line(m.get('stepping', '?'))})")
        print(one_line(f"- compiler: {b.get('compiler', '?')} {b.get('compiler_version', '')}".rstrip()))
        print()
        print("![speed% per implementation, error bars from the rounds](report.png)")
        print()
        print("```")
        print(header.strip())
        print("```")
        print()
        print("###" + tables.rstrip())
        print()
        print("### Does AutoDetect's order hold here?")
        print()
        print("```")
        r = subprocess.run([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)), "check-order.py"),
                            os.path.join(d, "main.json")], capture_output=True, text=True)
        print((r.stdout + r.stderr).strip())
        print("```")
        print()
        print("### OpenSSL's code paths forced with OPENSSL_ia32cap (one run each)")
        print()
        print("| table | OPENSSL_ia32cap | openssl path | openssl cycles/byte | openssl speed% "
              "| ours, same path | cycles/byte | speed% |")
        print("|---|---|---|---:|---:|---|---:|---:|")
        for cap_json in sorted(glob.glob(os.path.join(d, "cap*.json"))):
            base = cap_json[:-5]
            run = load(cap_json)
            with open(base + ".md", encoding="utf-8", errors="replace") as f:
                path = openssl_path(f.read())
            with open(base + ".cap", encoding="utf-8") as f:
                cap = f.read().strip()
            ours = ours_for(path, main_json["implementations"])
            by_table = {}
            for row in run["results"]:
                by_table.setdefault(row["table"], {})[row["impl"]] = row
            for table, rows in by_table.items():
                ssl = rows.get("openssl", {})
                for impl in ours or ["(none)"]:
                    mine = rows.get(impl, {})
                    print(f"| {md_cell(table)} | `{md_cell(cap)}` | {md_cell(path)} | "
                          f"{fmt(ssl.get('cycles_per_byte'))} | "
                          f"{fmt(ssl.get('speed_pct'))} | {md_cell(impl)} | {fmt(mine.get('cycles_per_byte'))} | "
                          f"{fmt(mine.get('speed_pct'))} |")
        print()
        print("Note: OpenSSL's AVX path runs only on CPUs it flags as Intel; elsewhere the AVX mask falls back to SSSE3.")
    except (ResultsError, OSError) as e:
        print(f"bench-report.sh: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    run_tool("bench-report.sh", main)
