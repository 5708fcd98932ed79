#!/bin/sh
# SPDX-License-Identifier: MIT
# Is HEAD faster than BASE on this CPU, beyond noise? A paired A/B of two revisions.
#
#   contrib/bench-compare.sh [options] BASE HEAD [bench_bitcoin options...]
#
# BASE and HEAD are git revisions of this repository (anything `git rev-parse`
# takes: main, HEAD~1, a tag, a commit id). HEAD may be the special name WORKTREE:
# the working tree as it is now (tracked changes and untracked files git does not
# ignore), so an uncommitted patch can be compared with its parent.
#
# Each revision is exported (git archive; never the checkout itself) and built
# out of tree once, into a cache keyed by its commit id (WORKTREE: by the id of
# a tree object holding its exact contents), the configure arguments, the
# environment configure reads (CC, CXX, CPPFLAGS, CXXFLAGS, LDFLAGS) and the
# --version of the C and C++ compilers they name: a build made with another
# compiler or flags is never reused. A second comparison reuses the build.
# The cache is build-aux/build-cache.sh's: a build is made in DIR.partial and
# becomes DIR only once complete, so an interrupted one is never reused, and a
# run that finds another building the same revision waits for it and reuses
# its build. Nothing needs the network.
#
# Then the two bench_bitcoin binaries run alternately in K pairs, in ABBA order
# (BASE HEAD, HEAD BASE, BASE HEAD, ...), with the same options, each run
# writing its own JSON, each row's output at one offset in a page on both
# sides of a pair, a new offset each pair (bench_bitcoin -place; a revision
# without it runs unplaced, and the table says so). contrib/bench_compare.py pairs them: per benchmark, the
# change is the Hodges-Lehmann estimate over pairs of the HEAD/BASE ratio of
# median ns per op, with its Wilcoxon signed-rank interval, 95% family-wise over
# the rows (Bonferroni); the verdict is
# faster/slower only when the interval excludes 0 and |change| >= the threshold.
# The markdown table goes to stdout (and DIR/compare.md, the same as JSON in
# DIR/compare.json, a chart of every row's change and interval in
# DIR/compare.png when python3-matplotlib is there); progress to stderr. Method and thresholds: doc/ab-testing.md.
#
# Options (before, between or after BASE HEAD):
#   --pairs=K          exactly K pairs (6..1000; N rows compared need 2/2^K <= 0.05/N,
#                      e.g. 11 pairs for 28 rows: the intervals are family-wise)
#   --budget=SECONDS   time for all pairs (default 120): K = budget / (time of the
#                      first pair), at least what the rows need. Ignored with --pairs.
#   --fail-above=PCT   exit 1 when a row is slower and even the fast end of its
#                      95% interval is more than PCT% slower (a CI gate)
#   --threshold=PCT    smallest change called faster/slower (default 1)
#   --configure=ARGS   configure arguments for both builds (default: CPPFLAGS=-DBENCH_RORX,
#                      as contrib/bench.sh); part of the cache key
#   --cache=DIR        build cache (default: $SHA256BENCH_CACHE, else ~/.cache/sha256bench)
#   --out=DIR          where the runs' JSON and compare.md go (default: a new
#                      directory under the cache's runs/); must not exist or be empty
#   --repo=DIR         the git repository (default: the one holding this script)
#   --jobs=N           make -jN (default: the number of CPUs)
#   --cpu=N            run every measured run on CPU N (taskset), one this process
#                      may use; the builds still use them all
#   --shuffle-code     lay each pair's code out anew: both revisions are built with
#                      -ffunction-sections (added to CXXFLAGS; part of the cache
#                      key), and before each run its side's bench_bitcoin is linked
#                      again (build-aux/relink-bench.mk, ld.gold) with its functions
#                      in that pair's order (build-aux/code-order.py, seed = the
#                      pair's number): a function shared by both sides lies at the
#                      same place relative to the others on both, and elsewhere the
#                      next pair. Without it each side is linked once, and where a
#                      kernel lies can weigh on that side in every pair
#                      (doc/ab-testing.md). Needs ld.gold and readelf (Debian's
#                      binutils); checked before anything is built.
# An option given with an empty value is an error (--configure= alone: no
# arguments). Options, both revisions, the cache and DIR are all checked before
# anything is built, and so is a -filter that is not a valid regular
# expression (with the C++ compiler's std::regex, as bench_bitcoin reads it); a
# -filter that matches no benchmark of a build is refused right after the
# builds, before any run or run directory.
# bench_bitcoin options: anything bench_bitcoin takes except the ones this script
# controls (-output-json, -output-csv, -sanity-check, -list, -list-impls, -help, -place).
# Without -min-time/-rounds, each run uses -min-time=100 -rounds=3 (the pairs
# give the repetition).
#
# Exit: 0 table written; 1 --fail-above tripped; 2 usage, build or run error.
set -u
set -f  # options are word-split below, never globbed
me=bench-compare.sh
die() { echo "$me: $*" >&2; exit 2; }
say() { echo "$me: $*" >&2; }
script_dir=$(cd "$(dirname "$0")" && pwd)

