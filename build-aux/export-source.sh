#!/bin/sh
# SPDX-License-Identifier: MIT
# export-source.sh DEST: make DEST a copy of this source tree as it is now
# (tracked files plus untracked ones git does not ignore), for out-of-tree builds.
#
# Why a copy: autotools refuse to configure out of tree from a source tree that
# was itself configured (./configure run in it), and an in-tree build leaves
# objects that would shadow an out-of-tree build's. Building from a copy that
# holds only source files works whatever state the checkout is in, and never
# changes the checkout. Files keep their times and the copy is updated in place
# (files gone from the tree are removed), so a rebuild recompiles only what changed.
# DEST/.source-commit records `git describe` of the checkout for the bench header.
# Without git (a release tarball) the tree is copied minus autotools output.
set -eu
[ $# -eq 1 ] || { echo "usage: build-aux/export-source.sh DEST" >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$1"
dest=$(cd "$1" && pwd)
case "$dest/" in
  "$top/") echo "export-source.sh: DEST must not be the source tree itself" >&2; exit 2 ;;
esac
list=$(mktemp)
trap 'rm -f "$list"' EXIT
cd "$top"
if git rev-parse --is-inside-work-tree > /dev/null 2>&1 && [ "$(git rev-parse --show-toplevel)" = "$top" ]; then
  git ls-files --cached --others --exclude-standard | while IFS= read -r f; do
    [ -f "$f" ] && printf '%s\n' "$f"
  done | LC_ALL=C sort > "$list"
  commit=$(git describe --always --dirty 2> /dev/null || echo unknown)
else
  # A tarball (or a copy made by this script): everything but the two commands'
  # build directories and what an in-tree configure/make produces. build-aux/
  # stays: its m4 macros and scripts are sources.
  find . -type f ! -path './build/*' ! -path './build-test/*' ! -path './autom4te.cache/*' ! -name '*.o' ! -name '*.lo' \
    ! -name '*.la' ! -name '*.a' ! -name 'config.status' ! -name 'config.log' ! -name 'Makefile' \
    ! -name 'libtool' ! -name 'sha256bench-config.h' ! -name 'stamp-h1' ! -path '*/.deps/*' ! -path '*/.libs/*' \
    | sed 's|^\./||' | LC_ALL=C sort > "$list"
  commit=unknown
fi
[ -s "$list" ] || { echo "export-source.sh: no source files found in $top" >&2; exit 1; }
# Remove what an earlier export copied and the tree no longer has.
if [ -f "$dest/.source-files" ]; then
  LC_ALL=C comm -23 "$dest/.source-files" "$list" | while IFS= read -r f; do rm -f "$dest/$f"; done
fi
tar -cf - -T "$list" | (cd "$dest" && tar -xpf -)
cp "$list" "$dest/.source-files"
printf '%s\n' "$commit" > "$dest/.source-commit"
