#!/bin/sh
# SPDX-License-Identifier: MIT
# ci/extra-row.sh BUILD_DIR: a build configured with CPPFLAGS=-DSHA256_TEST_EXTRA_ROW
# has a test-only row in every family that a test proves by iterating:
#   transform basic_alias    (the portable transform under a second name)
#   d64 and multi portable_6way (a new width: one kernel function, one kernel
#                            table line per shape, one registry row each)
# and a test-only probe of the CPU model (compat/cpu_model.h, TestProbe) with
# an order rule on it (portable_6way leads the D64 rows where
# SHA256BENCH_TEST_PROBE is 2 or more): a probe-driven order rule is the CPU
# model's table line and the row's declaration, nothing else. No file outside
# the crypto library and the CPU model names them. Check that each reaches
# every consumer outside test_bitcoin (whose own end-of-suite checks cover the
# tests): -list-impls, -list, every bench table its family fills, and
# contrib/check-order.py. Prints one line per check and ends with
# "extra-row: N passed, N failed".
set -u
build=${1:?usage: ci/extra-row.sh BUILD_DIR}
top=$(cd "$(dirname "$0")/.." && pwd)
bench=$build/src/bench/bench_bitcoin
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
pass=0 fail=0
check() { # check <what> <command...>
  what=$1; shift
  if "$@" > "$tmp/out" 2>&1; then echo "ok: $what"; pass=$((pass + 1))
  else echo "FAIL: $what"; sed 's/^/    /' "$tmp/out" | tail -5; fail=$((fail + 1)); fi
}
# Without the binary every check below would fail for the same reason: say it once.
if [ ! -x "$bench" ]; then
  echo "FAIL: $bench is missing or not executable (build $build first)"
  echo "extra-row: 0 passed, 1 failed"
  exit 1
fi

# family, extra row, the row of the same family whose tables it must share.
rows="transform basic_alias basic
d64 portable_6way portable_16way
multi portable_6way portable_16way"

"$bench" -list-impls > "$tmp/impls" 2>&1
"$bench" -list > "$tmp/list" 2>&1
"$bench" -sanity-check -output-json="$tmp/sanity.json" > "$tmp/sanity.md" 2>&1 \
  || echo "    the sanity run failed: $(grep . "$tmp/sanity.md" | tail -1)"
echo "$rows" | while read -r family extra twin; do
  check "-list-impls has a supported $family row $extra" \
    sh -c "grep -q '^$family	$extra	none	yes	yes	' '$tmp/impls'"
  # Every table with a row of its twin must have a row of the extra one too: in
  # the sanity-check output (which runs each row once) and in -list.
  check "-sanity-check and -list: $family $extra in every table $twin is in" \
    python3 - "$tmp/sanity.json" "$tmp/list" "$family" "$extra" "$twin" <<'PY'
import json, sys
path, listing, family, extra, twin = sys.argv[1:]
try:
    doc = json.load(open(path))
    rows = [r for r in doc["results"] if r["family"] == family and r["status"] == "ok"]
    base = {r["name"].split("/")[0] for r in rows if r["impl"] == twin}
    alias = {r["name"].split("/")[0] for r in rows if r["impl"] == extra}
    listed = {line.split("/")[0] for line in open(listing) if line.rstrip().endswith("/" + extra)}
except (OSError, ValueError, LookupError, TypeError, AttributeError) as e:
    # One line, not a traceback: the bench's own message is in sanity.md.
    sys.exit(f"the sanity run wrote no usable JSON ({type(e).__name__}: {e})")
print(f"tables with {twin}:", sorted(base))
print(f"with {extra}: ran", sorted(alias), "listed", sorted(listed))
sys.exit(0 if base and base == alias and base <= listed else 1)
PY
done > "$tmp/checks"
cat "$tmp/checks"
pass=$((pass + $(grep -c '^ok:' "$tmp/checks")))
fail=$((fail + $(grep -c '^FAIL:' "$tmp/checks")))

# The test-only probe: set to 3 it puts portable_6way first in the D64 order,
# and the bench's header reports it with the order it gives (the CPU model's
# reason and the row's rule: no code of the bench names either); at its
# measured 0 the order is the listed one.
SHA256BENCH_TEST_PROBE=3 "$bench" -list-impls > "$tmp/probe" 2>&1
check "SHA256BENCH_TEST_PROBE=3 puts portable_6way first in d64" \
  sh -c "grep '^d64	' '$tmp/probe' | head -1 | grep -q '^d64	portable_6way	'"
check "... and at its measured 0 it is listed just before basic" \
  sh -c "'$bench' -list-impls | grep '^d64	' | tail -2 | head -1 | grep -q '^d64	portable_6way	'"
SHA256BENCH_TEST_PROBE=3 "$bench" -sanity-check -filter=SHA256_64B/basic > "$tmp/probe.md" 2>&1
check "the bench header reports the test probe and the order it gives" \
  grep -q '^test probe: 3.00 units (a constant 0 (SHA256_TEST_EXTRA_ROW), set by SHA256BENCH_TEST_PROBE); at least 2, so d64: portable_6way leads every row$' "$tmp/probe.md"
check "SHA256BENCH_TEST_PROBE=x is refused with one line" \
  sh -c "! SHA256BENCH_TEST_PROBE=x '$bench' -list-impls > '$tmp/bad' 2>&1 && [ \$(wc -l < '$tmp/bad') -eq 1 ] && grep -q 'SHA256BENCH_TEST_PROBE' '$tmp/bad'"
if [ -x "$build/src/test/test_bitcoin" ]; then
  check "test_bitcoin: the rule orders its row at SHA256BENCH_TEST_PROBE=3" \
    env SHA256BENCH_TEST_PROBE=3 "$build/src/test/test_bitcoin" --run_test=registry_tests/extra_probe_orders_its_row
fi

# check-order.py judges a measured run (it refuses sanity checks). A short one
# is noisy, so only its exit code 2 (cannot judge) fails here; what matters is
# that it read the extra rows from the file and placed them in the order.
"$bench" -min-time=10 -rounds=3 -filter='SHA256_64B/.*|SHA256D64_1024/.*' -output-json="$tmp/m.json" > /dev/null 2>&1
python3 "$top/contrib/check-order.py" "$tmp/m.json" > "$tmp/order" 2>&1; rc=$?
check "check-order.py compares basic_alias and portable_6way (exit $rc: 0 or 1 expected)" \
  sh -c "[ $rc -ne 2 ] && grep -q 'fastest first: .*basic_alias' '$tmp/order' && grep -q 'fastest first: .*portable_6way' '$tmp/order'"

echo "extra-row: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