pairs= budget=120 fail_above= threshold= configure_args="CPPFLAGS=-DBENCH_RORX" cache= out= repo= jobs= cpu=
shuffle=
base= head= opts= have_time=no
for a in "$@"; do
  case "$a" in
    # An empty value is a mistake, never "use the default" (--configure= alone means no arguments).
    --pairs=|--budget=|--fail-above=|--threshold=|--cache=|--out=|--repo=|--jobs=|--cpu=)
      die "$a: needs a value (see contrib/bench-compare.sh --help)" ;;
    --pairs=*) pairs=${a#--pairs=} ;;
    --budget=*) budget=${a#--budget=} ;;
    --fail-above=*) fail_above=${a#--fail-above=} ;;
    --threshold=*) threshold=${a#--threshold=} ;;
    --configure=*) configure_args=${a#--configure=} ;;
    --cache=*) cache=${a#--cache=} ;;
    --out=*) out=${a#--out=} ;;
    --repo=*) repo=${a#--repo=} ;;
    --jobs=*) jobs=${a#--jobs=} ;;
    --cpu=*) cpu=${a#--cpu=} ;;
    --shuffle-code) shuffle=yes ;;
    -h|--help) sed -n '3,/^# Exit:/p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    --*) die "unknown option $a (see contrib/bench-compare.sh --help)" ;;
    # First: options are word-split below, so '-rounds=3 -sanity-check' would pass the refusals as two.
    -*[[:space:]]*) die "$a: bench_bitcoin options containing spaces are not supported here" ;;
    -output-json*|-output-csv*) die "$a: this script writes each run's JSON itself (see --out=DIR)" ;;
    -sanity-check*) die "$a: a comparison needs measured timings; -sanity-check runs each benchmark once" ;;
    -list*|-help*) die "$a: not a measuring option; run bench_bitcoin directly" ;;
    -place*) die "$a: this script places each row's output itself, one offset per pair (doc/ab-testing.md)" ;;
    -min-time=*|-rounds=*) have_time=yes; opts="$opts $a" ;;
    -*) opts="$opts $a" ;;
    *) if [ -z "$base" ]; then base=$a
       elif [ -z "$head" ]; then head=$a
       else die "unexpected argument '$a' (usage: contrib/bench-compare.sh [options] BASE HEAD [bench_bitcoin options])"
       fi ;;
  esac
