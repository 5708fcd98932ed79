#!/bin/bash
# SPDX-License-Identifier: MIT
# CI's proof of the Bitcoin Core patch series (contrib/core-patch.sh), every run:
#   unpack Core (../shared/peers/bitcoin-core-e3f416dbf7.tar.gz); make the series;
#   core-patch.sh's refusals (not a Core tree; a tree the series does not apply to);
#   git apply --check then git am of each patch on a fresh unpack; --from=<last patch>
#   on a tree with the others gives that patch alone, and so do --to=<first patch> on
#   Core and --from=<second> --to=<second> on Core with the first; Core's own CMake
#   (everything off, -DWERROR=ON) and only bitcoin_crypto + bitcoin_consensus,
#   with no warning in the build log; core_check (contrib/core-series/check) linked
#   against the patched libraries, natively and under qemu-x86_64 -cpu Nehalem and
#   -cpu Haswell (AutoDetect's names, SHA256D64 and SHA256DMulti vs the project's
#   reference, NIST, Merkle roots of real blocks; a SIGILL fails); a tree that
#   already carries the series is told so; a hostile user git configuration gives
#   the same series; Core's own test, bench and fuzz files the series touches
#   compiled as single objects (BUILD_TESTS, BUILD_BENCH, BUILD_FUZZ_BINARY on);
#   and block_check (contrib/core-series/check) against unpatched and patched Core:
#   the same transactions, txids, wtxids, Merkle roots, exceptions and stream
#   positions for Core's bench block, segwit-era, synthetic and malformed blocks,
#   natively and under the two qemu models, and no partial block after an error.
# Ends with "core-series: N passed, M failed" (every PASS of core_check counts).
#   ci/core-series.sh [--work=DIR] [--tarball=FILE]   (default build-test/core-series)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
work=$top/build-test/core-series
tarball=${CORE_TARBALL:-$top/../shared/peers/bitcoin-core-e3f416dbf7.tar.gz}
for a in "$@"; do
  case "$a" in
    --work=*) work=${a#--work=} ;;
    --tarball=*) tarball=${a#--tarball=} ;;
    *) echo "ci/core-series.sh: unknown argument '$a' (expected --work=DIR, --tarball=FILE)" >&2; exit 2 ;;
  esac
