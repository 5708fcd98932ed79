#!/bin/sh
# SPDX-License-Identifier: MIT
# Paste-ready benchmark report for a pull request: report.md and report.png.
#   contrib/bench-report.sh [BUILD] [--out=DIR] [bench_bitcoin options...]
# BUILD is a build directory holding src/bench/bench_bitcoin (default: .;
# contrib/bench.sh builds build/). DIR (default: the current directory) gets
#   report.md   the bench tables, whether AutoDetect's order holds, and OpenSSL's
#               code paths forced one by one beside our transforms that use the
#               same CPU features;
#   report.png  speed% per implementation, one panel per table, error bars from
#               the rounds, titled with CPU, compiler and commit
#               (python3-matplotlib, Agg backend);
# and report.md is also printed. Both files appear whole or not at all.
# Runs bench_bitcoin once with OpenSSL on its own choice of code path, then once
# per forced OpenSSL path (OPENSSL_ia32cap) over the same tables, so every
# openssl row is measured in the same interleaved rounds as our transforms.
# The script writes the JSON itself: -output-json/-output-csv are refused (run
# bench_bitcoin directly for your own files), as are -sanity-check and -list*.
# Without a -filter the forced-path runs use the 1 MB table only (one run each
# of every table would take minutes). Table titles come from the runs' JSON.
# Exit: 0 report written; 2 bad option, failed bench run, or file not written.
set -u
set -f  # bench_bitcoin options are word-split below, never globbed
die() { echo "bench-report.sh: $*" >&2; exit 2; }
build=.
case "${1:-}" in
  -*|'') ;;
  *) build=$1; shift ;;
esac
bench="$build/src/bench/bench_bitcoin"
out=.
filter=
extra=
for a in "$@"; do
  case "$a" in
    --out=) die "--out=: needs a directory (--out=DIR)" ;;
    --out=*) out=${a#--out=} ;;
    --*) die "unknown option $a (bench-report.sh options: --out=DIR; bench_bitcoin options take one dash)" ;;
    # Before anything else: bench_bitcoin's options are word-split below, so
    # '-filter=x -sanity-check' would pass as two options, past the refusals.
    -*[[:space:]]*) die "'$a': a bench_bitcoin option containing spaces is not supported here (benchmark names have none; give each option as its own argument)" ;;
    -output-json*|-output-csv*) die "$a: this script writes the results itself; run bench_bitcoin directly for your own files" ;;
    -sanity-check*) die "$a: a report needs measured timings; -sanity-check runs each benchmark once" ;;
    -list*|-help*) die "$a: not a measuring option; run bench_bitcoin directly" ;;
    -filter=*) filter=${a#-filter=}; extra="$extra $a" ;;
    -*) extra="$extra $a" ;;
    *) die "unexpected argument '$a' (usage: contrib/bench-report.sh [BUILD] [--out=DIR] [bench_bitcoin options])" ;;
  esac
done
[ -x "$bench" ] || die "$bench not found; build first (contrib/bench.sh builds build/), then: contrib/bench-report.sh build"
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out" 2> /dev/null || die "cannot create --out=$out"
# An unwritable destination is reported now, not after minutes of benchmarks.
probe="$out/.bench-report-probe.$$"
( : > "$probe" ) 2> /dev/null || die "cannot write in $out"
rm -f "$probe"
# python3 with matplotlib: the one on PATH, else Debian's (a pyenv/venv python lacks Debian packages).
py=python3
if ! python3 -c 'import matplotlib' > /dev/null 2>&1; then
  if [ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import matplotlib' > /dev/null 2>&1; then
    py=/usr/bin/python3
  else
    die "python3-matplotlib is not installed (contrib/install-deps.sh installs it); it draws report.png"
  fi
fi
tmp=$(mktemp -d) || die "mktemp failed"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
# run <name> [env...]: one bench_bitcoin run; its own error line reaches the user.
run() {
  name=$1; shift
  # shellcheck disable=SC2086
  if ! env "$@" "$bench" -output-json="$tmp/$name.json" $extra > "$tmp/$name.md" 2> "$tmp/$name.err"; then
    msg=$(grep -v '^\[' "$tmp/$name.err" | grep . | tail -1)
    die "bench_bitcoin failed: ${msg:-exit status without a message}"
  fi
  [ -s "$tmp/$name.json" ] || die "bench_bitcoin exited 0 but wrote no JSON ($name run)"
}
run main
# The chart first: a run it cannot draw fails here, before the forced-path runs.
"$py" "$top/contrib/bench_report_plot.py" "$tmp/main.json" "$tmp/report.png" || exit 2
echo "bench-report.sh: $bench$extra done; now once per forced OpenSSL path" >&2
[ -n "$filter" ] || extra="$extra -filter=SHA256_1M/"
n=0
for cap in ":~0x20000000" ":~0x20000128" "~0x1000000000000000:~0x20000128"; do
  n=$((n + 1))
  run "cap$n" OPENSSL_ia32cap="$cap"
  printf '%s\n' "$cap" > "$tmp/cap$n.cap"
done
{
  echo "## sha256bench report"
  echo
  echo "- kernel: $(uname -srm)"
  python3 "$top/contrib/bench_report.py" "$tmp"
} > "$tmp/report.md" || exit 2
# Into place: each file is renamed from a temporary file in DIR, so a reader never sees half of one.
for f in report.md report.png; do
  cp "$tmp/$f" "$out/.$f.tmp.$$" && mv -f "$out/.$f.tmp.$$" "$out/$f" \
    || { rm -f "$out/.$f.tmp.$$"; die "cannot write $out/$f"; }
done
cat "$tmp/report.md"
echo "bench-report.sh: wrote $out/report.md and $out/report.png" >&2
