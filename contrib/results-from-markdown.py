#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Turns an older bench_bitcoin result kept only as markdown (doc/results/*.md:
a title line naming the CPU, family and model, the bench's header block, and
tables with columns Impl | avg | min | max | MB/s | cycles/byte | speed%) into a
schema-v1 JSON file that contrib/merge-results.py can read.

  contrib/results-from-markdown.py doc/results/OLD.md > doc/results/OLD.json

The output is marked "converted_from": "markdown" with the source file named.
Every number is copied from the markdown; nothing is estimated. What the older
bench did not record stays out: no per-round samples, no median (its avg/min/max
were slice means, kept as avg_ns/min_ns/max_ns), no stepping, no commit. Only
tables with the columns above are read (e.g. a forced-OpenSSL summary is not).
"""
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sha256bench_results import run_tool  # noqa: E402

UNITS = {"ns": 1.0, "us": 1e3, "µs": 1e3, "ms": 1e6, "s": 1e9}
COLUMNS = ["impl", "avg", "min", "max", "mb/s", "cycles/byte", "speed%"]


class ConvertError(Exception):
    pass


def duration_ns(cell, where):
    m = re.fullmatch(r"([0-9]+(?:\.[0-9]+)?)\s*(ns|us|µs|ms|s)", cell.strip())
    if not m:
        raise ConvertError(f"{where}: '{cell}' is not a duration like '2.998 ms'")
    return float(m.group(1)) * UNITS[m.group(2)]


def number(cell, where):
    if not re.fullmatch(r"[0-9]+(?:\.[0-9]+)?", cell.strip()) or not math.isfinite(float(cell)):
        raise ConvertError(f"{where}: '{cell}' is not a plain number")
    return float(cell)


def convert(path):
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError) as e:
        raise ConvertError(f"cannot read {path}: {e}")
    machine, build, options = {"arch": "x86_64"}, {}, {}
    date = None
    title = lines[0] if lines else ""
    m = re.search(r"family (\d+) model (\d+)", title)
    if m:
        machine["family"], machine["model"] = int(m.group(1)), int(m.group(2))
    m = re.search(r"(\d{4}-\d{2}-\d{2})\s*$", title)
    if m:
        date = m.group(1)
    results = []
    table, columns = None, None
    for n, line in enumerate(lines, 1):
        where = f"{path}:{n}"
        if line.startswith("CPU: "):
            machine["cpu"] = line[5:].strip()
        elif line.startswith("CPU features: "):
            machine["features"] = line[len("CPU features: "):].split()
        elif line.startswith("Compiler: "):
            m = re.fullmatch(r"Compiler: (.*?); flags: (.*)", line)
            if m:
                build["compiler"], build["flags"] = m.group(1), m.group(2)
        elif line.startswith("Assembler: "):
            build["assembler"] = line[len("Assembler: "):].strip()
        elif line.startswith("OpenSSL reference: "):
            build["openssl"] = line[len("OpenSSL reference: "):].strip()
        elif line.startswith("Clock: "):
            m = re.search(r"TSC ([0-9.]+) GHz", line)
            if m:
                machine["tsc_ghz"] = float(m.group(1))
            m = re.search(r"core ([0-9.]+) GHz", line)
            if m:
                machine["core_ghz"] = float(m.group(1))
            machine["clock_method"] = line[len("Clock: "):].strip()
        elif line.startswith("Mode: "):
            m = re.search(r"(\d+) interleaved rounds", line)
            if m:
                options["rounds"] = int(m.group(1))
            m = re.search(r"(\d+) ms per benchmark", line)
            if m:
                options["min_time_ms"] = int(m.group(1))
        elif line.startswith("### "):
            table, columns = line[4:].strip(), None
        elif line.startswith("|") and table is not None:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if columns is None:  # the header row decides what kind of table this is
                columns = [c.lower() for c in cells]
                continue
            if columns != COLUMNS or set("".join(cells)) <= set("-: "):
                continue  # another kind of table (e.g. forced OpenSSL paths), or the separator row
            if len(cells) != len(COLUMNS):
                raise ConvertError(f"{where}: {len(cells)} cells, expected {len(COLUMNS)}")
            results.append({
                "table": table, "name": cells[0], "impl": cells[0], "family": "transform",
                "baseline": False, "status": "ok", "reason": "",
                "avg_ns": round(duration_ns(cells[1], where), 6), "min_ns": round(duration_ns(cells[2], where), 6),
                "max_ns": round(duration_ns(cells[3], where), 6), "mb_per_s": number(cells[4], where),
                "cycles_per_byte": number(cells[5], where), "speed_pct": number(cells[6], where)})
    if not results:
        raise ConvertError(f"{path}: no table with columns {' | '.join(COLUMNS)} found")
    if "cpu" not in machine:
        raise ConvertError(f"{path}: no 'CPU: ' line in the bench header")
    for r in results:
        r["baseline"] = r["speed_pct"] == 100.0
    return {"schema": "sha256bench-results", "version": 1, "mode": "measured",
            "converted_from": "markdown", "source": os.path.basename(path),
            "note": "converted from the markdown named in 'source'; numbers as printed there (avg/min/max are "
                    "slice means, speed% from them, cycles/byte from the fastest batch); no per-round samples",
            "date": date or "unknown", "commit": "unknown", "machine": machine, "build": build, "options": options,
            "implementations": [], "results": results}


def main(argv):
    if len(argv) != 1 or argv[0].startswith("-"):
        print("usage: contrib/results-from-markdown.py RESULT.md > RESULT.json", file=sys.stderr)
        return 2
    try:
        doc = convert(argv[0])
    except ConvertError as e:
        print(f"results-from-markdown.py: {e}", file=sys.stderr)
        return 2
    json.dump(doc, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    run_tool("results-from-markdown.py", lambda: main(sys.argv[1:]), known=(ConvertError,))
