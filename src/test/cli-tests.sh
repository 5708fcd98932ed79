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

# absent <pattern> <description>: the previous command's output must not contain pattern.
absent() {
  if grep -q -- "$1" "$tmp/out"; then
    fail=$((fail + 1)); echo "FAIL - $2 (found /$1/)"; grep -- "$1" "$tmp/out" | sed 's/^/     | /' | head -5
  else
    pass=$((pass + 1)); echo "ok   - $2"
  fi
}

# check <description> -- command...: passes when the command exits 0.
check() {
  what=$1; shift 2
  if "$@" > "$tmp/out" 2>&1; then
    pass=$((pass + 1)); echo "ok   - $what"
  else
    fail=$((fail + 1)); echo "FAIL - $what"; sed 's/^/     | /' "$tmp/out" | head -20
  fi
}

B=$BENCH_BITCOIN
# A quick run: one small table, one op per row.
QUICK="-sanity-check -filter=SHA256_64B/"

# Options: unknown, malformed, out of range, repeated, or with a stray value.
expect nonzero "unknown option" "bench: unknown option is rejected" -- "$B" -no-such-option
expect nonzero "unknown option" "bench: a bare word is rejected" -- "$B" list
expect nonzero "expected milliseconds" "bench: -min-time=abc is rejected" -- "$B" -min-time=abc
expect nonzero "expected milliseconds" "bench: -min-time=0 is rejected" -- "$B" -min-time=0
for v in ' +3' '+3' ' 3' '3 ' '-5' ' -18446744073709551615' '18446744073709551617' '99999999999999999999999' '1e3' '0x10' '1001' '0'; do
  expect nonzero "expected plain decimal" "bench: -rounds='$v' is rejected" -- "$B" $QUICK "-rounds=$v"
done
expect nonzero "needs a value" "bench: an empty -rounds= is rejected" -- "$B" $QUICK -rounds=
expect nonzero "expected milliseconds" "bench: -min-time=3600001 is rejected" -- "$B" $QUICK -min-time=3600001
expect nonzero "needs a value" "bench: -filter without a value is rejected" -- "$B" -filter
expect nonzero "more than once" "bench: a repeated option is rejected" -- "$B" $QUICK -rounds=3 -rounds=4
expect nonzero "more than once" "bench: a repeated flag is rejected" -- "$B" -sanity-check -sanity-check -filter=SHA256_64B/
for f in -help -list -list-impls -sanity-check; do
  expect nonzero "takes no value" "bench: $f=x is rejected" -- "$B" "$f=x"
done
expect nonzero "not a valid regular expression" "bench: a bad regex is rejected" -- "$B" "-filter=("
# std::regex backtracks: this filter had not finished after 40 s, with nothing printed.
expect nonzero "still matching the [0-9]* benchmark names after [0-9]* s" \
  "bench: a -filter that backtracks without end stops in seconds, saying why" -- timeout 30 "$B" -sanity-check "-filter=(.*.*)*X"
expect nonzero '^Error: -filter=a\\x0ab matches no benchmark' "bench: a -filter holding a newline is named on one line" -- \
  "$B" -sanity-check "-filter=$(printf 'a\nb')"
# -threads: 1..4 per CPU the process may run on, or all; each row also runs on N threads.
for v in 0 abc -1 ' 2' 2x 99999 1e3; do
  expect nonzero "expected 'all' or plain decimal" "bench: -threads='$v' is rejected" -- "$B" $QUICK "-threads=$v"
done
expect nonzero "needs a value" "bench: an empty -threads= is rejected" -- "$B" $QUICK -threads=
expect nonzero "more than once" "bench: a repeated -threads is rejected" -- "$B" $QUICK -threads=2 -threads=2
expect 0 "^Threads: 2 at once on CPUs " "bench: -threads=2 -sanity-check runs, the header says so" -- \
  "$B" $QUICK -threads=2 -output-json="$tmp/threads.json"
expect 0 "2 threads: MB/s | efficiency" "bench: ... and the table has the aggregate columns" -- "$B" $QUICK -threads=2
expect 0 "^Threads: .* at once on CPUs " "bench: -threads=all runs" -- "$B" $QUICK -threads=all
expect 0 '"efficiency_pct"' "bench: ... the JSON rows carry threads, aggregate MB/s and efficiency" -- cat "$tmp/threads.json"
# -place: every row's output alone in a mapping, that many bytes into its page.
for v in 8 4096 -16 x 16x ' 16'; do
  expect nonzero "expected bytes into a page" "bench: -place='$v' is rejected" -- "$B" $QUICK "-place=$v"
done
expect 0 "^Placement: every row's output alone in a mapping of its own, 1040 bytes into its page" \
  "bench: -place=1040 runs, the header says so" -- "$B" -sanity-check -filter='SHA256_(64B|D32B)/|SHA256D64_1024/' \
  -place=1040 -threads=2 -output-json="$tmp/place.json"
expect 0 "^| basic " "bench: a run without -place" -- "$B" $QUICK
absent "^Placement" "bench: ... has no Placement line"
if command -v python3 > /dev/null; then
check "bench: ... every measured row's output starts 1040 bytes into a page (the JSON, from its address)" -- \
  python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); r = [x for x in j["results"] if "samples_ns" in x]
assert j["options"]["place"] == 1040 and len(r) >= 3 and all(x["output_page_offset"] == 1040 for x in r), j' "$tmp/place.json"
fi
"$B" $QUICK > "$tmp/one-thread.md" 2>&1
expect 0 "^| Impl | median | spread | MB/s | cycles/byte | speed% | best cyc/B |\$" "bench: without -threads the table is as before" -- cat "$tmp/one-thread.md"
absent "Threads:" "bench: ... and the header has no Threads line"
# Tables counted in inputs, transactions or hashes add cycles per one of them.
UNITS="-filter=SHA256D64_1024/(basic|portable_16way)|MerkleRoot_9001/basic|TXIDS_3000/csha256_loop|SHA256_D32B/basic -rounds=1 -min-time=5"
"$B" $UNITS -output-json="$tmp/units.json" -output-csv="$tmp/units.csv" > "$tmp/units.md" 2>&1
for unit in input transaction hash; do
  expect 0 "^| Impl | median | spread | MB/s | cycles/byte | cycles/$unit |\( floor% |\)\{0,1\} speed% | best cyc/B |\$" \
    "bench: a table counted by the $unit has a cycles/$unit column" -- cat "$tmp/units.md"
done
# SHA-NI rows say how close they run to the SHA unit's floor: their
# sha256rnds2 x the unit's measured issue interval, over their cycles.
"$B" -list-impls > "$tmp/impls-floor.tsv" 2>&1
if awk -F '\t' '$1 == "d64" && $3 ~ /sha-ni/ && $5 == "yes" { found = 1 } END { exit !found }' "$tmp/impls-floor.tsv"; then
  "$B" -filter=SHA256D64_1024/ -rounds=1 -min-time=5 -output-json="$tmp/floor.json" > "$tmp/floor.md" 2>&1
  expect 0 "^| Impl | median | spread | MB/s | cycles/byte | cycles/input | floor% | speed%" \
    "bench: the D64 table has a floor% column on this SHA-NI CPU" -- cat "$tmp/floor.md"
  expect 0 "^SHA-NI floor: sha256rnds2 latency [0-9.]* core cycles .* takes one every [0-9.]* cycles" \
    "bench: ... and the header gives the SHA unit's latency and issue interval" -- cat "$tmp/floor.md"
  expect 0 "^SHA-NI block mix: .* as independent work they take [0-9.]* cycles, the rounds alone [0-9.]*, so the schedule costs \([0-9.]* a block beside them\|nothing measurable beside them ([0-9.]* less is the two timings' noise)\)\$" \
    "bench: ... and what a scheduled block's instruction mix costs beside the rounds" -- cat "$tmp/floor.md"
  expect 0 "^SHA-NI stream block: four streams .* take [0-9.]* cycles a block, [0-9.]* with every sha256msg2 an add on the same registers: sha256msg2 costs \([0-9.]* a block beyond an add there\|nothing measurable beyond an add there ([0-9.]* less is the two timings' noise)\)\$" \
    "bench: ... and what sha256msg2 costs in a stream kernel's chains, against an add" -- cat "$tmp/floor.md"
  expect 0 "^| [a-z0-9_]* | [^|]* | [^|]* | [^|]* | [^|]* | [0-9]* | [0-9.]*% |" \
    "bench: ... with a percentage on the SHA-NI rows" -- cat "$tmp/floor.md"
  if command -v python3 > /dev/null && [ -n "${TOP_SRCDIR:-}" ]; then
    expect 0 "json ok" "bench: ... floor_pct = sha256rnds2 per input x interval / cycles per input" -- \
      python3 "$TOP_SRCDIR/src/test/bench_output_check.py" json "$tmp/floor.json" --rounds=1 --mode=measured
  fi
else
  echo "skip - bench: floor% column (no D64 row of this build runs SHA-NI on this CPU)"
