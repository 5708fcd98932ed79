#!/bin/sh
# SPDX-License-Identifier: MIT
# Paste-ready benchmark report for a pull request.
#   contrib/bench-report.sh [build-dir] [bench_bitcoin options...]
# Runs bench_bitcoin once with OpenSSL on its own choice of code path, then once
# per forced OpenSSL path (OPENSSL_ia32cap) over the same tables, so every
# openssl row is measured in the same interleaved rounds as our transforms.
# The script writes the JSON itself: -output-json/-output-csv are refused.
# Without a -filter the forced-path runs use the 1 MB table only (one run each
# of every table would take minutes).
set -u
build=${1:-.}
[ $# -gt 0 ] && shift
bench="$build/src/bench/bench_bitcoin"
die() { echo "bench-report.sh: $*" >&2; exit 2; }
[ -x "$bench" ] || die "$bench not found; build first (contrib/bench.sh builds build/), then: contrib/bench-report.sh build"
filter=
for a in "$@"; do
  case "$a" in
    -output-json*|-output-csv*) die "$a: this script writes the results itself; run bench_bitcoin directly for your own files" ;;
    -sanity-check*) die "$a: a report needs measured timings; -sanity-check runs each benchmark once" ;;
    -filter=*) filter=${a#-filter=} ;;
  esac
done
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# run <name> [env...]: one bench_bitcoin run; its own error line reaches the user.
run() {
  name=$1; shift
  if ! env "$@" "$bench" -output-json="$tmp/$name.json" $extra > "$tmp/$name.md" 2> "$tmp/$name.err"; then
    msg=$(grep -v '^\[' "$tmp/$name.err" | grep . | tail -1)
    die "bench_bitcoin failed: ${msg:-exit status without a message; see its output above}"
  fi
}
extra="$*"
run main
[ -n "$filter" ] || extra="$* -filter=SHA256_1M/"
n=0
for cap in ":~0x20000000" ":~0x20000128" "~0x1000000000000000:~0x20000128"; do
  n=$((n + 1))
  run "cap$n" OPENSSL_ia32cap="$cap"
  printf '%s\n' "$cap" > "$tmp/cap$n.cap"
done
echo "## sha256bench report"
echo
echo "- commit: $(git -C "$top" describe --always --dirty 2>/dev/null || echo unknown)"
echo "- kernel: $(uname -srm)"
echo
python3 "$top/contrib/bench_report.py" "$tmp" || exit $?
