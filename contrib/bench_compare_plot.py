#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The chart of contrib/bench-compare.sh: one bar per compared benchmark, its
change in time per op from BASE to HEAD (negative = HEAD faster) with the 95%
family-wise interval as whiskers, one panel per table, coloured by verdict.
The band around 0 is the practical threshold below which a change is called
"no change". Uses python3-matplotlib with the Agg backend.

  bench_compare_plot.py COMPARE.json OUT.png [BASE_LABEL HEAD_LABEL]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sha256bench_results import ResultsError, read_json, run_tool, save_figure  # noqa: E402

COLORS = {"faster": "#55a868", "slower": "#c44e52", "no change": "#9a9a9a"}


class PlotError(Exception):
    pass


def load(path):
    try:
        doc = read_json(path)
    except ResultsError as e:
        raise PlotError(str(e))
    rows = doc.get("rows") if isinstance(doc, dict) else None
    if not isinstance(rows, list) or not rows:
        raise PlotError(f"{path}: no compared rows: nothing to draw")
    for i, r in enumerate(rows):
        for key in ("table", "impl"):
            if not isinstance(r, dict) or not isinstance(r.get(key), str):
                raise PlotError(f"{path}: rows[{i}].{key} is missing or not a string")
        for key in ("change_pct", "low_pct", "high_pct"):
            v = r.get(key) if isinstance(r, dict) else None
            if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v:
                raise PlotError(f"{path}: rows[{i}].{key} is {v!r}, expected a number")
        if r.get("verdict") not in COLORS:
            raise PlotError(f"{path}: rows[{i}].verdict is {r.get('verdict')!r}")
    return doc


def plot(path, png, base_label="BASE", head_label="HEAD"):
    doc = load(path)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise PlotError("python3-matplotlib is not installed (contrib/install-deps.sh installs it); "
                        "compare.png not written")
    tables, order = {}, []
    for r in doc["rows"]:
        if r["table"] not in tables:
            tables[r["table"]] = []
            order.append(r["table"])
        tables[r["table"]].append(r)
    heights = [0.8 + 0.3 * len(tables[t]) for t in order]
    fig, axes = plt.subplots(len(order), 1, figsize=(10.5, sum(heights) + 1.6), squeeze=False,
                             gridspec_kw={"height_ratios": heights})
    reach = max(max(abs(r["low_pct"]), abs(r["high_pct"])) for r in doc["rows"])
    reach = max(reach, 2.0 * float(doc.get("threshold_pct") or 1.0)) * 1.25
    threshold = float(doc.get("threshold_pct") or 0.0)
    for ax, table in zip(axes[:, 0], order):
        rows = tables[table]
        ys = list(range(len(rows)))
        ch = [r["change_pct"] for r in rows]
        err = [[r["change_pct"] - r["low_pct"] for r in rows], [r["high_pct"] - r["change_pct"] for r in rows]]
        ax.barh(ys, ch, xerr=err, color=[COLORS[r["verdict"]] for r in rows], ecolor="#222222",
                capsize=3, height=0.6)
        ax.axvline(0, color="#222222", linewidth=1.0)
        if threshold > 0:
            ax.axvspan(-threshold, threshold, color="#e8e8e8", zorder=0)
        ax.set_yticks(ys)
        ax.set_yticklabels([r["impl"] for r in rows], fontsize=8.5)
        ax.invert_yaxis()
        ax.set_xlim(-reach, reach)
        ax.set_title(table, fontsize=9.5, loc="left")
        ax.grid(axis="x", color="#dddddd", linewidth=0.6)
        ax.set_axisbelow(True)
        for y, r in zip(ys, rows):
            # Outside the axes, right of the panel: never over a whisker.
            ax.text(1.01, y, f"{r['change_pct']:+.1f}% {r['verdict']}", va="center", ha="left", fontsize=7.5,
                    color=COLORS[r["verdict"]] if r["verdict"] != "no change" else "#444444",
                    transform=ax.get_yaxis_transform())
    axes[-1, 0].set_xlabel(f"change in time per op, {head_label} vs {base_label} (%; negative = faster); whiskers: "
                           f"95% family-wise interval; grey band: +-{threshold:g}% threshold", fontsize=8.5)
    fig.suptitle(f"bench-compare: {base_label} -> {head_label}, {doc.get('pairs', '?')} ABBA pairs", fontsize=10.5)
    fig.tight_layout(rect=(0, 0, 0.86, 0.97))
    save_figure(fig, png, PlotError)


def main(argv):
    if len(argv) not in (2, 4):
        raise PlotError("usage: bench_compare_plot.py COMPARE.json OUT.png [BASE_LABEL HEAD_LABEL]")
    plot(*argv)
    return 0


if __name__ == "__main__":
    run_tool("bench-compare.sh", lambda: main(sys.argv[1:]), known=(PlotError,))
