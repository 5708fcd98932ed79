#!/bin/bash
# README's test command (and what .ci/run runs): installs everything, then
# builds and tests every configuration a reviewer relies on:
#   yasm build: make check (NIST + checkasm + CLI), bench -sanity-check, make distcheck
#   nasm build: make check          portable-only builds: --with-asm=no, -DDISABLE_OPTIMIZED_SHA256
#   qemu-user CPU models (no AVX / AVX without AVX2 / AVX2 without BMI2 / max)
#   an aarch64 cross build (portable transform only) run under qemu-aarch64
#   ASan+UBSan build: make check    valgrind: the portable build's test_bitcoin
#   libFuzzer (clang): a short run
# Ends with "N passed, N failed" counting Boost test cases and scripted checks.
set -u
cd "$(dirname "$0")/.."
top=$PWD
jobs=$(nproc 2>/dev/null || echo 2)
logdir=$top/build-test/logs
FUZZ_SECONDS=${FUZZ_SECONDS:-60}

passed=0
failed=0
summary=()
record() { # record <step> <passed> <failed>
  passed=$((passed + $2)); failed=$((failed + $3))
  summary+=("$(printf '%-44s %5s passed, %s failed' "$1" "$2" "$3")")
  echo ">>> $1: $2 passed, $3 failed"
}
# Counts from a Boost.Test short report; a run that died without one counts as a failure.
record_boost() { # record_boost <step> <log> <exit code>
  local p f
  p=$(sed -n 's/^ *\([0-9]*\) test cases\{0,1\} out of [0-9]* passed.*/\1/p' "$2" | tail -1)
  f=$(sed -n 's/^ *\([0-9]*\) test cases\{0,1\} out of [0-9]* failed.*/\1/p' "$2" | tail -1)
  p=${p:-0}; f=${f:-0}
  if [ "$3" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi
  if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # ran nothing: not a pass
  record "$1" "$p" "$f"
}
record_step() { # record_step <step> <exit code>
  if [ "$2" -eq 0 ]; then record "$1" 1 0; else record "$1" 0 1; fi
}
run() { # run <log> <command...>: quiet unless it fails; returns the command's exit code
  local log=$1 rc
  shift
  "$@" > "$log" 2>&1
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "!!! failed (exit $rc): $*"
    tail -40 "$log"
  fi
  return $rc
}
configure_build() { # configure_build <dir> <configure args...>
  local dir=$top/build-test/$1; shift
  rm -rf "$dir"; mkdir -p "$dir"
  (cd "$dir" && run "$logdir/$(basename "$dir")-configure.log" "$top/configure" "$@" &&
    run "$logdir/$(basename "$dir")-make.log" make -j"$jobs")
}
# count_line <file> <prefix>: "<prefix>: N passed, M failed" -> "N M" ("0 1" if absent)
count_line() {
  local line
  line=$(grep -E "^$2: [0-9]+ passed, [0-9]+ failed" "$1" 2>/dev/null | tail -1)
  if [ -z "$line" ]; then echo "0 1"; return; fi
  echo "$line" | sed -E 's/.*: ([0-9]+) passed, ([0-9]+) failed.*/\1 \2/'
}
make_check() { # make_check <name>: make check in build-test/<name>, counting what it ran
  local dir=$top/build-test/$1 rc counts
  (cd "$dir" && make -j"$jobs" check > "$logdir/$1-check.log" 2>&1)
  rc=$?
  cp "$dir/src/test/run-tests.sh.log" "$logdir/$1-test_bitcoin.log" 2>/dev/null || : > "$logdir/$1-test_bitcoin.log"
  grep -E "not run|AutoDetect|vectors x 2|random cases" "$logdir/$1-test_bitcoin.log" | sed 's/^/    /' | head -30
  record_boost "$1: test_bitcoin (make check)" "$logdir/$1-test_bitcoin.log" $rc
  counts=$(count_line "$dir/src/test/cli-tests.sh.log" cli-tests)
  record "$1: cli-tests (make check)" ${counts% *} ${counts#* }
  # make check runs the qemu CPU models when configure found qemu (not with sanitizers).
  if [ -f "$dir/src/test/run-qemu.sh.log" ]; then
    grep -E "^== |AutoDetect\(\) picked|PASS|FAIL" "$dir/src/test/run-qemu.sh.log" | sed 's/^/    /'
    counts=$(count_line "$dir/src/test/run-qemu.sh.log" "qemu CPU models")
    record "$1: qemu-user CPU models (make check)" ${counts% *} ${counts#* }
  fi
  [ $rc -eq 0 ] || tail -60 "$logdir/$1-check.log"
}

if [ "$(id -u)" = 0 ]; then
  contrib/install-deps.sh --all || { echo "dependency install failed"; echo "0 passed, 1 failed"; exit 1; }
else
  echo "not root: skipping apt-get; assuming dependencies are installed"
fi
rm -rf build-test; mkdir -p "$logdir"
echo "== machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
echo "== flags: $(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -xE 'ssse3|sse4_1|avx|avx2|bmi2|sha_ni|avx512f' | tr '\n' ' ')"

run "$logdir/autogen.log" ./autogen.sh; record_step "autogen.sh" $?

echo "== yasm build (CPPFLAGS=-DBENCH_RORX)"
configure_build yasm --with-asm=yasm CPPFLAGS="-DBENCH_RORX"; rc=$?
record_step "yasm: configure + make" $rc
if [ $rc -eq 0 ]; then
  make_check yasm
  (cd build-test/yasm && run "$logdir/yasm-bench.log" src/bench/bench_bitcoin -sanity-check); rc=$?
  record_step "yasm: bench_bitcoin -sanity-check" $rc
  echo "== make distcheck"
  (cd build-test/yasm && run "$logdir/distcheck.log" make -j"$jobs" distcheck); rc=$?
  record_step "yasm: make distcheck" $rc
fi

echo "== nasm build"
configure_build nasm --with-asm=nasm; rc=$?
record_step "nasm: configure + make" $rc
[ $rc -eq 0 ] && make_check nasm

echo "== portable only: --with-asm=no"
configure_build noasm --with-asm=no; rc=$?
record_step "noasm: configure + make" $rc
[ $rc -eq 0 ] && make_check noasm

echo "== portable only: CPPFLAGS=-DDISABLE_OPTIMIZED_SHA256"
configure_build disable-opt CPPFLAGS="-DDISABLE_OPTIMIZED_SHA256"; rc=$?
record_step "disable-opt: configure + make" $rc
[ $rc -eq 0 ] && make_check disable-opt

echo "== non-x86-64 host: aarch64 cross build, run under qemu-aarch64"
configure_build aarch64 --host=aarch64-linux-gnu; rc=$?
record_step "aarch64: configure + make (portable only)" $rc
if [ $rc -eq 0 ]; then
  grep "assembler  " "$logdir/aarch64-configure.log" | sed 's/^/    /'
  QEMU_LD_PREFIX=/usr/aarch64-linux-gnu qemu-aarch64 build-test/aarch64/src/test/test_bitcoin --log_level=message \
    --report_level=short --color_output=no > "$logdir/aarch64-test_bitcoin.log" 2>&1
  rc=$?
  grep -E "not run:" "$logdir/aarch64-test_bitcoin.log" | head -1 | sed 's/^/    /'
  record_boost "aarch64: test_bitcoin under qemu-aarch64" "$logdir/aarch64-test_bitcoin.log" $rc
  (QEMU_LD_PREFIX=/usr/aarch64-linux-gnu run "$logdir/aarch64-bench.log" qemu-aarch64 build-test/aarch64/src/bench/bench_bitcoin -sanity-check); rc=$?
  record_step "aarch64: bench_bitcoin -sanity-check" $rc
fi

echo "== configure error paths"
(cd build-test && mkdir -p errs && cd errs &&
  ! "$top/configure" --with-asm=bogus > "$logdir/err-asm.log" 2>&1 && grep -q "expected auto, yasm, nasm or no" "$logdir/err-asm.log"); rc=$?
record_step "configure rejects --with-asm=bogus" $rc
(cd build-test/errs && ! "$top/configure" --with-nist-vectors=/nonexistent > "$logdir/err-nist.log" 2>&1 &&
  grep -q "python3-cryptography-vectors" "$logdir/err-nist.log"); rc=$?
record_step "configure rejects a bad --with-nist-vectors" $rc
# An explicitly requested assembler that is missing must stop configure.
mkdir -p build-test/fakebin && ln -sf /bin/false build-test/fakebin/yasm
(cd build-test/errs && ! PATH="$top/build-test/fakebin:$PATH" "$top/configure" --with-asm=yasm > "$logdir/err-yasm.log" 2>&1 &&
  grep -q "no working yasm" "$logdir/err-yasm.log"); rc=$?
record_step "configure fails when --with-asm=yasm cannot assemble" $rc

echo "== ASan + UBSan"
configure_build asan --with-sanitizers=address,undefined CPPFLAGS="-DBENCH_RORX"; rc=$?
record_step "asan: configure + make" $rc
[ $rc -eq 0 ] && make_check asan

echo "== valgrind"
# The portable build, and the yasm build's assembly (valgrind hides SHA-NI from
# CPUID, so shani is reported as not run there; the other transforms run).
for b in noasm yasm; do
  if command -v valgrind > /dev/null && [ -x build-test/$b/src/test/test_bitcoin ]; then
    valgrind --error-exitcode=1 --quiet build-test/$b/src/test/test_bitcoin --log_level=message --report_level=short \
      --color_output=no > "$logdir/valgrind-$b.log" 2>&1
    rc=$?
    grep -E "not run on this CPU" "$logdir/valgrind-$b.log" | head -1 | sed 's/^/    /'
    record_boost "valgrind: test_bitcoin ($b build)" "$logdir/valgrind-$b.log" $rc
  else
    record "valgrind: not installed or no $b build" 0 1
  fi
done

echo "== libFuzzer (clang), ${FUZZ_SECONDS}s"
configure_build fuzz CXX=clang++ --enable-fuzz --with-sanitizers=address,undefined; rc=$?
record_step "fuzz: configure + make (clang)" $rc
if [ $rc -eq 0 ]; then
  mkdir -p build-test/fuzz/corpus
  build-test/fuzz/src/test/fuzz/fuzz -max_total_time="$FUZZ_SECONDS" -max_len=8192 -seed=1 -print_final_stats=1 build-test/fuzz/corpus \
    > "$logdir/fuzz.log" 2>&1
  rc=$?
  grep -E "stat::number_of_executed_units|Done|ERROR|fuzz:" "$logdir/fuzz.log" | head -5 | sed 's/^/    /'
  record_step "fuzz: ${FUZZ_SECONDS}s run, every transform vs basic" $rc
fi

echo
echo "== summary"
printf '  %s\n' "${summary[@]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
