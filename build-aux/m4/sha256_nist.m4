dnl SPDX-License-Identifier: MIT
dnl SHA256_CHECK_NIST_VECTORS: find the NIST CAVP SHA-2 response files shipped by
dnl Debian's python3-cryptography-vectors (cryptography_vectors/hashes/SHA2/).
dnl Sets NIST_VECTORS_DIR (empty when not found: make check then fails and says why),
dnl defines it as a C string in the config header (test_bitcoin reads it there), and
dnl sets NIST_VECTORS_DIR_SH, the same path quoted as one shell word for Makefiles.
AC_DEFUN([SHA256_CHECK_NIST_VECTORS],[
  AC_ARG_WITH([nist-vectors],
    [AS_HELP_STRING([--with-nist-vectors=DIR],
      [directory holding SHA256ShortMsg.rsp, SHA256LongMsg.rsp and SHA256Monte.rsp
       (default: search for python3-cryptography-vectors)])],
    [sha256_nist_want=$withval], [sha256_nist_want=auto])
  NIST_VECTORS_DIR=""
  sha256_nist_has() {
    test -f "$[1]/SHA256ShortMsg.rsp" && test -f "$[1]/SHA256LongMsg.rsp" && test -f "$[1]/SHA256Monte.rsp"
  }
  AC_MSG_CHECKING([for the NIST CAVP SHA-256 vectors])
  case "$sha256_nist_want" in
    no)
      AC_MSG_RESULT([disabled; make check will fail until --with-nist-vectors=DIR is given]) ;;
    auto|yes)
      for sha256_nist_dir in \
          /usr/lib/python3/dist-packages/cryptography_vectors/hashes/SHA2 \
          /usr/share/python3-cryptography-vectors/hashes/SHA2 \
          `ls -d /usr/lib/python3*/site-packages/cryptography_vectors/hashes/SHA2 /usr/local/lib/python3*/dist-packages/cryptography_vectors/hashes/SHA2 2>/dev/null`; do
        if sha256_nist_has "$sha256_nist_dir"; then
          NIST_VECTORS_DIR="$sha256_nist_dir"
          break
        fi
      done
      if test -n "$NIST_VECTORS_DIR"; then
        AC_MSG_RESULT([$NIST_VECTORS_DIR])
      else
        AC_MSG_RESULT([no])
        AC_MSG_WARN([NIST CAVP vectors not found: make check will fail. Install them (apt-get install python3-cryptography-vectors) or pass --with-nist-vectors=DIR])
      fi ;;
    *)
      if sha256_nist_has "$sha256_nist_want"; then
        NIST_VECTORS_DIR=`cd "$sha256_nist_want" && pwd`
        AC_MSG_RESULT([$NIST_VECTORS_DIR])
      else
        AC_MSG_RESULT([no])
        AC_MSG_ERROR([--with-nist-vectors=$sha256_nist_want: the directory must hold SHA256ShortMsg.rsp, SHA256LongMsg.rsp and SHA256Monte.rsp (Debian: python3-cryptography-vectors, in .../cryptography_vectors/hashes/SHA2)])
      fi ;;
  esac
  SHA256_MAKE_SHELL_WORD([NIST_VECTORS_DIR_SH], [$NIST_VECTORS_DIR], [the NIST vectors directory])
  SHA256_C_STRING([sha256_nist_c], [$NIST_VECTORS_DIR])
  AC_DEFINE_UNQUOTED([NIST_VECTORS_DIR], ["$sha256_nist_c"], [directory of the NIST CAVP SHA-256 .rsp files ("" if none)])
  AC_SUBST([NIST_VECTORS_DIR])
  AC_SUBST([NIST_VECTORS_DIR_SH])
])