done
passed=0
failed=0
pass() { passed=$((passed + 1)); echo "PASS $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1${2:+: $2}"; }
finish() { echo "core-series: $passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }
secs() { echo $(( $(date +%s) - $1 )); }

if [ ! -f "$tarball" ]; then fail "Core tarball" "$tarball not found (shared/peers/ beside the checkout)"; finish; fi
command -v cmake > /dev/null || { fail "tools" "cmake not found: contrib/install-deps.sh --all installs it"; finish; }
printf '#include <boost/version.hpp>\nint main() {}\n' | c++ -x c++ -fsyntax-only - 2> /dev/null \
  || { fail "tools" "Boost headers not found: contrib/install-deps.sh --all installs libboost-dev"; finish; }
rm -rf "$work"
mkdir -p "$work/pristine" "$work/logs" || { fail "work directory" "cannot create $work"; finish; }
logs=$work/logs
tar -xzf "$tarball" -C "$work/pristine" 2> "$logs/unpack.log" || { fail "unpack $tarball" "see $logs/unpack.log"; finish; }
core=$(ls -d "$work"/pristine/*/ | head -1)
core=${core%/}

# The series, and core-patch.sh's refusals.
if "$top/contrib/core-patch.sh" --core="$core" --out="$work/series" > "$logs/series.log" 2>&1; then
  pass "core-patch.sh writes the series ($(ls "$work"/series/*.patch | wc -l) patches)"
else
  fail "core-patch.sh --core=<unpacked Core> --out=..." "exit $?; see $logs/series.log"; finish
fi
out=$("$top/contrib/core-patch.sh" --core="$top" --out="$work/refused1" 2>&1); rc=$?
if [ $rc -eq 2 ] && [[ $out == *"is not a Bitcoin Core source tree"* ]] && [ ! -e "$work/refused1" ]; then
  pass "core-patch.sh refuses a tree that is not Core's (exit 2, says so, writes nothing)"
else fail "core-patch.sh on a non-Core tree" "exit $rc: $out"; fi
cp -r "$core" "$work/altered"
sed -i 's/TransformD64_2way = sha256d64_x86_shani::Transform_2way;/& \/\/ altered/' "$work/altered/src/crypto/sha256.cpp"
before=$(cd "$work/altered" && find . -type f | sort | xargs sha256sum | sha256sum)
out=$("$top/contrib/core-patch.sh" --core="$work/altered" --out="$work/refused2" 2>&1); rc=$?
after=$(cd "$work/altered" && find . -type f | sort | xargs sha256sum | sha256sum)
if [ $rc -eq 1 ] && [[ $out == *"does not apply"*"src/crypto/sha256.cpp, hunk "* ]] && [ ! -e "$work/refused2" ] && [ "$before" = "$after" ]; then
  pass "core-patch.sh on a tree the series does not apply to: names the file and hunk, exit 1, nothing written or changed"
else fail "core-patch.sh on an altered tree" "exit $rc: $(echo "$out" | grep -v '##' | head -3)"; fi

diff_of() { sed -n '/^diff --git /,$p' "$1"; }

# A fresh unpack: git apply --check, then git am, each patch in turn.
mkdir -p "$work/patched" && tar -xzf "$tarball" -C "$work/patched"
pc=$(ls -d "$work"/patched/*/ | head -1); pc=${pc%/}
gp() { git -C "$pc" -c user.name=ci -c user.email=ci@localhost "$@"; }
gp init -q && gp add -A && gp commit -q -m "Core $(basename "$pc")" || { fail "git repository of the unpacked tree"; finish; }
ok=yes
for p in "$work"/series/*.patch; do
  if ! gp apply --check "$p" > "$logs/apply.log" 2>&1; then ok=no; fail "git apply --check $(basename "$p")" "$(head -2 "$logs/apply.log" | tr '\n' ' ')"; break; fi
  if ! gp am -q "$p" > "$logs/am.log" 2>&1; then ok=no; fail "git am $(basename "$p")" "$(head -2 "$logs/am.log" | tr '\n' ' ')"; break; fi
done
[ $ok = yes ] && pass "git apply --check and git am of every patch on a fresh unpack" || finish

# A tree that already carries the series, or its first patches: "already
# carries" them and where to start instead, exit 1, nothing written (not "does
# not apply ... hunk 1": an earlier patch alone need not reverse once later
# ones changed its context).
names=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$top/contrib/core-series/series" | awk '{ print $1 }')
first=$(echo "$names" | head -1)
second=$(echo "$names" | sed -n 2p)
last=$(echo "$names" | tail -1)
before_last=$(echo "$names" | tail -2 | head -1)
mkdir -p "$work/upto" && gp archive HEAD~1 | tar -x -C "$work/upto"
for c in "$pc|through $last.patch (they apply in reverse, last first): the series ends there: nothing is left to apply" \
         "$work/upto|through $before_last.patch (they apply in reverse, last first): start after it with --from=$last"; do
  # With no git identity anywhere (a fresh machine): a refused run signs
  # nothing, so it says nothing about signing either.
  mkdir -p "$work/no-identity"
  out=$(HOME="$work/no-identity" XDG_CONFIG_HOME="$work/no-identity" GIT_CONFIG_NOSYSTEM=1 \
    "$top/contrib/core-patch.sh" --core="${c%%|*}" --out="$work/refused7" 2>&1); rc=$?
  if [ $rc -eq 1 ] && [ "$(echo "$out" | grep -v '^core-patch.sh: exporting the kernels' | grep -c .)" -eq 1 ] && [ ! -e "$work/refused7" ] &&
     [[ $out == *"already carries contrib/core-series/$first.patch ${c#*|}; nothing was written"* ]]; then
    pass "core-patch.sh on a tree that already carries patches $first ${c#*|} (exit 1, nothing written)"
  else fail "core-patch.sh on a tree carrying patches" "exit $rc: $(echo "$out" | tail -2 | tr '\n' ' ')"; fi
done

# The user's git configuration must not reach the scratch repositories: a
# configuration that signs commits (with no key), writes a cover letter, other
# prefixes and suffixes, a signature, three-way am and hooks that refuse
# everything gives the same series, signed with that user's identity. The same
# run gives --core (through a symlink), --out and TMPDIR names with a space.
home=$work/hostile-home
mkdir -p "$home/hooks"
cat > "$home/.gitconfig" << 'EOF_CFG'
[user]
	name = Hostile Config
	email = hostile@example.invalid
	signingkey = 0xDEADBEEF
[commit]
	gpgsign = true
[format]
	coverLetter = auto
	suffix = .diff
	numbered = false
	signature = not a patch line
	signOff = true
	subjectPrefix = RFC
[diff]
	noprefix = true
	mnemonicPrefix = true
	renames = false
[am]
	threeWay = true
	keepcr = true
[apply]
	whitespace = error
[core]
	hooksPath = HOOKS
	autocrlf = true
[init]
	defaultBranch = trunk
EOF_CFG
sed -i "s#HOOKS#$home/hooks#" "$home/.gitconfig"
for h in pre-commit commit-msg applypatch-msg pre-applypatch post-applypatch; do
  printf '#!/bin/sh\necho "hook %s refuses" >&2\nexit 1\n' "$h" > "$home/hooks/$h"; chmod +x "$home/hooks/$h"
done
mkdir -p "$work/tmp with space" && ln -s "$core" "$work/core link"
if HOME=$home XDG_CONFIG_HOME=$home/.config TMPDIR="$work/tmp with space" "$top/contrib/core-patch.sh" \
     --core="$work/core link" --out="$work/hostile out" > "$logs/hostile.log" 2>&1; then
  same=yes
  for p in "$work"/series/*.patch; do
    q=$work/hostile\ out/$(basename "$p")
    [ -f "$q" ] && [ "$(diff_of "$q")" = "$(diff_of "$p")" ] || { same=no; echo "  differs: $(basename "$p")"; }
  done
  [ "$(ls "$work/hostile out" | wc -l)" -eq "$(ls "$work"/series | wc -l)" ] || same=no
  if [ $same = yes ] && grep -q '^From: Hostile Config <hostile@example.invalid>' "$work/hostile out"/*.patch; then
    pass "core-patch.sh under a hostile git configuration, paths with spaces: the same series, signed with the user's identity"
  else fail "core-patch.sh under a hostile git configuration" "another series; see $work/hostile out"; fi
else fail "core-patch.sh under a hostile git configuration" "exit $?: $(grep . "$logs/hostile.log" | tail -1)"; fi

# --from=NAME: the last patch alone, for a tree that has the others; the same diff as in the whole series.
if "$top/contrib/core-patch.sh" --core="$work/upto" --out="$work/from" --from="$last" > "$logs/from.log" 2>&1 &&
   [ "$(ls "$work"/from/*.patch | wc -l)" -eq 1 ] &&
   [ "$(diff_of "$work"/from/*.patch)" = "$(diff_of "$(ls "$work"/series/*.patch | tail -1)")" ]; then
  pass "core-patch.sh --from=$last on a tree with the patches before it: that patch alone, the same diff"
else fail "core-patch.sh --from=$last" "see $logs/from.log and $work/from"; fi
out=$("$top/contrib/core-patch.sh" --core="$work/upto" --out="$work/refused3" --from=no-such-patch 2>&1); rc=$?
if [ $rc -eq 2 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && [[ $out == *"--from=no-such-patch: not a patch of the series"* ]] && [ ! -e "$work/refused3" ]; then
  pass "core-patch.sh --from with an unknown name: one line, exit 2, nothing written"
else fail "core-patch.sh --from=no-such-patch" "exit $rc: $out"; fi

# --to=NAME: the series up to a patch; with --from=NAME, one patch in the middle alone.
if "$top/contrib/core-patch.sh" --core="$core" --out="$work/to" --to="$first" > "$logs/to.log" 2>&1 &&
   [ "$(ls "$work"/to/*.patch | wc -l)" -eq 1 ] &&
   [ "$(diff_of "$work"/to/*.patch)" = "$(diff_of "$(ls "$work"/series/*.patch | head -1)")" ]; then
  pass "core-patch.sh --to=$first on unpatched Core: that patch alone, the same diff"
else fail "core-patch.sh --to=$first" "see $logs/to.log and $work/to"; fi
mkdir -p "$work/upto1" && gp archive "HEAD~$(( $(ls "$work"/series/*.patch | wc -l) - 1 ))" | tar -x -C "$work/upto1"
if "$top/contrib/core-patch.sh" --core="$work/upto1" --out="$work/one" --from="$second" --to="$second" > "$logs/one.log" 2>&1 &&
   [ "$(ls "$work"/one/*.patch | wc -l)" -eq 1 ] &&
   [ "$(diff_of "$work"/one/*.patch)" = "$(diff_of "$(ls "$work"/series/*.patch | sed -n 2p)")" ]; then
  pass "core-patch.sh --from=$second --to=$second on a tree with the patch before it: that patch alone, the same diff"
else fail "core-patch.sh --from=$second --to=$second" "see $logs/one.log and $work/one"; fi
for args in "--to=no-such-patch|--to=no-such-patch: not a patch of the series" \
            "--from=$last --to=$first|--to=$first comes before --from=$last in the series"; do
  # shellcheck disable=SC2086
  out=$("$top/contrib/core-patch.sh" --core="$core" --out="$work/refused6" ${args%%|*} 2>&1); rc=$?
  if [ $rc -eq 2 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && [[ $out == *"${args#*|}"* ]] && [ ! -e "$work/refused6" ]; then
    pass "core-patch.sh ${args%%|*}: refused (one line, exit 2, nothing written)"
  else fail "core-patch.sh ${args%%|*}" "exit $rc: $out"; fi
done

# Options that would be silently ignored: an empty value, an A/B option without --ab.
for args in "--pairs=" "--from=" "--to=" "--kernels=" "--ab --cache=" "--pairs=9" "--jobs=2 --min-time=300" "--cpu=0"; do
  # shellcheck disable=SC2086
  out=$("$top/contrib/core-patch.sh" --core="$core" --out="$work/refused5" $args 2>&1); rc=$?
  if [ $rc -eq 2 ] && [ "$(echo "$out" | wc -l)" -eq 1 ] && [[ $out == *"needs a value"* || $out == *"only --ab uses"* ]] && [ ! -e "$work/refused5" ]; then
    pass "core-patch.sh $args: refused (one line, exit 2, nothing written)"
  else fail "core-patch.sh $args" "exit $rc: $out"; fi
done

t0=$(date +%s)
out=$("$top/contrib/core-patch.sh" --core="$core" --out="$work/refused4" --ab --pairs=5 --cache="$work/refused4-cache" 2> "$work/refused4.err"); rc=$?
err=$(grep -v '^install-deps.sh:' "$work/refused4.err")
if [ $rc -eq 2 ] && [ "$(echo "$err" | wc -l)" -eq 1 ] && [[ $err == *"--pairs=5: the "*" rows compared need at least "*" pairs"* ]] &&
   [ ! -e "$work/refused4" ] && [ ! -e "$work/refused4-cache" ] && [ "$(secs "$t0")" -lt 60 ]; then
  pass "core-patch.sh --ab --pairs=5: refused before any build (one line, exit 2, nothing written)"
else fail "core-patch.sh --ab --pairs=5" "exit $rc after $(secs "$t0") s: $err"; fi

# Core's own CMake, minimal, warnings as errors; only the two libraries.
b=$work/build
t0=$(date +%s)
if cmake -S "$pc" -B "$b" -DBUILD_DAEMON=OFF -DBUILD_CLI=OFF -DBUILD_TX=OFF -DBUILD_UTIL=OFF -DBUILD_BITCOIN_BIN=OFF \
     -DENABLE_WALLET=OFF -DBUILD_WALLET_TOOL=OFF -DBUILD_GUI=OFF -DENABLE_IPC=OFF -DWITH_ZMQ=OFF -DBUILD_TESTS=OFF \
     -DBUILD_BENCH=OFF -DENABLE_EXTERNAL_SIGNER=OFF -DWITH_CCACHE=OFF -DWERROR=ON > "$logs/configure.log" 2>&1; then
  pass "Core's CMake configure, minimal, -DWERROR=ON ($(secs $t0) s)"
else fail "Core's CMake configure" "see $logs/configure.log"; finish; fi
t0=$(date +%s)
if cmake --build "$b" -j"$(nproc 2> /dev/null || echo 2)" --target bitcoin_crypto bitcoin_consensus > "$logs/build.log" 2>&1; then
  pass "build bitcoin_crypto + bitcoin_consensus ($(secs $t0) s)"
else fail "build bitcoin_crypto + bitcoin_consensus" "see $logs/build.log"; finish; fi
nw=$(grep -c 'warning:' "$logs/build.log")
[ "$nw" -eq 0 ] && pass "no compiler warning in the build (Core's warning flags, -Werror)" || fail "compiler warnings" "$nw in $logs/build.log"
built=
for k in SSE41:sse41 AVX2:avx2 AVX512:avx512 X86_SHANI:shani; do
  grep -q "^HAVE_${k%%:*}:INTERNAL=1" "$b/CMakeCache.txt" && built="$built,${k#*:}"
done
built=${built#,}
echo "NOTE Core's CMake compiled in: ${built:-no x86 kernel}"

# core_check against the patched libraries.
flags="-std=c++20 -O2 -Wall -Wextra -Werror"
cc=$work/core_check
mkdir -p "$cc"
if c++ $flags -I"$pc/src" -I"$b/src" -c "$top/contrib/core-series/check/core_check.cpp" -o "$cc/core_check.o" > "$logs/core_check-build.log" 2>&1 &&
   c++ $flags -I"$top/src" -c "$top/contrib/core-series/check/core_check_project.cpp" -o "$cc/project.o" >> "$logs/core_check-build.log" 2>&1 &&
   c++ $flags -I"$top/src" -c "$top/src/test/util/nist.cpp" -o "$cc/nist.o" >> "$logs/core_check-build.log" 2>&1 &&
   c++ "$cc"/*.o "$b/lib/libbitcoin_consensus.a" "$b/lib/libbitcoin_crypto.a" -o "$cc/core_check" >> "$logs/core_check-build.log" 2>&1; then
  pass "core_check compiled with Core's include paths and linked against the patched libraries"
else fail "core_check build" "see $logs/core_check-build.log"; finish; fi
nist=${NIST_VECTORS_DIR:-}
if [ -z "$nist" ]; then
  for d in /usr/lib/python3/dist-packages/cryptography_vectors/hashes/SHA2 /usr/lib/python3*/site-packages/cryptography_vectors/hashes/SHA2; do
    [ -f "$d/SHA256ShortMsg.rsp" ] && { nist=$d; break; }
  done
fi
# run_check <label> <log> <command...>: adds core_check's counts; a crash (SIGILL) or a missing summary fails.
run_check() {
  local label=$1 log=$2 rc p f
  shift 2
  "$@" > "$log" 2>&1; rc=$?
  grep -E '^(FAIL|core_check: CPU)' "$log" | sed "s/^/  $label: /"
  p=$(sed -n 's/^core_check: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$log")
  f=$(sed -n 's/^core_check: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$log")
  if [ -z "$p" ]; then
    fail "$label" "exit $rc without a summary$([ $rc -eq 132 ] || [ $rc -eq 4 ] && echo ' (SIGILL)'); see $log"; return
  fi
  passed=$((passed + p)); failed=$((failed + f))
  [ "$rc" -eq 0 ] || [ "$f" -gt 0 ] || fail "$label" "exit $rc; see $log"
  echo "  $label: $p passed, $f failed"
}
run_check "native" "$logs/core_check-native.log" "$cc/core_check" --built="$built" --nist-dir="$nist"
qemu=$(command -v qemu-x86_64 || true)
if [ -z "$qemu" ]; then
  fail "qemu CPU models" "qemu-x86_64 not found: contrib/install-deps.sh --all installs qemu-user"
else
  for m in Nehalem Haswell; do
    run_check "qemu -cpu $m" "$logs/core_check-$m.log" "$qemu" -cpu "$m" "$cc/core_check" --built="$built" --nist-dir="$nist" --no-xinuse
  done
fi
# The unpatched libraries for block_check (below) build in the background
# meanwhile: the objects compile one at a time, so a core would sit idle.
ub=$work/build-unpatched
ub_t0=$(date +%s)
{ cmake -S "$core" -B "$ub" -DBUILD_DAEMON=OFF -DBUILD_CLI=OFF -DBUILD_TX=OFF -DBUILD_UTIL=OFF -DBUILD_BITCOIN_BIN=OFF \
    -DENABLE_WALLET=OFF -DBUILD_WALLET_TOOL=OFF -DBUILD_GUI=OFF -DENABLE_IPC=OFF -DWITH_ZMQ=OFF -DBUILD_TESTS=OFF \
    -DBUILD_BENCH=OFF -DENABLE_EXTERNAL_SIGNER=OFF -DWITH_CCACHE=OFF > "$logs/configure-unpatched.log" 2>&1 &&
  cmake --build "$ub" -j"$(nproc 2> /dev/null || echo 2)" --target bitcoin_crypto bitcoin_consensus > "$logs/build-unpatched.log" 2>&1; } &
ub_pid=$!
# The series also changes Core's own tests (src/test/crypto_tests.cpp) and
# bench (src/bench/crypto_hash.cpp): the same build directory, reconfigured with
# both on, compiles just those two objects (Core's flags, -Werror), not the
# whole of test_bitcoin and bench_bitcoin.
t0=$(date +%s)
touched=$(cat "$top"/contrib/core-series/*.patch | sed -n 's#^diff --git a/\(src/\(test\|bench\)/[^ ]*\.cpp\) .*#\1#p' | sort -u)
if cmake -S "$pc" -B "$b" -DBUILD_TESTS=ON -DBUILD_BENCH=ON -DBUILD_FUZZ_BINARY=ON > "$logs/configure-tests.log" 2>&1; then
  objs_ok=yes
  : > "$logs/test-objects.log"
  # The data headers those files include, made by Core's own scripts as its
  # build would (the single-object targets do not make them).
  for d in test bench; do
    ns=test::data; [ $d = bench ] && ns=benchmark::data
    mkdir -p "$b/src/$d/data"
    for raw in "$pc"/src/$d/data/*.raw; do
      [ -f "$raw" ] || continue
      cmake -DRAW_SOURCE_PATH="$raw" -DHEADER_PATH="$b/src/$d/data/${raw##*/}.h" -DRAW_NAMESPACE=$ns \
        -P "$pc/cmake/script/GenerateHeaderFromRaw.cmake" >> "$logs/test-objects.log" 2>&1 || objs_ok=no
    done
    for json in "$pc"/src/$d/data/*.json; do
      [ -f "$json" ] || continue
      cmake -DJSON_SOURCE_PATH="$json" -DHEADER_PATH="$b/src/$d/data/${json##*/}.h" \
        -P "$pc/cmake/script/GenerateHeaderFromJson.cmake" >> "$logs/test-objects.log" 2>&1 || objs_ok=no
    done
  done
  [ $objs_ok = yes ] || fail "Core's test and bench data headers" "see $logs/test-objects.log"
  for f in $touched; do
    d=${f%/*}; o=${f##*/}.o
    make -C "$b/$d" "$o" >> "$logs/test-objects.log" 2>&1 || { objs_ok=no; fail "compile Core's $f with the series" "see $logs/test-objects.log"; }
  done
  nw=$(grep -c 'warning:' "$logs/test-objects.log")
  if [ -z "$touched" ]; then fail "Core's test and bench files the series touches" "none found in contrib/core-series/*.patch"
  elif [ $objs_ok = yes ] && [ "$nw" -eq 0 ]; then
    pass "Core's $(echo $touched | sed 's/ / and /g') compile with the series, no warning ($(secs $t0) s)"
  elif [ $objs_ok = yes ]; then fail "warnings compiling Core's test and bench files" "$nw in $logs/test-objects.log"; fi
else fail "Core's CMake with BUILD_TESTS and BUILD_BENCH" "see $logs/configure-tests.log"; fi

# Blocks: unpatched and patched Core read the same blocks to the same
# transactions, hashes and exceptions (contrib/core-series/check/block_check.cpp,
# one line a case), natively and under the qemu models; after an exception the
# patched block holds no transaction. The unpatched libraries are built from
# the pristine unpack with the same configuration.
if wait "$ub_pid"; then
  pass "unpatched Core's bitcoin_crypto + bitcoin_consensus, for block_check ($(secs "$ub_t0") s)"
else fail "unpatched Core's libraries" "see $logs/configure-unpatched.log and $logs/build-unpatched.log"; finish; fi
bc=$work/block_check
mkdir -p "$bc"
bc_ok=yes
for side in unpatched patched; do
  if [ $side = unpatched ]; then src=$core; bdir=$ub; else src=$pc; bdir=$b; fi
  c++ $flags -I"$src/src" -I"$bdir/src" "$top/contrib/core-series/check/block_check.cpp" \
    "$bdir/lib/libbitcoin_consensus.a" "$bdir/lib/libbitcoin_crypto.a" -o "$bc/block_check-$side" > "$logs/block_check-$side-build.log" 2>&1 \
    || { bc_ok=no; fail "block_check against $side Core" "see $logs/block_check-$side-build.log"; }
done
block=$core/src/bench/data/block413567.raw
# compare_blocks <label> <unpatched output> <patched output> [rows AutoDetect must name]
compare_blocks() {
  if ! tail -1 "$2" | grep -q '^block_check: done$' || ! tail -1 "$3" | grep -q '^block_check: done$'; then
    fail "$1: block_check did not finish" "see $2 and $3"; return
  fi
  n=$(grep -c '^case ' "$3")
  picked=$(sed -n 's/^block_check: SHA256AutoDetect() = //p' "$3")
  if ! diff <(grep '^case ' "$2") <(grep '^case ' "$3") > "$3.diff"; then
    fail "$1: $(grep -c '^>' "$3.diff") of $n cases differ from unpatched Core" "first: $(grep -m1 '^>' "$3.diff" | cut -c1-200); see $3.diff"
  elif grep '^left: ' "$3" | grep -qv ' txs=0$'; then
    fail "$1: a block that failed to read kept transactions" "$(grep '^left: ' "$3" | grep -v ' txs=0$' | head -1)"
  elif [ -n "${4:-}" ] && [[ ",$picked" != *",$4("* ]]; then
    fail "$1: AutoDetect did not pick $4" "it picked '$picked'; see $3"
  else
    pass "$1: $n cases (transactions, txids, wtxids, Merkle roots, exceptions, stream position) as unpatched Core, no partial block after an exception ($picked)"
  fi
}
if [ $bc_ok = yes ] && [ -f "$block" ]; then
  # Each run is one thread: two at a time, then compared in order.
  { "$bc/block_check-unpatched" "$block" > "$logs/blocks-unpatched.log" 2>&1
    [ -z "$qemu" ] || "$bc/block_check-unpatched" "$block" --quick > "$logs/blocks-unpatched-quick.log" 2>&1; } &
  "$bc/block_check-patched" "$block" > "$logs/blocks-native.log" 2>&1
  wait
  compare_blocks "blocks, native" "$logs/blocks-unpatched.log" "$logs/blocks-native.log"
  if [ -n "$qemu" ]; then
    # glibc's own AVX2 string functions are told away: emulated, its memcpy of
    # the truncated 1 MB blocks took most of the Haswell run (doc/results/).
    # Core's SHA-256 reads CPUID itself, so AutoDetect still picks the AVX2 rows.
    emulate() {
      GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-AVX_Fast_Unaligned_Load "$qemu" -cpu "$1" "$bc/block_check-patched" \
        "$block" --quick > "$logs/blocks-$1.log" 2> "$logs/blocks-$1.err"
    }
    emulate Nehalem & emulate Haswell
    wait
    for m in Nehalem Haswell; do
      want=sse41; [ $m = Haswell ] && want=avx2
      compare_blocks "blocks, qemu -cpu $m" "$logs/blocks-unpatched-quick.log" "$logs/blocks-$m.log" $want
    done
  fi
elif [ $bc_ok = yes ]; then fail "block_check" "$block not found in the unpacked tarball"; fi
finish
