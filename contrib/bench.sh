#!/bin/sh
# README's bench command: install, build with the RORX rows enabled, run the bench.
# Extra arguments go to bench_bitcoin, e.g. contrib/bench.sh -min-time=2000 -output-json=bench.json
set -e
cd "$(dirname "$0")/.."
contrib/install-deps.sh
./autogen.sh
./configure CPPFLAGS="-DBENCH_RORX"
make -j"$(nproc)"
src/bench/bench_bitcoin "$@"
