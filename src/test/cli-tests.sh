#!/bin/sh
# make check: the user-facing error paths. bench_bitcoin must reject bad
# input with a message and a non-zero exit, and test_bitcoin must FAIL (not
# skip) when the NIST vectors are missing.
: "${BENCH_BITCOIN:?}" "${TEST_BITCOIN:?}"
pass=0
fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect <want-exit: 0|nonzero> <pattern in output> <description> -- command...
expect() {
  want=$1; pattern=$2; what=$3; shift 4
  "$@" > "$tmp/out" 2>&1
  rc=$?
  ok=yes
  if [ "$want" = 0 ] && [ $rc -ne 0 ]; then ok=no; fi
  if [ "$want" = nonzero ] && [ $rc -eq 0 ]; then ok=no; fi
  if ! grep -q -- "$pattern" "$tmp/out"; then ok=no; fi
  if [ $ok = yes ]; then
    pass=$((pass + 1)); echo "ok   - $what"
  else
    fail=$((fail + 1)); echo "FAIL - $what (exit $rc, wanted $want and /$pattern/)"; sed 's/^/     | /' "$tmp/out" | head -20
  fi
}

expect nonzero "unknown option" "bench: unknown option is rejected" -- "$BENCH_BITCOIN" -no-such-option
expect nonzero "unknown option" "bench: a bare word is rejected" -- "$BENCH_BITCOIN" list
expect nonzero "expected milliseconds" "bench: -min-time=abc is rejected" -- "$BENCH_BITCOIN" -min-time=abc
expect nonzero "expected milliseconds" "bench: -min-time=0 is rejected" -- "$BENCH_BITCOIN" -min-time=0
expect nonzero "needs a value" "bench: -filter without a value is rejected" -- "$BENCH_BITCOIN" -filter
expect nonzero "not a valid regular expression" "bench: a bad regex is rejected" -- "$BENCH_BITCOIN" "-filter=("
expect nonzero "matches no benchmark" "bench: a filter matching nothing is an error" -- "$BENCH_BITCOIN" -filter=nothing-matches-this
expect nonzero "cannot write" "bench: an unwritable -output-csv is an error" -- "$BENCH_BITCOIN" -sanity-check -filter=64B/basic -output-csv=/nonexistent-dir/x.csv
expect 0 "Usage" "bench: -help prints usage" -- "$BENCH_BITCOIN" -help
expect 0 "SHA256_1M/basic" "bench: -list names the benchmarks" -- "$BENCH_BITCOIN" -list
expect 0 "| basic |" "bench: -sanity-check prints the table" -- "$BENCH_BITCOIN" -sanity-check -output-csv="$tmp/b.csv" -output-json="$tmp/b.json"
expect 0 "SHA256_1M/basic" "bench: CSV written" -- cat "$tmp/b.csv"
expect 0 '"results"' "bench: JSON written" -- cat "$tmp/b.json"
if command -v python3 >/dev/null; then
  expect 0 "json ok" "bench: JSON parses" -- python3 -c "import json,sys; json.load(open(sys.argv[1])); print('json ok')" "$tmp/b.json"
  if [ -n "${TOP_SRCDIR:-}" ]; then
    # check-order.py: consistent timings pass; basic made 10x faster contradicts every other row.
    python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
rank = {'shani': 1, 'rorx_x8ms': 2, 'rorx': 3, 'avx': 4, 'sse4': 5, 'basic': 6}
for r in d['results']:
    if 'avg_ns' in r: r['avg_ns'] = 100.0 * rank.get(r['impl'], 7)
json.dump(d, open(sys.argv[2], 'w'))
for r in d['results']:
    if r.get('impl') == 'basic' and 'avg_ns' in r: r['avg_ns'] = 1.0
json.dump(d, open(sys.argv[3], 'w'))
# A contradiction needs a second transform besides basic (not in portable-only builds).
open(sys.argv[4], 'w').write(str(sum(1 for r in d['results'] if r.get('impl') == 'sse4' and 'avg_ns' in r)))
" "$tmp/b.json" "$tmp/good.json" "$tmp/bad.json" "$tmp/sse4-rows"
    expect 0 "consistent with this machine" "check-order.py: a consistent run passes" -- python3 "$TOP_SRCDIR/contrib/check-order.py" "$tmp/good.json"
    if [ "$(cat "$tmp/sse4-rows")" != 0 ]; then
      expect nonzero "registry prefers sse4 over basic" "check-order.py: a contradicting run is flagged" -- python3 "$TOP_SRCDIR/contrib/check-order.py" "$tmp/bad.json"
    else
      echo "skip - check-order.py contradiction case: no sse4 row in this build (portable only)"
    fi
  fi
fi

# Missing vectors: the NIST tests must fail and say how to get the vectors.
expect nonzero "python3-cryptography-vectors" "test: missing NIST vectors fail the run, naming the package" -- \
  env NIST_VECTORS_DIR="$tmp/none" "$TEST_BITCOIN" --run_test=sha256_tests/nist_monte --color_output=no
expect nonzero "with-nist-vectors" "test: missing NIST vectors name the configure option" -- \
  env NIST_VECTORS_DIR="$tmp/none" "$TEST_BITCOIN" --run_test=sha256_tests/nist_short_and_long_msg --color_output=no

# A corrupted vector file must fail the run (and name the line).
if [ -n "$NIST_VECTORS_DIR" ] && [ -f "$NIST_VECTORS_DIR/SHA256ShortMsg.rsp" ]; then
  mkdir -p "$tmp/bad"
  cp "$NIST_VECTORS_DIR"/SHA256*.rsp "$tmp/bad/"
  # Flip the first hex digit of the first MD.
  awk 'BEGIN{d=0} /^MD = / && !d { c=substr($3,1,1); $3=(c=="0"?"1":"0") substr($3,2); d=1 } {print}' \
    "$NIST_VECTORS_DIR/SHA256ShortMsg.rsp" > "$tmp/bad/SHA256ShortMsg.rsp"
  expect nonzero "SHA256ShortMsg.rsp:" "test: a corrupted NIST vector fails the run" -- \
    env NIST_VECTORS_DIR="$tmp/bad" "$TEST_BITCOIN" --run_test=sha256_tests/nist_short_and_long_msg --color_output=no
fi

echo "cli-tests: $pass passed, $fail failed"
[ $fail -eq 0 ]
