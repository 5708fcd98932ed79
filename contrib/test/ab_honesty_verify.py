#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The verdicts ab-honesty.sh expects of bench-compare.sh, checked on its compare.json.

  ab_honesty_verify.py <compare.json> none|portable|portable-again [retry-file]

none: the tree against itself (the same build on both sides); every row must
read "no change".
portable, portable-again: a delay in the portable transform (a .data value
differs between the builds, nothing else). Its rows (family transform, needing
no CPU feature) must read "slower". Any other row runs byte-identical code at
the same address, but in a different binary, and two binaries of the same code
can differ a little in earnest, for reasons outside their code;
bench-compare.sh measures binaries, so such a row may read a change of
less than DRIFT_PCT (well under the delay's, which is +48% or more), which is
reported as drift, not wrong. "portable-again" is a second look at some rows,
which may include no portable one.
With a retry file, when the only wrong rows are portable ones that read "no
change" with a positive estimate (undecided: the host's noise widened the
interval) and at most two others that read a change (beyond the drift, in the
portable modes), a -filter regex naming those rows is written there for one
second look on fresh pairs; in "none" too, where both sides are one binary
and a second look of the same rows, checked as "none" without a retry file,
must read "no change". Prints one summary line (then a line per wrong row);
exit 0 when nothing is wrong, 1 otherwise, 2 on a usage or input error (one
line).

  ab_honesty_verify.py --layout <code-layout.txt> <pairs>

The code placement of a bench-compare.sh --shuffle-code run: every pair 1 to
<pairs> ran both sides, in one layout (the same digest: both builds' functions
in the pair's order, and they have the same code), and no two pairs ran the
same layout. Same output and exit codes.
"""
import json
import re
import sys

# The largest change a row outside the delay may read in the injected-slowdown
# check: above the drift seen between two builds of the same code, well below
# the delay.
DRIFT_PCT = 10.0


def verify(doc, mode):
    """(exit code, summary lines, retry regex or None)."""
    portable = {i["name"] for i in doc["implementations"]
                if i.get("family") == "transform" and not [n for n in i.get("needs") or [] if n != "none"]}
    rows = doc["rows"]
    expect_slow = mode.startswith("portable")

    def slowed(r):  # a row timing the portable transform (other families have rows of the same name)
        return r["family"] == "transform" and r["impl"] in portable

    def text(r):
        return f"{r['name']} {r['verdict']} ({r['change_pct']:+.2f}% [{r['low_pct']:+.2f}, {r['high_pct']:+.2f}])"

    wrong, drift, spurious = [], [], []  # spurious: rows expected unchanged that read a change (beyond any drift)
    for r in rows:
        want = "slower" if expect_slow and slowed(r) else "no change"
        if r["verdict"] == want:
            continue
        if expect_slow and not slowed(r) and abs(r["change_pct"]) < DRIFT_PCT:
            drift.append(r)
            continue
        wrong.append(f"{text(r)}, expected {want}")
        if want == "no change":
            spurious.append(r)
    slow = [r for r in rows if slowed(r)]
    line = (f"{len(rows)} rows compared, {len(doc.get('not_compared', []))} not compared, {len(wrong)} wrong"
            + (f" (first: {wrong[0]})" if wrong else "")
            + (f"; portable rows ({', '.join(sorted(portable))}): " + ", ".join(f"{r['change_pct']:+.1f}%" for r in slow)
               if expect_slow and slow else "")
            + (f"; drift under {DRIFT_PCT:g}%: " + ", ".join(text(r) for r in drift) if drift else ""))
    lines = [line] + ["  " + w for w in wrong]
    if not rows:
        return 1, lines + ["  no row was compared"], None
    if mode == "portable" and not slow:
        return 1, lines + ["  no row of a portable transform was compared"], None
    undecided = [r for r in slow if r["verdict"] == "no change" and r["change_pct"] > 0] if expect_slow else []
    retry = None
    # A real change reads the same on fresh pairs; a burst of the host's load does not.
    if wrong and len(undecided) + len(spurious) == len(wrong) and len(spurious) <= 2:
        retry = "^(" + "|".join(re.escape(r["name"]) for r in undecided + spurious) + ")$"
    return (1 if wrong else 0), lines, retry


def verify_layout(text, pairs):
    """(exit code, summary lines) of a code-layout.txt: lines "NN side digest"."""
    runs = {}
    for line in text.splitlines():
        nn, side, digest = line.split()
        if side not in ("base", "head") or (int(nn), side) in runs:
            raise ValueError(f"unexpected line {line!r}")
        runs[int(nn), side] = digest
    wrong = []
    for n in range(1, pairs + 1):
        b, h = runs.get((n, "base")), runs.get((n, "head"))
        if b is None or h is None:
            wrong.append(f"pair {n}: {'no base run' if b is None else 'no head run'}")
        elif b != h:
            wrong.append(f"pair {n}: the sides ran different layouts ({b}, {h})")
    extra = sorted(n for n, _ in runs if not 1 <= n <= pairs)
    if extra:
        wrong.append(f"runs of pairs beyond {pairs}: {extra}")
    layouts = [runs[n, "base"] for n in range(1, pairs + 1) if (n, "base") in runs]
    if len(set(layouts)) != len(layouts):
        wrong.append(f"{len(layouts)} pairs ran only {len(set(layouts))} layouts (a layout repeated)")
    if wrong:
        return 1, [f"code placement: {len(wrong)} wrong"] + ["  " + w for w in wrong]
    return 0, [f"code placement: {pairs} pairs, {len(set(layouts))} layouts, each the same on both sides of its pair"]


def main(argv):
    if len(argv) == 4 and argv[1] == "--layout":
        try:
            pairs = int(argv[3])
            with open(argv[2]) as f:
                rc, lines = verify_layout(f.read(), pairs)
        except (OSError, ValueError) as e:
            print(f"ab_honesty_verify.py: {argv[2]}: {type(e).__name__}: {e}", file=sys.stderr)
            return 2
        print("\n".join(lines))
        return rc
    if len(argv) not in (3, 4) or argv[2] not in ("none", "portable", "portable-again"):
        print("ab_honesty_verify.py: usage: ab_honesty_verify.py <compare.json> none|portable|portable-again [retry-file]",
              file=sys.stderr)
        return 2
    try:
        with open(argv[1]) as f:
            doc = json.load(f)
        rc, lines, retry = verify(doc, argv[2])
    except (OSError, ValueError, KeyError, TypeError) as e:
        print(f"ab_honesty_verify.py: {argv[1]}: {type(e).__name__}: {e}", file=sys.stderr)
        return 2
    print("\n".join(lines))
    if retry and len(argv) == 4:
        with open(argv[3], "w") as f:
            f.write(retry)
    return rc


if __name__ == "__main__":
    sys.exit(main(sys.argv))
