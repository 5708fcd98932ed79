#!/bin/sh
# libtool hands an assembler the flags it would give a C compiler. nasm and
# yasm read "-fPIC" as an output format and "-c" as an error, so drop them and
# keep everything else (include paths, defines, -o).
asm="$1"
shift
for arg do
  shift
  case "$arg" in
    -c|-fPIC|-fpic|-fno-common|-prefer-pic|-prefer-non-pic) ;;
    *) set -- "$@" "$arg" ;;
  esac
done
exec $asm "$@"
