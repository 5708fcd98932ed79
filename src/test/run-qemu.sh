#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs test_bitcoin under qemu-user on CPU models that lack features this
# machine has, and checks that AutoDetect() picks what each model allows.
# Usage: run-qemu.sh [path/to/test_bitcoin]   (default: $TEST_BITCOIN, as make check sets)
#        BENCH_BITCOIN must name bench_bitcoin (make check sets it).
# Nothing here names a transform: under each model, `bench_bitcoin -list-impls`
# gives the registry rows with built/supported/selected; the expected pick of a
# family is its first row that is built and supported (registry order is the
# preference order), and test_bitcoin's AutoDetect() must agree.
# qemu 7.2 emulates neither SHA-NI nor AVX-512: rows needing them are checked natively only.
set -u
bin="${1:-${TEST_BITCOIN:-}}"
bench="${BENCH_BITCOIN:-}"
if [ -z "$bin" ] || [ -z "$bench" ]; then
  echo "run-qemu.sh: give test_bitcoin as argument or in TEST_BITCOIN, and bench_bitcoin in BENCH_BITCOIN" >&2
  exit 1
fi
# QEMU and QEMU_RUNS let ci/test-all.sh reuse this for other architectures:
# QEMU_RUNS is a list of MODEL or MODEL:HIDDEN (SHA256BENCH_HIDE_FEATURES for that run).
qemu="${QEMU:-${QEMU_X86_64:-}}"
[ -n "$qemu" ] || qemu=$(command -v qemu-x86_64 || true)
if [ -z "$qemu" ]; then
  echo "run-qemu.sh: qemu-x86_64 not found; install qemu-user (apt-get install qemu-user)" >&2
  exit 1
fi
runs="${QEMU_RUNS:-Nehalem SandyBridge Haswell,-bmi2 max}"
qemu_name=$(basename "$qemu")
if ! "$qemu" "$bench" -list-impls > /dev/null 2>&1; then
  echo "run-qemu.sh: '$bench -list-impls' failed under $qemu; it is how this script learns the registry" >&2
  "$qemu" "$bench" -list-impls 2>&1 | head -3 | sed 's/^/   | /' >&2
  echo "qemu CPU models: 0 passed, 1 failed"
  exit 1
fi

