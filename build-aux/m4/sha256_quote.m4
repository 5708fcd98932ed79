dnl SPDX-License-Identifier: MIT
dnl SHA256_C_STRING(VAR, VALUE): set VAR to VALUE escaped for the inside of a C
dnl string literal (backslash and double quote escaped). A value holding a
dnl control character (newline, tab...) stops configure: no header could hold it
dnl faithfully and a reader of the bench output would be misled.
AC_DEFUN([SHA256_C_STRING],[
  sha256_q_in=$2
  case "$sha256_q_in" in
    *[[[:cntrl:]]]*) AC_MSG_ERROR([a control character (newline, tab...) in '$sha256_q_in' cannot be recorded in the build header; remove it]) ;;
  esac
  $1=`printf '%s\n' "$sha256_q_in" | sed -e 's/[[\\"]]/\\\\&/g'`
])

dnl SHA256_MAKE_SHELL_WORD(VAR, VALUE, WHAT): set VAR to VALUE quoted as one
dnl shell word that survives a Makefile (for recipes and TESTS_ENVIRONMENT).
dnl Spaces and quotes are quoted; characters make itself interprets (dollar and hash signs),
dnl backslash, backquote and control characters are refused with an error naming WHAT.
AC_DEFUN([SHA256_MAKE_SHELL_WORD],[
  sha256_q_in=$2
  case "$sha256_q_in" in
    *[[\$\#\\\`]]*|*[[[:cntrl:]]]*)
      AC_MSG_ERROR([$3 '$sha256_q_in' contains a dollar sign, a hash sign, a backslash, a backquote or a control character, which cannot pass safely through the Makefiles; use a path without them (e.g. a symbolic link)]) ;;
  esac
  $1="'"`printf '%s\n' "$sha256_q_in" | sed -e "s/'/'\\\\\\\\''/g"`"'"
])
