#!/bin/sh
# SPDX-License-Identifier: MIT
# ci/extra-row.sh BUILD_DIR: a build configured with
# CPPFLAGS=-DSHA256_TEST_EXTRA_ROW has the registry row basic_alias and no other
# file names it. Check that the row reaches every consumer outside test_bitcoin
# (whose own end-of-suite checks cover the tests): -list, -list-impls, every
# transform table of the bench, and contrib/check-order.py.
# Prints one line per check and ends with "extra-row: N passed, N failed".
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

check "-list-impls has a supported transform row basic_alias" \
  sh -c "'$bench' -list-impls | grep -q '^transform	basic_alias	none	yes	yes	'"

# Every table with a row of the portable transform must have a basic_alias
# row too: in the sanity-check output (which runs each row once) and in -list.
"$bench" -list > "$tmp/list" 2>&1
"$bench" -sanity-check -output-json="$tmp/sanity.json" > "$tmp/sanity.md" 2>&1 \
  || echo "    the sanity run failed: $(grep . "$tmp/sanity.md" | tail -1)"
check "-sanity-check and -list: basic_alias in every table the portable transform is in" \
  python3 - "$tmp/sanity.json" "$tmp/list" <<'EOF'
import json, sys
try:
    doc = json.load(open(sys.argv[1]))
    portable = [i["name"] for i in doc["implementations"] if i["family"] == "transform" and not i["needs"]][-1]
    rows = [r for r in doc["results"] if r["family"] == "transform" and r["status"] == "ok"]
    base = {r["name"].split("/")[0] for r in rows if r["impl"] == portable}
    alias = {r["name"].split("/")[0] for r in rows if r["impl"] == "basic_alias"}
    listed = {line.split("/")[0] for line in open(sys.argv[2]) if line.rstrip().endswith("/basic_alias")}
except (OSError, ValueError, LookupError, TypeError, AttributeError) as e:
    # One line, not a traceback: the bench's own message is in sanity.md.
    sys.exit(f"the sanity run wrote no usable JSON ({type(e).__name__}: {e})")
print(f"tables with {portable}:", sorted(base))
print("with basic_alias: ran", sorted(alias), "listed", sorted(listed))
sys.exit(0 if base and base == alias == listed else 1)
EOF

# check-order.py judges a measured run (it refuses sanity checks). A short one
# is noisy, so only its exit code 2 (cannot judge) fails here; what matters is
# that it read the extra row from the file and placed it in the order.
"$bench" -min-time=10 -rounds=3 -filter='SHA256_64B/.*' -output-json="$tmp/m.json" > /dev/null 2>&1
python3 "$top/contrib/check-order.py" "$tmp/m.json" > "$tmp/order" 2>&1; rc=$?
check "check-order.py compares basic_alias (exit $rc: 0 or 1 expected)" \
  sh -c "[ $rc -ne 2 ] && grep -q 'fastest first: .*basic_alias' '$tmp/order'"

echo "extra-row: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
