; SPDX-License-Identifier: MIT
; sha256_avx.asm -- SHA-256 transform for AVX1 CPUs (VEX, xmm only).
;
;     void sha256_avx_transform(uint32_t* s, const unsigned char* chunk, size_t blocks);
;
; One block at a time. The 64 rounds run in general-purpose registers; the
; message schedule runs four words per xmm register alongside them, each new
; group of four words split across the four rounds that read the previous
; group, so the vector work hides under the scalar dependency chains. W+K for
; all 64 rounds goes to a 256-byte stack area, so a round needs one load.
; The last 16 rounds have no schedule work, so they load the next block.
; Three-operand VEX forms drop the register copies the SSE version needs;
; no AVX2 or BMI instructions are used.

%include "x86_64.inc"
%include "sha256_k.inc"

; stack layout
%define WK_OFF   0                  ; 64 dwords of W[i]+K[i]
%define END_OFF  256                ; end-of-input pointer
%define FRAME    272

; working variables a..h; renamed every round instead of moved
%xdefine va eax
%xdefine vb ebx
%xdefine vc ecx
%xdefine vd r8d
%xdefine ve edx
%xdefine vf r9d
%xdefine vg r10d
%xdefine vh r11d

; scalar temporaries; mprev holds a^b of the previous round (= b^c now)
%xdefine y0 r12d
%xdefine y1 r13d
%xdefine y2 ebp
%xdefine mnew r14d
%xdefine mprev r15d

; message words W[i..i+15], four per register, renamed every 4 rounds
%xdefine X0 xmm4
%xdefine X1 xmm5
%xdefine X2 xmm6
%xdefine X3 xmm7
%xdefine T0 xmm0
%xdefine T1 xmm1
%xdefine T2 xmm2
%xdefine T3 xmm3
%xdefine FLIP xmm12
%xdefine SHUF_LO xmm13
%xdefine SHUF_HI xmm14

%macro ROTATE_ARGS 0
    %xdefine %%tmp vh
    %xdefine vh vg
    %xdefine vg vf
    %xdefine vf ve
    %xdefine ve vd
    %xdefine vd vc
    %xdefine vc vb
    %xdefine vb va
    %xdefine va %%tmp
    %xdefine %%tm mprev
    %xdefine mprev mnew
    %xdefine mnew %%tm
%endmacro

%macro ROTATE_X 0
    %xdefine %%tmp X0
    %xdefine X0 X1
    %xdefine X1 X2
    %xdefine X2 X3
    %xdefine X3 %%tmp
%endmacro

; Schedule pieces: together they turn X0..X3 = W[t-16..t-1] into
; X0 = W[t..t+3] and store W+K for those words at slot %1 (group index).
%macro SCHED0 1
    vpalignr T0, X3, X2, 4          ; W[t-7..t-4]
    vpalignr T1, X1, X0, 4          ; W[t-15..t-12]
    vpaddd  X0, X0, T0
%endmacro

%macro SCHED1 1
    ; sigma0(x) = ror7 ^ ror18 ^ shr3, rotates built from shift pairs
    vpsrld  T2, T1, 7
    vpslld  T3, T1, 14
    vpsrld  T1, T1, 3
    vpxor   T1, T1, T2
    vpsrld  T2, T2, 11
    vpxor   T1, T1, T3
    vpslld  T3, T3, 11
    vpxor   T1, T1, T2
    vpxor   T1, T1, T3
    vpaddd  X0, X0, T1
%endmacro

; sigma1 needs W[t-2], so the low two words come first. Duplicating each
; word into a qword lets a 64-bit shift act as a 32-bit rotate.
%macro SCHED2 1
    vpshufd T2, X3, 0xFA            ; W[t-2] W[t-2] W[t-1] W[t-1]
    vpsrld  T0, T2, 10
    vpsrlq  T3, T2, 17
    vpsrlq  T2, T2, 19
    vpxor   T0, T0, T3
    vpxor   T0, T0, T2
    vpshufb T0, T0, SHUF_LO         ; keep dwords 0,2 -> 0,1; zero top
    vpaddd  X0, X0, T0
%endmacro

%macro SCHED3 1
    vpshufd T2, X0, 0x50            ; W[t] W[t] W[t+1] W[t+1]
    vpsrld  T0, T2, 10
    vpsrlq  T3, T2, 17
    vpsrlq  T2, T2, 19
    vpxor   T0, T0, T3
    vpxor   T0, T0, T2
    vpshufb T0, T0, SHUF_HI         ; keep dwords 0,2 -> 2,3; zero bottom
    vpaddd  X0, X0, T0
    vpaddd  T1, X0, [K256 + 16*(%1)]
    vmovdqa [rsp + WK_OFF + 16*(%1)], T1
%endmacro

; Next block's words 4*%1..4*%1+3: byte-swap into X%1 and store W+K in slot
; %1. Runs in the last 16 rounds, which read only slots 12..15.
%macro PRELOAD 1
    %if (%1) == 0
        %xdefine %%x X0
    %elif (%1) == 1
        %xdefine %%x X1
    %elif (%1) == 2
        %xdefine %%x X2
    %else
        %xdefine %%x X3
    %endif
    vmovdqu %%x, [rsi + 16*(%1)]
    vpshufb %%x, %%x, FLIP
    vpaddd  T0, %%x, [K256 + 16*(%1)]
    vmovdqa [rsp + WK_OFF + 16*(%1)], T0
