#!/bin/sh
# SPDX-License-Identifier: MIT
# The upstream patch series for Bitcoin Core, and its A/B in Core's own bench.
#
#   contrib/core-patch.sh --core=DIR --out=DIR [--ab] [options]
#
# --core=DIR is a Bitcoin Core source tree (a git checkout or an unpacked
# tarball). It is never modified: the series is built on a scratch copy.
# --out=DIR receives the series as `git format-patch` files (one capability a
# patch, Core-style commit messages) that `git am` applies to that tree; it
# must not exist or be empty. The series (contrib/core-series/series) is the
# Core-side glue kept in contrib/core-series/NAME.patch plus the kernel files
# that contrib/core-export.py writes from this tree's kernels (or --kernels=DIR).
#
# --ab also builds Core unpatched (BASE) and patched (HEAD) with its own CMake
# (bench only), each once, cached by the git tree id of its sources (the
# cache of build-aux/build-cache.sh, as contrib/bench-compare.sh), then runs
# Core's bench_bitcoin on every benchmark the series touches: the hashes
# (SHA256D64_1024_AVX2, SHA256D64_1024_SHANI, MerkleRoot, and
# SHA256D64_1024_AVX512: where only HEAD has it, compared with BASE's AVX2 row)
# and the blocks (DeserializeBlockTest, DeserializeAndCheckBlockTest, their
# segwit-era twins DeserializeSegwitBlockTest and
# DeserializeAndCheckSegwitBlockTest, ReadBlockBench from disk,
# LoadExternalBlockFile from a file stream). The series' patches that only
# add benchmarks (those touching src/bench/ alone) go into BASE too, so both
# sides run them. Each benchmark runs in a process of its own (in one process,
# an earlier benchmark can change a later one's time), BASE and HEAD
# alternately in ABBA order (LoadExternalBlockFile with build-aux/ab-place.c
# preloaded: its 8 MiB read buffer at an offset in a page drawn per pair and
# the same on both sides; doc/upstream.md says why), and
# prints the table of contrib/bench_compare.py
# (the engine of contrib/bench-compare.sh: Hodges-Lehmann change, Wilcoxon
# interval family-wise over the rows, verdicts) with the medians in core
# cycles below it. The table and the raw runs go to OUT/ab.md and OUT/ab-runs/.
# A row whose implementation string (what Core's SHA256AutoDetect(mask) returned,
# which Core's bench puts in the benchmark's name) lacks what the row's name
# claims (SHA256D64_1024_SHANI without "x86_shani(", _AVX512 without
# "avx512(16way)", _AVX2 without "avx2(8way)": a CPU without the feature, where
# Core falls back silently) is not compared: the table lists it as not run, with
# that string (contrib/core-series/core_bench_json.py).
#
# --profile builds the same two sides and runs each block benchmark once a side
# under `perf record -e cpu-clock --call-graph dwarf`, then prints where the
# time goes (contrib/core-series/core_profile.py): the share of SHA-256 by caller
# (transaction hashing, Merkle roots, other) and the rest, BASE beside HEAD, in
# OUT/profile.md (the perf data in OUT/profile-runs/). Needs perf (Debian's
# linux-perf) allowed to sample (root, or kernel.perf_event_paranoid <= 2).
#
# Options:
#   --kernels=DIR    the export step's output (DIR/src/crypto/...); default:
#                    run contrib/core-export.py
#   --from=NAME      start the series at its patch NAME, for a Core tree that
#                    already has the patches before it (with --ab: the A/B of
#                    that patch and those after it); names: contrib/core-series/series
#   --to=NAME        end the series at its patch NAME (with --ab: the patches
#                    up to it against the tree given; --from=NAME --to=NAME:
#                    that one patch's A/B, as when a row moves and the series
#                    has more than one patch that could move it)
#   --pairs=K        A/B pairs (default: the fewest that the compared rows
#                    need for 95% family-wise intervals)
#   --min-time=MS    bench_bitcoin -min-time of each run (default 500)
#   --cache=DIR      Core builds for --ab and --profile (default:
#                    $SHA256BENCH_CACHE/core, else ~/.cache/sha256bench/core)
#   --jobs=N         build jobs (default: the number of CPUs)
#   --threshold=PCT  smallest change called faster/slower (default 1)
#   --cpu=N          the CPU every run of the A/B is pinned to (default: the
#                    first this process may use); the builds use them all
# Bad input fails before any long work, with one line and no traceback: an
# option with an empty value, or one that only --ab uses without --ab; not a
# Core tree; --out, --cache (with --ab) or the temporary directory ($TMPDIR)
# inside the Core tree, compared by physical path (symlinks and ".." resolved,
# --core given through a symlink included), or --out under a file; a series
# that does not apply (the file and hunk; nothing is written to --out), or a
# tree that already carries it (which patches, and the --from= to start at);
# cmake, Boost or libevent missing (the Debian package); a Core build failure
# (the log's path). A scratch copy that tar cannot make whole (an unreadable or
# vanished file) stops the run naming the file. The scratch repositories never
# read the user's or the system's git configuration (only user.name and
# user.email are taken from it), so commit.gpgsign, format.*, diff.noprefix,
# hooks and the like change nothing.
# Exit: 0 series written (and table printed); 1 the series does not apply;
# 2 usage, missing tool, build or run error.
set -u
set -f
me=core-patch.sh
die() { echo "$me: $*" >&2; exit 2; }
say() { echo "$me: $*" >&2; }
script_dir=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$script_dir/.." && pwd)
pd=$script_dir/core-series

