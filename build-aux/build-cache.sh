# shellcheck shell=sh
# SPDX-License-Identifier: MIT
# Sourced by the A/B drivers: the one build cache. contrib/bench-compare.sh
# keeps this project's autotools builds in it (a directory per commit or tree
# id and build key, under its --cache), contrib/core-patch.sh Bitcoin Core's
# CMake builds for --ab and --profile (per tree id and build key, under its
# cache's core/).
#
# An entry is the directory <root>/<key>. It is complete when it holds the
# artifact (the binary the driver runs) and the file `built`, whose text is
# the entry's stamp: what the key stands for, in full (sources, configure
# arguments, compilers), as the driver words it. A complete entry is never
# written again. It is built in a sibling, <root>/<key>.partial, and published
# by one mv once the artifact is there and the stamp written: an interrupted
# build leaves a .partial (built again from scratch next time), never an entry
# that looks complete. A directory at <root>/<key> that is not complete (no
# stamp, no artifact, or the stamp of something else whose key collided) is
# built again and replaced. Two runs building the same key take turns on the
# lock <root>/<key>.lock (flock(1), util-linux): the second waits, then finds
# the entry complete and uses it.
#
# build_cache <root> <key> <stamp> <artifact> <label> <command...>: sets
# bc_dir to <root>/<key>; when that entry is complete, says
# "<label>: cached build <dir>" and returns 0. Otherwise it runs
# `<command...> <partial dir>` (in a subshell holding the lock; the command
# writes its log to <partial dir>/build.log, which exists and is empty, says
# what it builds, and stops with its own one-line message and status when a
# step fails: that build's files stay in the .partial, log included), then
# checks the artifact, writes the stamp, publishes the entry and says
# "<label>: built <dir>". Returns 0, the command's status, or 2 after one
# line "<BUILD_CACHE_PREFIX><what failed>" on stderr. sh has no locals: the
# names it uses start with bc_.
build_cache() {
  bc_root=$1 bc_key=$2 bc_stamp=$3 bc_artifact=$4 bc_label=$5
  shift 5
  bc_dir=$bc_root/$bc_key
  if build_cache_complete "$bc_dir" "$bc_stamp" "$bc_artifact"; then
    echo "${BUILD_CACHE_PREFIX:-}$bc_label: cached build $bc_dir" >&2
    return 0
  fi
  command -v flock > /dev/null 2>&1 \
    || { build_cache_error "flock not found: install Debian's util-linux (apt-get install util-linux)"; return 2; }
  if ! { mkdir -p "$bc_root" && touch "$bc_dir.lock"; } 2> /dev/null; then
    build_cache_error "cannot write in the cache directory $bc_root"; return 2
  fi
  (
    if ! flock -n 9; then
      echo "${BUILD_CACHE_PREFIX:-}$bc_label: another run is building $bc_dir; waiting for it" >&2
      flock 9 || { build_cache_error "cannot lock $bc_dir.lock"; exit 2; }
    fi
    if build_cache_complete "$bc_dir" "$bc_stamp" "$bc_artifact"; then
      echo "${BUILD_CACHE_PREFIX:-}$bc_label: cached build $bc_dir (built by the other run)" >&2
      exit 0
    fi
    bc_partial=$bc_dir.partial
    if ! { rm -rf "$bc_partial" && mkdir -p "$bc_partial" && touch "$bc_partial/build.log"; } 2> /dev/null; then
      build_cache_error "cannot create $bc_partial"; exit 2
    fi
    "$@" "$bc_partial" 9>&- || exit
    [ -x "$bc_partial/$bc_artifact" ] \
      || { build_cache_error "$bc_label: the build finished but $bc_partial/$bc_artifact is missing; log: $bc_partial/build.log"; exit 2; }
    if ! (printf '%s\n' "$bc_stamp" > "$bc_partial/built") 2> /dev/null; then
      build_cache_error "cannot write $bc_partial/built"; exit 2
    fi
    if ! { rm -rf "$bc_dir" && mv "$bc_partial" "$bc_dir"; } 2> /dev/null; then
      build_cache_error "cannot publish $bc_partial as $bc_dir"; exit 2
    fi
    echo "${BUILD_CACHE_PREFIX:-}$bc_label: built $bc_dir" >&2
  ) 9> "$bc_dir.lock"
}

# build_cache_complete <dir> <stamp> <artifact>: whether <dir> is a complete
# entry for that stamp.
build_cache_complete() {
  [ -f "$1/built" ] && [ -x "$1/$3" ] && [ "$(cat "$1/built")" = "$2" ]
}

# build_cache_error <message>: the one line of a failure, on stderr.
build_cache_error() {
  echo "${BUILD_CACHE_PREFIX:-}$1" >&2
}
