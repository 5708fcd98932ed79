#!/bin/sh
# SPDX-License-Identifier: MIT
# Generate configure and the Makefile.in files.
set -e
srcdir="$(dirname "$0")"
cd "$srcdir"
if [ -z "${LIBTOOLIZE}" ] && GLIBTOOLIZE="$(command -v glibtoolize)"; then
  LIBTOOLIZE="${GLIBTOOLIZE}"
  export LIBTOOLIZE
fi
command -v autoreconf >/dev/null || \
  (echo "autogen.sh: autoreconf not found; install autoconf, automake and libtool (apt-get install autoconf automake libtool)" >&2 && exit 1)
autoreconf --install --force --warnings=all
