#!/bin/bash
# SPDX-License-Identifier: MIT
# README's test command and what CI runs (.ci/run). Installs what is missing,
# then builds and tests every configuration a reviewer relies on, all under
# build-test/ (logs in build-test/logs/), ending with "N passed, N failed":
#   contrib tools' tests (check-order.py, compare.py); bench-compare.sh's honesty checks (ab-honesty.sh)
#   the Bitcoin Core patch series (ci/core-series.sh: applied to ../shared/peers' Core, Core's CMake, core_check)
#   yasm build: make check (NIST + checkasm + CLI + qemu CPU models), bench -sanity-check, make distcheck;
#     the D64, multi-buffer and Merkle tests again with each preference order (SHA256BENCH_SHANI_OVERLAP,
#     SHA256BENCH_AVX512_ADD_DEPTH)
#   nasm build with g++ -std=c++20 and clang++ build, each with the test-only rows of every family (ci/extra-row.sh); portable-only builds (--with-asm=no with a NIST path
#   holding a space and quotes and CPPFLAGS holding a double quote; -DDISABLE_OPTIMIZED_SHA256)
#   an aarch64 cross build under qemu-aarch64 -cpu max, also with ARM features hidden
#   configure's error paths; ASan+UBSan make check; TSan on the concurrency tests;
#   valgrind (portable and assembly builds); libFuzzer (clang), a short run
# cli-tests' Core export checks (compiles: the export is the same code as its
# kernel) run in the yasm (g++) and clang builds; the other builds skip them
# and say so (SHA256BENCH_CORE_EXPORT_CHECK=no).
# Every build uses --enable-werror: a new warning in project code fails CI.
# The source tree is never configured or built in: builds configure from a copy
# of its source files (build-test/source, build-aux/export-source.sh), so this
# works whatever state the checkout is in (even after an in-tree ./configure).
# It takes no arguments (-h prints this text). FUZZ_SECONDS=N (default 60,
# 2..86400) sets the first fuzzer's run; the second gets half.
set -u
# Refused before anything is installed, removed or written: a mistyped
# argument must not start an hour of builds, and libFuzzer reads a time of 0
# (FUZZ_SECONDS=1 halved) as no limit.
if [ $# -gt 0 ]; then
  case $1 in
    -h|--help) sed -n '3,/^[^#]/s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "test-all.sh: unknown argument '$1' (it takes none; -h for what it runs)" >&2; exit 2 ;;
  esac
fi
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
if ! [[ $FUZZ_SECONDS =~ ^[1-9][0-9]{0,4}$ ]] || [ "$FUZZ_SECONDS" -lt 2 ] || [ "$FUZZ_SECONDS" -gt 86400 ]; then
  echo "test-all.sh: FUZZ_SECONDS='$FUZZ_SECONDS': expected whole seconds, 2..86400" >&2; exit 2
fi
cd "$(dirname "$0")/.." || exit 1
top=$PWD
. "$top/build-aux/safe-path.sh"
refuse_unsafe_checkout test-all.sh "$top" || exit 2
bt=$top/build-test
src=$bt/source
logdir=$bt/logs
jobs=$(nproc 2>/dev/null || echo 2)
t_start=$SECONDS

