#!/bin/sh
# SPDX-License-Identifier: MIT
# Is contrib/bench-compare.sh honest? Two checks on real builds of this tree:
#  1. the same source compared with itself (check 2's BASE: the tree with the
#     delay code at 0, one build for both): every compared row must be "no
#     change"; one or two rows that read a change are measured once more on
#     fresh pairs and must then read "no change" (95% family-wise intervals
#     still show a spurious row now and then: doc/results/ab/);
#  2. a delay loop patched into the portable transform of a scratch copy (about
#     +50% per block or more, more on short messages) against the same code with
#     the delay at 0 (only a value in .data differs, so no function moves), on
#     the transform tables (SHA256_*): every row of the portable transform(s)
#     must be "slower"; every other row "no change", or a change under 10%
#     (drift: two binaries of the same code can differ a little in earnest, and
#     bench-compare.sh measures binaries); on the same runs --fail-above=3 must
#     exit 1 and --fail-above=400 exit 0. A portable row that reads "no change"
#     with a positive estimate is undecided (a busy host widens the intervals),
#     not wrong; so is one or two other rows that read a larger change (the
#     intervals are 95% family-wise, and the host's bursts break the pairs'
#     independence now and then). When only such rows miss, they are measured
#     once more on fresh pairs and must then read as expected: a real change
#     reads the same twice. contrib/test/ab_honesty_verify.py holds the rules.
# Both run with --shuffle-code (a new function order each pair, the same on
# both sides), and each checks that the runs' code layouts were so.
# The source is this tree as it is (tracked files and untracked ones git does
# not ignore; a release tree works too), copied into a scratch git repository
# in a temporary directory; the delay is patched there only, never into this tree.
#
#   contrib/test/ab-honesty.sh [--pairs=K] [--threshold=PCT] [--cache=DIR] [bench_bitcoin options]
# Defaults: --pairs=20, --threshold=3, -min-time=20 -rounds=3 (about two minutes
# of runs per check on a 2-core VM, plus two builds the first time; the
# cache keeps them). The threshold is bench-compare.sh's (smallest change
# called faster/slower): 3, not its default 1, so that a row's drift between
# two builds stays below it; the injected delay is about 50% or more, so 3%
# still has to find it.
# Ends with "ab-honesty: N passed, M failed"; exit 0 only when nothing failed.
set -u
set -f
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
pairs=20 threshold=3 cache= opts=
for a in "$@"; do
  case "$a" in
    --pairs=*) pairs=${a#--pairs=} ;;
    --cache=*) cache=${a#--cache=} ;;
    --threshold=*) threshold=${a#--threshold=} ;;
    -h|--help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
    --*) echo "ab-honesty.sh: unknown option $a" >&2; exit 2 ;;
    -*) opts="$opts $a" ;;
    *) echo "ab-honesty.sh: unexpected argument '$a'" >&2; exit 2 ;;
  esac
