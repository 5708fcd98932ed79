#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Analysis half of contrib/bench-compare.sh: paired A/B statistics over
bench_bitcoin -output-json runs (schema sha256bench-results, version 1).

  bench_compare.py [--fail-above=PCT] [--threshold=PCT] [--base-label=S] [--head-label=S] DIR
  bench_compare.py --pairs-for=N      the fewest pairs N rows need (for callers that
                                      check --pairs before their builds)

DIR holds pair-NN-base.json and pair-NN-head.json for NN = 01, 02, ... (one
pair = one BASE run and one HEAD run taken back to back). For every benchmark
row, each pair gives one log ratio ln(HEAD/BASE) of the row's median ns per op.
The change is the Hodges-Lehmann estimate of those (the median of all pairwise
averages), shown as a percentage (positive = HEAD takes longer = slower), and
its interval is the Wilcoxon signed-rank confidence interval (exact up to 50
pairs, normal approximation above). Both are robust to a few pairs hit by
unrelated load, which a mean is not. The intervals are family-wise: with N rows
compared, each is taken at 1 - 0.05/N (Bonferroni), so all N hold together with
at least 95% confidence and a revision compared with itself shows "no change"
on every row at least 95% of the time (per-row 95% intervals would flag about
one row in twenty). That needs enough pairs: 2/2^K <= 0.05/N (11 pairs for 28
rows). No random numbers: the output is deterministic. A row is "faster" or
"slower" only when its interval excludes 0 AND |change| is at least the
practical threshold (default 1%); otherwise "no change". A pair whose two runs of a row disagree on
the core (one side's loop_iteration_cycles at SHARED_CORE_LOOP or more, the other's below it or
absent) measured the core, not the code: that row leaves it out (doc/ab-testing.md).

