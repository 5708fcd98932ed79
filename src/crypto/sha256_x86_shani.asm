; SPDX-License-Identifier: MIT
; sha256_x86_shani.asm -- SHA-256 transform using the Intel SHA extensions
; (sha256rnds2 / sha256msg1 / sha256msg2), legacy SSE encodings only.
;
;     void sha256_shani_transform(uint32_t* s, const unsigned char* chunk, size_t blocks);
;
; The 64 rounds of a block are one chain of 32 dependent sha256rnds2, so the
; speed limit is 32 x latency(sha256rnds2) per block. Everything else (loads,
; byte swaps, message schedule, W+K, the next block's first W+K) only has to
; be ready before the chain needs it; the out-of-order core runs it ahead.
; The one unavoidable extra step on the chain is the per-block feedforward
; add of the ABEF half.

%include "x86_64.inc"
%include "sha256_k.inc"
%include "sha256_x86_shani.inc"

; Register roles
%define MSG     xmm0        ; implicit W+K operand of sha256rnds2
%define ABEF    xmm1        ; a,b,e,f with a in the top dword
%define CDGH    xmm2
%define ABEF_SV xmm3        ; state at block start, for the feedforward
%define CDGH_SV xmm4
%define BSWAP   xmm9
%define TMP     xmm10

; One group of 4 rounds using message vector %2 (W[4g..4g+3]).
; For g < 12 it also turns %2 into W[4g+16..4g+19] from %2..%5
; (= W[4g..], W[4g+4..], W[4g+8..], W[4g+12..]).
%macro ROUNDS4 5
    movdqa      MSG, %2
    paddd       MSG, [K256 + 16*(%1)]
    sha256rnds2 CDGH, ABEF              ; CDGH now holds the new ABEF
%if (%1) < 12
    movdqa      TMP, %5
    palignr     TMP, %4, 4              ; W[t-7]
    sha256msg1  %2, %3                  ; W[t-16] + s0(W[t-15])
    paddd       %2, TMP
    sha256msg2  %2, %5                  ; + s1(W[t-2])
%endif
    pshufd      MSG, MSG, 0x0E
    sha256rnds2 ABEF, CDGH
%endmacro

; Load one 64-byte block at [rsi] into four byte-swapped message vectors.
%macro LOADBLOCK 0
    movdqu      xmm5, [rsi]
    movdqu      xmm6, [rsi + 16]
    movdqu      xmm7, [rsi + 32]
    movdqu      xmm8, [rsi + 48]
    pshufb      xmm5, BSWAP
    pshufb      xmm6, BSWAP
    pshufb      xmm7, BSWAP
    pshufb      xmm8, BSWAP
%endmacro

TRANSFORM_BEGIN sha256_shani_transform, 32, xmm
    movdqa      BSWAP, [BSWAP32]

    SHANI_LOAD_STATE ABEF, CDGH, TMP, rdi

    LOADBLOCK

.block:
    movdqa      ABEF_SV, ABEF
    movdqa      CDGH_SV, CDGH

    ROUNDS4  0, xmm5, xmm6, xmm7, xmm8
    ROUNDS4  1, xmm6, xmm7, xmm8, xmm5
    ROUNDS4  2, xmm7, xmm8, xmm5, xmm6
    ROUNDS4  3, xmm8, xmm5, xmm6, xmm7
    ROUNDS4  4, xmm5, xmm6, xmm7, xmm8
    ROUNDS4  5, xmm6, xmm7, xmm8, xmm5
    ROUNDS4  6, xmm7, xmm8, xmm5, xmm6
    ROUNDS4  7, xmm8, xmm5, xmm6, xmm7
    ROUNDS4  8, xmm5, xmm6, xmm7, xmm8
    ROUNDS4  9, xmm6, xmm7, xmm8, xmm5
    ROUNDS4 10, xmm7, xmm8, xmm5, xmm6
    ROUNDS4 11, xmm8, xmm5, xmm6, xmm7
    ROUNDS4 12, xmm5, xmm6, xmm7, xmm8
    ROUNDS4 13, xmm6, xmm7, xmm8, xmm5
    ROUNDS4 14, xmm7, xmm8, xmm5, xmm6
    ROUNDS4 15, xmm8, xmm5, xmm6, xmm7

    add         rsi, 64
    dec         rdx
    jz          .done

    ; Next block's message goes in before the feedforward so the first
    ; W+K is never what the chain waits on.
    LOADBLOCK
    paddd       CDGH, CDGH_SV
    paddd       ABEF, ABEF_SV
    jmp         .block

.done:
    paddd       CDGH, CDGH_SV
    paddd       ABEF, ABEF_SV

    SHANI_STORE_STATE ABEF, CDGH, TMP, rdi
TRANSFORM_END

RODATA
K256:
    SHA256_K_GROUPS SHA256_K_PLAIN
; pshufb mask: reverse the bytes of each dword (big-endian message words)
BSWAP32:
    db 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12