# expectations <list-impls output file>: checks the table's shape and prints
# "family pick<TAB>unsupported names" per family; returns 1 (with a reason on stderr) if malformed.
expectations() {
  awk -F '\t' '
    NF != 10 { printf "line %d has %d tab-separated fields, expected 10\n", NR, NF > "/dev/stderr"; bad = 1; next }
    $4 !~ /^(yes|no)$/ || $5 !~ /^(yes|no)$/ || $6 !~ /^(yes|no)$/ {
      printf "line %d: built/supported/selected must be yes or no\n", NR > "/dev/stderr"; bad = 1; next }
    {
      fam = $1
      if (!(fam in seen)) { seen[fam] = 1; order[++nf] = fam; unsup[fam] = "" }
      if ($4 == "yes" && $5 == "yes" && !(fam in pick)) pick[fam] = $2
      if ($5 == "no") unsup[fam] = unsup[fam] (unsup[fam] == "" ? "" : " ") $2
      if ($5 == "yes" && $4 == "no") { printf "%s/%s: supported but not built\n", fam, $2 > "/dev/stderr"; bad = 1 }
      if ($6 == "yes") { nsel[fam]++; sel[fam] = $2 }
    }
    END {
      if (nf == 0) { print "no registry rows" > "/dev/stderr"; exit 1 }
      for (i = 1; i <= nf; i++) {
        fam = order[i]
        if (!(fam in pick)) { printf "%s: no row is built and supported (the portable row must be)\n", fam > "/dev/stderr"; bad = 1; continue }
        if (nsel[fam] != 1) { printf "%s: %d rows marked selected, expected 1\n", fam, nsel[fam] + 0 > "/dev/stderr"; bad = 1; continue }
        if (sel[fam] != pick[fam]) { printf "%s: -list-impls marks %s selected, but the first built and supported row is %s\n", fam, sel[fam], pick[fam] > "/dev/stderr"; bad = 1 }
        printf "%s %s\t%s\n", fam, pick[fam], unsup[fam]
      }
      exit bad
    }' "$1"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail=0
# CPU models from no AVX to everything qemu emulates; the expectations come from the registry.
for run in $runs; do
  model=${run%%:*}
  hide=""
  [ "$model" = "$run" ] || hide=${run#*:}
  export SHA256BENCH_HIDE_FEATURES="$hide"
  [ -n "$hide" ] || unset SHA256BENCH_HIDE_FEATURES
  what="$qemu_name -cpu $model${hide:+ SHA256BENCH_HIDE_FEATURES=$hide}"
  tag=$(printf '%s' "$run" | tr ',:' '_-')
  log="qemu-$tag.log"
  reason=""
  "$qemu" -cpu "$model" "$bench" -list-impls > "$tmp/$tag.impls" 2> "$tmp/$tag.impls.err"
  rc=$?
  if [ $rc -ne 0 ]; then
    reason="bench_bitcoin -list-impls exited $rc under $what"
  elif ! expectations "$tmp/$tag.impls" > "$tmp/$tag.expect" 2> "$tmp/$tag.expect.err"; then
    reason="-list-impls under $what: $(head -1 "$tmp/$tag.expect.err")"
  fi
  if [ -n "$reason" ]; then
    echo "== $what"
    echo "   FAIL: $reason"
    fail=$((fail + 1))
    continue
  fi
  pick=$(awk -F '\t' '$1 ~ /^transform / { sub(/^transform /, "", $1); print $1 }' "$tmp/$tag.expect")
  unsupported=$(awk -F '\t' '$1 ~ /^transform / { print $2 }' "$tmp/$tag.expect")
  if [ -z "$pick" ]; then
    echo "== $what"
    echo "   FAIL: -list-impls has no 'transform' family"
    fail=$((fail + 1))
    continue
  fi
  echo "== $what: registry says AutoDetect()=$pick, unsupported: ${unsupported:-none}"
  awk -F '\t' '$1 !~ /^transform / { split($1, a, " "); printf "   family %s: selects %s\n", a[1], a[2] }' "$tmp/$tag.expect"
  # The CPU model must see the emulator (cpu_model_tests), and the bench say so above its tables.
  SHA256_EXPECT_AUTODETECT="$pick" SHA256_EXPECT_UNSUPPORTED="$unsupported" SHA256_CHECK_CASES="${SHA256_CHECK_CASES:-2000}" \
    SHA256_EXPECT_EMULATED=1 "$qemu" -cpu "$model" "$bin" --log_level=message --report_level=short --color_output=no > "$log" 2>&1
  rc=$?
  "$qemu" -cpu "$model" "$bench" -sanity-check -filter='^SHA256_1K/basic$' > "$tmp/$tag.bench" 2>&1
  if grep -q '^EMULATED CPU: ' "$tmp/$tag.bench" && grep -q '^### .*(EMULATED CPU: not measurements)$' "$tmp/$tag.bench"; then
    echo "   bench header: $(grep '^EMULATED CPU: ' "$tmp/$tag.bench" | cut -c1-110)"
  else
    echo "   bench_bitcoin under $what does not label its run emulated:" >> "$log"
    head -3 "$tmp/$tag.bench" >> "$log"
    rc=1
  fi
  grep -E "AutoDetect|has (passed|failed)|test cases? out of|error" "$log" | sed 's/^/   /'
  if [ $rc -eq 0 ] && ! grep -q "SIGILL" "$log"; then
    echo "   PASS ($log)"
    pass=$((pass + 1))
  else
    echo "   FAIL: test_bitcoin exited $rc under $what ($log)"
    tail -20 "$log" | sed 's/^/   | /'
    fail=$((fail + 1))
  fi
done
echo "qemu CPU models: $pass passed, $fail failed"
[ $fail -eq 0 ]