core= out= ab=no profile=no pairs= min_time=500 kernels= cache= jobs= threshold= from= to= ab_cpu=
ab_only=     # options given that only --ab uses
build_only=  # options given that only --ab and --profile use
for a in "$@"; do
  case "$a" in
    --*=) die "$a: the option needs a value" ;;
    --pairs=*|--min-time=*|--threshold=*|--cpu=*) ab_only="$ab_only ${a%%=*}" ;;
    --cache=*|--jobs=*) build_only="$build_only ${a%%=*}" ;;
  esac
  case "$a" in
    --core=*) core=${a#--core=} ;;
    --out=*) out=${a#--out=} ;;
    --ab) ab=yes ;;
    --profile) profile=yes ;;
    --kernels=*) kernels=${a#--kernels=} ;;
    --from=*) from=${a#--from=} ;;
    --to=*) to=${a#--to=} ;;
    --pairs=*) pairs=${a#--pairs=} ;;
    --min-time=*) min_time=${a#--min-time=} ;;
    --cache=*) cache=${a#--cache=} ;;
    --jobs=*) jobs=${a#--jobs=} ;;
    --threshold=*) threshold=${a#--threshold=} ;;
    --cpu=*) ab_cpu=${a#--cpu=} ;;
    -h|--help) awk 'NR >= 3 && !/^#/ { exit } NR >= 3 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) die "unknown argument '$a' (usage: contrib/core-patch.sh --core=DIR --out=DIR [--ab]; --help for more)" ;;
  esac
done

# ---- validation: everything that can be checked before any long work ----
[ "$ab" = yes ] || [ -z "$ab_only" ] || die "${ab_only# }: only --ab uses this (the A/B in Core's bench); add --ab or drop it"
builds=no
[ "$ab$profile" = nono ] || builds=yes
[ "$builds" = yes ] || [ -z "$build_only" ] \
  || die "${build_only# }: only --ab and --profile use this (they build Core); add one of them or drop it"
