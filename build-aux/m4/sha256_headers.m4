dnl SPDX-License-Identifier: MIT
dnl SHA256_CHECK_HEADER_PRESENT(HEADER, MESSAGE): HEADER and everything it
dnl includes are found (the preprocessor only), else stop with MESSAGE.
dnl AC_CHECK_HEADER would compile the header: for Boost.Test's header-only
dnl runner that was most of every configure's time (doc/results/), and the
dnl build compiles it anyway.
AC_DEFUN([SHA256_CHECK_HEADER_PRESENT], [
  AC_MSG_CHECKING([for $1])
  AC_PREPROC_IFELSE([AC_LANG_SOURCE([[#include <$1>]])], [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no]); AC_MSG_ERROR([$2])])])
