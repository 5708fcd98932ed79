#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs what sha256bench needs on Debian.
#   contrib/install-deps.sh [--log=FILE]          build, bench and make check
#   contrib/install-deps.sh --all [--log=FILE]    also what ci/test-all.sh needs (qemu-user, valgrind,
#                                                 clang with libFuzzer, an aarch64 cross compiler, and
#                                                 what --core names)
#   contrib/install-deps.sh --core [--log=FILE]   only what contrib/core-patch.sh and building Bitcoin Core
#                                                 need (a compiler, git, python3, pkg-config, cmake, Boost's and
#                                                 libevent's headers, perf for --profile)
# Only missing packages are installed. As root: apt-get update + install, its
# output to the log (default: a file in ${TMPDIR:-/tmp}), one summary line here.
# Not root: succeeds if everything is installed, else names what is missing.
set -u
all=no
core=no
log=${TMPDIR:-/tmp}/sha256bench-install-deps.log
for arg in "$@"; do
  case "$arg" in
    --all) all=yes ;;
    --core) core=yes ;;
    --log=?*) log=${arg#--log=} ;;
    -h|--help) awk 'NR >= 3 && !/^#/ { exit } NR >= 3 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) echo "install-deps.sh: unknown argument '$arg' (expected --all or --core, and/or --log=FILE)" >&2; exit 2 ;;
  esac
done
[ "$all$core" != yesyes ] || { echo "install-deps.sh: --all already includes --core: give one of them" >&2; exit 2; }

# One package per line (keeps merges trivial), with the sets that need it:
# bench (the default: build, bench and make check), all (--all), core (--core).
pkgs=$(sed -e 's/#.*//' -e '/^ *$/d' <<'EOF_PKGS'
build-essential               bench all core
binutils                      bench all
autoconf                      bench all
automake                      bench all
libtool                       bench all
pkg-config                    bench all core
git                           bench all core
nasm                          bench all
yasm                          bench all
libboost-test-dev             bench all
libssl-dev                    bench all
nlohmann-json3-dev            bench all
python3                       bench all core
python3-cryptography-vectors  bench all
python3-matplotlib            bench all
qemu-user                     all
valgrind                      all
clang                         all
libclang-rt-dev               all
g++-aarch64-linux-gnu         all
cmake                         all core
libboost-dev                  all core
libevent-dev                  all core
linux-perf                    all core
EOF_PKGS
)
set_name=bench
[ "$all" = no ] || set_name=all
[ "$core" = no ] || set_name=core
want=$(printf '%s\n' "$pkgs" | awk -v s="$set_name" '{ for (i = 2; i <= NF; i++) if ($i == s) print $1 }' | tr '\n' ' ')

missing_pkgs() {
  out=""
  for p in $want; do
    st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null) || st=""
    [ "$st" = "install ok installed" ] || out="$out $p"
  done
  printf '%s' "${out# }"
}

if ! command -v dpkg-query > /dev/null 2>&1; then
  echo "install-deps.sh: dpkg-query not found: this script knows Debian packages only; install by hand:$want" >&2
  exit 1
fi
missing=$(missing_pkgs)
n=$(echo $want | wc -w)
if [ -z "$missing" ]; then
  echo "install-deps.sh: all $n packages already installed"
  exit 0
fi
if [ "$(id -u)" != 0 ]; then
  echo "install-deps.sh: not root, and these packages are missing: $missing" >&2
  echo "install-deps.sh: as root run: apt-get install $missing" >&2
  exit 1
fi
mkdir -p "$(dirname "$log")"
echo "install-deps.sh: installing $(echo $missing | wc -w) package(s) with apt-get (log: $log): $missing"
start=$(date +%s)
. "$(dirname "$0")/../build-aux/progress.sh"
PROGRESS_PREFIX="install-deps.sh: "
apt_install() { apt-get update && apt-get install -y --no-install-recommends "$@"; }
: > "$log"
export DEBIAN_FRONTEND=noninteractive
progress_run apt-get "$log" apt_install $missing
rc=$?
still=$(missing_pkgs)
if [ $rc -ne 0 ] || [ -n "$still" ]; then
  tail -20 "$log" >&2
  echo "install-deps.sh: apt-get failed (exit $rc); still missing: ${still:-none} (log: $log)" >&2
  exit 1
fi
echo "install-deps.sh: installed $missing in $(( $(date +%s) - start )) s; all $n packages present"
