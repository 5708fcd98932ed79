dnl SPDX-License-Identifier: MIT
dnl SHA256_CHECK_ASM: choose yasm or nasm for the x86-64 transforms.
dnl   --with-asm=auto (default): use yasm or nasm if either is found, else build without assembly.
dnl   --with-asm=yasm|nasm: use that one; fail if it is missing or cannot assemble x86-64.
dnl   --with-asm=no: build without assembly.
dnl Sets ASM, ASMFLAGS, ASM_NAME and the automake conditional ENABLE_ASM.
AC_DEFUN([SHA256_CHECK_ASM],[
  AC_ARG_WITH([asm],
    [AS_HELP_STRING([--with-asm=auto|yasm|nasm|no],
      [assembler for the x86-64 SHA-256 transforms (default: auto)])],
    [sha256_asm_want=$withval], [sha256_asm_want=auto])
  ASM_NAME=none
  sha256_asm_reason=""
  case "$sha256_asm_want" in
    auto|yes|yasm|nasm|no) ;;
    *) AC_MSG_ERROR([--with-asm=$sha256_asm_want: expected auto, yasm, nasm or no]) ;;
  esac
  case "$host_cpu-$host_os" in
    x86_64-linux*|x86_64-*bsd*|amd64-*bsd*) sha256_asm_format=elf64 ;;
    *) sha256_asm_format="" ;;
  esac
  if test "$sha256_asm_want" = no; then
    sha256_asm_reason="disabled by --with-asm=no"
  elif test "x$sha256_disable_optimized" = xyes; then
    sha256_asm_reason="DISABLE_OPTIMIZED_SHA256 is defined"
  elif test -z "$sha256_asm_format"; then
    if test "$sha256_asm_want" = yasm || test "$sha256_asm_want" = nasm; then
      AC_MSG_ERROR([--with-asm=$sha256_asm_want: the assembly transforms need an x86-64 ELF host, this is $host])
    fi
    sha256_asm_reason="host $host is not x86-64 ELF"
  else
    case "$sha256_asm_want" in
      auto|yes) sha256_asm_candidates="yasm nasm" ;;
      *) sha256_asm_candidates="$sha256_asm_want" ;;
    esac
    for sha256_asm_prog in $sha256_asm_candidates; do
      AC_PATH_PROG([sha256_asm_path], [$sha256_asm_prog])
      if test -n "$sha256_asm_path"; then
        AC_MSG_CHECKING([whether $sha256_asm_prog assembles x86-64 AVX2, BMI2 and SHA instructions])
        cat > conftest.asm <<_SHA256EOF
section .text
global conftest_fn
conftest_fn:
    vpshufb ymm0, ymm1, ymm2
    rorx    eax, ebx, 7
    sha256rnds2 xmm1, xmm2
    ret
_SHA256EOF
        if $sha256_asm_path -f $sha256_asm_format -o conftest.o conftest.asm >&AS_MESSAGE_LOG_FD 2>&1; then
          AC_MSG_RESULT([yes])
          ASM="$sha256_asm_path"
          ASM_NAME="$sha256_asm_prog"
          rm -f conftest.asm conftest.o
          break
        fi
        AC_MSG_RESULT([no])
        rm -f conftest.asm conftest.o
      fi
      AS_UNSET([sha256_asm_path])
      AS_UNSET([ac_cv_path_sha256_asm_path])
    done
    if test "$ASM_NAME" = none; then
      if test "$sha256_asm_want" = yasm || test "$sha256_asm_want" = nasm; then
        AC_MSG_ERROR([--with-asm=$sha256_asm_want was requested but no working $sha256_asm_want was found; install it (apt-get install $sha256_asm_want) or use --with-asm=auto or --with-asm=no])
      fi
      sha256_asm_reason="neither yasm nor nasm was found (apt-get install nasm); only the portable transform is built"
      AC_MSG_WARN([$sha256_asm_reason])
    fi
  fi
  ASMFLAGS="-f $sha256_asm_format"
  AC_MSG_CHECKING([for the assembler of the SHA-256 transforms])
  if test "$ASM_NAME" = none; then
    AC_MSG_RESULT([none ($sha256_asm_reason)])
  else
    AC_MSG_RESULT([$ASM_NAME ($ASM)])
  fi
  AC_SUBST([ASM])
  AC_SUBST([ASMFLAGS])
  AC_SUBST([ASM_NAME])
  AM_CONDITIONAL([ENABLE_ASM], [test "$ASM_NAME" != none])
])
