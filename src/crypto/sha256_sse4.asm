; SPDX-License-Identifier: MIT
; sha256_sse4.asm -- SHA-256 transform for SSSE3-class CPUs: legacy SSE
; encodings only (pshufb and palignr are the newest instructions used).
%define USE_AVX 0
%define TRANSFORM_NAME sha256_sse4_transform
%include "sha256_sse4_avx.inc"
