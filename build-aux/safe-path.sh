# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# Sourced by the scripts that configure and make under a directory of their
# own (contrib/bench.sh, ci/test-all.sh, contrib/bench-compare.sh). automake's
# configure stops on a source directory whose path holds a space, a tab, a
# newline or one of \ " # $ & ' ` ("unsafe srcdir value"), and make could not
# quote such a path either. Checked first, so the user gets one line before
# anything is installed or built, not a failure for every build.
#
# unsafe_path_char PATH: prints which such character PATH holds ("a space",
# "a '$'") and returns 0; returns 1 when it holds none.
unsafe_path_char() {
  case $1 in
    *' '*) echo "a space" ;;
    *'	'*) echo "a tab" ;;
    *'
'*) echo "a newline" ;;
    *\\*) echo "a backslash" ;;
    *\"*) echo "a double quote" ;;
    *\'*) echo "a single quote" ;;
    *\`*) echo "a backquote" ;;
    *\#*) echo "a '#'" ;;
    *\$*) echo "a '\$'" ;;
    *\&*) echo "a '&'" ;;
    *) return 1 ;;
  esac
}

# refuse_unsafe_checkout NAME TOP: for the README's two commands, which build
# under the checkout TOP. Says why in one line (as NAME) and returns 1 when
# TOP's path holds such a character; returns 0 otherwise.
refuse_unsafe_checkout() {
  _rc_what=$(unsafe_path_char "$2") || return 0
  echo "$1: cannot build under $2: its path has $_rc_what, which autotools refuse; clone the repository to a path without one" >&2
  return 1
}
