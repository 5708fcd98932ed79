#!/bin/sh
# Paste-ready benchmark report for a pull request.
#   contrib/bench-report.sh [build-dir] [bench_bitcoin options...]
# Runs bench_bitcoin once with OpenSSL on its own choice of code path, then once
# per forced OpenSSL path on the 1 MB messages (OPENSSL_ia32cap), so every
# openssl row is measured in the same interleaved rounds as our transforms.
set -e
build=${1:-.}
[ $# -gt 0 ] && shift
bench="$build/src/bench/bench_bitcoin"
if [ ! -x "$bench" ]; then
  echo "bench-report.sh: $bench not found; build first (./configure CPPFLAGS=-DBENCH_RORX && make)" >&2
  exit 1
fi
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bench" -output-json="$tmp/bench.json" "$@" > "$tmp/bench.md" 2>/dev/null
echo "## sha256bench report"
echo
echo "- commit: $(git -C "$top" rev-parse --short HEAD 2>/dev/null || echo unknown)"
echo "- kernel: $(uname -srm)"
echo
echo '```'
sed -n '/^CPU:/,/^Mode:/p' "$tmp/bench.md"
echo '```'
echo
sed -n '/^###/,$p' "$tmp/bench.md"
echo "### Does AutoDetect's order hold here?"
echo
echo '```'
python3 "$top/contrib/check-order.py" "$tmp/bench.json" || true
echo '```'
echo
echo "### OpenSSL's code paths forced with OPENSSL_ia32cap (1 MB messages; one run each)"
echo
echo "| OPENSSL_ia32cap | openssl path | openssl cycles/byte | openssl speed% | ours, same path | cycles/byte | speed% |"
echo "|---|---|---:|---:|---|---:|---:|"
# cell <table output> <impl> <column>: one cell of an impl's row (7 = cycles/byte, 8 = speed%)
cell() { printf '%s\n' "$1" | awk -F'|' -v impl="$2" -v col="$3" '{n=$2; gsub(/ /,"",n)} n==impl {v=$col; gsub(/ /,"",v); print v}'; }
for cap in ":~0x20000000" ":~0x20000128" "~0x1000000000000000:~0x20000128"; do
  out=$(OPENSSL_ia32cap="$cap" "$bench" -filter='SHA256_1M/' "$@" 2>/dev/null)
  path=$(printf '%s\n' "$out" | sed -n 's/.*, path \([^ ]*\) .*/\1/p')
  case "$path" in
    avx2+bmi) ours="rorx rorx_x8ms" ;;
    avx) ours="avx" ;;
    ssse3) ours="sse4" ;;
    *) ours="basic" ;;
  esac
  for impl in $ours; do
    echo "| \`$cap\` | $path | $(cell "$out" openssl 7) | $(cell "$out" openssl 8) | $impl | $(cell "$out" "$impl" 7) | $(cell "$out" "$impl" 8) |"
  done
done
echo
echo "Note: OpenSSL's AVX path runs only on CPUs it flags as Intel; elsewhere the AVX mask falls back to SSSE3."