fi
expect 0 "^| portable_16way | [^|]* | [^|]* | [^|]* | [^|]* | \([0-9][0-9]*\|n/a\) |\( [0-9.]*% [LT] |\)\{0,1\} [0-9.]* | [^|]* |\$" \
  "bench: ... with a number on each measured row" -- cat "$tmp/units.md"
# Lane rows say how close they run to the vector unit's floor: the larger of
# their counted operations x the measured issue interval (T) and their longest
# chain x the measured latency (L), over their cycles. portable_16way runs
# everywhere; where no width is measured (no x86-64 TSC) the header says so.
if grep -q "^Lane floor: not measured" "$tmp/units.md"; then
  expect 0 "^| portable_16way | [^|]* | [^|]* | [^|]* | [^|]* | [^|]* | [0-9.]* |" \
    "bench: no lane floor measured, so no floor% on the lane rows" -- cat "$tmp/units.md"
else
  expect 0 "^Lane floor: 128-bit: [0-9.]* cycles a dependent operation, one every [0-9.]* in a round's mix" \
    "bench: the header gives the vector unit's latency and interval by register width" -- cat "$tmp/units.md"
  expect 0 "^| portable_16way | [^|]* | [^|]* | [^|]* | [^|]* | [0-9]* | [0-9.]*% [LT] |" \
    "bench: ... with a percentage and its bound on the lane rows" -- cat "$tmp/units.md"
  expect 0 '"floor_bound": "\(latency\|throughput\)"' "bench: ... and the JSON says which bound" -- cat "$tmp/units.json"
  if command -v python3 > /dev/null && [ -n "${TOP_SRCDIR:-}" ]; then
    expect 0 "json ok" "bench: ... floor_pct = max(ops x interval, chain x latency) / cycles per unit" -- \
      python3 "$TOP_SRCDIR/src/test/bench_output_check.py" json "$tmp/units.json" --rounds=1 --mode=measured
  fi
fi
expect nonzero "matches no benchmark" "bench: a filter matching nothing is an error" -- "$B" -filter=nothing-matches-this

# Output files: refused before any benchmark runs, never half-written.
expect nonzero "cannot write" "bench: an unwritable -output-csv is an error" -- "$B" $QUICK -output-csv=/nonexistent-dir/x.csv
expect nonzero "cannot write -output-json=/nonexistent-dir/x.json" "bench: an unwritable path fails before measuring" -- \
  "$B" -filter=SHA256_64B/ -min-time=2000 -output-json=/nonexistent-dir/x.json
absent "round 1/" "bench: ... and nothing was measured first"
if [ -e /dev/full ]; then
  expect nonzero "not a regular file" "bench: -output-csv=/dev/full is an error" -- "$B" $QUICK -output-csv=/dev/full
fi
expect nonzero "same file" "bench: -output-csv and -output-json naming one file is an error" -- \
  "$B" $QUICK -output-csv="$tmp/same.out" -output-json="$tmp/./same.out"
mkdir "$tmp/lim"
expect nonzero "cannot write -output-json=.*File too large" "bench: a file-size limit fails the write" -- \
  sh -c 'ulimit -f 2; exec "$@" > /dev/null' sh "$B" $QUICK -output-json="$tmp/lim/r.json"
check "bench: ... and leaves no file, whole or partial, behind" -- test -z "$(ls -A "$tmp/lim")"
expect nonzero "not a regular file" "bench: a directory as -output-json is an error" -- "$B" $QUICK -output-json="$tmp/lim"

