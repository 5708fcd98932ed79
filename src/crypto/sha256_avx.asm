; SPDX-License-Identifier: MIT
; sha256_avx.asm -- SHA-256 transform for AVX CPUs: the same code as
; sha256_sse4.asm in VEX encodings (xmm only, no AVX2 or BMI), whose
; three-operand forms drop the register copies SSE needs.
%define USE_AVX 1
%define TRANSFORM_NAME sha256_avx_transform
%include "sha256_sse4_avx.inc"