Exit status: 0 with a table; 1 with --fail-above=PCT when a row is slower and
even the fast end of its interval is more than PCT% slower; 2 on bad input.
"""
import glob
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sha256bench_results import ResultsError, load, md_cell, one_line, refuse_sanity_check, run_tool  # noqa: E402

MIN_PAIRS = 6  # the fewest pairs for which even a single row's signed-rank interval reaches 95%
# bench_bitcoin's SHARED_CORE_LOOP: a row whose one-add loop reading is this or more ran while another
# hardware thread used the core (doc/benchmarking.md, "Shared core"); runs made before that reading have none.
SHARED_CORE_LOOP = 1.25


def shared_core(row):
    """True or False where the row has the loop reading, None where it has none."""
    v = row.get("loop_iteration_cycles")
    return v >= SHARED_CORE_LOOP if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def parse_pct(text, opt):
    try:
        v = float(text)
    except ValueError:
        v = float("nan")
    if not math.isfinite(v) or v < 0 or v > 1000:
        raise ResultsError(f"{opt}={text}: expected a percentage from 0 to 1000")
    return v


def format_ns(ns):
    if ns >= 1e6:
        return f"{ns / 1e6:.3f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.3f} us"
    return f"{ns:.1f} ns"


def upper_normal_quantile(p):
    """z with P(Z > z) = p, by bisection (no SciPy here)."""
    lo, hi = 0.0, 40.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if 0.5 * math.erfc(mid / math.sqrt(2)) > p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def signed_rank_critical(n, alpha):
    """C such that [W(C), W(M+1-C)] of the M sorted Walsh averages is a confidence interval of at
    least 1 - alpha for the centre of a symmetric distribution (Wilcoxon signed-rank): the largest C
    with P(T+ <= C-1) <= alpha/2 under the null; 0 when even [min, max] falls short. Exact counts up
    to 50 pairs, the normal approximation above."""
    m = n * (n + 1) // 2
    if n <= 50:
        counts = [1] + [0] * m  # counts[s]: subsets of ranks 1..n whose sum is s
        for r in range(1, n + 1):
            for t in range(m, r - 1, -1):
                counts[t] += counts[t - r]
        limit = alpha / 2 * 2 ** n
        c, below = 0, 0
        while below + counts[c] <= limit:
            below += counts[c]
            c += 1
        return c  # P(T+ <= c-1) <= alpha/2 < P(T+ <= c)
    sd = math.sqrt(n * (n + 1) * (2 * n + 1) / 24)
    return max(0, int(math.floor(m / 2 - upper_normal_quantile(alpha / 2) * sd)))


def min_pairs(alpha):
    """The fewest pairs for which any signed-rank interval at 1 - alpha exists (2 / 2^n <= alpha)."""
    n = 1
    while 2.0 / 2 ** n > alpha:
        n += 1
    return n


def hodges_lehmann(d, alpha):
    """(estimate, low, high): the median of the Walsh averages (d[i] + d[j]) / 2, i <= j, and its
    signed-rank 1 - alpha interval. Robust to a few outlying pairs (a run hit by other load)."""
    n = len(d)
    walsh = sorted((d[i] + d[j]) / 2 for i in range(n) for j in range(i, n))
    m = len(walsh)
    est = walsh[m // 2] if m % 2 else (walsh[m // 2 - 1] + walsh[m // 2]) / 2
    c = signed_rank_critical(n, alpha)
    if c < 1:
        return est, float("-inf"), float("inf")  # too few pairs for this confidence
    return est, walsh[c - 1], walsh[m - c]


def median(xs):
    s = sorted(xs)
    m = len(s) // 2
    return s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2


def read_pairs(d):
    if not os.path.isdir(d):
        raise ResultsError(f"{d}: not a directory of pair-NN-base.json / pair-NN-head.json runs")
    pairs = {}
    for path in glob.glob(os.path.join(d, "pair-*-*.json")):
        m = re.fullmatch(r"pair-(\d+)-(base|head)\.json", os.path.basename(path))
        if m:
            pairs.setdefault(int(m.group(1)), {})[m.group(2)] = path
    if not pairs:
        raise ResultsError(f"{d}: no pair-NN-base.json / pair-NN-head.json runs found")
    for n in sorted(pairs):
        for side in ("base", "head"):
            if side not in pairs[n]:
                raise ResultsError(f"{d}: pair {n:02d} has no {side} run (pair-{n:02d}-{side}.json)")
    if len(pairs) < MIN_PAIRS:
        raise ResultsError(f"{d}: {len(pairs)} pair(s); a paired comparison needs at least {MIN_PAIRS}")
    out = []
    for n in sorted(pairs):
        runs = {}
        for side in ("base", "head"):
            data = load(pairs[n][side])
            refuse_sanity_check(data, pairs[n][side])
            runs[side] = data
        out.append(runs)
    return out


def analyse(pairs, threshold):
    """Returns (rows, not_compared): rows are dicts in table order."""
    order = []  # (table, name) in first-seen order, HEAD's runs first
    seen = set()
    for side in ("head", "base"):
        for p in pairs:
            for row in p[side]["results"]:
                key = (row["table"], row["name"])
                if key not in seen:
                    seen.add(key)
                    order.append(key)
    rows, not_compared = [], []
    for key in order:
        medians = {"base": [], "head": []}
        why = None
        lopsided = 0  # pairs left out: one side's row ran on a shared core, the other's not (or unknown)
        for i, p in enumerate(pairs):
            found = {}
            for side in ("base", "head"):
                hits = [r for r in p[side]["results"] if (r["table"], r["name"]) == key]
                if not hits:
                    why = why or f"absent from {side.upper()} (pair {i + 1})"
                    continue
                r = hits[0]
                if r["status"] != "ok":
                    reason = r.get("reason") or ""
                    why = why or f"{r['status']} on {side.upper()}" + (f": {reason}" if reason else "")
                    continue
                found[side] = r
            if len(found) < 2:
                continue
            # A pair compares the code only where both sides ran alike: both on a core alone or both
            # shared. Where one was shared and the other not, or cannot say, the pair measures the core.
            shared = {shared_core(found["base"]), shared_core(found["head"])}
            if True in shared and len(shared) > 1:
                lopsided += 1
                continue
            for side in ("base", "head"):
                medians[side].append(float(found[side]["median_ns"]))
        if why:
            not_compared.append((key, why))
            continue
        head_row = next(r for r in pairs[0]["head"]["results"] if (r["table"], r["name"]) == key)
        impl, family = head_row["impl"], head_row.get("family", "")
        rows.append({"table": key[0], "name": key[1], "impl": impl, "family": family,
                     "base_ns": median(medians["base"]) if medians["base"] else 0.0,
                     "head_ns": median(medians["head"]) if medians["head"] else 0.0, "lopsided": lopsided,
                     "logs": [math.log(h / b) for b, h in zip(medians["base"], medians["head"])]})
    if not rows:
        return rows, not_compared, 0.05
    # One table makes len(rows) claims at once: each interval is taken at 1 - 0.05/len(rows)
    # (Bonferroni), so all of them hold together with at least 95% confidence and a
    # self-comparison says "no change" on every row at least 95% of the time.
    alpha = 0.05 / len(rows)
    need = max(MIN_PAIRS, min_pairs(alpha))
    if len(pairs) < need:
        raise ResultsError(f"{len(pairs)} pairs: {len(rows)} rows compared at once need at least {need} pairs "
                           "for their 95% family-wise intervals (use more pairs or a -filter)")
    kept = []
    for r in rows:
        if len(r["logs"]) < need:
            not_compared.append(((r["table"], r["name"]), f"a shared core on one side only in {r['lopsided']} of "
                                 f"{len(pairs)} pairs; the {len(r['logs'])} left are fewer than the {need} needed "
                                 "(doc/benchmarking.md, \"Shared core\")"))
        else:
            kept.append(r)
    rows[:] = kept
    for r in rows:
        r["pairs"] = len(r["logs"])
        est, lo, hi = hodges_lehmann(r.pop("logs"), alpha)
        r["change"] = change = math.expm1(est) * 100
        r["lo"], r["hi"] = lo_pct, hi_pct = math.expm1(lo) * 100, math.expm1(hi) * 100
        if lo_pct > 0 and change >= threshold:
            r["verdict"] = "slower"
        elif hi_pct < 0 and -change >= threshold:
            r["verdict"] = "faster"
        else:
            r["verdict"] = "no change"
    return rows, not_compared, alpha


def describe_side(data):
    b = data.get("build") if isinstance(data.get("build"), dict) else {}
    commit = one_line(data.get("commit", "unknown")).replace("`", "'")
    return f"`{commit}` ({one_line(b.get('compiler', 'unknown compiler'))})"


def render(pairs, rows, not_compared, labels, threshold, fail_above, alpha):
    head0 = pairs[0]["head"]
    m = head0.get("machine") if isinstance(head0.get("machine"), dict) else {}
    feats = m.get("features")
    feats = one_line(" ".join(str(f) for f in feats)) if isinstance(feats, list) else "unknown"
    opts = head0.get("options") if isinstance(head0.get("options"), dict) else {}
    out = []
    labels = [one_line(x) for x in labels]
    out.append(f"### bench-compare: {labels[0]} -> {labels[1]}")
    out.append("")
    out.append(f"- machine: {one_line(m.get('cpu', 'unknown CPU'))} ({one_line(m.get('arch', '?'))}, "
               f"family {m.get('family', '?')} "
               f"model {m.get('model', '?')} stepping {m.get('stepping', '?')}); features: {feats}; "
               f"core {m.get('core_ghz', '?')} GHz"
               + (f", TSC {m['tsc_ghz']} GHz" if m.get("tsc_ghz") not in (None, "?") else ""))
    out.append(f"- BASE {labels[0]}: {describe_side(pairs[0]['base'])}; HEAD {labels[1]}: {describe_side(head0)}")
    # -place differs from pair to pair (bench-compare.sh says which under the table): not one option.
    opt_text = one_line(", ".join(f"{k}={v}" for k, v in sorted(opts.items()) if k != "place")) if opts else "unknown"
    out.append(f"- method: {len(pairs)} pairs of bench_bitcoin runs in ABBA order ({opt_text}); change = "
               f"Hodges-Lehmann estimate over pairs of HEAD/BASE median ns per op (+ = slower); 95% interval = "
               f"Wilcoxon signed-rank interval over pairs, family-wise over the {len(rows)} rows (each at "
               f"{100 * (1 - alpha):.2f}%, Bonferroni); verdict faster/slower only when the interval excludes 0 "
               f"and |change| >= {threshold:g}%")
    out.append("")
    out.append(f"| benchmark | BASE | HEAD | change % | 95% interval | verdict |")
    out.append("|---|---:|---:|---:|---:|---|")
    for r in rows:
        verdict = f"**{r['verdict']}**" if r["verdict"] != "no change" else r["verdict"]
        out.append(f"| {md_cell(r['name'])} | {format_ns(r['base_ns'])} | {format_ns(r['head_ns'])} | {r['change']:+.2f} | "
                   f"[{r['lo']:+.2f}, {r['hi']:+.2f}] | {verdict} |")
    if not_compared:
        out.append("")
        out.append("Not compared:")
        out.append("")
        for (table, name), why in not_compared:
            out.append(f"- {one_line(name)} ({one_line(table)}): {one_line(why)}")
    lopsided = [r for r in rows if r["lopsided"]]
    if lopsided:
        out.append("")
        out.append("Shared core: " + ", ".join(f"{one_line(r['name'])} without {r['lopsided']} of {len(pairs)} pairs"
                                               for r in lopsided)
                   + f" (in each, one side's row ran while another hardware thread used the core, loop reading >= "
                   f"{SHARED_CORE_LOOP:g}, and the other's did not or has no reading; doc/benchmarking.md, \"Shared core\").")
    counts = {v: sum(1 for r in rows if r["verdict"] == v) for v in ("faster", "slower", "no change")}
    out.append("")
    out.append(f"Summary: {counts['faster']} faster, {counts['slower']} slower, {counts['no change']} no change, "
               f"{len(not_compared)} not compared.")
    failing = []
    if fail_above is not None:
        failing = [r for r in rows if r["verdict"] == "slower" and r["lo"] > fail_above]
        if failing:
            out.append(f"FAIL (--fail-above={fail_above:g}): " + ", ".join(
                f"{one_line(r['name'])} {r['change']:+.2f}% [{r['lo']:+.2f}, {r['hi']:+.2f}]" for r in failing))
        else:
            out.append(f"OK (--fail-above={fail_above:g}): no row is slower by more than {fail_above:g}% beyond its interval")
    return "\n".join(out) + "\n", bool(failing)


def main(argv):
    fail_above = None
    threshold = 1.0
    labels = ["BASE", "HEAD"]
    args = []
    check_only = False
    json_out = None
    validate = False
    for a in argv:
        if a.startswith("--fail-above="):
            fail_above = parse_pct(a.split("=", 1)[1], "--fail-above")
        elif a.startswith("--threshold="):
            threshold = parse_pct(a.split("=", 1)[1], "--threshold")
        elif a.startswith("--base-label="):
            labels[0] = a.split("=", 1)[1]
        elif a.startswith("--head-label="):
            labels[1] = a.split("=", 1)[1]
        elif a.startswith("--json="):
            json_out = a.split("=", 1)[1]
        elif a == "--validate":
            validate = True
        elif a == "--check-options":
            check_only = True
        elif a.startswith("--pairs-for="):
            n = a.split("=", 1)[1]
            if not n.isdigit() or not 1 <= int(n) <= 1000:
                raise ResultsError(f"--pairs-for={n}: expected a number of rows from 1 to 1000")
            print(max(MIN_PAIRS, min_pairs(0.05 / int(n))))
            return 0
        elif a.startswith("-") and a != "-":
            raise ResultsError(f"unknown option {a} (see the header of contrib/bench_compare.py)")
        else:
            args.append(a)
    if check_only:
        return 0
    if validate:  # bench-compare.sh: after the first pair, before spending the budget;
        docs = []  # prints the fewest pairs the rows of these runs need
        for path in args:
            docs.append(load(path))
            refuse_sanity_check(docs[-1], path)
        keys = [set((r["table"], r["name"]) for r in d["results"] if r["status"] == "ok") for d in docs]
        n = len(set.intersection(*keys)) if keys else 0
        print(max(MIN_PAIRS, min_pairs(0.05 / max(1, n))))
        return 0
    if len(args) != 1:
        raise ResultsError("usage: bench_compare.py [--fail-above=PCT] [--threshold=PCT] DIR")
    pairs = read_pairs(args[0])
    rows, not_compared, alpha = analyse(pairs, threshold)
    if not rows:
        # Say every kind of reason: a row that ran on both sides but lost its
        # pairs to a shared core is not a row that did not run.
        shared = [nc for nc in not_compared if nc[1].startswith("a shared core")]
        other = [nc for nc in not_compared if not nc[1].startswith("a shared core")]
        parts = [f"{len(group)} row(s) {what} (first: {group[0][0][1]}: {group[0][1]})"
                 for group, what in ((shared, "left with too few pairs"), (other, "not run on both sides")) if group]
        raise ResultsError(f"{args[0]}: nothing to compare" + (": " + "; ".join(parts) if parts else
                                                                 " (no benchmark ran on both sides)"))
    text, failed = render(pairs, rows, not_compared, labels, threshold, fail_above, alpha)
    if json_out:
        doc = {"pairs": len(pairs), "threshold_pct": threshold, "fail_above_pct": fail_above,
               "implementations": pairs[0]["head"]["implementations"],
               "rows": [{"table": r["table"], "name": r["name"], "impl": r["impl"], "family": r["family"],
                         "base_median_ns": r["base_ns"],
                         "head_median_ns": r["head_ns"], "change_pct": round(r["change"], 4),
                         "low_pct": round(r["lo"], 4), "high_pct": round(r["hi"], 4), "verdict": r["verdict"],
                         "pairs_used": r["pairs"]}
                        for r in rows],
               "not_compared": [{"table": t, "name": n, "reason": why} for (t, n), why in not_compared]}
        # Whole or not at all: a temporary beside it, renamed into place.
        tmp = f"{json_out}.tmp.{os.getpid()}"
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump(doc, f, indent=1, sort_keys=True)
                f.write("\n")
            os.replace(tmp, json_out)
        except OSError as e:
            try:
                os.remove(tmp)
            except OSError:
                pass
            raise ResultsError(f"cannot write {json_out}: {e.strerror or e}")
    sys.stdout.write(text)
    return 1 if failed else 0


if __name__ == "__main__":
    run_tool("bench-compare", lambda: main(sys.argv[1:]))
