#!/bin/sh
# SPDX-License-Identifier: MIT
# README's bench command: install what is missing, build out of tree in build/
# (with the RORX rows enabled), run the bench. The source tree is never
# configured or built in: build/ is configured from a copy of the tree's source
# files in build/.source (build-aux/export-source.sh), so it works whatever state
# the checkout is in, and a second run rebuilds only what changed.
# Extra arguments go to bench_bitcoin, e.g. contrib/bench.sh -min-time=2000 -output-json=bench.json
# Logs: build/logs/. The binary: build/src/bench/bench_bitcoin.
set -u
cd "$(dirname "$0")/.." || exit 1
top=$PWD
. "$top/build-aux/safe-path.sh"
refuse_unsafe_checkout bench.sh "$top" || exit 2
build=$top/build
logs=$build/logs
mkdir -p "$logs" || exit 1
say() { echo "bench.sh: $*"; }
. "$top/build-aux/progress.sh"
PROGRESS_PREFIX="bench.sh: "
# step <what> <log> <command...>: output to the log, a line every 30 s, the log's tail on failure.
step() {
  what=$1 log=$2
  shift 2
  start=$(date +%s)
  : > "$log"
  progress_run "$what" "$log" "$@"
  rc=$?
  if [ $rc -ne 0 ]; then
    tail -30 "$log" | sed 's/^/  | /'
    say "$what failed (exit $rc); full log: ${log#$top/}"
    exit 1
  fi
  say "$what: done in $(( $(date +%s) - start )) s"
}
in_dir() { cd "$1" && shift && "$@"; }

contrib/install-deps.sh --log="$logs/install-deps.log" || exit 1
build-aux/export-source.sh "$build/.source" || { say "cannot copy the source to build/.source"; exit 1; }
if [ ! -x "$build/.source/configure" ] || [ -n "$(cd "$build/.source" && find . -path ./autom4te.cache -prune -o \
     \( -name configure.ac -o -name Makefile.am -o -name '*.include' -o -name '*.m4' \) -newer configure -print | head -1)" ]; then
  step "autogen.sh" "$logs/autogen.log" "$build/.source/autogen.sh"
fi
if [ ! -f "$build/config.status" ] || [ "$build/.source/configure" -nt "$build/config.status" ]; then
  step "configure (CPPFLAGS=-DBENCH_RORX; summary in build/logs/configure.log)" "$logs/configure.log" \
    in_dir "$build" "$build/.source/configure" CPPFLAGS="-DBENCH_RORX"
fi
step "make -j$(nproc)" "$logs/make.log" make -C "$build" -j"$(nproc)"
say "running build/src/bench/bench_bitcoin $*"
exec "$build/src/bench/bench_bitcoin" "$@"
