#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The chart of contrib/bench-report.sh: speed% per implementation, one panel per
benchmark table of a bench_bitcoin -output-json run, with error bars from the
rounds, titled with the CPU, compiler and commit. Uses python3-matplotlib with
the Agg backend (no display needed).

  bench_report_plot.py RUN.json OUT.png

speed% is the run's own (median of rounds, portable row = 100). The error bar of
a row spans the lowest to the highest per-round speed%: round k of the row
against round k of the same table's baseline (rounds interleave the rows, so
both were measured in the same round)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sha256bench_results import ResultsError, load, positive_number, refuse_sanity_check, run_tool, save_figure  # noqa: E402


OUR_COLOR = "#4c72b0"
REF_COLOR = "#9a9a9a"


def samples(row, where):
    s = row.get("samples_ns")
    if not isinstance(s, list) or not s:
        raise ResultsError(f"{where}.samples_ns is missing or empty: the chart's error bars need the per-round samples")
    for i, x in enumerate(s):
        if isinstance(x, bool) or not isinstance(x, (int, float)) or not x > 0 or x != x or x == float("inf"):
            raise ResultsError(f"{where}.samples_ns[{i}] is {x!r}, expected a positive number")
    return [float(x) for x in s]


def panels(data, path):
    """[(table, [(impl, speed, low, high)])] in the run's table and row order."""
    out = {}
    order = []
    for i, row in enumerate(data["results"]):
        if row["table"] not in out:
            out[row["table"]] = []
            order.append(row["table"])
        out[row["table"]].append((i, row))
    result = []
    for table in order:
        rows = out[table]
        base = [r for _, r in rows if r.get("baseline") is True and r["status"] == "ok"]
        bars = []
        for i, row in rows:
            if row["status"] != "ok":
                continue
            w = f"{path}: results[{i}]"
            speed = positive_number(row, "speed_pct", w)
            mine = samples(row, w)
            if base:
                ref = samples(base[0], w + " (its table's baseline)")
                if len(ref) == len(mine):
                    per_round = [100.0 * b / m for b, m in zip(ref, mine)]
                else:
                    med = positive_number(base[0], "median_ns", w + " (its table's baseline)")
                    per_round = [100.0 * med / m for m in mine]
            else:
                per_round = [speed]
            bars.append((row["impl"], speed, min(per_round + [speed]), max(per_round + [speed]),
                         row.get("family") == "reference"))
        if bars:
            result.append((table, bars))
    if not result:
        raise ResultsError(f"{path}: no row with status ok: nothing to draw")
    return result


def title_of(data):
    m = data.get("machine") if isinstance(data.get("machine"), dict) else {}
    b = data.get("build") if isinstance(data.get("build"), dict) else {}
    compiler = " ".join(str(x) for x in (b.get("compiler"), b.get("compiler_version")) if isinstance(x, str) and x)
    flags = " ".join(str(x) for x in (b.get("cppflags"), b.get("cxxflags")) if isinstance(x, str) and x)
    o = data.get("options") if isinstance(data.get("options"), dict) else {}
    return (f"sha256bench on {m.get('cpu', 'unknown CPU')}\n"
            f"{compiler or 'unknown compiler'} {flags}, commit {data.get('commit', 'unknown')}, "
            f"{o.get('rounds', '?')} rounds x {o.get('min_time_ms', '?')} ms, {str(data.get('date', ''))[:10]}")


def plot(json_path, png_path):
    try:
        return _plot(json_path, png_path)
    except ResultsError as e:  # name the run, not bench-report.sh's temporary file
        raise ResultsError(str(e).replace(json_path, "bench_bitcoin's JSON"))


def _plot(json_path, png_path):
    data = load(json_path)
    refuse_sanity_check(data, json_path)
    groups = panels(data, json_path)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise ResultsError("python3-matplotlib is not installed (contrib/install-deps.sh installs it); "
                           "report.png not written")
    heights = [0.9 + 0.42 * len(bars) for _, bars in groups]
    fig, axes = plt.subplots(len(groups), 1, figsize=(9.5, sum(heights) + 1.4), squeeze=False,
                             gridspec_kw={"height_ratios": heights})
    for ax, (table, bars) in zip(axes[:, 0], groups):
        names = [b[0] for b in bars]
        speeds = [b[1] for b in bars]
        err = [[s - lo for _, s, lo, _, _ in bars], [hi - s for _, s, _, hi, _ in bars]]
        ys = list(range(len(bars)))
        colors = [REF_COLOR if b[4] else OUR_COLOR for b in bars]
        # Each panel its own scale: speed% runs from ~100 to ~1200 across tables.
        top = max(max(hi for _, _, _, hi, _ in bars), 100.0)
        ax.barh(ys, speeds, xerr=err, color=colors, ecolor="#222222", capsize=3, height=0.62)
        ax.axvline(100, color="#c44e52", linewidth=1.4, linestyle="--", zorder=3)
        ax.set_yticks(ys)
        ax.set_yticklabels(names, fontsize=9)
        ax.invert_yaxis()
        ax.set_xlim(0, top * 1.16)
        ax.set_title(table, fontsize=10, loc="left")
        ax.grid(axis="x", color="#dddddd", linewidth=0.6)
        ax.set_axisbelow(True)
        for y, (_, s, _, hi, _) in zip(ys, bars):
            ax.text(hi + top * 0.012, y, f"{s:.1f}", va="center", fontsize=8)
    axes[-1, 0].set_xlabel("speed% (each table's 100% row = 100, dashed line); bars: median of rounds, "
                           "whiskers: lowest to highest round; grey: a reference (OpenSSL, the 1-way loop), not a registry row", fontsize=8)
    fig.suptitle(title_of(data), fontsize=10.5)
    fig.tight_layout(rect=(0, 0, 1, 0.97))
    save_figure(fig, png_path)


def main(argv):
    if len(argv) != 2:
        raise ResultsError("usage: bench_report_plot.py RUN.json OUT.png")
    plot(argv[0], argv[1])
    return 0


if __name__ == "__main__":
    run_tool("bench-report.sh", lambda: main(sys.argv[1:]))