passed=0
failed=0
summary=()
# Wall time from the line before to each line (its build included), for
# keeping the whole run within CI's budget; written to logs/timings.log.
steps_time=()
t_last=$SECONDS
# record <step> <passed> <failed> [reason]: one console line, one summary line.
record() {
  passed=$((passed + $2)); failed=$((failed + $3))
  steps_time+=("$(printf '%5d s  %s' $((SECONDS - t_last)) "$1")")
  t_last=$SECONDS
  local line
  line=$(printf '%-52s %5s passed, %s failed' "$1" "$2" "$3")
  [ "$3" -ne 0 ] && [ -n "${4:-}" ] && line="$line -- $4"
  summary+=("$line")
  echo ">>> $line"
}
# record_step <step> <exit code> <reason if it failed>
record_step() {
  if [ "$2" -eq 0 ]; then record "$1" 1 0; else record "$1" 0 1 "$3"; fi
}
# Counts from a Boost.Test short report; a run that died without one counts as a failure.
record_boost() { # record_boost <step> <log> <exit code>
  local p f why=""
  p=$(sed -n 's/^ *\([0-9]*\) test cases\{0,1\} out of [0-9]* passed.*/\1/p' "$2" | tail -1)
  f=$(sed -n 's/^ *\([0-9]*\) test cases\{0,1\} out of [0-9]* failed.*/\1/p' "$2" | tail -1)
  p=${p:-0}; f=${f:-0}
  if [ "$3" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; why="exit $3 without a failed test case (crash?); see ${2#$top/}"; fi
  if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then f=1; why="ran no test case; see ${2#$top/}"; fi
  [ -z "$why" ] && [ "$f" -ne 0 ] && why="see ${2#$top/}"
  record "$1" "$p" "$f" "$why"
}
# run <label> <log> <command...>: output to the log, a progress line every 30 s,
# the log's tail when it fails; returns the command's exit code.
. "$top/build-aux/progress.sh"
PROGRESS_PREFIX="    "
run() {
  local label=$1 log=$2 rc
  shift 2
  : > "$log"
  progress_run "$label (log ${log#$top/})" "$log" "$@"
  rc=$?
  if [ $rc -ne 0 ] && [ -z "${quiet_fail:-}" ]; then
    echo "!!! $label failed (exit $rc); last lines of ${log#$top/}:"
    tail -25 "$log" | sed 's/^/  | /'
  fi
  return $rc
}
in_dir() { cd "$1" && shift && "$@"; }
# configure_build <name> <configure args...>: fresh build-test/<name>; sets build_why on failure.
# make_targets (in src/, e.g. the fuzzers): build only those, not everything.
build_why=""
make_targets=""
configure_build() {
  local name=$1 dir=$bt/$1
  shift
  rm -rf "$dir"; mkdir -p "$dir"
  build_why=""
  if ! run "$name: configure" "$logdir/$name-configure.log" in_dir "$dir" "$src/configure" --enable-werror "$@"; then
    build_why="configure failed, see build-test/logs/$name-configure.log"; return 1
  fi
  # shellcheck disable=SC2086 # make_targets is a list of words
  if ! run "$name: make${make_targets:+ $make_targets}" "$logdir/$name-make.log" make -C "$dir${make_targets:+/src}" -j"$jobs" $make_targets; then
    build_why="make failed, see build-test/logs/$name-make.log"; return 1
  fi
  grep -E "^  (assembler|CXX|CXXFLAGS|CPPFLAGS) " "$logdir/$name-configure.log" | tr -s ' ' | paste -sd';' | sed 's/^/    /'
}
# count_line <file> <prefix>: "<prefix>: N passed, M failed" -> "N M" (empty if absent)
count_line() {
  grep -E "^$2: [0-9]+ passed, [0-9]+ failed" "$1" 2>/dev/null | tail -1 |
    sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\1 \2/'
}
record_counts() { # record_counts <step> <log> <prefix> <exit code>
  local c first
  c=$(count_line "$2" "$3")
  if [ -z "$c" ]; then
    record "$1" 0 1 "no '$3: N passed, M failed' line (exit $4); see ${2#$top/}"
  elif [ "$4" -ne 0 ] && [ "${c#* }" = 0 ]; then
    record "$1" "${c% *}" 1 "exit $4 although every check passed; see ${2#$top/}"
  else
    # The reason: the log's first failing check, then where the log is.
    first=$(grep -m1 -E '^ *([a-z0-9-]+: )?(FAIL|not ok)' "$2" | sed 's/^ *//' | cut -c1-240)
    record "$1" "${c% *}" "${c#* }" "${first:+$first; }see ${2#$top/}"
  fi
}
# list_cases <list_content output>: suite/case per line
list_cases() {
  awk '/^[^ ]/ { s = $1; sub(/\*.*$/, "", s); next }
       /^    [^ ]/ { c = $1; sub(/\*.*$/, "", c); print s "/" c }' "$1" | LC_ALL=C sort
}
# explain_cases <name> <cases file>: one line when the build has other test cases than the yasm build.
explain_cases() {
  local ref=$logdir/yasm-cases.txt n m missing extra
  [ -s "$ref" ] && [ "$2" != "$ref" ] || return 0
  cmp -s "$ref" "$2" && return 0
  n=$(wc -l < "$2"); m=$(wc -l < "$ref")
  missing=$(LC_ALL=C comm -13 "$2" "$ref" | awk -F/ '{ c[$1]++ } END { for (s in c) printf "%s%s (%d)", (n++ ? ", " : ""), s, c[s] }')
  extra=$(LC_ALL=C comm -23 "$2" "$ref" | awk -F/ '{ c[$1]++ } END { for (s in c) printf "%s%s (%d)", (n++ ? ", " : ""), s, c[s] }')
  echo "    $1: test_bitcoin has $n test cases, the yasm build $m:${missing:+ not compiled here: $missing}${extra:+; only here: $extra}"
}
# trs_rc <.trs file>: 0 if automake's harness recorded PASS for that test, else 1.
# make check's own exit code says only that some test failed, not which.
trs_rc() { grep -q '^:test-result: PASS' "$1" 2>/dev/null; }
# make_check <name> [noqemu] [noexport]: make check in build-test/<name>, each
# part recorded on its own. noexport: cli-tests leaves out the Core export's
# same-code checks (a minute of compiles), which need a compiler, not a build:
# the yasm (g++) and clang builds run them; the other g++ builds would repeat them.
make_check() {
  local name=$1 dir=$bt/$1 rc c tests=() export_check=yes a
  for a in "${@:2}"; do
    case "$a" in
      noqemu) tests=(TESTS="test/run-tests.sh test/cli-tests.sh") ;;
      noexport) export_check=no ;;
    esac
  done
  # Each test's result is recorded below, with its log: no make output here.
  quiet_fail=1 run "$name: make check" "$logdir/$name-check.log" \
    env SHA256BENCH_CORE_EXPORT_CHECK=$export_check make -C "$dir" -j"$jobs" check "${tests[@]}"
  rc=$?
  cp "$dir/src/test/run-tests.sh.log" "$logdir/$name-test_bitcoin.log" 2>/dev/null || : > "$logdir/$name-test_bitcoin.log"
  grep -E "not run|AutoDetect" "$logdir/$name-test_bitcoin.log" | sort -u | head -8 | sed 's/^/    /'
  trs_rc "$dir/src/test/run-tests.sh.trs"
  record_boost "$name: test_bitcoin (make check)" "$logdir/$name-test_bitcoin.log" $?
  "$dir/src/test/test_bitcoin" --list_content > "$logdir/$name-list.txt" 2>&1
  list_cases "$logdir/$name-list.txt" > "$logdir/$name-cases.txt"
  explain_cases "$name" "$logdir/$name-cases.txt"
  cp "$dir/src/test/cli-tests.sh.log" "$logdir/$name-cli-tests.log" 2>/dev/null || : > "$logdir/$name-cli-tests.log"
  c=$(count_line "$logdir/$name-cli-tests.log" cli-tests)
  [ -n "$c" ] && c=$(( ${c% *} + ${c#* } ))
  if [ -n "$c" ] && [ -n "${cli_ref:-}" ] && [ "$c" != "$cli_ref" ]; then
    echo "    $name: cli-tests ran $c checks, the yasm build $cli_ref; skipped here: $(grep -E '^skip - ' "$logdir/$name-cli-tests.log" | sed 's/^skip - //' | paste -sd';')"
  fi
  [ "$name" = yasm ] && [ -n "$c" ] && cli_ref=$c
  trs_rc "$dir/src/test/cli-tests.sh.trs"
  record_counts "$name: cli-tests (make check)" "$logdir/$name-cli-tests.log" cli-tests $?
  if [ ${#tests[@]} -eq 0 ] && [ -f "$dir/src/test/run-qemu.sh.log" ]; then
    cp "$dir/src/test/run-qemu.sh.log" "$logdir/$name-qemu.log"
    grep -E "^== |FAIL|^run-qemu.sh:" "$logdir/$name-qemu.log" | sed 's/^/    /'
    trs_rc "$dir/src/test/run-qemu.sh.trs"
    record_counts "$name: qemu-user CPU models (make check)" "$logdir/$name-qemu.log" "qemu CPU models" $?
  fi
  if [ $rc -ne 0 ] && ! grep -q '^# FAIL: *[1-9]' "$logdir/$name-check.log"; then
    record "$name: make check" 0 1 "exit $rc with no failed test; see build-test/logs/$name-check.log"
  fi
}
# rejects <step> <pattern> <configure args...>: configure must fail and say pattern.
rejects() {
  local step=$1 pattern=$2 log rc
  shift 2
  log=$logdir/err-$((++nerr)).log
  (cd "$bt/errs" && "$src/configure" "$@") > "$log" 2>&1
  rc=$?
  if [ $rc -eq 0 ]; then
    record "$step" 0 1 "configure accepted it (exit 0); see ${log#$top/}"
  elif ! grep -q -- "$pattern" "$log"; then
    record "$step" 0 1 "exit $rc but no /$pattern/ in the message: $(grep 'error:' "$log" | tail -1)"
  else
    record "$step" 1 0
  fi
}

echo "== ci/test-all.sh: $(date -u '+%Y-%m-%d %H:%M UTC'), $jobs jobs, logs in build-test/logs/"
rm -rf "$bt"; mkdir -p "$logdir"
contrib/install-deps.sh --all --log="$logdir/install-deps.log"; rc=$?
record_step "dependencies (contrib/install-deps.sh --all)" $rc "see the message above"
[ $rc -eq 0 ] || { echo; echo "$passed passed, $failed failed"; exit 1; }
echo "== machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//') (features as the project sees them: the AutoDetect lines below)"

build-aux/export-source.sh "$src" > "$logdir/export.log" 2>&1; rc=$?
record_step "source copy (build-test/source)" $rc "see build-test/logs/export.log"
[ $rc -eq 0 ] || { echo "$passed passed, $failed failed"; exit 1; }
run "autogen.sh" "$logdir/autogen.log" "$src/autogen.sh"; rc=$?
record_step "autogen.sh" $rc "see build-test/logs/autogen.log"
[ $rc -eq 0 ] || { echo "$passed passed, $failed failed"; exit 1; }

echo "== contrib tools"
run "tools tests" "$logdir/tools.log" python3 contrib/test/test_tools.py; rc=$?
record_counts "contrib tools (contrib/test/test_tools.py)" "$logdir/tools.log" "tools tests" $rc
run "compare tests" "$logdir/compare-tests.log" python3 contrib/test/test_compare.py; rc=$?
record_counts "contrib tools (contrib/test/test_compare.py)" "$logdir/compare-tests.log" "compare tests" $rc

echo "== yasm build (CPPFLAGS=-DBENCH_RORX)"
configure_build yasm --with-asm=yasm CPPFLAGS="-DBENCH_RORX"; rc=$?
record_step "yasm: configure + make" $rc "$build_why"
if [ $rc -eq 0 ]; then
  make_check yasm
  run "yasm: bench -sanity-check" "$logdir/yasm-bench.log" "$bt/yasm/src/bench/bench_bitcoin" -sanity-check; rc=$?
  record_step "yasm: bench_bitcoin -sanity-check" $rc "see build-test/logs/yasm-bench.log"
  # Every D64 and multi-buffer order, whatever this CPU's SHA unit measures:
  # 0 keeps the registry's, 1.5 puts D64's wide_sha rows (SHA-NI streams) ahead
  # of its other SHA-NI rows and keeps the multi-buffer order, 2 does so in
  # both families, 4 puts them first.
  for ov in 0 1.5 2 4; do
    run "yasm: SHA-NI overlap $ov" "$logdir/yasm-overlap-$ov.log" env SHA256BENCH_SHANI_OVERLAP=$ov \
      "$bt/yasm/src/test/test_bitcoin" --run_test=sha256d64_tests,sha256multi_tests,merkle_tests \
      --log_level=message --report_level=short --color_output=no; rc=$?
    grep -E "AutoDetect(D64|Multi)" "$logdir/yasm-overlap-$ov.log" | head -2 | sed 's/^ */    /'
    record_boost "yasm: D64, multi and Merkle tests at SHA256BENCH_SHANI_OVERLAP=$ov" "$logdir/yasm-overlap-$ov.log" $rc
  done
  # And the D64 and multi-buffer orders with two registers of lanes a word
  # behind (2) and ahead of (8) one.
  for depth in 2 8; do
    run "yasm: AVX-512 add depth $depth" "$logdir/yasm-depth-$depth.log" env SHA256BENCH_AVX512_ADD_DEPTH=$depth \
      "$bt/yasm/src/test/test_bitcoin" --run_test=sha256d64_tests,sha256multi_tests,merkle_tests --log_level=message \
      --report_level=short --color_output=no; rc=$?
    grep -E "AutoDetect(D64|Multi)" "$logdir/yasm-depth-$depth.log" | head -2 | sed 's/^ */    /'
    record_boost "yasm: D64, multi and Merkle tests at SHA256BENCH_AVX512_ADD_DEPTH=$depth" "$logdir/yasm-depth-$depth.log" $rc
  done
fi

echo "== bench-compare.sh honesty: the tree against itself, and against a scratch copy with a slowdown"
run "ab-honesty" "$logdir/ab-honesty.log" sh "$src/contrib/test/ab-honesty.sh" --cache="$bt/ab-cache"; rc=$?
grep -E "^ab-honesty: (PASS|FAIL)|^  " "$logdir/ab-honesty.log" | cut -c1-200 | sed 's/^/    /'
record_counts "bench-compare.sh honesty (contrib/test/ab-honesty.sh)" "$logdir/ab-honesty.log" ab-honesty $rc

echo "== Bitcoin Core patch series (ci/core-series.sh): apply, Core's CMake, core_check native and under qemu"
run "core-series" "$logdir/core-series.log" bash "$src/ci/core-series.sh" --work="$bt/core-series" \
  --tarball="$top/../shared/peers/bitcoin-core-e3f416dbf7.tar.gz"; rc=$?
grep -E "^(PASS|FAIL|NOTE)|^  " "$logdir/core-series.log" | cut -c1-200 | sed 's/^/    /'
record_counts "Core patch series (ci/core-series.sh)" "$logdir/core-series.log" core-series $rc

# The test-only rows are built here too: the proof that adding a row is three
# lines must hold with g++ (the default compiler) as well as with clang++ below.
# -fno-var-tracking: the 6-lane row's lanes are arrays of 6 scalars (no generic
# vector has that width), and GCC's variable tracking of them took 90 s of the
# 116 s its file took to compile; nothing here reads variable locations.
echo "== nasm build, g++ -std=c++20, with the test-only rows basic_alias and portable_6way (-DSHA256_TEST_EXTRA_ROW)"
configure_build nasm --with-asm=nasm CXXFLAGS="-O2 -g -std=c++20 -fno-var-tracking" CPPFLAGS="-DSHA256_TEST_EXTRA_ROW"; rc=$?
record_step "nasm: configure + make (g++ -std=c++20, extra rows)" $rc "$build_why"
if [ $rc -eq 0 ]; then
  make_check nasm noexport
  run "nasm: extra rows" "$logdir/nasm-extra-row.log" sh "$src/ci/extra-row.sh" "$bt/nasm"; rc=$?
  sed 's/^/    /' "$logdir/nasm-extra-row.log" | grep -v '^    \(tables\|with\) '
  record_counts "nasm (g++): extra rows in -list-impls, -list, bench, check-order.py" "$logdir/nasm-extra-row.log" extra-row $rc
fi

echo "== portable only: --with-asm=no; a NIST path with a space and quotes; a double quote in CPPFLAGS"
vec=$(dpkg -L python3-cryptography-vectors 2>/dev/null | grep '/SHA256ShortMsg.rsp$' | head -1)
odd="$bt/nist vectors/it's \"quoted\""
mkdir -p "$odd" && cp "$(dirname "${vec:-/nonexistent/x}")"/SHA256*.rsp "$odd/" 2>/dev/null ||
  echo "    (the NIST vectors were not found: the NIST tests of this build will fail and say so)"
configure_build noasm --with-asm=no --with-nist-vectors="$odd" CPPFLAGS='-DSHA256BENCH_CI_QUOTE="x"'; rc=$?
record_step "noasm: configure + make (odd NIST path, CPPFLAGS)" $rc "$build_why"
if [ $rc -eq 0 ]; then
  make_check noasm noexport
  # Without NIST_VECTORS_DIR in the environment the path comes from the config header.
  run "noasm: vectors path from the config header" "$logdir/noasm-header-path.log" \
    env -u NIST_VECTORS_DIR "$bt/noasm/src/test/test_bitcoin" --run_test=sha256_tests/nist_monte --color_output=no; rc=$?
  record_step "noasm: test_bitcoin reads the odd path from the header" $rc "see build-test/logs/noasm-header-path.log"
fi

echo "== portable only: CPPFLAGS=-DDISABLE_OPTIMIZED_SHA256"
configure_build disable-opt CPPFLAGS="-DDISABLE_OPTIMIZED_SHA256"; rc=$?
record_step "disable-opt: configure + make" $rc "$build_why"
[ $rc -eq 0 ] && make_check disable-opt

echo "== clang++ build, with the test-only rows basic_alias and portable_6way (-DSHA256_TEST_EXTRA_ROW)"
configure_build clang CXX=clang++ CPPFLAGS="-DBENCH_RORX -DSHA256_TEST_EXTRA_ROW"; rc=$?
record_step "clang: configure + make (clang++, extra rows)" $rc "$build_why"
if [ $rc -eq 0 ]; then
  make_check clang noqemu
  run "clang: extra rows" "$logdir/clang-extra-row.log" sh "$src/ci/extra-row.sh" "$bt/clang"; rc=$?
  sed 's/^/    /' "$logdir/clang-extra-row.log" | grep -v '^    \(tables\|with\) '
  record_counts "clang: extra rows in -list-impls, -list, bench, check-order.py" "$logdir/clang-extra-row.log" extra-row $rc
fi

echo "== aarch64 cross build, under qemu-aarch64 -cpu max (and with ARM features hidden)"
configure_build aarch64 --host=aarch64-linux-gnu; rc=$?
record_step "aarch64: configure + make" $rc "$build_why"
if [ $rc -eq 0 ]; then
  export QEMU_LD_PREFIX=/usr/aarch64-linux-gnu
  qemu-aarch64 -cpu max "$bt/aarch64/src/test/test_bitcoin" --list_content > "$logdir/aarch64-list.txt" 2>&1
  list_cases "$logdir/aarch64-list.txt" > "$logdir/aarch64-cases.txt"
  explain_cases aarch64 "$logdir/aarch64-cases.txt"
  mkdir -p "$bt/aarch64/qemu"
  run "aarch64: qemu runs" "$logdir/aarch64-qemu.log" in_dir "$bt/aarch64/qemu" env QEMU="$(command -v qemu-aarch64)" \
    QEMU_RUNS="max max:sha2 max:sha2,asimd" BENCH_BITCOIN="$bt/aarch64/src/bench/bench_bitcoin" \
    sh "$src/src/test/run-qemu.sh" "$bt/aarch64/src/test/test_bitcoin"; rc=$?
  grep -E "^== |FAIL|AutoDetect\(\) picked" "$logdir/aarch64-qemu.log" | sed 's/^ *\(==\)\{0,1\}/    /'
  for run_log in "$bt"/aarch64/qemu/qemu-*.log; do
    [ -f "$run_log" ] || continue
    cp "$run_log" "$logdir/aarch64-$(basename "$run_log")"
    rl=$(basename "$run_log" .log); rl=${rl#qemu-}
    grep -q "test cases\{0,1\} out of" "$run_log" && record_boost "aarch64: test_bitcoin, qemu -cpu $rl" "$run_log" 0
  done
  record_counts "aarch64: AutoDetect per qemu run (run-qemu.sh)" "$logdir/aarch64-qemu.log" "qemu CPU models" $rc
  # Every row once, with nothing hidden, with SHA2 hidden (a Raspberry Pi 4) and
  # with ASIMD hidden too; the header must say the timings are emulated.
  for hide in none sha2 sha2,asimd; do
    blog=$logdir/aarch64-bench-$hide.log
    run "aarch64: bench -sanity-check, hidden: $hide" "$blog" env SHA256BENCH_HIDE_FEATURES="${hide#none}" \
      qemu-aarch64 -cpu max "$bt/aarch64/src/bench/bench_bitcoin" -sanity-check; rc=$?
    if [ $rc -eq 0 ] && ! grep -q '^EMULATED CPU: ' "$blog"; then rc=1; echo "    no 'EMULATED CPU:' line in ${blog#$top/}"; fi
    record_step "aarch64: bench -sanity-check, hidden: $hide (marked emulated)" $rc "see ${blog#$top/}"
  done
  unset QEMU_LD_PREFIX
fi

echo "== configure error paths"
mkdir -p "$bt/errs" "$bt/fakebin" && ln -sf /bin/false "$bt/fakebin/yasm"
nerr=0
rejects "configure rejects --with-asm=bogus" "expected auto, yasm, nasm or no" --with-asm=bogus
rejects "configure rejects a missing --with-nist-vectors" "python3-cryptography-vectors" --with-nist-vectors=/nonexistent
rejects "configure rejects --enable-fuzz=garbage" "expected yes or no" --enable-fuzz=garbage
rejects "configure rejects --with-openssl-reference=garbage" "expected auto, yes or no" --with-openssl-reference=garbage
rejects "configure rejects --enable-werror=garbage" "expected yes or no" --enable-werror=garbage
rejects "configure rejects --with-sanitizers='address;x'" "comma separated list" "--with-sanitizers=address;x"
mkdir -p "$bt/nist\$dir" && cp "$odd"/SHA256*.rsp "$bt/nist\$dir/" 2>/dev/null
rejects "configure rejects a NIST path with a dollar sign" "cannot pass safely" --with-nist-vectors="$bt/nist\$dir"
# A header-only dependency that is not there (stood in for by a header that
# includes a missing file, found first through -I) must stop configure.
mkdir -p "$bt/nodeps/boost/test/included" "$bt/nodeps/nlohmann"
echo '#include <sha256bench-missing-part.hpp>' > "$bt/nodeps/boost/test/included/unit_test.hpp"
rejects "configure stops without Boost.Test's headers" "libboost-test-dev" CPPFLAGS="-I$bt/nodeps"
rm "$bt/nodeps/boost/test/included/unit_test.hpp"
echo '#include <sha256bench-missing-part.hpp>' > "$bt/nodeps/nlohmann/json.hpp"
rejects "configure stops without nlohmann-json's header" "nlohmann-json3-dev" CPPFLAGS="-I$bt/nodeps"
# An explicitly requested assembler that cannot assemble must stop configure.
PATH="$bt/fakebin:$PATH" rejects "configure fails when --with-asm=yasm cannot assemble" "no working yasm" --with-asm=yasm

echo "== ASan + UBSan"
configure_build asan --with-sanitizers=address,undefined CPPFLAGS="-DBENCH_RORX"; rc=$?
record_step "asan: configure + make" $rc "$build_why"
[ $rc -eq 0 ] && make_check asan noexport

echo "== ThreadSanitizer: hashing while the implementation switches"
configure_build tsan --with-sanitizers=thread; rc=$?
record_step "tsan: configure + make" $rc "$build_why"
if [ $rc -eq 0 ]; then
  if "$bt/tsan/src/test/test_bitcoin" --list_content 2>&1 | grep -q '^concurrency_tests'; then
    run "tsan: concurrency_tests" "$logdir/tsan-test_bitcoin.log" "$bt/tsan/src/test/test_bitcoin" \
      --run_test=concurrency_tests --log_level=message --report_level=short --color_output=no; rc=$?
    record_boost "tsan: test_bitcoin --run_test=concurrency_tests" "$logdir/tsan-test_bitcoin.log" $rc
  else
    record "tsan: test_bitcoin --run_test=concurrency_tests" 0 1 "test_bitcoin has no concurrency_tests suite"
  fi
  # Every row on two threads at once over private outputs: no shared mutable state in the timed loop.
  run "tsan: bench -threads=2" "$logdir/tsan-bench.log" "$bt/tsan/src/bench/bench_bitcoin" -sanity-check -threads=2; rc=$?
  if [ $rc -eq 0 ] && grep -q "ThreadSanitizer" "$logdir/tsan-bench.log"; then rc=1; echo "    ThreadSanitizer reported (see the log)"; fi
  record_step "tsan: bench_bitcoin -sanity-check -threads=2" $rc "see build-test/logs/tsan-bench.log"
fi

echo "== valgrind"
# The portable build, and the yasm build's assembly (valgrind hides SHA-NI from
# CPUID, so that row is reported as not run there; the other transforms run).
# valgrind runs one thread: the two builds' runs go side by side.
vg=()
for b in noasm yasm; do
  if ! command -v valgrind > /dev/null; then
    record "valgrind: test_bitcoin ($b build)" 0 1 "valgrind is not on PATH ($PATH)"
  elif [ ! -x "$bt/$b/src/test/test_bitcoin" ]; then
    record "valgrind: test_bitcoin ($b build)" 0 1 "no $b build: its configure or make failed above"
  else
    # valgrind's CPUID denies features the kernel lists (SHA-NI, AVX-512) on
    # some hosts: the CPU model test is told so (SHA256_EXPECT_EMULATED).
    rm -f "$bt/valgrind-$b.rc"
    { run "valgrind ($b)" "$logdir/valgrind-$b.log" env SHA256_EXPECT_EMULATED=cpuid-may-deny \
        valgrind --error-exitcode=1 --quiet "$bt/$b/src/test/test_bitcoin" \
        --log_level=message --report_level=short --color_output=no
      echo $? > "$bt/valgrind-$b.rc"; } &
    vg+=("$b")
  fi
done
wait
for b in "${vg[@]}"; do
  rc=$(cat "$bt/valgrind-$b.rc" 2>/dev/null || echo 1)
  grep -E "not run" "$logdir/valgrind-$b.log" | sort -u | head -2 | sed 's/^/    /'
  record_boost "valgrind: test_bitcoin ($b build)" "$logdir/valgrind-$b.log" "$rc"
done

echo "== libFuzzer (clang, ASan), ${FUZZ_SECONDS}s"
# ASan without UBSan: under clang's UBSan, its loop passes on two loops of the
# AVX-512 kernel file take longer than the rest of the build (doc/results/).
# UBSan runs every test over every kernel in the asan build (g++).
# Only the fuzzers are built: the other programs under clang's ASan are not run.
make_targets="test/fuzz/fuzz test/fuzz/fuzz_sha256d64" configure_build fuzz CXX=clang++ --enable-fuzz --with-sanitizers=address; rc=$?
record_step "fuzz: configure + make the fuzzers (clang)" $rc "$build_why"
if [ $rc -eq 0 ]; then
  # Each fuzzer is one thread: the D64 one runs beside the other. Its inputs
  # reach 255 of 64 bytes: Merkle trees of up to 510 leaves, several levels.
  mkdir -p "$bt/fuzz/corpus" "$bt/fuzz/corpus-d64"
  # Seeds for the D64 fuzzer: Merkle trees of 128 to 510 leaves, odd and even,
  # with a repeated subtree of 2 or 4 leaves (equal hashes at an inner level)
  # or none; a fuzzer left to grow its inputs reaches them late or never.
  python3 -c 'import random, sys
r = random.Random(1)
for i, (n, flags) in enumerate([(64, 0), (100, 2), (200, 4 | 8), (255, 2 | 4 | 16), (160, 4 | 8)]):
    open("%s/seed-%d" % (sys.argv[1], i), "wb").write(bytes([i, 2 * i, flags]) + bytes(r.randrange(256) for _ in range(64 * n)))' \
    "$bt/fuzz/corpus-d64"
  "$bt/fuzz/src/test/fuzz/fuzz_sha256d64" -max_total_time="$((FUZZ_SECONDS / 2))" -max_len=16387 -seed=1 \
    -print_final_stats=1 "$bt/fuzz/corpus-d64" > "$logdir/fuzz-d64.log" 2>&1 &
  d64=$!
  run "fuzz" "$logdir/fuzz.log" "$bt/fuzz/src/test/fuzz/fuzz" -max_total_time="$FUZZ_SECONDS" -max_len=8192 -seed=1 \
    -print_final_stats=1 "$bt/fuzz/corpus"; rc=$?
  grep -E "stat::number_of_executed_units|Done|ERROR" "$logdir/fuzz.log" | head -3 | sed 's/^/    /'
  record_step "fuzz: ${FUZZ_SECONDS}s run, every transform vs basic" $rc "see build-test/logs/fuzz.log"
  wait $d64; rc=$?
  grep -E "stat::number_of_executed_units|Done|ERROR" "$logdir/fuzz-d64.log" | head -3 | sed 's/^/    /'
  record_step "fuzz: $((FUZZ_SECONDS / 2))s run, SHA256D64/fixed paths/Merkle vs CSHA256" $rc "see build-test/logs/fuzz-d64.log"
fi

if [ -f "$bt/yasm/Makefile" ]; then
  echo "== make distcheck (yasm build)"
  # Its make check repeats the yasm build's: the Core export's compiles are left out (make_check).
  run "distcheck" "$logdir/distcheck.log" env SHA256BENCH_CORE_EXPORT_CHECK=no \
    make -C "$bt/yasm" -j"$jobs" distcheck DISTCHECK_CONFIGURE_FLAGS=--enable-werror; rc=$?
  record_step "yasm: make distcheck" $rc "see build-test/logs/distcheck.log"
  # distcheck proves the tarball builds and passes make check; it cannot see a
  # tracked file left out of EXTRA_DIST that no test reads. Compare with git.
  tarball=$(ls "$bt"/yasm/sha256bench-*.tar.gz 2> /dev/null | head -1)
  if [ $rc -ne 0 ] || [ -z "$tarball" ]; then
    record "yasm: the tarball holds every tracked file" 0 1 "no tarball: distcheck failed"
  elif ! git -C "$top" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    echo "    not run: the tarball's contents against git (this tree is not a git checkout)"
  else
    missing=$(LC_ALL=C comm -23 <(git -C "$top" ls-files | grep -vx '.gitignore' | LC_ALL=C sort) \
      <(tar tzf "$tarball" | sed 's|^[^/]*/||' | LC_ALL=C sort))
    if [ -z "$missing" ]; then
      record "yasm: the tarball holds every tracked file" 1 0
    else
      echo "$missing" | sed 's/^/    not in the tarball: /'
      record "yasm: the tarball holds every tracked file" 0 1 "$(echo "$missing" | wc -l) tracked files missing (Makefile.am EXTRA_DIST)"
    fi
  fi
else
  record "yasm: make distcheck" 0 1 "no yasm build: its configure failed above"
fi

echo
echo "== summary ($(( (SECONDS - t_start) / 60 )) min $(( (SECONDS - t_start) % 60 )) s)"
printf '  %s\n' "${summary[@]}"
printf '%s\n' "${steps_time[@]}" > "$logdir/timings.log"
echo "  the slowest steps (wall time since the line before; all in build-test/logs/timings.log):"
sort -rn "$logdir/timings.log" | head -8 | sed 's/^/    /'
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