# A run killed while its temporaries are reserved removes them and dies of the
# signal; the target is never created. env --default-signal undoes the SIGINT
# a non-interactive shell ignores for background jobs.
# killed <signal> <dir>: starts a long run writing into dir, kills it once its
# temporaries exist; prints the exit status.
killed() {
  env --default-signal="$1" "$B" -filter=SHA256_1M/basic -min-time=600000 -output-json="$2/r.json" \
    -output-csv="$2/r.csv" > /dev/null 2>&1 &
  kpid=$!
  n=0
  while [ "$(ls -A "$2" | grep -c '\.tmp\.')" -lt 2 ] && [ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done
  kill -s "$1" $kpid
  wait $kpid
  echo $?
}
if env --default-signal=INT true 2> /dev/null; then
  for signo in INT:2 TERM:15 HUP:1; do
    sig=${signo%:*}
    mkdir "$tmp/sig-$sig"
    rc=$(killed $sig "$tmp/sig-$sig")
    want=$((128 + ${signo#*:}))
    check "bench: killed by SIG$sig: no temporary left, no result file, exit $rc (want $want)" -- \
      sh -c '[ "$1" = "$2" ] && [ -z "$(ls -A "$3")" ]' sh "$rc" "$want" "$tmp/sig-$sig"
  done
  # Under nohup (SIGHUP ignored when it started) a hangup still does nothing.
  mkdir "$tmp/nohup"
  env --ignore-signal=HUP "$B" -filter=SHA256_1M/basic -min-time=600000 -output-json="$tmp/nohup/r.json" > /dev/null 2>&1 &
  kpid=$!
  n=0
  while ! ls -A "$tmp/nohup" | grep -q '\.tmp\.' && [ $n -lt 200 ]; do sleep 0.05; n=$((n + 1)); done
  kill -s HUP $kpid
  sleep 0.3
  check "bench: ... a SIGHUP ignored at start stays ignored (nohup)" -- kill -0 $kpid
  kill -s TERM $kpid
  wait $kpid
  check "bench: ... and SIGTERM then removes the temporary" -- test -z "$(ls -A "$tmp/nohup")"
else
  echo "skip - killed runs: this env has no --default-signal (coreutils 8.31 or later)"
fi
# A reader that stops early (| head) ends the run by SIGPIPE: no temporary left either.
mkdir "$tmp/pipe"
sh -c '"$@" 2> /dev/null; echo $? > "$0/../pipe.rc"' "$tmp/pipe" "$B" "-filter=SHA256_64B/|SHA256_1K/" -min-time=50 \
  -rounds=2 -output-json="$tmp/pipe/r.json" | head -c 1 > /dev/null
check "bench: stdout closed early (| head): exit $(cat "$tmp/pipe.rc") (SIGPIPE), no temporary left" -- \
  sh -c '[ "$(cat "$1")" = 141 ] && ! ls -A "$2" | grep -q "\.tmp\."' sh "$tmp/pipe.rc" "$tmp/pipe"

# Listings.
expect 0 "Usage" "bench: -help prints usage" -- "$B" -help
"$B" -list > "$tmp/list.txt" 2>&1
"$B" -list-impls > "$tmp/impls.tsv" 2>&1
expect 0 "^transform	" "bench: -list-impls prints the transform registry" -- cat "$tmp/impls.tsv"
expect 0 "_1M/" "bench: -list names the benchmarks" -- cat "$tmp/list.txt"
expect 0 "." "bench: -list with every feature hidden" -- env SHA256BENCH_HIDE_FEATURES=all "$B" -list
absent "not run: not run" "bench: -list says 'not run' once"
# -list honours -filter as a run does: a bad or empty filter fails, a good one lists its table only.
expect nonzero "not a valid regular expression" "bench: -list with an invalid -filter fails" -- "$B" -list "-filter=("
expect nonzero "matches no benchmark" "bench: -list with a -filter matching nothing fails" -- "$B" -list -filter=no_such_bench
expect 0 "^SHA256_1M/basic" "bench: -list -filter=SHA256_1M/ lists that table" -- "$B" -list -filter=SHA256_1M/
absent "^SHA256_1K/" "bench: ... and no other"
expect 0 "." "bench: -list-impls with every feature hidden" -- env SHA256BENCH_HIDE_FEATURES=all "$B" -list-impls
# The AVX-512 rows' byte swaps are vpshufb: with avx512bw hidden alone, every one
# of them is not run and names it (or, in a build without them, is not built).
env SHA256BENCH_HIDE_FEATURES=avx512bw "$B" -list > "$tmp/no-bw.txt" 2>&1
check "bench: with avx512bw hidden, every AVX-512 row says the CPU lacks it" -- awk '/avx512_/ { n++; if ($0 !~ /# not run: CPU lacks [a-z0-9 ]*avx512bw/ && $0 !~ /# not built/) bad++ }
  END { exit !(n > 0 && bad == 0) }' "$tmp/no-bw.txt"

# SHA256BENCH_SHANI_OVERLAP replaces the measured SHA-NI overlap: malformed
# values stop the program; 4 puts the wide_sha rows (column 10) first, 2 and 2.9
# put them ahead of the other SHA-NI rows (column 3 names sha-ni) but not first,
# 1.6 keeps the registry order (listed rows include those not built, so this
# holds in every build).
for v in abc -1 1e3 '' 65 ' 4' 4x 0x4; do
  expect nonzero "SHA256BENCH_SHANI_OVERLAP: '$v' is not a decimal" "bench: SHA256BENCH_SHANI_OVERLAP='$v' is rejected" -- \
    env SHA256BENCH_SHANI_OVERLAP="$v" "$B" -list-impls
done
# wide_lead <family>: exits 0 when the family's wide_sha rows (column 10) are
# its first rows and there is one; first_not_wide <family>: when its first row is not one.
wide_lead() {
  awk -F '\t' -v f="$1" '$1 == f { ++n; if ($10 == "yes") { ++w; if (n == w) ++lead } }
    END { printf "%s: %d wide_sha rows, %d of them first\n", f, w, lead; exit !(w > 0 && lead == w) }' "$tmp/order.tsv"
}
first_not_wide() {
  awk -F '\t' -v f="$1" '$1 == f && !done { done = 1; printf "%s: first row %s, wide_sha %s\n", f, $2, $10; bad = $10 == "yes" }
    END { exit !done || bad }' "$tmp/order.tsv"
}
# streams_lead <family> yes|no: exits 0 when the family's wide_sha rows are (yes)
# or are not (no) together ahead of its other SHA-NI rows.
streams_lead() {
  awk -F '\t' -v f="$1" -v want="$2" '$1 == f { ++n
      if ($10 == "yes") { ++w; if (other || (w > 1 && last != n - 1)) apart = 1; last = n } else if ($3 ~ /sha-ni/) other = 1 }
    END { lead = w > 0 && !apart; printf "%s: %d wide_sha rows, %s the other SHA-NI rows\n", f, w, lead ? "together ahead of" : "not all ahead of"
      exit !(w > 0 && (lead ? "yes" : "no") == want) }' "$tmp/order.tsv"
}
env SHA256BENCH_SHANI_OVERLAP=4 "$B" -list-impls > "$tmp/order.tsv" 2>&1
check "bench: overlap 4 puts the wide_sha rows first in d64" -- wide_lead d64
check "bench: ... and in multi" -- wide_lead multi
for v in 2 2.9; do
  env SHA256BENCH_SHANI_OVERLAP=$v "$B" -list-impls > "$tmp/order.tsv" 2>&1
  check "bench: overlap $v keeps the first row of d64 (not wide_sha)" -- first_not_wide d64
  check "bench: ... and of multi" -- first_not_wide multi
  check "bench: overlap $v puts the wide_sha rows ahead of the other SHA-NI rows in d64" -- streams_lead d64 yes
  check "bench: ... and in multi" -- streams_lead multi yes
done
# Each family's lower threshold is its own: D64's 1.2, the multi-buffer one's 1.7.
env SHA256BENCH_SHANI_OVERLAP=1.6 "$B" -list-impls > "$tmp/order.tsv" 2>&1
check "bench: overlap 1.6 puts the wide_sha rows ahead of the other SHA-NI rows in d64" -- streams_lead d64 yes
check "bench: ... and keeps the registry order in multi (a SHA-NI row before a wide_sha row)" -- streams_lead multi no
check "bench: ... and the first row of d64" -- first_not_wide d64
check "bench: ... and of multi" -- first_not_wide multi
env SHA256BENCH_SHANI_OVERLAP=1.1 "$B" -list-impls > "$tmp/order.tsv" 2>&1
check "bench: overlap 1.1 keeps the registry order in d64" -- streams_lead d64 no
check "bench: ... and in multi" -- streams_lead multi no
# The header line is the CPU model's reading with its reason (cpu::Describe),
# then which rows the rules on it move, named from the registries' rows.
expect 0 "^SHA-NI overlap: 4.00 sha256rnds2 at once (latency / issue interval, set by SHA256BENCH_SHANI_OVERLAP); at least 3, so d64: shani_5way, shani_4way, shani_3way lead every row; multi: shani_4way, shani_2way lead every row$" \
  "bench: the header says which overlap ordered the rows" -- env SHA256BENCH_SHANI_OVERLAP=4 "$B" $QUICK
expect 0 "^SHA-NI overlap: 2.00 sha256rnds2 at once (latency / issue interval, set by SHA256BENCH_SHANI_OVERLAP); at least 1.7, below 3, so d64: shani_5way, shani_4way, shani_3way lead the sha-ni rows; multi: shani_4way, shani_2way lead the sha-ni rows$" \
  "bench: ... and in the middle band" -- env SHA256BENCH_SHANI_OVERLAP=2 "$B" $QUICK
expect 0 "^SHA-NI overlap: 1.50 sha256rnds2 at once (latency / issue interval, set by SHA256BENCH_SHANI_OVERLAP); at least 1.2, below 1.7, so d64: shani_5way, shani_4way, shani_3way lead the sha-ni rows$" \
  "bench: ... and between the two families' lower thresholds" -- env SHA256BENCH_SHANI_OVERLAP=1.5 "$B" $QUICK
# An override of 0 is reported as set (not as "no SHA-NI"), with the order it gives.
expect 0 "^SHA-NI overlap: 0.00 sha256rnds2 at once (latency / issue interval, set by SHA256BENCH_SHANI_OVERLAP); below 1.2, so the listed orders$" \
  "bench: SHA256BENCH_SHANI_OVERLAP=0 is reported as set" -- env SHA256BENCH_SHANI_OVERLAP=0 "$B" $QUICK
expect 0 "^SHA-NI overlap: none (no SHA-NI on this CPU or in this build); the listed orders$" \
  "bench: with SHA-NI hidden and no override, the header says there is none" -- env SHA256BENCH_HIDE_FEATURES=sha-ni "$B" $QUICK

# SHA256BENCH_LOOP_ITERATION replaces the one-add loop's reading (one core cycle
# an iteration on a core this thread has alone; 1.25 or more: another hardware
# thread used it). A shared core is said under each table, with the reading;
# a lone one, or one just under the threshold, says nothing; malformed values stop.
expect 0 "^Shared core: a one-add loop's core cycles an iteration were 2.00 beside every row (1 where this thread has the core alone; 1.25 or more: another hardware thread used the core)" \
  "bench: a shared core is said under the table" -- env SHA256BENCH_LOOP_ITERATION=2 "$B" $QUICK
expect 0 "^Shared core: a one-add loop's core cycles an iteration were 1.25 beside every row" \
  "bench: ... from the threshold on" -- env SHA256BENCH_LOOP_ITERATION=1.25 "$B" $QUICK
for v in 1 1.24; do
  expect 0 "^| basic " "bench: SHA256BENCH_LOOP_ITERATION=$v runs" -- env SHA256BENCH_LOOP_ITERATION=$v "$B" $QUICK
  absent "Shared core" "bench: ... and says no shared core"
done
if command -v python3 > /dev/null; then
env SHA256BENCH_LOOP_ITERATION=2 "$B" $QUICK -output-json="$tmp/loop.json" > /dev/null 2>&1
check "bench: the JSON gives the machine and each row the loop's reading" -- \
  python3 -c 'import json, sys; j = json.load(open(sys.argv[1])); r = [x for x in j["results"] if "samples_ns" in x]
assert j["machine"]["loop_iteration_cycles"] == 2 and r and all(x["loop_iteration_cycles"] == 2 and x["loop_iteration_samples"] == [] for x in r), j' "$tmp/loop.json"
fi
expect nonzero "SHA256BENCH_LOOP_ITERATION: 'x' is not a decimal" "bench: SHA256BENCH_LOOP_ITERATION='x' is rejected" -- \
  env SHA256BENCH_LOOP_ITERATION=x "$B" $QUICK

# SHA256BENCH_AVX512_ADD_DEPTH replaces the measured depth of 512-bit adds: 8
# lists avx512_32way (two registers of lanes a word) right before avx512_16way,
# 2 right after it, in the D64 and the multi family alike (listed rows include
# those not built: every build).
for v in abc -1 1e3 '' 65 ' 8' 8x; do
  expect nonzero "SHA256BENCH_AVX512_ADD_DEPTH: '$v' is not a decimal" "bench: SHA256BENCH_AVX512_ADD_DEPTH='$v' is rejected" -- \
    env SHA256BENCH_AVX512_ADD_DEPTH="$v" "$B" -list-impls
done
# family_pair FAMILY: that family's two AVX-512 rows in listed order, one line.
family_pair() {
  awk -F '\t' -v f="$1" '$1 == f && $2 ~ /^avx512_(16|32)way$/ { printf "%s%s", sep, $2; sep = " " } END { print "" }' "$tmp/order.tsv"
}
multi_pair() { family_pair multi; }
env SHA256BENCH_AVX512_ADD_DEPTH=8 "$B" -list-impls > "$tmp/order.tsv" 2>&1
expect 0 "^avx512_32way avx512_16way$" "bench: add depth 8 lists avx512_32way right before avx512_16way" -- multi_pair
expect 0 "^avx512_32way avx512_16way$" "bench: ... in the D64 family too" -- family_pair d64
env SHA256BENCH_AVX512_ADD_DEPTH=2 "$B" -list-impls > "$tmp/order.tsv" 2>&1
expect 0 "^avx512_16way avx512_32way$" "bench: add depth 2 lists it right after" -- multi_pair
expect 0 "^avx512_16way avx512_32way$" "bench: ... in the D64 family too" -- family_pair d64
expect 0 "^AVX-512 add depth: 8.00 512-bit adds at once (latency / issue interval, set by SHA256BENCH_AVX512_ADD_DEPTH); at least 6, so d64: avx512_48way, avx512_32way lead the avx512f avx512bw avx512vl rows; multi: avx512_32way leads the avx512f avx512bw avx512vl rows$" \
  "bench: the header says which depth ordered the AVX-512 rows" -- env SHA256BENCH_AVX512_ADD_DEPTH=8 "$B" $QUICK
# avx512_48way (three registers of lanes a word) leads the D64 family's AVX-512
# rows from a depth of 6, and keeps its listed place, after the other two, below.
d64_three() {
  awk -F '\t' '$1 == "d64" && $2 ~ /^avx512_(16|32|48)way$/ { printf "%s%s", sep, $2; sep = " " } END { print "" }' "$tmp/order.tsv"
}
for v in 8:"avx512_48way avx512_32way avx512_16way" 6:"avx512_48way avx512_32way avx512_16way" \
         5.99:"avx512_32way avx512_16way avx512_48way" 2:"avx512_16way avx512_32way avx512_48way"; do
  env SHA256BENCH_AVX512_ADD_DEPTH="${v%%:*}" "$B" -list-impls > "$tmp/order.tsv" 2>&1
  expect 0 "^${v#*:}$" "bench: add depth ${v%%:*} lists the D64 family's AVX-512 rows as ${v#*:}" -- d64_three
done
expect 0 "^AVX-512 add depth: 5.00 512-bit adds at once (latency / issue interval, set by SHA256BENCH_AVX512_ADD_DEPTH); at least 4, below 6, so d64: avx512_32way leads the avx512f avx512bw avx512vl rows; multi: avx512_32way leads the avx512f avx512bw avx512vl rows$" \
  "bench: ... and between the two rules' depths the header names the one rule that holds" -- env SHA256BENCH_AVX512_ADD_DEPTH=5 "$B" $QUICK
# A depth of 0, set or absent, puts avx512_32way behind avx512_16way: the header says that order, and how the 0 came.
env SHA256BENCH_AVX512_ADD_DEPTH=0 "$B" -list-impls > "$tmp/order.tsv" 2>&1
expect 0 "^avx512_16way avx512_32way$" "bench: add depth 0 lists avx512_32way right after avx512_16way" -- multi_pair
expect 0 "^AVX-512 add depth: 0.00 512-bit adds at once (latency / issue interval, set by SHA256BENCH_AVX512_ADD_DEPTH); below 4, so the listed orders$" \
  "bench: SHA256BENCH_AVX512_ADD_DEPTH=0 is reported as set, with that order" -- env SHA256BENCH_AVX512_ADD_DEPTH=0 "$B" $QUICK
expect 0 "^AVX-512 add depth: none (no AVX-512 on this CPU or in this build); the listed orders$" \
  "bench: with every feature hidden, the header says there is none and the order that gives" -- env SHA256BENCH_HIDE_FEATURES=all "$B" $QUICK

# A full sanity run with every output format.
expect 0 "| Impl | median | spread |" "bench: -sanity-check prints the tables" -- \
  "$B" -sanity-check -output-csv="$tmp/b.csv" -output-json="$tmp/b.json"
expect 0 "_1M/" "bench: CSV written" -- cat "$tmp/b.csv"
expect 0 '"results"' "bench: JSON written" -- cat "$tmp/b.json"
# Every feature hidden: all but the portable rows are "not run", saying why once.
# The 64-byte table's transforms built but hidden say "CPU lacks"; with none built
# (portable-only builds) they say "not built".
env SHA256BENCH_HIDE_FEATURES=all "$B" -list-impls > "$tmp/hidden-impls.tsv" 2>&1
if awk -F '\t' '$1 == "transform" && $4 == "yes" && $5 == "no" { found = 1 } END { exit !found }' "$tmp/hidden-impls.tsv"; then
  hidden_reason="not run: CPU lacks"
else
  hidden_reason="not built"
fi
expect 0 "$hidden_reason" "bench: hidden features give not-run rows with the registry's reason" -- \
  env SHA256BENCH_HIDE_FEATURES=all "$B" $QUICK -output-json="$tmp/hidden.json"
absent "not run: not" "bench: ... and the table says 'not run' once"

if command -v python3 >/dev/null && [ -n "${TOP_SRCDIR:-}" ]; then
  C="$TOP_SRCDIR/src/test/bench_output_check.py"
  expect 0 "impls ok" "bench: -list-impls rows are well formed; -list and AutoDetect follow them" -- python3 "$C" impls "$tmp/impls.tsv" "$tmp/list.txt"
  env SHA256BENCH_HIDE_FEATURES=all "$B" -list > "$tmp/list0.txt" 2>&1
  env SHA256BENCH_HIDE_FEATURES=all "$B" -list-impls > "$tmp/impls0.tsv" 2>&1
  expect 0 "impls ok" "bench: ... also with every feature hidden" -- python3 "$C" impls "$tmp/impls0.tsv" "$tmp/list0.txt"
  expect 0 "json ok" "bench: sanity JSON follows the schema" -- python3 "$C" json "$tmp/b.json" --rounds=1 --mode=sanity-check
  expect 0 "csv ok" "bench: CSV holds the JSON's rows" -- python3 "$C" csv "$tmp/b.csv" "$tmp/b.json"
  # An emulator run is marked in the header, every table title and the JSON.
  expect 0 "^EMULATED CPU: SHA256BENCH_EMULATED=cli-test" "bench: SHA256BENCH_EMULATED marks the header" -- \
    env SHA256BENCH_EMULATED=cli-test "$B" $QUICK -output-json="$tmp/emu.json"
  expect 0 "^### .* (EMULATED CPU: not measurements)" "bench: ... and every table title" -- \
    env SHA256BENCH_EMULATED=cli-test "$B" $QUICK
  expect 0 "json ok" "bench: ... the JSON's machine.emulated" -- python3 "$C" json "$tmp/emu.json" --emulated=yes
  # A VM that shows the process another brand than the kernel's (seen:
  # "Oxide Virtual Turin-like Processor" against "AMD EPYC") is a real CPU:
  # this machine's /proc/cpuinfo with its model name changed, same flags.
  if [ -r /proc/cpuinfo ] && [ -z "${SHA256BENCH_EMULATED:-}" ]; then
    sed 's/^\(model name[[:space:]]*:\).*/\1 Renamed Virtual CPU-like Processor/' /proc/cpuinfo > "$tmp/renamed.cpuinfo"
    "$B" $QUICK > "$tmp/native.out" 2>&1
    if grep -q '^EMULATED CPU: ' "$tmp/native.out"; then
      echo "skip - bench: a renamed CPU is not called emulated (this machine itself is: $(grep '^EMULATED CPU: ' "$tmp/native.out" | cut -c1-100))"
    else
      expect 0 "^Mode: " "bench: a CPU whose kernel model name is not CPUID's brand runs unlabelled" -- \
        env SHA256BENCH_CPUINFO="$tmp/renamed.cpuinfo" "$B" $QUICK -output-json="$tmp/renamed.json"
      absent "EMULATED" "bench: ... no EMULATED line or title"
      expect 0 "json ok" "bench: ... and machine.emulated is null" -- python3 "$C" json "$tmp/renamed.json" --emulated=no
    fi
  fi
  expect 0 "^Mode: " "bench: SHA256BENCH_EMULATED=0 overrides a verdict of emulation" -- \
    env SHA256BENCH_EMULATED=0 "$B" $QUICK -output-json="$tmp/emu0.json"
  absent "EMULATED" "bench: ... no EMULATED line or title"
  expect 0 "json ok" "bench: ... and machine.emulated is null" -- python3 "$C" json "$tmp/emu0.json" --emulated=no
  expect 0 "json ok" "bench: not-run rows carry one reason, no numbers" -- python3 "$C" json "$tmp/hidden.json"
  "$B" -filter=SHA256_64B/ -rounds=3 -min-time=30 -output-json="$tmp/m.json" -output-csv="$tmp/m.csv" > /dev/null 2>&1
  expect 0 "json ok" "bench: measured JSON: every round's sample; median-derived MB/s, cycles, speed%" -- \
    python3 "$C" json "$tmp/m.json" --rounds=3 --mode=measured
  expect 0 "csv ok" "bench: measured CSV holds the JSON's rows" -- python3 "$C" csv "$tmp/m.csv" "$tmp/m.json"
  "$B" -filter=SHA256_64B/ -rounds=1 -min-time=5 -threads=2 -output-json="$tmp/t.json" -output-csv="$tmp/t.csv" > /dev/null 2>&1
  expect 0 "csv ok" "bench: -threads=2 CSV has the JSON's threads, aggregate MB/s and efficiency" -- \
    python3 "$C" csv "$tmp/t.csv" "$tmp/t.json"
  expect 0 ',2,[0-9.][0-9.]*,[0-9.][0-9.]*,"",,,,,,,,$' "bench: ... filled in on measured rows" -- cat "$tmp/t.csv"
  expect 0 "json ok" "bench: cycles per input, transaction or hash are cycles per op / units per op" -- \
    python3 "$C" json "$tmp/units.json" --rounds=1 --mode=measured
  expect 0 "csv ok" "bench: ... and the CSV has the JSON's unit and cycles per unit" -- python3 "$C" csv "$tmp/units.csv" "$tmp/units.json"
  # The environment may hold bytes that are not UTF-8; the JSON stays valid.
  env OPENSSL_ia32cap="$(printf '\377\376x')" "$B" $QUICK -output-json="$tmp/u.json" > /dev/null 2>&1
  expect 0 "json ok" "bench: JSON is valid UTF-8 with a non-UTF-8 OPENSSL_ia32cap" -- python3 "$C" json "$tmp/u.json"
  # check-order.py: consistent timings pass; the baseline made 10x faster contradicts every other row.
  expect 0 "fixtures ok" "check-order.py fixtures from the registry" -- \
    python3 "$C" order-fixtures "$tmp/b.json" "$tmp/good.json" "$tmp/bad.json" "$tmp/order-info"
  expect 0 "consistent with this machine" "check-order.py: a consistent run passes" -- python3 "$TOP_SRCDIR/contrib/check-order.py" "$tmp/good.json"
  read -r base others < "$tmp/order-info"
  if [ "$others" -gt 0 ]; then
    expect nonzero "registry prefers .* over $base" "check-order.py: a contradicting run is flagged" -- python3 "$TOP_SRCDIR/contrib/check-order.py" "$tmp/bad.json"
  else
    echo "skip - check-order.py contradiction case: no transform besides $base ran in this build (portable only)"
  fi
fi

# Every file the kernel table names (each line names its kernel's file, which
# test_bitcoin's kernel_table_tests holds to the naming rule) is in
# src/crypto, is built (src/Makefile.am names it), and defines a kernel of the
# set its line names (the function sha256::kernel::<set>_<shape> in C++,
# sha256_<set>_<shape> in assembly; a line whose file does not is caught).
if [ -n "${TOP_SRCDIR:-}" ]; then
  K="$TOP_SRCDIR/src/crypto/sha256_kernels.h"
  sed -n 's/^ *Make[A-Za-z]*("\([a-z0-9_]*\)", "\(sha256_[a-z0-9_]*\.\(cpp\|asm\)\)".*/\1 \2/p' "$K" > "$tmp/kernel-files"
  # table_files <table>: for each "<set> <file>" line, the set's kernel is defined in the file.
  table_files() {
    n=0 bad=0
    while read -r set file; do
      n=$((n + 1))
      f="$TOP_SRCDIR/src/crypto/$file"
      if [ ! -f "$f" ]; then echo "$set: $file does not exist"; bad=1; continue; fi
      grep -q "crypto/$file" "$TOP_SRCDIR/src/Makefile.am" || { echo "$set: $file is not in src/Makefile.am"; bad=1; }
      # The assembly of many widths makes its names with a macro ("HASH32_FUNCTION 4"
      # for shani_4way); the test-only basic_alias is basic's transform.
      ways=$(printf '%s' "$set" | sed -n 's/.*_\([0-9]*\)way.*/\1/p')
      fn=${set%_alias}
      grep -Eq "(kernel::${fn}_[a-z0-9]*\(|sha256_${fn}_[a-z0-9]*)" "$f" \
        || { [ -n "$ways" ] && grep -Eq "^[A-Z0-9_]+_FUNCTION $ways\$" "$f"; } \
        || { echo "$set: $file defines none of its kernels"; bad=1; }
    done < "$1"
    echo "$n kernel lines, each file found"
    [ "$bad" = 0 ] && [ "$n" -gt 20 ]
  }
  check "kernel table: every file a line names exists, is built and defines the set's kernel" -- table_files "$tmp/kernel-files"
  sed 's/ sha256_sse41\.cpp$/ sha256_avx2.cpp/' "$tmp/kernel-files" > "$tmp/kernel-files-bad"
  expect nonzero "sse41_4way: sha256_avx2.cpp defines none of its kernels" "kernel table: ... and a line naming the wrong file is caught" -- \
    table_files "$tmp/kernel-files-bad"
fi

# Numbers in one place: no comment under src/ carries a measured cycle count
# or percentage (they live in doc/results/, dated, per machine), and the
# family docs' current-order tables are what doc/results/*.json give
# (contrib/order-tables.py); a comment with a measurement, or a hand edit of a
# generated table, fails.
if [ -n "${TOP_SRCDIR:-}" ] && command -v python3 > /dev/null; then
  N="$TOP_SRCDIR/src/test/measured_numbers_check.py"
  expect 0 "no comment carries a cycle count or a percentage" "numbers: no comment under src/ carries a cycle count or a percentage" -- \
    python3 "$N" "$TOP_SRCDIR/src"
  mkdir -p "$tmp/numbers/src/crypto"
  printf '// SPDX-License-Identifier: MIT\n// The rounds take ~145 cycles an input on Zen 4.\nint x; // 3.6%% faster\nconst char* s = "100%%";\n' \
    > "$tmp/numbers/src/crypto/k.cpp"
  expect nonzero "k.cpp:2: .*k.cpp:3: .*2 comment lines" "numbers: ... and a comment with a measurement is caught (the string is not)" -- \
    sh -c 'python3 "$1" "$2" | tr "\n" " "; exit "$(python3 "$1" "$2" > /dev/null; echo $?)"' - "$N" "$tmp/numbers/src"
  if [ -d "$TOP_SRCDIR/doc/results" ]; then
    O="$TOP_SRCDIR/contrib/order-tables.py"
    expect 0 "4 docs match" "numbers: the family docs' order tables are generated from doc/results/*.json" -- python3 "$O" --check
    mkdir -p "$tmp/docs"
    cp "$TOP_SRCDIR"/doc/transforms.md "$TOP_SRCDIR"/doc/d64.md "$TOP_SRCDIR"/doc/multi.md "$TOP_SRCDIR"/doc/arm.md "$tmp/docs/"
    sed -i 's/| `2026-11-27-amd-epyc-zen5` \(.*\)avx512_16way 125,/| `2026-11-27-amd-epyc-zen5` \1avx512_16way 120,/' "$tmp/docs/d64.md"
    expect nonzero "d64.md: the current-order table differs" "numbers: ... and a hand edit of one is caught" -- \
      python3 "$O" --check --docs="$tmp/docs" --results="$TOP_SRCDIR/doc/results"
  else
    echo "skip - numbers: the order tables (no doc/results in this tree)"
  fi
fi

# The one ABBA pair loop of the A/B drivers (build-aux/ab-pairs.sh): odd pairs
# run BASE first, even ones HEAD first; the per-pair hook follows each pair; a
# failing run stops the loop with its status.
if [ -n "${TOP_SRCDIR:-}" ]; then
  abba() { # abba [<pair><side> whose run fails]
    # shellcheck disable=SC1091
    . "$TOP_SRCDIR/build-aux/ab-pairs.sh"
    seen= fail_at=${1:-}
    ab_run() { seen="$seen $1$2"; [ "$1$2" != "$fail_at" ]; }
    ab_after() { seen="$seen |"; }
    ab_pairs 1 4 ab_run ab_after; rc=$?
    echo "order:$seen rc=$rc"
  }
  expect 0 "^order: 1base 1head | 2head 2base | 3base 3head | 4head 4base | rc=0$" "ab-pairs: ABBA order, the hook after each pair" -- abba
  expect 0 "^order: 1base 1head | 2head 2base rc=1$" "ab-pairs: ... and a failing run stops the loop" -- abba 2base
fi

# The placement preload of contrib/core-patch.sh --ab (build-aux/ab-place.c,
# compiled here with -Wall -Wextra -Werror): a large allocation starts at the
# offset asked for, a freed one is reused for the same size, calloc zeroes a
# reused block, realloc keeps the bytes, small ones stay glibc's; below the
# threshold glibc places it. ab_fresh preloads it into the run alone, with
# the pair's offset (ab_place_offset: 16, 32, 48 and 0 mod 64 in pairs 1-4).
if [ -n "${TOP_SRCDIR:-}" ]; then
  cat > "$tmp/place_probe.c" << 'EOF_PLACE'
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(void)
{
    const size_t big = (size_t)8 << 20;
    unsigned char* p = malloc(big);
    if (!p) return 1;
    memset(p, 0xab, big);
    printf("offset=%lu\n", (unsigned long)((uintptr_t)p % 4096));
    free(p);
    unsigned char* q = malloc(big);
    printf("reused=%s\n", q == p ? "yes" : "no");
    free(q);
    unsigned char* z = calloc(1, big);
    if (!z) return 1;
    size_t nonzero = 0;
    for (size_t i = 0; i < big; ++i) nonzero += z[i] != 0;
    printf("calloc_zero=%s\n", nonzero ? "no" : "yes");
    memset(z, 7, big);
    unsigned char* r = realloc(z, big + 4096);
    printf("realloc_keeps=%s\n", r && r[0] == 7 && r[big - 1] == 7 ? "yes" : "no");
    free(r);
    char* s = malloc(100);
    printf("small_glibc=%s\n", s && malloc_usable_size(s) >= 100 ? "yes" : "no");
    free(s);
    return 0;
}
EOF_PLACE
  if cc -O2 -Wall -Wextra -Werror -shared -fPIC -o "$tmp/ab-place.so" "$TOP_SRCDIR/build-aux/ab-place.c" > "$tmp/out" 2>&1 \
     && cc -O2 -o "$tmp/place_probe" "$tmp/place_probe.c" >> "$tmp/out" 2>&1; then
    probe() { env LD_PRELOAD="$tmp/ab-place.so" "$@" "$tmp/place_probe" | tr '\n' ' '; }
    expect 0 "^offset=2160 reused=yes calloc_zero=yes realloc_keeps=yes small_glibc=yes $" \
      "ab-place: a large buffer at the offset asked for, reused, zeroed by calloc, kept by realloc; small ones glibc's" \
      -- probe AB_PLACE_OFFSET=0x870
    expect 0 "^offset=0 reused=yes " "ab-place: ... at offset 0" -- probe AB_PLACE_OFFSET=0
    expect 0 "^offset=16 " "ab-place: ... and below AB_PLACE_MIN glibc's own placement (a mapping's 16)" \
      -- probe AB_PLACE_OFFSET=0x870 AB_PLACE_MIN=0x10000000
    placed_run() { # the environment ab_fresh gives a stand-in binary, with and without AB_PLACE_SO
      # shellcheck disable=SC1091
      . "$TOP_SRCDIR/build-aux/ab-pairs.sh"
      printf '#!/bin/sh\necho "run: LD_PRELOAD=${LD_PRELOAD:-} AB_PLACE_OFFSET=${AB_PLACE_OFFSET:-}"\n' > "$tmp/standin"
      chmod +x "$tmp/standin"
      AB_PLACE_SO=$tmp/ab-place.so AB_PLACE_OFFSET=$(ab_place_offset 2) ab_fresh "$tmp" "$tmp/standin"
      AB_PLACE_SO= ab_fresh "$tmp" "$tmp/standin"
      echo "offsets: $(ab_place_offset 1) $(ab_place_offset 2) $(ab_place_offset 3) $(ab_place_offset 4)"
      echo "after: LD_PRELOAD=${LD_PRELOAD:-}"
    }
    expect 0 "^run: LD_PRELOAD=$tmp/ab-place.so AB_PLACE_OFFSET=2080$" "ab-pairs: ab_fresh preloads the placement into the run with the pair's offset" -- placed_run
    expect 0 "^run: LD_PRELOAD= AB_PLACE_OFFSET=$" "ab-pairs: ... and nothing without AB_PLACE_SO" -- placed_run
    expect 0 "^offsets: 1040 2080 3120 64$" "ab-pairs: the pairs' offsets (16, 32, 48 and 0 mod 64)" -- placed_run
    expect 0 "^after: LD_PRELOAD=$" "ab-pairs: ... and the driver's own environment keeps no preload" -- placed_run
  else
    fail=$((fail + 1)); echo "FAIL - ab-place: cannot compile build-aux/ab-place.c or its probe with cc"; sed 's/^/     | /' "$tmp/out" | head -10
  fi
fi

# The one build cache of the A/B drivers (build-aux/build-cache.sh), with a
# stand-in build: an entry appears whole or not at all (a killed build, a
# failed one or one without its artifact leaves none that looks complete, and
# the next run builds again), a complete entry is reused, a directory at the
# key with another stamp (a key collision) or none is built again, and two
# runs building one key at once build it once.
if [ -n "${TOP_SRCDIR:-}" ] && command -v flock > /dev/null && command -v setsid > /dev/null; then
  bcr=$tmp/bcache
  mkdir -p "$bcr"
  # bc.sh <key> <stamp> <how>: build_cache under $bcr with a stand-in build
  # that appends "<key> <how>" to $bcr/builds, then per <how>: ok makes the
  # artifact bin/tool; slow touches <key>.started and does so once <key>.go
  # is there (10 s at most); fail stops with one line;
  # none makes nothing; killed makes the artifact, touches <key>.killed and
  # kills its process group (run it under setsid: the run is killed there,
  # mid-build, as by a ^C or a lost session). Prints "rc=N" last.
  cat > "$tmp/bc.sh" << 'EOF_BC'
. "$TOP_SRCDIR/build-aux/build-cache.sh"
BUILD_CACHE_PREFIX="bc: "
stand_in() {
  echo "$1 $2" >> "$bcr/builds"
  case $2 in
    fail) echo "bc: $1: stand-in build failed; log: $3/build.log" >&2; exit 2 ;;
    none) return 0 ;;
    slow) : > "$bcr/$1.started"; n=0; while [ ! -e "$bcr/$1.go" ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done ;;
  esac
  mkdir -p "$3/bin" && printf '#!/bin/sh\n' > "$3/bin/tool" && chmod +x "$3/bin/tool"
  if [ "$2" = killed ]; then : > "$bcr/$1.killed"; kill -s KILL 0; fi
}
build_cache "$bcr" "$1" "$2" bin/tool "$1" stand_in "$1" "$3"
echo "rc=$?"
EOF_BC
  bcache() { bcr=$bcr TOP_SRCDIR=$TOP_SRCDIR sh "$tmp/bc.sh" "$@" 2>&1; }
  builds() { grep -c "^$1 " "$bcr/builds" 2> /dev/null || true; }
  entry_is() { # entry_is <key> <stamp>: <key> is a complete entry of that stamp, no .partial beside it
    [ -x "$bcr/$1/bin/tool" ] && [ "$(cat "$bcr/$1/built")" = "$2" ] && [ ! -e "$bcr/$1.partial" ]
  }
  failed_k2() { # one line before rc=, the log kept in the .partial, no entry
    [ "$(grep -vc '^rc=' "$tmp/bc-fail.out")" = 1 ] && [ -f "$bcr/k2.partial/build.log" ] && [ ! -e "$bcr/k2" ]
  }
  killed_k4() { [ -e "$bcr/k4.killed" ] && [ ! -e "$bcr/k4/built" ]; }
  once_k7() { [ "$(cat "$tmp/bc-a.out" "$tmp/bc-b.out" | grep -c '^rc=0$')" = 2 ] && [ "$(builds k7)" = 1 ]; }
  expect 0 "^bc: k1: built .*/k1$" "build-cache: a first run builds the entry and publishes it" -- bcache k1 s1 ok
  check "build-cache: ... whole, with its stamp, no .partial left" -- entry_is k1 s1
  expect 0 "^bc: k1: cached build .*/k1$" "build-cache: a second run reuses it" -- bcache k1 s1 ok
  check "build-cache: ... without building" -- test "$(builds k1)" = 1
  expect 0 "^rc=2$" "build-cache: a failed build stops with its status" -- bcache k2 s2 fail
  cp "$tmp/out" "$tmp/bc-fail.out"
  check "build-cache: ... in one line, its log kept in the .partial" -- failed_k2
  expect 0 "^bc: k2: built " "build-cache: ... and the next run builds it" -- bcache k2 s2 ok
  check "build-cache: ... whole" -- entry_is k2 s2
  expect 0 "^bc: k3: the build finished but .*/k3.partial/bin/tool is missing; log: .*/k3.partial/build.log$" \
    "build-cache: a build without its artifact is an error" -- bcache k3 s3 none
  check "build-cache: ... that publishes nothing" -- test ! -e "$bcr/k3"
  # Killed mid-build (the artifact already made): nothing looks complete.
  bcr=$bcr TOP_SRCDIR=$TOP_SRCDIR setsid -w sh "$tmp/bc.sh" k4 s4 killed > /dev/null 2>&1
  check "build-cache: a build killed after making its artifact leaves no complete entry" -- killed_k4
  expect 0 "^bc: k4: built " "build-cache: ... and the next run builds it again" -- bcache k4 s4 ok
  check "build-cache: ... whole" -- entry_is k4 s4
  # A directory at the key that is not this entry: another stamp (a collision
  # of keys), or none (a build of an older cache, killed).
  mkdir -p "$bcr/k5/bin" "$bcr/k6/bin"
  printf '#!/bin/sh\n' > "$bcr/k5/bin/tool"; chmod +x "$bcr/k5/bin/tool"; cp "$bcr/k5/bin/tool" "$bcr/k6/bin/tool"
  echo "another build" > "$bcr/k5/built"
  expect 0 "^bc: k5: built " "build-cache: an entry with another stamp (a key collision) is built again" -- bcache k5 s5 ok
  check "build-cache: ... and replaced" -- entry_is k5 s5
  expect 0 "^bc: k6: built " "build-cache: a directory without a stamp is built again" -- bcache k6 s6 ok
  check "build-cache: ... and replaced" -- entry_is k6 s6
  # Two runs at once: one builds, the other waits and uses its entry.
  # within <file> <pattern>: until the file has a line matching the pattern, 10 s at most.
  within() { n=0; while ! grep -q -- "$2" "$1" 2> /dev/null && [ $n -lt 100 ]; do sleep 0.1; n=$((n + 1)); done; }
  bcache k7 s7 slow > "$tmp/bc-a.out" &
  a=$!
  within "$bcr/builds" "^k7 "
  bcache k7 s7 slow > "$tmp/bc-b.out" &
  b=$!
  within "$tmp/bc-b.out" "waiting for it"
  : > "$bcr/k7.go"
  wait "$a" "$b"
  expect 0 "waiting for it" "build-cache: two runs building one key at once: the second waits" -- cat "$tmp/bc-b.out"
  check "build-cache: ... both succeed, one build" -- once_k7
  check "build-cache: ... whole" -- entry_is k7 s7
else
  echo "skip - build-cache: needs TOP_SRCDIR, flock and setsid (util-linux)"
fi

# The SHA-NI streams' register plan: a stream count that would put an operand
# above xmm15 (SHA instructions have only legacy SSE encodings) must not assemble.
if [ -n "${ASM:-}" ] && [ -n "${TOP_SRCDIR:-}" ]; then
  for s in 4 5; do
    printf '%%include "sha256_x86_shani_multi.asm"\nHASH32_FUNCTION_NAMED %s, sha256_test_streams\n' "$s" > "$tmp/streams$s.asm"
  done
  check "asm: the SHA-NI stream plan assembles 4 streams" -- \
    $ASM $ASMFLAGS -I"$TOP_SRCDIR/src/crypto/" -o "$tmp/s4.o" "$tmp/streams4.asm"
  expect nonzero "SHA-NI instructions reach xmm15 at most" "asm: ... and refuses 5 at assembly time" -- \
    $ASM $ASMFLAGS -I"$TOP_SRCDIR/src/crypto/" -o "$tmp/s5.o" "$tmp/streams5.asm"
else
  echo "skip - asm: the stream plan's refusal (a build without an assembler)"
fi

# A registry row names its kernels in constant expressions: a kernel the table
# lacks, or one of the wrong shape, is a compile error, never a row that runs
# something else. (A kernel that is there compiles: the control.)
if [ -n "${CXX:-}" ] && [ -n "${TOP_SRCDIR:-}" ]; then
  for k in 'avx512_16way", sha256::kernel::Shape::Jobs' 'avx512_16way", sha256::kernel::Shape::Lanes' 'shani_6way", sha256::kernel::Shape::D64'; do
    printf '#include <crypto/sha256_kernels.h>\nconstexpr const sha256::kernel::Kernel& k = sha256::kernel::Get("%s);\nint main() { return k.ways; }\n' "$k"
  done > "$tmp/rows.txt"
  n=0
  while IFS= read -r line1 && IFS= read -r line2 && IFS= read -r line3; do
    n=$((n + 1)); printf '%s\n%s\n%s\n' "$line1" "$line2" "$line3" > "$tmp/row$n.cpp"
  done < "$tmp/rows.txt"
  # shellcheck disable=SC2086 # CXX and its flags are word lists
  check "registry: a row naming a kernel of the table compiles" -- $CXX $CXX_CHECK_FLAGS -I"$TOP_SRCDIR/src" -fsyntax-only "$tmp/row1.cpp"
  expect nonzero "NotInTheKernelTable" "registry: ... a kernel of a shape the set lacks does not" -- $CXX $CXX_CHECK_FLAGS -I"$TOP_SRCDIR/src" -fsyntax-only "$tmp/row2.cpp"
  expect nonzero "NotInTheKernelTable" "registry: ... nor a kernel the table lacks" -- $CXX $CXX_CHECK_FLAGS -I"$TOP_SRCDIR/src" -fsyntax-only "$tmp/row3.cpp"
else
  echo "skip - registry: rows naming missing kernels do not compile (no CXX in the environment)"
fi

# The Bitcoin Core export (contrib/core-export.py): every exported file, compiled
# with the project's compiler and its instruction set's flags, is the same code
# as the project kernel it comes from (the row that runs, is tested and is
# benchmarked here); a changed export is caught (a mutation: the kernel reads
# its input 64 bytes on). SHA256BENCH_CORE_EXPORT_CHECK=no leaves it out (it
# tests the export and the compiler, not this build; ci/test-all.sh runs it in
# the builds whose compilers differ).
if [ "${SHA256BENCH_CORE_EXPORT_CHECK:-yes}" = no ]; then
  echo "skip - core export: SHA256BENCH_CORE_EXPORT_CHECK=no"
elif [ -n "${CXX:-}" ] && [ -n "${TOP_SRCDIR:-}" ] && command -v python3 >/dev/null && command -v objdump >/dev/null \
   && [ "$(uname -m)" = x86_64 ] && ! printf '%s' "$CXX_CHECK_FLAGS" | grep -q DISABLE_OPTIMIZED_SHA256; then
  E="$TOP_SRCDIR/contrib/core-export.py"
  # mutant_caught <what> <sed arguments...>: the export at $path edited by sed,
  # compiled with its flags, must not be the same code as its objects ($objs).
  mutant_caught() {
    what=$1; shift
    sed "$@" "$tmp/core/$path" > "$tmp/mutant.cpp"
    # shellcheck disable=SC2086 # CXX and the flags are word lists
    $CXX -O2 $flags $dflags -c "$tmp/mutant.cpp" -o "$tmp/mutant.o" > "$tmp/cc" 2>&1
    # shellcheck disable=SC2086 # one object per source
    expect nonzero "different code" "core export: ... and $what is caught" -- \
      python3 "$E" --same-code "$path" "$tmp/mutant.o" $objs
  }
  # Core's own warning flags (the warn_interface of Core e3f416dbf7's
  # CMakeLists.txt), each where this compiler takes it, as Core's
  # try_append_cxx_flags decides: with clang they include
  # -Wunused-member-function, which -Wall -Wextra do not.
  takes() { echo 'int main() { return 0; }' | $CXX "$@" -Werror -x c++ -fsyntax-only - > /dev/null 2>&1; }
  core_warnings=
  for f in -Wall -Wextra -Wgnu "-Wformat -Wformat-security" -Wvla -Wshadow-field -Wthread-safety \
           -Wthread-safety-pointer -Wloop-analysis -Wredundant-decls -Wunused-member-function -Wdate-time \
           -Wconditional-uninitialized -Wduplicated-branches -Wduplicated-cond -Wlogical-op \
           -Woverloaded-virtual -Wsuggest-override -Wimplicit-fallthrough -Wunreachable-code \
           -Wdocumentation -Wself-assign -Wbidi-chars=any -Wundef; do
    # shellcheck disable=SC2086 # f may be two flags
    if takes $f; then core_warnings="$core_warnings $f"; fi
  done
  if takes -Wunused-parameter; then core_warnings="$core_warnings -Wno-unused-parameter"; fi
  check "core export: contrib/core-export.py writes the files" -- python3 "$E" --out="$tmp/core"
  python3 "$E" --list > "$tmp/exports.tsv"
  while IFS="$(printf '\t')" read -r path src kernel func defines flags; do
    if [ "$kernel" = - ]; then
      # A header Core gets as a file of its own (the exported kernels include it).
      # shellcheck disable=SC2086 # CXX and the flags are word lists
      check "core export: $path compiles alone, warning-free (Core's warning flags)" -- \
        $CXX -std=c++17 $core_warnings -Werror -fsyntax-only -x c++ "$tmp/core/$path"
      expect 0 "^namespace sha256_jobs {" "core export: ... and is $src as it is" -- \
        sh -c 'a=$(sed -n "/^namespace/,\$p" "$1" | grep -v "^#endif"); b=$(sed -n "/^namespace/,\$p" "$2" | grep -v "^#endif"); [ "$a" = "$b" ] && echo "$a"' - "$tmp/core/$path" "$TOP_SRCDIR/$src"
      continue
    fi
    dflags=$(for d in $defines; do printf -- '-D%s ' "$d"; done)
    dflags="$dflags -I$tmp/core/src"
    # shellcheck disable=SC2086 # CXX and the flags are word lists
    check "core export: $path compiles alone, warning-free (Core's warning flags)" -- \
      $CXX -O2 $flags $dflags $core_warnings -Werror -c "$tmp/core/$path" -o "$tmp/core.o"
    # Each project source the file takes functions from (the kernel's, and the
    # CPU model's probes where Core's dispatch asks them too), with the same flags.
    # One object per source and flag set: exports share sources (three take
    # sha256_avx512.cpp), and the same command makes the same object.
    objs=
    for s in $src; do
      o="$tmp/project-$(printf '%s %s' "$s" "$flags" | tr -c 'A-Za-z0-9.\n' '_').o"
      # shellcheck disable=SC2086
      [ -f "$o" ] || $CXX $CXX_CHECK_FLAGS -I"$TOP_SRCDIR/src" -O2 $flags -c "$TOP_SRCDIR/$s" -o "$o" > "$tmp/cc" 2>&1
      objs="$objs $o"
    done
    # shellcheck disable=SC2086 # one object per source
    expect 0 "same code" "core export: $func is $kernel, the same instructions (from $src)" -- \
      python3 "$E" --same-code "$path" "$tmp/core.o" $objs
    mutant_caught "a changed $path" -e 's/(out, in\([,)]\)/(out, in + 64\1/' -e 's/(lane, job, njobs)/(lane, job + 1, njobs)/'
    # A kernel the exported function calls out of line is compared too.
    if grep -q 'k\.Run(out, in, nbatch);' "$tmp/core/$path"; then
      mutant_caught "a change in the kernel $func calls" 's/k\.Run(out, in, nbatch);/k.Run(out, in + 64, nbatch);/'
    fi
    # The CPU model's probe, where the file carries one, is compared too.
    if grep -q ' s = ticks(1),' "$tmp/core/$path"; then
      mutant_caught "a change in its probe of the CPU model" 's/ s = ticks(1),/ s = ticks(0),/'
    fi
  done < "$tmp/exports.tsv"
else
  echo "skip - core export: needs an x86-64 build with optimized kernels, CXX, python3 and objdump"
fi

# The 32-lane job kernel prefetches the lanes' next blocks beside its rounds
# (BlockAndNext). GCC drops a call to a function that only prefetches (it did
# so with that one until it was always inlined), and no digest would change:
# the function in bench_bitcoin, as built, must have prefetch instructions.
if command -v objdump >/dev/null && [ "$(uname -m)" = x86_64 ]; then
  objdump -d --no-show-raw-insn -C "$B" | awk '
    /^[0-9a-f]+ </ { f = index($0, "BlockAndNext<sha256::lanes::(anonymous namespace)::Avx512,") > 0; n += f; next }
    f && /prefetch/ { p++ }
    END { print "BlockAndNext functions: " n + 0 ", prefetch instructions in them: " p + 0 }' > "$tmp/ban"
  if grep -q "functions: 0," "$tmp/ban"; then
    echo "skip - avx512_32way jobs prefetch: this build has no 32-lane job kernel ($(cat "$tmp/ban"))"
  else
    expect 0 "them: [1-9]" "avx512_32way jobs: BlockAndNext keeps its prefetches" -- cat "$tmp/ban"
  fi
else
  echo "skip - avx512_32way jobs prefetch: needs objdump on x86-64"
fi

# core-patch.sh --ab's clock probe (contrib/core-series/clock.cpp) reads the
# core clock bench_bitcoin measures, so Core's before/after table and the
# project's tables count the same cycles. Within a factor of 1.5: two
# measurements a moment apart on a shared machine. (A chain of add-immediate,
# which Intel's Golden Cove and later cores fold at rename, read several times
# the clock: doc/results/2026-11-28-intel-xeon-emerald-rapids-log.md.)
if [ -n "${CXX:-}" ] && [ -n "${TOP_SRCDIR:-}" ] && command -v python3 >/dev/null && [ "$(uname -m)" = x86_64 ]; then
  $CXX -O2 -o "$tmp/clock" "$TOP_SRCDIR/contrib/core-series/clock.cpp" > "$tmp/cc" 2>&1
  "$B" -sanity-check -filter=SHA256_64B/ -output-json="$tmp/clock.json" > /dev/null 2>&1
  expect 0 "^probe " "core-patch: its clock probe reads the core clock bench_bitcoin measures" -- \
    python3 -c '
import json, subprocess, sys
bench = json.load(open(sys.argv[2]))["machine"]["core_ghz"]
probe = float(subprocess.run([sys.argv[1]], capture_output=True, text=True, check=True).stdout)
print(f"probe {probe:.3f} GHz, bench_bitcoin {bench} GHz")
sys.exit(0 if bench and 1 / 1.5 <= probe / bench <= 1.5 else 1)' "$tmp/clock" "$tmp/clock.json"
  # Its --loop, the one-add loop beside each Core run: at least about a core
  # cycle an iteration (the add waits on the last one), a plain decimal.
  expect 0 "^loop " "core-patch: its clock probe's --loop reads a one-add loop iteration" -- \
    python3 -c '
import subprocess, sys
out = subprocess.run([sys.argv[1], "--loop"], capture_output=True, text=True, check=True).stdout
print(f"loop {out.strip()}")
sys.exit(0 if 0.9 <= float(out) <= 64 else 1)' "$tmp/clock"
  expect nonzero "^usage: clock \[--loop\]" "core-patch: its clock probe refuses another argument" -- "$tmp/clock" --lop
else
  echo "skip - core-patch: its clock probe against bench_bitcoin's clock (x86-64 only; needs CXX and python3)"
fi

# ci/test-all.sh, the README's test command, refuses what it cannot run before
# it installs, removes or writes anything: a copy runs in a directory of its
# own, which must hold nothing else afterwards. (timeout: should a refusal
# fail to stop it, this check fails instead of starting an hour of builds.)
if [ -n "${TOP_SRCDIR:-}" ]; then
  mkdir -p "$tmp/ta/ci" && cp "$TOP_SRCDIR/ci/test-all.sh" "$tmp/ta/ci/"
  ta=$tmp/ta/ci/test-all.sh
  # refused <description> <pattern> -- command: exit 2 and one line that says pattern.
  refused() {
    what=$1; pattern=$2; shift 3
    timeout 60 "$@" > "$tmp/out" 2>&1
    rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l < "$tmp/out")" -eq 1 ] && grep -q -- "$pattern" "$tmp/out"; then
      pass=$((pass + 1)); echo "ok   - $what"
    else
      fail=$((fail + 1)); echo "FAIL - $what (exit $rc, wanted 2 and one line with /$pattern/)"; sed 's/^/     | /' "$tmp/out" | head -5
    fi
  }
  refused "test-all.sh: an argument is refused (one line, exit 2)" "^test-all.sh: unknown argument '--bogus' (it takes none" -- bash "$ta" --bogus
  refused "test-all.sh: ... an empty one too" "^test-all.sh: unknown argument ''" -- bash "$ta" ""
  for v in 1 0 abc 86401; do
    refused "test-all.sh: FUZZ_SECONDS=$v is refused (whole seconds, 2..86400)" \
      "^test-all.sh: FUZZ_SECONDS='$v': expected whole seconds, 2..86400" -- env FUZZ_SECONDS="$v" bash "$ta"
  done
  expect 0 'ending with "N passed, N failed"' "test-all.sh -h: says what it runs, exit 0" -- bash "$ta" -h
  absent "^#" "test-all.sh -h: ... as text, not as the script's comments"
  check "test-all.sh: nothing written by the refusals or -h" -- \
    sh -c '[ "$(cd "$1" && find . | LC_ALL=C sort | tr "\n" " ")" = ". ./ci ./ci/test-all.sh " ]' sh "$tmp/ta"
  # A checkout whose path automake's configure refuses: the README's two
  # commands say so in one line, before they install, build or write anything.
  for d in "s p" "h#" "q'"; do
    mkdir -p "$tmp/$d/contrib" "$tmp/$d/ci" "$tmp/$d/build-aux"
    cp "$TOP_SRCDIR/contrib/bench.sh" "$tmp/$d/contrib/" && cp "$TOP_SRCDIR/ci/test-all.sh" "$tmp/$d/ci/"
    cp "$TOP_SRCDIR/build-aux/safe-path.sh" "$tmp/$d/build-aux/"
  done
  refused "bench.sh: a checkout whose path has a space is refused" \
    "^bench.sh: cannot build under .*/s p: its path has a space, which autotools refuse" -- sh "$tmp/s p/contrib/bench.sh"
  refused "bench.sh: ... a '#'" "^bench.sh: cannot build under .*/h#: its path has a '#'," -- sh "$tmp/h#/contrib/bench.sh"
  refused "bench.sh: ... a single quote" "^bench.sh: cannot build under .*/q': its path has a single quote," -- sh "$tmp/q'/contrib/bench.sh"
  refused "test-all.sh: a checkout whose path has a space is refused" \
    "^test-all.sh: cannot build under .*/s p: its path has a space, which autotools refuse" -- bash "$tmp/s p/ci/test-all.sh"
  refused "test-all.sh: ... a '#'" "^test-all.sh: cannot build under .*/h#: its path has a '#'," -- bash "$tmp/h#/ci/test-all.sh"
  for d in "s p" "h#" "q'"; do
    check "bench.sh, test-all.sh: nothing written under '$d'" -- \
      sh -c '[ "$(cd "$1" && find . | LC_ALL=C sort | tr "\n" " ")" = ". ./build-aux ./build-aux/safe-path.sh ./ci ./ci/test-all.sh ./contrib ./contrib/bench.sh " ]' sh "$tmp/$d"
  done
else
  echo "skip - test-all.sh's refusals (TOP_SRCDIR not set: run through make check)"
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
