#!/bin/sh
# Installs what sha256bench needs on Debian (run as root).
#   contrib/install-deps.sh          build, bench and make check
#   contrib/install-deps.sh --all    also qemu-user, valgrind, clang with libFuzzer and an aarch64
#                                    cross compiler (contrib/test-all.sh)
set -e
pkgs="build-essential autoconf automake libtool pkg-config nasm yasm libboost-test-dev libssl-dev python3 python3-cryptography-vectors"
[ "${1:-}" = "--all" ] && pkgs="$pkgs qemu-user valgrind clang libclang-rt-dev g++-aarch64-linux-gnu"
if [ "$(id -u)" != 0 ]; then
  echo "install-deps.sh: must run as root; or install by hand: apt-get install $pkgs" >&2
  exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update
apt-get install -y --no-install-recommends $pkgs