%endmacro

; One round. %1 = round number; %2 = vector piece to interleave: 0..3 a
; schedule quarter, 4 a next-block preload, -1 none; %3 = its argument.
;   T1 = h + S1(e) + Ch(e,f,g) + K + W;  d += T1;  h = T1 + S0(a) + Maj(a,b,c)
; The order below was picked by measurement on Zen 3; the same ops in other
; dependency-legal orders ran up to 1.8x slower.
%macro ROUND 3
    add     vh, [rsp + WK_OFF + 4*(%1)] ; h + K[i] + W[i]
    mov     y0, ve                      ; S1 = ror(ror(ror(e,14)^e,5)^e,6)
    ror     y0, 14
    mov     y2, vf                      ; Ch = ((f^g)&e)^g
    mov     y1, va                      ; S0 = ror(ror(ror(a,9)^a,11)^a,2)
    mov     mnew, va                    ; a^b, which is b^c next round
    xor     mnew, vb
    xor     y0, ve
    xor     y2, vg
    ror     y1, 9
    xor     y1, va
    ror     y0, 5
    and     mprev, mnew                 ; Maj = ((a^b)&(b^c))^b
    ror     y1, 11
    and     y2, ve
    xor     y2, vg
    xor     y0, ve
    ror     y0, 6
%if %2 == 0
    SCHED0 %3
%elif %2 == 1
    SCHED1 %3
%elif %2 == 2
    SCHED2 %3
%elif %2 == 3
    SCHED3 %3
%elif %2 == 4
    PRELOAD %3
%endif
    xor     mprev, vb
    xor     y1, va
    add     vh, y2
    ror     y1, 2
    add     vh, y0                      ; T1
    add     vd, vh                      ; e' = d + T1
    add     vh, y1
    add     vh, mprev                   ; a' = T1 + S0 + Maj
    ROTATE_ARGS
%endmacro

; s[] += a..h
%macro ADD_STATE 0
    add     va, [rdi + 0]
    add     vb, [rdi + 4]
    add     vc, [rdi + 8]
    add     vd, [rdi + 12]
    add     ve, [rdi + 16]
    add     vf, [rdi + 20]
    add     vg, [rdi + 24]
    add     vh, [rdi + 28]
    mov     [rdi + 0], va
    mov     [rdi + 4], vb
    mov     [rdi + 8], vc
    mov     [rdi + 12], vd
    mov     [rdi + 16], ve
    mov     [rdi + 20], vf
    mov     [rdi + 24], vg
    mov     [rdi + 28], vh
%endmacro

TRANSFORM_BEGIN sha256_avx_transform, FRAME
    shl     rdx, 6
    add     rdx, rsi
    mov     [rsp + END_OFF], rdx

    vmovdqa FLIP, [BSWAP_MASK]
    vmovdqa SHUF_LO, [SHUF_00BA]
    vmovdqa SHUF_HI, [SHUF_DC00]

    mov     va, [rdi + 0]
    mov     vb, [rdi + 4]
    mov     vc, [rdi + 8]
    mov     vd, [rdi + 12]
    mov     ve, [rdi + 16]
    mov     vf, [rdi + 20]
    mov     vg, [rdi + 24]
    mov     vh, [rdi + 28]

    ; first block only; later ones are loaded during the previous block
%assign q 0
%rep 4
    PRELOAD q
%assign q q + 1
%endrep

align 16
.loaded:
    mov     mprev, vb
    xor     mprev, vc

    ; rounds 0..47 compute W[16..63]; group g of four rounds builds group g+4
%assign g 0
%rep 12
    ROUND 4*g + 0, 0, g + 4
    ROUND 4*g + 1, 1, g + 4
    ROUND 4*g + 2, 2, g + 4
    ROUND 4*g + 3, 3, g + 4
    ROTATE_X
%assign g g + 1
%endrep

    add     rsi, 64
    cmp     rsi, [rsp + END_OFF]
    jae     .last

    ; rounds 48..63, loading the next block on the side
%rep 4
    ROUND 4*g + 0, 4, g - 12
    ROUND 4*g + 1, -1, 0
    ROUND 4*g + 2, -1, 0
    ROUND 4*g + 3, -1, 0
%assign g g + 1
%endrep
    ADD_STATE
    jmp     .loaded

.last:
%assign g 12
%rep 4
    ROUND 4*g + 0, -1, 0
    ROUND 4*g + 1, -1, 0
    ROUND 4*g + 2, -1, 0
    ROUND 4*g + 3, -1, 0
%assign g g + 1
%endrep
    ADD_STATE

    TRANSFORM_END_VZEROUPPER

RODATA
align 64
K256:
    SHA256_K_GROUPS SHA256_K_PLAIN

; pshufb masks: byte-swap each dword; compact dwords 0,2 low or high
BSWAP_MASK: dq 0x0405060700010203, 0x0c0d0e0f08090a0b
SHUF_00BA:  dq 0x0b0a090803020100, 0xffffffffffffffff
SHUF_DC00:  dq 0xffffffffffffffff, 0x0b0a090803020100