done
[ -n "$opts" ] || opts="-min-time=20 -rounds=3"
# A -filter among the options replaces the second check's tables, and there is
# no second look (its own -filter would replace the user's).
user_filter=no
case "$opts" in *-filter=*) user_filter=yes ;; esac
[ -n "$cache" ] || cache=${SHA256BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sha256bench}
passed=0 failed=0
ok() { passed=$((passed + 1)); echo "ab-honesty: PASS $*"; }
bad() { failed=$((failed + 1)); echo "ab-honesty: FAIL $*"; }
finish() { echo "ab-honesty: $passed passed, $failed failed"; [ $failed -eq 0 ]; exit $?; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# A scratch repository holding this tree's source as one commit with fixed
# metadata, so the same source gives the same commit id (and cached builds).
scratch=$tmp/scratch
mkdir -p "$scratch" || exit 2
# build-aux/export-source.sh copies the source files (tracked and untracked
# ones git does not ignore; without git, a release tree minus build output).
"$top/build-aux/export-source.sh" "$scratch" > "$tmp/export.log" 2>&1 \
  || { bad "setup: cannot copy the source ($(tail -1 "$tmp/export.log"))"; finish; }
rm -f "$scratch/.source-files"
commit_scratch() {  # commit_scratch <message>: everything in the scratch copy, fixed metadata
  (
    cd "$scratch" && git add -A . &&
    GIT_AUTHOR_NAME=ab-honesty GIT_AUTHOR_EMAIL=ab-honesty@localhost GIT_AUTHOR_DATE="2026-01-01T00:00:00Z" \
    GIT_COMMITTER_NAME=ab-honesty GIT_COMMITTER_EMAIL=ab-honesty@localhost GIT_COMMITTER_DATE="2026-01-01T00:00:00Z" \
    git -c commit.gpgsign=false commit -q -m "$1"
  )
}
if ! { git -C "$scratch" init -q . && commit_scratch "ab-honesty scratch copy of $(cat "$scratch/.source-commit")"; }; then
  bad "setup: cannot make the scratch repository"; finish
fi

# verify <compare.json> none|portable|portable-again [retry-file]: the verdicts
# expected of each check (contrib/test/ab_honesty_verify.py says which).
verify() {
  python3 "$here/ab_honesty_verify.py" "$@"
}

compare() {  # compare <name> <BASE> <HEAD> [bench_bitcoin option]
  if "$top/contrib/bench-compare.sh" --repo="$scratch" --cache="$cache" --pairs="$pairs" --out="$tmp/$1" \
       --threshold="$threshold" --shuffle-code "$2" "$3" $opts ${4:+"$4"} > "$tmp/$1.md" 2> "$tmp/$1.err"; then
    return 0
  fi
  sed 's/^/  | /' "$tmp/$1.err" | tail -5
  # Its own last word, for the FAIL line (a CI summary shows only that line),
  # without its name and the path of a run's output, which goes with $tmp.
  why=$(grep -v '^\[' "$tmp/$1.err" | grep . | tail -1 | sed -e 's/^bench-compare\.sh: //' -e 's/ (output: [^)]*)$//' | cut -c1-300)
  return 1
}

# 160 dependent multiply-adds per block plus 40 per call, ahead of the blocks
# and feeding s[0], so out-of-order execution cannot hide them: large enough
# that the portable rows clear the widest intervals a noisy host gives them.
# Both sides carry the same delay code; only its length, a volatile in .data,
# differs: 0 on a second scratch commit (BASE), 160 on a third (HEAD), both
# commits so that the build's own description is as long on both sides. Code
# added to one side only would move every function linked after it, a real
# change of other rows. Only the transform tables (SHA256_*), where the delay
# is, are compared: rows elsewhere (the AVX-512 lanes) can differ per process
# between two binaries of the same code. The self-comparison covers every row.
# The readings behind these choices: doc/results/ab/ab-honesty-readings.md.
delay() {  # delay <per-block count>: set the delay in the scratch copy
  python3 - "$scratch/src/crypto/sha256_basic.cpp" "$1" <<'EOF'
import re, sys
path, count = sys.argv[1], int(sys.argv[2])
src = open(path).read()
# 1 + count: never zero, so in .data (not .bss) on both sides.
value = f"static volatile unsigned ab_honesty_delay = 1 + {count};"
var = re.search(r"static volatile unsigned ab_honesty_delay = 1 \+ \d+;", src)
if var:
    open(path, "w").write(src[:var.start()] + value + src[var.end():])
    sys.exit(0)
sig = re.search(r"void\s+TransformBasic\s*\(\s*uint32_t\s*\*\s*(\w+)\s*,[^)]*size_t\s+(\w+)\s*\)\s*\{", src)
if not sig:
    sys.exit(f"{path}: cannot find 'void TransformBasic(uint32_t* s, ..., size_t blocks) {{' to patch")
s, blocks = sig.group(1), sig.group(2)
line = src.rfind("\n", 0, sig.start()) + 1
delay = (f"\n    {{ // ab-honesty: test-only delay\n"
         f"        uint32_t x = {s}[0], y;\n"
         f"        const size_t d = ab_honesty_delay - 1;\n"
         f"        for (size_t i = {blocks} * d + d / 4; i; --i) {{ x = x * 0x9E3779B1u + 1; __asm__ volatile(\"\" : \"+r\"(x)); }}\n"
         f"        y = x; __asm__ volatile(\"\" : \"+r\"(y));\n"
         f"        {s}[0] += x - y;\n"
         f"    }}\n")
open(path, "w").write(src[:line] + value + "\n"
                      + src[line:sig.end()] + delay + src[sig.end():])
EOF
}

# Both delay commits are made first: the self-comparison runs the first of
# them (the delay at 0), the same build as the second comparison's BASE, so
# bench-compare.sh builds it once (its cache is keyed by the commit).
delayed=
if delay 0 && commit_scratch "ab-honesty: the delay, at 0" && delay 160 && ! git -C "$scratch" diff --quiet \
   && commit_scratch "ab-honesty: the delay, at 160"; then
  delayed=HEAD~1
fi

# judge <label> <name> <mode> <again-mode> <BASE> <HEAD> [-filter=...]: one
# comparison and its verdicts; with no -filter among the options, a miss the
# verifier calls a second look at (undecided or spurious rows) measures just
# those rows once more on fresh pairs. A comparison that cannot see the delay
# reads "no change" again; one that sees a change where there is none sees it
# again, and fails here; a burst of the host's load does not come back.
judge() {
  rm -f "$tmp/retry"
  why=
  if ! compare "$2" "$5" "$6" ${7:+"$7"}; then
    bad "$1: bench-compare.sh failed: ${why:-no message}"; return 1
  fi
  # --shuffle-code: each pair one layout on both sides, a new one each pair.
  if res=$(verify --layout "$tmp/$2/code-layout.txt" "$pairs" 2>&1); then
    ok "$1: $res"
  else
    bad "$1: $(printf '%s' "$res" | tr '\n' ' ')"
  fi
  if res=$(verify "$tmp/$2/compare.json" "$3" "$tmp/retry"); then
    ok "$1: $res"
  elif [ -s "$tmp/retry" ] && [ $user_filter = no ]; then
    echo "ab-honesty: $1: undecided on the first runs: $res"
    echo "ab-honesty: measuring $(cat "$tmp/retry") again"
    why=
    if ! compare "$2-again" "$5" "$6" -filter="$(cat "$tmp/retry")"; then
      bad "$1: first runs: $res; those rows again: bench-compare.sh failed: ${why:-no message}"
    elif res2=$(verify "$tmp/$2-again/compare.json" "$4"); then
      ok "$1: first runs: $res; those rows again: $res2"
    else
      bad "$1: first runs: $res; those rows again: ${res2:-the verdicts could not be read (above)}"
    fi
  else
    bad "$1: $res"
  fi
  return 0
}

echo "ab-honesty: 1/2 the tree${delayed:+ (with the delay code of 2/2, at 0)} compared with itself ($pairs pairs, bench_bitcoin$opts)"
judge self-comparison self none none "${delayed:-HEAD}" "${delayed:-HEAD}"

echo "ab-honesty: 2/2 a delay patched into the portable transform of a scratch copy (transform tables)"
if [ -n "$delayed" ]; then
  part2=-filter='^SHA256_'
  [ $user_filter = no ] || part2=
  if judge "injected slowdown" slow portable portable-again HEAD~1 HEAD $part2; then
    # The CI gate on the same runs: tripped at 3%, not at 400% (above the delay).
    python3 "$top/contrib/bench_compare.py" --fail-above=3 "$tmp/slow" > "$tmp/gate3.md" 2>&1; rc3=$?
    python3 "$top/contrib/bench_compare.py" --fail-above=400 "$tmp/slow" > "$tmp/gate400.md" 2>&1; rc400=$?
    if [ $rc3 -eq 1 ] && [ $rc400 -eq 0 ]; then
      ok "--fail-above: exit 1 at 3% ($(grep '^FAIL' "$tmp/gate3.md" | cut -c1-160)), exit 0 at 400%"
    else
      bad "--fail-above: exit $rc3 at 3% (want 1), exit $rc400 at 400% (want 0): $(tail -1 "$tmp/gate3.md")"
    fi
  fi
else
  bad "injected slowdown: could not patch the scratch copy"
fi
finish
