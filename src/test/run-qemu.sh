#!/bin/sh
# Runs test_bitcoin under qemu-user on CPU models that lack features this
# machine has, and checks that AutoDetect() picks what each model allows.
# Usage: run-qemu.sh [path/to/test_bitcoin]   (default: $TEST_BITCOIN, as make check sets)
# qemu 7.2 emulates no SHA-NI and no AVX-512, so shani stays native-only.
set -u
bin="${1:-${TEST_BITCOIN:-}}"
if [ -z "$bin" ]; then
  echo "run-qemu.sh: give the test_bitcoin binary as argument or in TEST_BITCOIN" >&2
  exit 1
fi
qemu="${QEMU_X86_64:-}"
[ -n "$qemu" ] || qemu=$(command -v qemu-x86_64 || true)
if [ -z "$qemu" ]; then
  echo "run-qemu.sh: qemu-x86_64 not found; install qemu-user (apt-get install qemu-user)" >&2
  exit 1
fi

# Without the assembly transforms every model must pick basic.
if "$bin" --run_test=registry_tests/lists_every_transform --log_level=message --color_output=no 2>&1 | grep -q "sse4: .*not built"; then
  asm=no
else
  asm=yes
fi

pass=0
fail=0
# model | transform AutoDetect must pick | transforms that must be reported unsupported
for line in \
  "Nehalem|sse4|avx rorx rorx_x8ms shani arm_shani" \
  "SandyBridge|avx|rorx rorx_x8ms shani arm_shani" \
  "Haswell,-bmi2|avx|rorx rorx_x8ms shani arm_shani" \
  "max|rorx_x8ms|shani arm_shani"; do
  model=${line%%|*}
  rest=${line#*|}
  pick=${rest%%|*}
  unsupported=${rest#*|}
  if [ "$asm" = no ]; then pick=basic; unsupported="sse4 avx rorx rorx_x8ms shani arm_shani"; fi
  log="qemu-$(printf '%s' "$model" | tr ',' '_').log"
  echo "== qemu-x86_64 -cpu $model: expect AutoDetect()=$pick, unsupported: $unsupported"
  SHA256_EXPECT_AUTODETECT="$pick" SHA256_EXPECT_UNSUPPORTED="$unsupported" SHA256_CHECK_CASES="${SHA256_CHECK_CASES:-2000}" \
    "$qemu" -cpu "$model" "$bin" --log_level=message --report_level=short --color_output=no > "$log" 2>&1
  rc=$?
  grep -E "AutoDetect|has (passed|failed)|test cases? out of|error" "$log" | sed 's/^/   /'
  if [ $rc -eq 0 ] && ! grep -q "SIGILL" "$log"; then
    echo "   PASS ($log)"
    pass=$((pass + 1))
  else
    echo "   FAIL rc=$rc ($log)"
    tail -20 "$log" | sed 's/^/   | /'
    fail=$((fail + 1))
  fi
done
echo "qemu CPU models: $pass passed, $fail failed"
[ $fail -eq 0 ]