is_uint() { case "$1" in ''|*[!0-9]*) return 1 ;; esac; [ ${#1} -le 7 ]; }
[ -n "$core" ] || die "--core=DIR is required: a Bitcoin Core source tree (git checkout or unpacked tarball)"
[ -n "$out" ] || die "--out=DIR is required: where the patch series goes"
[ -d "$core" ] || die "--core=$core: no such directory"
core=$(cd "$core" && pwd)
for f in CMakeLists.txt cmake/introspection.cmake src/crypto/sha256.cpp src/crypto/sha256.h src/crypto/CMakeLists.txt \
         src/bench/crypto_hash.cpp src/test/crypto_tests.cpp; do
  [ -f "$core/$f" ] || die "--core=$core is not a Bitcoin Core source tree (no $f)"
done
grep -q '^project(BitcoinCore' "$core/CMakeLists.txt" \
  || die "--core=$core is not a Bitcoin Core source tree (its CMakeLists.txt has no project(BitcoinCore))"
case "$out" in /*) ;; *) out=$PWD/$out ;; esac
# Every directory this script writes (--out, --cache with --ab, the temporary
# directory) is compared with the Core tree by physical path, before any work:
# a symlink, a "..", or --core given through a symlink must not lead a write
# into the tree. physical <path> sets phys to where <path> is or would be
# created (mkdir -p), walking it a component at a time as the kernel does: an
# existing directory is replaced by its physical path (symlinks resolved), a
# name that does not exist yet is kept (mkdir makes it a plain directory), ".."
# goes to the parent of what was reached. It fails, with blocked set to the
# path in the way, at an existing non-directory (a file, a dangling symlink).
# writable_base is then the deepest existing directory of phys.
physical() {
  ph_path=$1
  case "$ph_path" in /*) ;; *) ph_path=$PWD/$ph_path ;; esac
  ph_cur=
  ph_ifs=$IFS
  IFS=/
  for ph_c in $ph_path; do
    case "$ph_c" in
      ''|.) ;;
      ..) ph_cur=${ph_cur%/*} ;;
      *)
        if [ -d "$ph_cur/$ph_c" ]; then
          ph_cur=$(cd "$ph_cur/$ph_c" && pwd -P) || { IFS=$ph_ifs; blocked=$ph_cur/$ph_c; return 1; }
          [ "$ph_cur" != / ] || ph_cur=
        elif [ -e "$ph_cur/$ph_c" ] || [ -L "$ph_cur/$ph_c" ]; then
          IFS=$ph_ifs; blocked=$ph_cur/$ph_c; return 1
        else
          ph_cur=$ph_cur/$ph_c
        fi ;;
    esac
  done
  IFS=$ph_ifs
  phys=${ph_cur:-/}
  writable_base=$phys
  while [ ! -d "$writable_base" ]; do writable_base=${writable_base%/*}; writable_base=${writable_base:-/}; done
}
# inside_core <physical path>: whether it is the Core tree or under it.
inside_core() { case "$1/" in "$core_phys"/*) return 0 ;; esac; return 1; }
core_phys=$(cd "$core" && pwd -P) || die "--core=$core: cannot read it"
physical "$out" || die "--out=$out: $blocked is in the way and is not a directory"
inside_core "$phys" && die "--out=$out is inside the Core tree ($core_phys), which this script never modifies"
if [ -e "$out" ]; then
  [ -d "$out" ] || die "--out=$out exists and is not a directory"
  [ -z "$(ls -A "$out")" ] || die "--out=$out is not empty (an older series would mix with this one)"
elif [ ! -w "$writable_base" ]; then
  die "--out=$out: cannot create it ($writable_base is not writable)"
fi
tmp_parent=${TMPDIR:-/tmp}
physical "$tmp_parent" || die "TMPDIR=$tmp_parent: $blocked is in the way and is not a directory"
inside_core "$phys" && die "the temporary directory ($tmp_parent) is inside the Core tree ($core_phys), which this script never modifies: set TMPDIR elsewhere"
if [ "$builds" = yes ]; then
  [ -n "$cache" ] || cache=${SHA256BENCH_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/sha256bench}/core
  physical "$cache" || die "--cache=$cache: $blocked is in the way and is not a directory"
  inside_core "$phys" && die "--cache=$cache is inside the Core tree ($core_phys), which this script never modifies"
fi
if [ -n "$pairs" ]; then
  is_uint "$pairs" && [ "$pairs" -le 1000 ] || die "--pairs=$pairs: expected a whole number up to 1000"
fi
is_uint "$min_time" && [ "$min_time" -ge 1 ] || die "--min-time=$min_time: expected a whole number of milliseconds"
if [ -n "$jobs" ]; then is_uint "$jobs" && [ "$jobs" -ge 1 ] || die "--jobs=$jobs: expected a whole number, at least 1"
else jobs=$(nproc 2> /dev/null || echo 2); fi
need_tool() { # need_tool <command> <Debian package>
  command -v "$1" > /dev/null 2>&1 || die "$1 not found: install Debian's $2 (apt-get install $2)"
}
# On a fresh machine, as root, this installs what the series (git, python3)
# and Core's build (--ab) need; otherwise it names what is missing.
if [ "$builds" = yes ] || ! command -v git > /dev/null 2>&1 || ! command -v python3 > /dev/null 2>&1; then
  "$top/contrib/install-deps.sh" --core >&2 || die "install the packages named above (contrib/install-deps.sh --core, as root)"
fi
need_tool git git
need_tool python3 python3
# The CPUs this process may use (taskset, cgroups): --cpu must be one of them.
. "$top/build-aux/ab-pairs.sh"
if [ "$ab" = yes ]; then
  need_tool taskset util-linux
  cpus=$(ab_cpus) || die "cannot read the CPUs this process may use (python3)"
  if [ -n "$ab_cpu" ]; then
    ab_cpu_in "$ab_cpu" "$cpus" || die "--cpu=$ab_cpu: expected one of the CPUs this process may use ($cpus)"
  else ab_cpu=${cpus%% *}; fi
fi
need_tool tar tar
[ -f "$pd/series" ] || die "$pd/series is missing: is this sha256bench's contrib/?"
analysis_opts=
[ -z "$threshold" ] || analysis_opts="--threshold=$threshold"
# The benchmarks --ab compares (at most; the AVX-512 row is compared with
# BASE's AVX2 where only HEAD has it) and --profile profiles.
AB_ROWS="SHA256D64_1024_AVX2 SHA256D64_1024_SHANI SHA256D64_1024_AVX512 MerkleRoot DeserializeBlockTest
 DeserializeAndCheckBlockTest DeserializeSegwitBlockTest DeserializeAndCheckSegwitBlockTest ReadBlockBench
 LoadExternalBlockFile"
# The benchmarks with a buffer of 4 MiB or more (BufferedFile's 8 MiB).
PLACED="LoadExternalBlockFile"
PROFILED="DeserializeBlockTest DeserializeAndCheckBlockTest DeserializeSegwitBlockTest DeserializeAndCheckSegwitBlockTest"
if [ "$builds" = yes ]; then
  need_tool cmake cmake
  need_tool c++ g++
  [ "$ab" = yes ] && need_tool cc gcc
  # Core's CMake needs Boost's headers (always) and libevent (for bench_bitcoin).
  printf '#include <boost/version.hpp>\nint main() { return 0; }\n' | c++ -x c++ -fsyntax-only - > /dev/null 2>&1 \
    || die "Boost headers not found (Bitcoin Core's CMake needs them): install Debian's libboost-dev (apt-get install libboost-dev)"
  printf '#include <event2/event.h>\nint main() { return 0; }\n' | c++ -x c++ -fsyntax-only - > /dev/null 2>&1 \
    || die "libevent headers not found (Core's bench_bitcoin needs them): install Debian's libevent-dev (apt-get install libevent-dev)"
  case "$(uname -m)" in x86_64|amd64) ;; *) die "--ab and --profile measure x86-64 paths; this is $(uname -m)" ;; esac
fi
if [ "$ab" = yes ]; then
  python3 "$script_dir/bench_compare.py" $analysis_opts --check-options || exit 2
  # Refuse fewer pairs than the compared rows need now, not after building
  # Core twice.
  nrows=$(echo $AB_ROWS | wc -w)
  need=$(python3 "$script_dir/bench_compare.py" --pairs-for="$nrows") || exit 2
  [ -z "$pairs" ] || [ "$pairs" -ge "$need" ] \
    || die "--pairs=$pairs: the $nrows rows compared need at least $need pairs for 95% family-wise intervals"
  [ -n "$pairs" ] || pairs=$need
fi
if [ "$profile" = yes ]; then
  need_tool perf linux-perf
  perf record -q -e cpu-clock -o /dev/null true > /dev/null 2>&1 \
    || die "perf cannot sample here ($(perf record -q -e cpu-clock -o /dev/null true 2>&1 | grep . | head -1)): run as root or lower kernel.perf_event_paranoid"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/core-patch.XXXXXX") || die "mktemp failed"
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM

series=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$pd/series")
names=$(printf '%s\n' "$series" | awk '{ print $1 }' | tr '\n' ' ')
is_patch() { printf '%s\n' "$series" | awk -v n="$1" '$1 == n { found = 1 } END { exit !found }'; }
[ -z "$from" ] || is_patch "$from" || die "--from=$from: not a patch of the series (${names% })"
[ -z "$to" ] || is_patch "$to" || die "--to=$to: not a patch of the series (${names% })"
series=$(printf '%s\n' "$series" | awk -v f="$from" -v t="$to" 'f == "" || $1 == f { on = 1 } on { print } $1 == t { exit }')
[ -n "$series" ] || die "--to=$to comes before --from=$from in the series (${names% })"

# ---- kernel files: this tree's kernels, written by the export step ----
if [ -z "$kernels" ]; then
  kernels=$work/kernels
  say "exporting the kernels: contrib/core-export.py --out=$kernels"
  python3 "$top/contrib/core-export.py" --out="$kernels" > "$work/export.log" 2>&1 \
    || { tail -5 "$work/export.log" >&2; die "contrib/core-export.py failed (its last lines above)"; }
elif [ -d "$kernels" ]; then
  kernels=$(cd "$kernels" && pwd)
else
  die "--kernels=$kernels: no such directory"
fi
for k in $(printf '%s\n' "$series" | awk '{ for (i = 2; i <= NF; i++) print $i }'); do
  [ -f "$kernels/$k" ] || die "kernel file $k: the export step did not write it (contrib/core-export.py --list names what it writes)"
done
for name in $(printf '%s\n' "$series" | awk '{ print $1 }'); do
  [ -f "$pd/$name.patch" ] && [ -f "$pd/$name.msg" ] || die "series entry $name: $pd/$name.patch or .msg is missing"
done

# ---- scratch copy of the Core tree, as a git repository ----
tree=$work/tree
mkdir -p "$tree" || die "cannot create $tree"
# copy_tree <tar create options...>: tar's create side runs in $core; both
# sides' statuses are checked (a pipeline's status is only the extracting
# tar's), and a failure stops the run naming tar's first complaint (the file).
copy_tree() {
  { (cd "$core" && tar "$@" -cf - 2> "$work/tar-c.err"; echo $? > "$work/tar-c.rc") \
      | tar -C "$tree" -xf - 2> "$work/tar-x.err"; } || {
    die "cannot copy $core into the scratch tree: $(grep . "$work/tar-x.err" | head -1)"; }
  [ "$(cat "$work/tar-c.rc")" = 0 ] \
    || die "cannot copy $core: $(grep . "$work/tar-c.err" | head -1 || echo "tar exited $(cat "$work/tar-c.rc")") (nothing was written to --out)"
}
if [ "$(cd "$core" && git rev-parse --show-toplevel 2> /dev/null)" = "$core_phys" ]; then
  # A checkout: its files as they are (tracked, and untracked ones git does not
  # ignore; tracked files deleted from the work tree stay out), NUL-separated,
  # so any name (spaces, newlines, a leading dash) is one name.
  (cd "$core" && git ls-files -z --cached --others --exclude-standard > "$work/files" \
     && git ls-files -z --deleted > "$work/deleted") 2> "$work/ls-files.err" \
    || die "cannot list the files of $core (git ls-files: $(grep . "$work/ls-files.err" | head -1))"
  python3 -c '
import sys
files, gone = (open(p, "rb").read().split(b"\0") for p in sys.argv[1:3])
gone = set(gone)
with open(sys.argv[3], "wb") as f:
    f.write(b"".join(n + b"\0" for n in dict.fromkeys(files) if n and n not in gone))
' "$work/files" "$work/deleted" "$work/copy-list" || die "cannot list the files of $core"
  copy_tree --null -T "$work/copy-list"
else
  # An unpacked tarball: everything but build directories (those holding a
  # CMakeCache.txt), named one a line in a file, matched as plain names.
  (set +f; cd "$core" && for d in */; do [ -f "$d/CMakeCache.txt" ] && printf './%s\n' "${d%/}"; done; true) > "$work/excludes" \
    || die "cannot list the build directories of $core"
  copy_tree --no-wildcards -X "$work/excludes" --exclude=./.git .
fi
# The scratch repositories never read the user's or the system's git
# configuration (commit.gpgsign, format.*, diff.noprefix, am.threeWay,
# core.hooksPath, init.defaultBranch ... would change or break the series):
# only the identity is taken from it, read here first.
who_name=$(git -C "$top" config user.name 2> /dev/null || true)
who_email=$(git -C "$top" config user.email 2> /dev/null || true)
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES GIT_CONFIG \
  GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT GIT_TEMPLATE_DIR GIT_NAMESPACE 2> /dev/null || true
sgit() { GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 git -c core.autocrlf=false "$@"; }
g() { sgit -C "$tree" -c user.name="$who_name" -c user.email="$who_email" "$@"; }
# Said once the series is written: a run refused before that signs nothing.
unsigned=
if [ -z "$who_name" ] || [ -z "$who_email" ]; then
  who_name=${who_name:-sha256bench}; who_email=${who_email:-sha256bench@localhost}
  unsigned="no git user.name/user.email configured: the patches are signed '$who_name <$who_email>' (set yours before sending them)"
fi
g init -q -b base && g add -A && GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
  g commit -q --no-verify -m "base: $core" || die "cannot make a git repository of the scratch copy ($tree)"
base=$(g rev-parse HEAD)

# ---- the series ----
# hunk_of <patch> <file> <line>: "hunk N (@@ ... @@)" of the hunk of <file> that starts at old <line>.
hunk_of() {
  awk -v f="$2" -v l="$3" '
    /^diff --git / { in_f = ($3 == "a/" f); n = 0; next }
    in_f && /^@@ / { n++; split($2, o, ","); if (substr(o[1], 2) + 0 == l + 0) { print "hunk " n " (" $1 " " $2 " " $3 " " $4 ")"; exit } }
  ' "$1"
}
# carried_through <name>: when the tree already carries patch <name>, the last
# patch M of the series such that reversing M, then each patch before it, down
# to <name>, all apply (a later patch changes the context of an earlier one, so
# an earlier patch alone may not reverse); prints M, or fails. The scratch tree
# is put back after each try.
carried_through() {
  ct_after=$(printf '%s\n' $names | awk -v k="$1" '$1 == k { f = 1 } f')
  for ct_m in $(printf '%s\n' "$ct_after" | awk '{ a[NR] = $0 } END { for (i = NR; i >= 1; i--) print a[i] }'); do
    ct_ok=yes
    for ct_q in $(printf '%s\n' "$ct_after" | awk -v m="$ct_m" '{ a[NR] = $0 } $0 == m { n = NR } END { for (i = n; i >= 1; i--) print a[i] }'); do
      g apply --reverse "$pd/$ct_q.patch" 2> /dev/null || { ct_ok=no; break; }
    done
    g reset -q --hard && g clean -fdq || die "cannot reset the scratch copy ($tree)"
    [ $ct_ok = no ] || { echo "$ct_m"; return 0; }
  done
  return 1
}
subject_prefix=
printf '%s\n' "$series" | while read -r name ks; do
  p=$pd/$name.patch
  if ! g apply --check "$p" 2> "$work/apply.err" && through=$(carried_through "$name"); then
    # The tree already carries this patch (and maybe those after it).
    if [ "$through" = "$name" ]; then what="contrib/core-series/$name.patch (it applies in reverse)"
    else what="contrib/core-series/$name.patch through $through.patch (they apply in reverse, last first)"; fi
    next=$(printf '%s\n' $names | awk -v n="$through" 'f { print; exit } $1 == n { f = 1 }')
    if [ -n "$next" ]; then hint="start after it with --from=$next"; else hint="the series ends there: nothing is left to apply"; fi
    echo "$me: $core already carries $what: $hint; nothing was written to --out" >&2
    exit 1
  fi
  if ! g apply --check "$p" 2> "$work/apply.err"; then
    where=$(sed -n 's/^error: patch failed: \(.*\):\([0-9]*\)$/\1 \2/p' "$work/apply.err" | head -1)
    if [ -n "$where" ]; then
      f=${where% *}; l=${where##* }
      h=$(hunk_of "$p" "$f" "$l")
      echo "$me: contrib/core-series/$name.patch does not apply to $core: $f, ${h:-the hunk at line $l}" >&2
    else
      echo "$me: contrib/core-series/$name.patch does not apply to $core: $(grep . "$work/apply.err" | head -1 | sed 's/^error: //')" >&2
    fi
    sed 's/^/  git apply: /' "$work/apply.err" | head -6 >&2
    echo "$me: nothing was written to --out; $core is untouched" >&2
    exit 1
  fi
  g apply "$p" || { echo "$me: git apply $name.patch failed after its check passed" >&2; exit 2; }
  for k in $ks; do
    mkdir -p "$tree/$(dirname "$k")"
    cp "$kernels/$k" "$tree/$k"
  done
  msg=$work/$name.msg
  if [ -f "$pd/$name.measured.md" ]; then measured=$pd/$name.measured.md
  else
    measured=$work/unmeasured
    printf '%s\n' "Measured: not yet (contrib/core-patch.sh --ab, recorded in" \
      "sha256bench's contrib/core-series/$name.measured.md; see its doc/upstream.md)." > "$measured"
  fi
  awk -v m="$measured" '
    $0 == "@MEASURED@" { while ((getline line < m) > 0) print line; next }
    { print }
  ' "$pd/$name.msg" > "$msg"
  g add -A && g commit -q --no-verify -F "$msg" || { echo "$me: cannot commit $name on the scratch copy" >&2; exit 2; }
  [ -f "$pd/$name.measured.md" ] || echo "$me: note: $name's commit message has no measured table yet" >&2
done
rc=$?
[ $rc -eq 0 ] || exit $rc
head=$(g rev-parse HEAD)
[ "$head" != "$base" ] || die "the series is empty"

# ---- format-patch, proven to apply with git am to a copy of the base ----
g format-patch -q -o "$work/series" "$base..$head" || die "git format-patch failed"
sgit clone -q "$tree" "$work/verify" 2> "$work/verify.err" && sgit -C "$work/verify" checkout -q "$base" 2>> "$work/verify.err" \
  || die "cannot clone the scratch repository to check the series ($(tail -1 "$work/verify.err"))"
# The patch files as the positional parameters: names with spaces (a TMPDIR or
# --out holding one) stay whole.
set +f
set -- "$work"/series/*.patch
set -f
[ -f "$1" ] || die "git format-patch wrote no patch"
if ! sgit -C "$work/verify" -c user.name=check -c user.email=check@localhost am -q "$@" > "$work/am.err" 2>&1; then
  die "internal error: git am of the generated series failed on the base: $(head -1 "$work/am.err")"
fi
[ "$(sgit -C "$work/verify" rev-parse 'HEAD^{tree}')" = "$(g rev-parse "$head^{tree}")" ] \
  || die "internal error: git am of the series gave another tree than the scratch copy's"
mkdir -p "$out" || die "cannot create --out=$out"
cp "$@" "$out/" || die "cannot write to --out=$out"
if [ $# -eq 1 ]; then n="1 patch"; else n="$# patches"; fi
say "series ($n, git am-able onto $core) in $out:"
for f in "$@"; do echo "  $(basename "$f")"; done
[ -z "$unsigned" ] || say "$unsigned"

[ "$builds" = yes ] || exit 0

# ---- --ab: Core unpatched (or with the patches before --from) and patched, each benchmark in its own process, ABBA ----
mkdir -p "$cache" || die "cannot create the cache directory $cache"
cache=$(cd "$cache" && pwd)
. "$top/build-aux/progress.sh"
# shellcheck source=build-aux/build-cache.sh disable=SC1091
. "$top/build-aux/build-cache.sh"
PROGRESS_PREFIX="$me: "
# shellcheck disable=SC2034 # read by build_cache
BUILD_CACHE_PREFIX="$me: "
cmake_args="-DBUILD_BENCH=ON -DBUILD_TESTS=OFF -DBUILD_DAEMON=OFF -DBUILD_CLI=OFF -DBUILD_TX=OFF -DBUILD_UTIL=OFF
 -DBUILD_BITCOIN_BIN=OFF -DENABLE_WALLET=OFF -DBUILD_WALLET_TOOL=OFF -DBUILD_GUI=OFF -DENABLE_IPC=OFF -DWITH_ZMQ=OFF
 -DENABLE_EXTERNAL_SIGNER=OFF -DWITH_CCACHE=OFF"
compiler=$(c++ --version 2> /dev/null | head -1)
cfg_key=$(printf '%s\n%s\n' "$cmake_args" "$compiler" | sha256sum | cut -c1-8)
gen=
command -v ninja > /dev/null 2>&1 && gen="-G Ninja"
# build <commit> <BASE|HEAD>: sets bin. The cache (build-aux/build-cache.sh)
# reuses a complete build of that commit's tree, else builds it with
# build_into and publishes it; its stamp is the key in full (the tree id and
# what cfg_key hashes).
build() {
  t=$(g rev-parse "$1^{tree}") || die "$2: cannot read the tree of $1"
  build_cache "$cache" "$t-$cfg_key" "$(printf 'tree: %s\n%s\n%s' "$t" "$cmake_args" "$compiler")" build/bin/bench_bitcoin \
    "$2" build_into "$1" "$2" || exit 2
  bin=$cache/$t-$cfg_key/build/bin/bench_bitcoin
}
# shellcheck disable=SC2317 # called by build_cache
# build_into <commit> <BASE|HEAD> <dir>: that commit's sources exported to dir/src, built in dir/build (log: dir/build.log).
build_into() {
  dir=$3 log=$3/build.log
  mkdir -p "$dir/src" || die "cannot create $dir"
  say "$2: building Core in $dir (log: $log)"
  g archive --format=tar "$1" | tar -x -C "$dir/src" || die "$2: cannot export the sources to $dir/src"
  # shellcheck disable=SC2086
  progress_run "$2 cmake configure" "$log" cmake -S "$dir/src" -B "$dir/build" $gen $cmake_args >&2 \
    || die "$2: Core's CMake configure failed; log: $log"
  progress_run "$2 build bench_bitcoin" "$log" cmake --build "$dir/build" -j"$jobs" --target bench_bitcoin >&2 \
    || die "$2: Core's build failed; log: $log"
}
first=$(printf '%s\n' "$series" | awk 'NR == 1 { print $1 }')
last=$(printf '%s\n' "$series" | awk '{ n = $1 } END { print n }')
span=$first; [ "$first" = "$last" ] || span="$first to $last"
if [ -n "$from" ]; then base_label="Core + the patches before $from"; else base_label="Core unpatched"; fi
if [ -n "$from$to" ]; then head_label="Core + $span"; else head_label="Core + series"; fi
# BASE runs the benchmarks the series adds too: the selected patches that only
# touch src/bench/, applied to the base tree in a commit of their own.
bench_patches=
for name in $(printf '%s\n' "$series" | awk '{ print $1 }'); do
  if ! grep '^diff --git ' "$pd/$name.patch" | grep -qv '^diff --git a/src/bench/'; then
    bench_patches="$bench_patches $name"
  fi
done
ab_base=$base
if [ -n "$bench_patches" ]; then
  # gi: git on a separate index, so the scratch checkout stays as it is.
  gi() { (GIT_INDEX_FILE=$work/ab-base.index; export GIT_INDEX_FILE; g "$@"); }
  gi read-tree "$base" || die "cannot read the base tree into an index"
  for name in $bench_patches; do
    gi apply --cached "$pd/$name.patch" 2> "$work/bench-apply.err" \
      || die "$name.patch (benchmarks only) does not apply to the base tree: $(head -1 "$work/bench-apply.err")"
  done
  ab_tree=$(gi write-tree) || die "cannot write the base tree with the benchmark patches"
  ab_base=$(GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z" \
    g commit-tree "$ab_tree" -p "$base" -m "base + benchmarks:$bench_patches") \
    || die "cannot commit the base tree with the benchmark patches"
  base_label="$base_label (+$bench_patches)"
fi
build "$ab_base" "BASE ($base_label)"
base_bin=$bin
build "$head" "HEAD ($head_label)"
head_bin=$bin

"$base_bin" -list > "$work/base.list" 2>&1 || die "BASE bench_bitcoin -list failed: $(tail -1 "$work/base.list")"
"$head_bin" -list > "$work/head.list" 2>&1 || die "HEAD bench_bitcoin -list failed: $(tail -1 "$work/head.list")"
# Every row both sides have; the AVX-512 row where only HEAD has it against
# BASE's AVX2; any other row one side lacks is named and left out.
benches= head_only= cross= missing=
for b in $AB_ROWS; do
  in_base=no in_head=no
  grep -qx "$b" "$work/base.list" && in_base=yes
  grep -qx "$b" "$work/head.list" && in_head=yes
  if [ $in_base$in_head = yesyes ]; then
    benches="$benches $b"
  elif [ $b = SHA256D64_1024_AVX512 ] && [ $in_head = yes ]; then
    head_only=$b; cross=--cross=SHA256D64_1024_AVX512=SHA256D64_1024_AVX2
  else
    missing="$missing $b (BASE: $in_base, HEAD: $in_head)"
  fi
done
benches=${benches# }
for b in SHA256D64_1024_AVX2 SHA256D64_1024_SHANI MerkleRoot DeserializeBlockTest DeserializeAndCheckBlockTest; do
  case " $benches " in *" $b "*) ;; *) die "bench_bitcoin has no benchmark $b on both sides (a Core tree this script does not know)" ;; esac
done
[ -z "$missing" ] || say "not compared, absent from a side:$missing"

if [ "$profile" = yes ]; then
  prof=$out/profile-runs
  profiled=
  for b in $PROFILED; do
    case " $benches " in *" $b "*) profiled="$profiled $b" ;; esac
  done
  for side in base head; do
    if [ $side = base ]; then pbin=$base_bin; else pbin=$head_bin; fi
    mkdir -p "$prof/$side" || die "cannot create $prof/$side"
    for b in $profiled; do
      say "profile: $side $b (perf record --call-graph dwarf)"
      perf record -q -e cpu-clock --call-graph dwarf,32768 -o "$prof/$side/$b.data" \
        "$pbin" -filter="^$b\$" -min-time=1000 -output-json="$prof/$side/$b.json" > "$prof/$side/$b.out" 2>&1 \
        || die "perf record of $side bench_bitcoin on $b failed (output: $prof/$side/$b.out)"
      perf script -i "$prof/$side/$b.data" -F comm,tid,time,event,ip,sym --no-inline > "$prof/$side/$b.script" 2> /dev/null \
        || die "perf script of $prof/$side/$b.data failed"
    done
  done
  # shellcheck disable=SC2086
  python3 "$pd/core_profile.py" table --base="$prof/base" --head="$prof/head" --base-label="$base_label" \
    --head-label="$head_label" $profiled > "$out/profile.md" || exit 2
  cat "$out/profile.md"
  say "profile: $out/profile.md; perf data: $prof"
  [ "$ab" = yes ] || exit 0
fi
# Every run, and the one-add loop beside it, on one CPU (--cpu), so that the
# loop reads the core the run used. Pinned only now: the builds above use every
# CPU (starting the script under `taskset -c N` would have built on one).
taskset -pc "$ab_cpu" $$ > /dev/null 2>&1 || die "cannot pin the A/B to CPU $ab_cpu (taskset -pc: util-linux)"
ghz=$(c++ -O2 -o "$work/clock" "$pd/clock.cpp" 2> /dev/null && "$work/clock") || die "cannot build or run the clock probe ($pd/clock.cpp)"
# Large buffers (4 MiB or more) at an offset in the page drawn per pair, the
# same for both sides: where glibc's heap would put them moves with whatever a
# patch allocates before them, and the kernel's copy into them with that
# (build-aux/ab-place.c). Only in the benchmarks that have one (PLACED): the
# preload's own call on every malloc and free costs the allocation-heavy
# block benchmarks a few percent, both sides alike.
cc -O2 -shared -fPIC -o "$work/ab-place.so" "$top/build-aux/ab-place.c" 2> "$work/ab-place.log" \
  || die "cannot build the placement preload (build-aux/ab-place.c; log: $work/ab-place.log)"
runs=$out/ab-runs
raw=$runs/raw
mkdir -p "$raw" || die "cannot create $raw"
say "A/B: $pairs pairs; each of $benches${head_only:+ $head_only (HEAD only)} in its own process on CPU $ab_cpu, -min-time=$min_time; core clock $ghz GHz"
one() { # one <pair> <base|head> <bench> (sh has no locals: names of its own)
  if [ "$2" = base ]; then one_bin=$base_bin; else one_bin=$head_bin; fi
  one_f=$raw/pair-$1-$2-$3
  # shellcheck disable=SC2034 # both read by ab_fresh (build-aux/ab-pairs.sh)
  AB_PLACE_OFFSET=$(ab_place_offset "${1#0}") AB_PLACE_SO=
  # shellcheck disable=SC2034
  case " $PLACED " in *" $3 "*) AB_PLACE_SO=$work/ab-place.so ;; esac
  # The one-add loop just before and after the run: whether another hardware
  # thread shared the core (bench_compare.py leaves out a pair whose sides disagree).
  one_l0=$("$work/clock" --loop) || die "the clock probe's --loop failed ($pd/clock.cpp)"
  ab_fresh "$work" "$one_bin" -filter="^$3\$" -min-time="$min_time" -output-json="$one_f.json" > "$one_f.out" 2>&1 \
    || die "$2 bench_bitcoin failed on $3 in pair $1 (output: $one_f.out)"
  one_l1=$("$work/clock" --loop) || die "the clock probe's --loop failed ($pd/clock.cpp)"
  echo "$one_l0 $one_l1" > "$one_f.loop"
}
t0=$(date +%s)
i=1
while [ $i -le "$pairs" ]; do
  nn=$(printf '%02d' $i)
  for b in $benches; do
    for side in $(ab_order "$i"); do one "$nn" "$side" "$b"; done
  done
  for b in $head_only; do one "$nn" head "$b"; done
  for side in base head; do
    if [ $side = base ]; then lbl=$base_label; list=$benches; else lbl=$head_label; list="$benches $head_only"; fi
    set --
    for b in $list; do set -- "$@" "$raw/pair-$nn-$side-$b.json"; done
    # shellcheck disable=SC2086
    python3 "$pd/core_bench_json.py" convert --side=$side --label="$lbl" --compiler="$compiler" --core-ghz="$ghz" \
      --min-time="$min_time" $cross --out="$runs/pair-$nn-$side.json" "$@" || exit 2
  done
  say "... pair $i of $pairs done ($(( $(date +%s) - t0 )) s)"
  i=$((i + 1))
done
python3 "$script_dir/bench_compare.py" $analysis_opts --base-label="$base_label" --head-label="$head_label" \
  --json="$runs/compare.json" "$runs" > "$out/ab.md"
rc=$?
[ $rc -le 1 ] || exit 2
{ echo; python3 "$pd/core_bench_json.py" cycles "$runs/compare.json" "$ghz"; } >> "$out/ab.md" || exit 2
# How many runs the one-add loop saw on a shared core (the larger of its two readings).
# (The script runs with globbing off: on for this one list.)
(set +f; echo; python3 "$pd/core_bench_json.py" loops --cpu="$ab_cpu" "$raw"/*.loop) >> "$out/ab.md" || exit 2
placed=
for b in $PLACED; do
  case " $benches " in *" $b "*) placed="$placed${placed:+, }$b" ;; esac
done
if [ -n "$placed" ]; then
  { echo; echo "In $placed, buffers of 4 MiB or more (its read buffer) started at the same offset in a page on both sides of a pair (build-aux/ab-place.c), pairs 1 to $pairs: $(ab_place_offsets "$pairs") bytes."; } >> "$out/ab.md"
fi
cat "$out/ab.md"
say "table: $out/ab.md; runs: $runs"
exit 0