done
[ -n "$base" ] && [ -n "$head" ] || die "usage: contrib/bench-compare.sh [options] BASE HEAD [bench_bitcoin options] (--help for more)"
is_uint() { case "$1" in ''|*[!0-9]*) return 1 ;; esac; [ ${#1} -le 7 ]; }
if [ -n "$pairs" ]; then
  is_uint "$pairs" && [ "$pairs" -ge 6 ] && [ "$pairs" -le 1000 ] || die "--pairs=$pairs: expected a whole number from 6 to 1000"
fi
is_uint "$budget" && [ "$budget" -ge 1 ] || die "--budget=$budget: expected a whole number of seconds, at least 1"
if [ -n "$jobs" ]; then is_uint "$jobs" && [ "$jobs" -ge 1 ] || die "--jobs=$jobs: expected a whole number, at least 1"
else jobs=$(nproc 2> /dev/null || echo 2); fi
# The pairs in ABBA order, their placement and the CPUs: build-aux/ab-pairs.sh.
. "$script_dir/../build-aux/ab-pairs.sh"
if [ -n "$cpu" ]; then
  command -v taskset > /dev/null 2>&1 || die "--cpu needs taskset: install Debian's util-linux"
  cpus=$(ab_cpus) || die "cannot read the CPUs this process may use (python3)"
  ab_cpu_in "$cpu" "$cpus" || die "--cpu=$cpu: expected one of the CPUs this process may use ($cpus)"
fi
[ "$have_time" = yes ] || opts="$opts -min-time=100 -rounds=3"
opts=${opts# }
analysis_opts=
[ -z "$fail_above" ] || analysis_opts="$analysis_opts --fail-above=$fail_above"
[ -z "$threshold" ] || analysis_opts="$analysis_opts --threshold=$threshold"
# Check the analysis options now, not after minutes of building and benchmarking.
python3 "$script_dir/bench_compare.py" $analysis_opts --check-options || exit 2

if [ -n "$repo" ]; then
  top=$(git -C "$repo" rev-parse --show-toplevel 2> /dev/null) || die "--repo=$repo: not a git repository"
else
  top=$(git -C "$script_dir/.." rev-parse --show-toplevel 2> /dev/null) \
    || die "$(cd "$script_dir/.." && pwd): not a git repository (name one with --repo=DIR)"
fi
repo=$top
[ -n "$cache" ] || cache=${SHA256BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sha256bench}
. "$script_dir/../build-aux/safe-path.sh"
case $cache in /*) abs_cache=$cache ;; *) abs_cache=$PWD/$cache ;; esac
if what=$(unsafe_path_char "$abs_cache"); then
  die "cannot build in the cache directory $abs_cache: its path has $what, which autotools refuse (name another with --cache=DIR)"
fi
# The build key: the configure arguments, the environment configure reads, and
# the compilers' versions (CC/CXX given in --configure win over the environment's).
# Without any of these, a build made by g++ would be reused for CXX=clang++.
key_cc=${CC:-gcc} key_cxx=${CXX:-g++}
for w in $configure_args; do
  case "$w" in CC=*) key_cc=${w#CC=} ;; CXX=*) key_cxx=${w#CXX=} ;; esac
done
# --shuffle-code: -ffunction-sections joins CXXFLAGS (the one given in --configure,
# else the environment's, else configure's own default), as one more configure
# argument; and the tools it needs are checked now, before any build.
shuffle_flags=
if [ -n "$shuffle" ]; then
  rest= shuffle_cxxflags=${CXXFLAGS--g -O2}
  for w in $configure_args; do
    case "$w" in CXXFLAGS=*) shuffle_cxxflags=${w#CXXFLAGS=} ;; *) rest="$rest${rest:+ }$w" ;; esac
  done
  configure_args=$rest
  shuffle_flags="CXXFLAGS=$shuffle_cxxflags${shuffle_cxxflags:+ }-ffunction-sections"
  for t in readelf nm python3; do
    command -v $t > /dev/null 2>&1 || die "--shuffle-code needs $t (Debian: binutils, python3); nothing was built"
  done
  lt=$(mktemp -d "${TMPDIR:-/tmp}/bench-compare-gold.XXXXXX") || die "mktemp failed"
  printf 'int main() { return 0; }\n' > "$lt/t.cpp"
  : > "$lt/order"
  if ! $key_cxx -fuse-ld=gold -Wl,--section-ordering-file="$lt/order" -o "$lt/t" "$lt/t.cpp" > "$lt/log" 2>&1; then
    why=$(grep . "$lt/log" | tail -1)
    rm -rf "$lt"
    die "--shuffle-code needs '$key_cxx -fuse-ld=gold' to link (Debian: binutils, or binutils-gold): ${why:-it failed}; nothing was built"
  fi
  rm -rf "$lt"
fi
# (Without --shuffle-code its line is empty, and $(...) drops it: the key of a
# build without it is what it was before the option.)
# shellcheck disable=SC2086
key_text=$(printf 'configure: %s\nCC=%s\nCXX=%s\nCPPFLAGS=%s\nCXXFLAGS=%s\nLDFLAGS=%s\ncc: %s\nc++: %s\n%s\n' \
  "$configure_args" "${CC-}" "${CXX-}" "${CPPFLAGS-}" "${CXXFLAGS-}" "${LDFLAGS-}" \
  "$($key_cc --version 2> /dev/null | head -1)" "$($key_cxx --version 2> /dev/null | head -1)" \
  "${shuffle_flags:+shuffle-code: $shuffle_flags}")
cfg_key=$(printf '%s' "$key_text" | sha256sum | cut -c1-8)

# A -filter that is not a valid regular expression fails now, not after two
# builds: std::regex (ECMAScript, as bench_bitcoin constructs it) built with the
# C++ compiler the builds use.
filter=
for w in $opts; do case "$w" in -filter=*) filter=${w#-filter=} ;; esac; done
if [ -n "$filter" ]; then
  rx=$(mktemp -d "${TMPDIR:-/tmp}/bench-compare-filter.XXXXXX") || die "mktemp failed"
  printf '%s' "$filter" > "$rx/filter"
  cat > "$rx/check.cpp" << 'EOF_CPP'
#include <fstream>
#include <iostream>
#include <iterator>
#include <regex>
#include <string>
int main(int, char** argv)
{
    std::ifstream f(argv[1], std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
    try {
        std::regex re(text);
    } catch (const std::regex_error& e) {
        std::cout << e.what() << "\n";
        return 1;
    }
    return 0;
}
EOF_CPP
  # shellcheck disable=SC2086
  if ! $key_cxx -std=c++17 -O0 -o "$rx/check" "$rx/check.cpp" > "$rx/cc.log" 2>&1; then
    rm -rf "$rx"; die "cannot compile the -filter check with '$key_cxx' (the C++ compiler the builds use)"
  fi
  why=$("$rx/check" "$rx/filter"); rc=$?
  rm -rf "$rx"
  [ $rc -eq 0 ] || die "-filter=$filter is not a valid regular expression (${why:-std::regex refused it}); nothing was built"
fi

# step <what> <log> <command...>: output appended to the log, a line every 30 s.
. "$script_dir/../build-aux/progress.sh"
PROGRESS_PREFIX="$me: "
# shellcheck disable=SC2317 # called by build_into, which build_cache calls
step() { progress_run "$@" >&2; }

# resolve <rev> -> key and describe (for .source-commit); WORKTREE -> a tree id of its contents.
resolve() {
  if [ "$1" = WORKTREE ]; then
    idx=$(mktemp) || die "mktemp failed"
    rm -f "$idx"
    tree=$(cd "$repo" && GIT_INDEX_FILE=$idx git read-tree HEAD && GIT_INDEX_FILE=$idx git add -A . \
           && GIT_INDEX_FILE=$idx git write-tree) || { rm -f "$idx"; die "WORKTREE: cannot snapshot the working tree of $repo"; }
    rm -f "$idx"
    key="worktree-$tree-$cfg_key"
    treeish=$tree
    describe="$(git -C "$repo" describe --always --dirty 2> /dev/null || echo unknown)"
    [ "$(git -C "$repo" rev-parse 'HEAD^{tree}')" = "$tree" ] || case "$describe" in *-dirty) ;; *) describe="$describe-dirty" ;; esac
    label="WORKTREE ($describe)"
  else
    sha=$(git -C "$repo" rev-parse --verify --quiet "$1^{commit}") || die "'$1' is not a commit in $repo (git rev-parse failed)"
    key="$sha-$cfg_key"
    treeish=$sha
    describe=$(git -C "$repo" describe --always "$sha" 2> /dev/null || echo "$sha")
    label="$1 ($(git -C "$repo" rev-parse --short "$sha"))"
  fi
}

# build <BASE|HEAD>: from that side's resolved key, treeish, describe and label;
# sets bin to its bench_bitcoin. The cache (build-aux/build-cache.sh) reuses a
# complete build of the key, else builds it with build_into and publishes it;
# its stamp is the key in full (the revision and what cfg_key hashes).
# shellcheck source=build-aux/build-cache.sh disable=SC1091
. "$script_dir/../build-aux/build-cache.sh"
# shellcheck disable=SC2034 # read by build_cache
BUILD_CACHE_PREFIX="$me: "
build() {
  if [ "$1" = BASE ]; then key=$BASE_key treeish=$BASE_treeish describe=$BASE_describe label=$BASE_label
  else key=$HEAD_key treeish=$HEAD_treeish describe=$HEAD_describe label=$HEAD_label; fi
  build_cache "$cache" "$key" "$(printf 'source: %s\n%s' "$treeish" "$key_text")" build/src/bench/bench_bitcoin \
    "$1 $label" build_into "$1" || exit 2
  bin="$cache/$key/build/src/bench/bench_bitcoin"
}
# shellcheck disable=SC2317 # called by build_cache
# build_into <BASE|HEAD> <dir>: that side's sources exported to dir/src, built in dir/build (log: dir/build.log).
build_into() {
  dir=$2 log=$2/build.log
  mkdir -p "$dir/src" "$dir/build" || die "cannot create $dir"
  say "$1 $label: building in $dir (log: $log)"
  git -C "$repo" archive --format=tar "$treeish" | tar -x -C "$dir/src" 2>> "$log" \
    || die "$1 $label: git archive failed (log: $log)"
  printf '%s\n' "$describe" > "$dir/src/.source-commit"
  [ -x "$dir/src/autogen.sh" ] || die "$1 $label: no autogen.sh at its top level; is $repo this project?"
  step "$1 autogen.sh" "$log" sh -c 'cd "$1" && ./autogen.sh' sh "$dir/src" \
    || die "$1 $label: autogen.sh failed; log: $log"
  # configure_args is word-split on purpose (e.g. --configure="CPPFLAGS=-DBENCH_RORX CXX=clang++").
  step "$1 configure" "$log" sh -c 'cd "$1" && shift && "$@"' sh "$dir/build" "$dir/src/configure" $configure_args \
    ${shuffle_flags:+"$shuffle_flags"} \
    || die "$1 $label failed to configure; log: $log"
  step "$1 make" "$log" make -C "$dir/build/src" -j"$jobs" bench/bench_bitcoin \
    || die "$1 $label failed to build; log: $log"
  printf '%s\n' "$key_text" > "$dir/build-key.txt"
}

# Both revisions and every directory are checked before anything is built: a
# typo in HEAD or a full --out must not cost BASE's build first.
resolve "$base"
BASE_key=$key BASE_treeish=$treeish BASE_describe=$describe BASE_label=$label
resolve "$head"
HEAD_key=$key HEAD_treeish=$treeish HEAD_describe=$describe HEAD_label=$label
if [ -n "$out" ]; then
  if [ -e "$out" ]; then
    [ -d "$out" ] || die "--out=$out is not a directory"
    [ -z "$(ls -A "$out" 2> /dev/null)" ] || die "--out=$out is not empty (old runs would mix with new ones)"
  fi
  made_out=
  [ -d "$out" ] || made_out=yes
  err=$(mkdir -p "$out" 2>&1) || die "--out=$out: cannot create it (${err##*: })"
  ( : > "$out/.probe.$$" ) 2> /dev/null || { [ -z "$made_out" ] || rmdir "$out"; die "--out=$out: cannot write in it"; }
  rm -f "$out/.probe.$$"
  # A comparison that stops before its first run leaves no empty directory it made.
  [ -z "$made_out" ] || trap '[ -z "$(ls -A "$out" 2> /dev/null)" ] && rmdir "$out" 2> /dev/null' EXIT
fi
err=$(mkdir -p "$cache" 2>&1) || die "cannot create the cache directory $cache (${err##*: })"
probe="$cache/.probe.$$"
( : > "$probe" ) 2> /dev/null || die "cannot write in the cache directory $cache"
rm -f "$probe"
cache=$(cd "$cache" && pwd)
if [ -z "$out" ]; then
  err=$(mkdir -p "$cache/runs" 2>&1) || die "cannot create $cache/runs (${err##*: })"
fi

build BASE
base_bin=$bin base_label=$label
build HEAD
head_bin=$bin head_label=$label

# Both binaries must accept the options before any time is spent measuring or
# any run directory is made: -list checks them, -filter included (an invalid
# regex, or one matching none of that build's benchmarks).
for side in BASE HEAD; do
  if [ $side = BASE ]; then b=$base_bin; l=$base_label; else b=$head_bin; l=$head_label; fi
  # shellcheck disable=SC2086
  if ! err=$("$b" $opts -list 2>&1 > /dev/null); then
    die "$side $l: bench_bitcoin refuses the options '$opts': $(printf '%s\n' "$err" | grep . | tail -1)"
  fi
done

# Each row's output at one offset in a page on both sides of a pair, a new one
# each pair (bench_bitcoin -place, build-aux/ab-pairs.sh's ab_place_offset):
# where its output lies can move a small row's time, and a build's other
# allocations decide that, so left to the heap it would weigh on one side.
# A revision whose bench_bitcoin has no -place runs without it, and the table
# says so.
no_place=
for side in BASE HEAD; do
  if [ $side = BASE ]; then b=$base_bin; l=$base_label; else b=$head_bin; l=$head_label; fi
  "$b" -place=0 -list > /dev/null 2>&1 || no_place="$no_place${no_place:+ and }$side ($l)"
done

if [ -z "$out" ]; then
  out=$(mktemp -d "$cache/runs/$(date -u +%Y%m%dT%H%M%SZ)-XXXX") || die "cannot create a run directory in $cache/runs"
fi

# relink <n> <side> <binary>: with --shuffle-code, that side's bench_bitcoin linked
# again, with its functions in pair n's order, in a directory of its own under
# $out (_link; libtool leaves files beside what it links), removed after the
# run; sets b to it and logs the layout's digest (its code symbols and their
# addresses) in code-layout.txt, so the runs show what they ran.
# shellcheck disable=SC2317 # called by run, through ab_pairs
relink() {
  src=${3%/bench/bench_bitcoin}
  _link=$out/.link-$2
  rm -rf "$_link"
  mkdir "$_link" || die "cannot create $_link"
  "$script_dir/../build-aux/code-order.py" "$1" "$src" > "$_link/order" 2> "$_link/err" \
    || die "$l: cannot order its functions for pair $1: $(tail -1 "$_link/err")"
  make -s -C "$src" -f Makefile -f "$script_dir/../build-aux/relink-bench.mk" -o Makefile \
    RELINK_OUT="$_link/bench_bitcoin" RELINK_LDFLAGS="-fuse-ld=gold -Wl,--section-ordering-file=$_link/order" \
    relink-bench > "$_link/err" 2>&1 || die "$l: cannot link it again for pair $1: $(grep . "$_link/err" | tail -1)"
  b=$_link/bench_bitcoin
  printf '%s %s %s\n' "$nn" "$2" "$(nm -n --defined-only "$b" | grep ' [Tt] ' | sha256sum | cut -c1-16)" \
    >> "$out/code-layout.txt"
}

# run <n> <base|head>: one measured run writing pair-NN-<side>.json.
run() {
  nn=$(printf '%02d' "$1")
  if [ "$2" = base ]; then b=$base_bin; l="BASE $base_label"; else b=$head_bin; l="HEAD $head_label"; fi
  [ -z "$shuffle" ] || relink "$1" "$2" "$b"
  place=
  [ -n "$no_place" ] || place=-place=$(ab_place_offset "$1")
  # A fresh copy of the binary for every run (ab_fresh: its page-cache placement).
  # shellcheck disable=SC2086
  ab_fresh "$out" "$b" $opts $place -output-json="$out/pair-$nn-$2.json" > "$out/pair-$nn-$2.md" 2> "$out/pair-$nn-$2.err"
  run_rc=$?
  [ -z "$shuffle" ] || { rm -rf "$_link"; _link=; }
  if [ $run_rc -ne 0 ]; then
    msg=$(grep -v '^\[' "$out/pair-$nn-$2.err" | grep . | tail -1)
    # A signal leaves no message of its own: its number says what happened.
    how="exit $run_rc"
    [ $run_rc -le 128 ] || how="killed by signal $((run_rc - 128))"
    die "$l: bench_bitcoin failed in pair $nn ($how${place:+, $place}): ${msg:-no message} (output: $out/pair-$nn-$2.err)"
  fi
}
# An interrupted run leaves no copy of a binary behind (ab_fresh), nor an
# empty directory it made.
trap '[ -z "${_ab_copy:-}" ] || rm -f "$_ab_copy"; [ -z "${_link:-}" ] || rm -rf "$_link"; [ -z "${made_out:-}" ] || { [ -z "$(ls -A "$out" 2> /dev/null)" ] && rmdir "$out" 2> /dev/null; }' EXIT
trap 'exit 130' INT TERM

# Pinned only now (--cpu): the builds above used every CPU.
if [ -n "$cpu" ]; then
  taskset -pc "$cpu" $$ > /dev/null 2>&1 || die "cannot pin the runs to CPU $cpu (taskset -pc)"
fi
say "runs in $out${cpu:+ on CPU $cpu}; bench_bitcoin $opts"
t0=$(date +%s)
ab_pairs 1 1 run
t1=$(date +%s)
if ! err=$(python3 "$script_dir/bench_compare.py" --validate "$out/pair-01-base.json" "$out/pair-01-head.json" 2>&1); then
  err=${err#bench-compare: }
  # The schema hint only where the schema is what is wrong (an emulated CPU or a
  # sanity run has its own reason, which the message already gives).
  case "$err" in
    *"not a sha256bench-results version 1 file"*)
      die "the first pair's JSON is not usable here ($err); this tool needs revisions whose bench_bitcoin writes schema sha256bench-results version 1" ;;
    *) die "the first pair's JSON is not usable here ($err)" ;;
  esac
fi
need=$err
if [ -n "$pairs" ]; then
  [ "$pairs" -ge "$need" ] || die "--pairs=$pairs: the rows measured on both sides need at least $need pairs for 95% family-wise intervals (more pairs, or fewer rows with -filter)"
else
  per=$((t1 - t0))
  [ $per -ge 1 ] || per=1
  pairs=$((budget / per))
  [ $pairs -ge "$need" ] || pairs=$need
  [ $pairs -le 1000 ] || pairs=1000
  say "one pair took ${per} s: $pairs pairs for a budget of $budget s (at least $need for these rows)"
fi
next=$((t0 + 30))
progress() {
  if [ "$(date +%s)" -ge $next ]; then
    say "... pair $1 of $pairs done"
    next=$(( $(date +%s) + 30 ))
  fi
}
ab_pairs 2 "$pairs" run progress
say "$pairs pairs in $(( $(date +%s) - t0 )) s"

python3 "$script_dir/bench_compare.py" $analysis_opts --base-label="$base_label" --head-label="$head_label" \
  --json="$out/compare.json" "$out" > "$out/compare.md"
rc=$?
[ $rc -le 1 ] || exit 2
if [ -n "$no_place" ]; then
  printf '\nPlacement: none; %s built without bench_bitcoin -place, so each run left its rows'"'"' outputs where its heap put them, and a small row'"'"'s time can move with that on one side (doc/ab-testing.md).\n' "$no_place" >> "$out/compare.md"
else
  printf '\nPlacement: each row'"'"'s output started at the same offset in a page on both sides of a pair (bench_bitcoin -place), pairs 1 to %s: %s bytes.\n' "$pairs" "$(ab_place_offsets "$pairs")" >> "$out/compare.md"
fi
if [ -n "$shuffle" ]; then
  printf '\nCode placement: both builds'"'"' functions (-ffunction-sections) linked in a new order each pair, a shared function in the same relative order on both sides (ld.gold --section-ordering-file; build-aux/code-order.py, seeds 1 to %s; each run'"'"'s layout digest in code-layout.txt).\n' "$pairs" >> "$out/compare.md"
else
  printf '\nCode placement: each side linked once, its code laid out the same way in every pair; where a kernel lies relative to its callees can move its row by itself, so a small change in a kernel row may be placement (doc/ab-testing.md); --shuffle-code draws it anew each pair.\n' >> "$out/compare.md"
fi
cat "$out/compare.md"
# The chart: python3 with matplotlib (the one on PATH, else Debian's: a pyenv or
# venv python lacks Debian packages). Without it the table stands alone, and we say so.
py=python3
python3 -c 'import matplotlib' > /dev/null 2>&1 || { [ -x /usr/bin/python3 ] && py=/usr/bin/python3; }
if "$py" "$script_dir/bench_compare_plot.py" "$out/compare.json" "$out/compare.png" "$base_label" "$head_label"; then
  say "chart: $out/compare.png"
fi
say "table and runs kept in $out"
exit $rc
