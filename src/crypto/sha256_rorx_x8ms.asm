; SPDX-License-Identifier: MIT
; sha256_rorx_x8ms_transform: SHA-256 compression for AVX2 + BMI2.
; "x8ms" = eight message schedules: one per block, computed together.
;
; Eight blocks at a time: their message schedules are computed together, one
; 32-bit lane per block, and W+K is left on the stack as 64 rows of 32 bytes
; (row t, dword j = W[t]+K[t] of block j). The blocks are then compressed one
; after another with scalar rorx/andn rounds that read their column of that
; table. While one group is compressed, the vector units schedule the next
; group into a second buffer, so that work hides behind the integer rounds.
; Fewer than eight remaining blocks go to sha256_rorx_transform, so no byte
; past the input is ever loaded. So do whole calls of fewer than X8_MIN_BLOCKS:
; the first group's schedule cannot hide behind earlier rounds, and below
; about 48 blocks that start-up cost makes this path slower than the two-block
; one (measured on Zen 3: doc/results/2026-11-27-lab-notes.md).

%include "x86_64.inc"
%include "sha256_k.inc"
%include "sha256_round.inc"

extern sha256_rorx_transform

; Two buffers; each holds plain W (for the schedule), W+K (for the rounds)
; and its own copy of the broadcast K rows, all at fixed distances so one
; pointer register addresses the three.
%define W_OFF       0
%define WK_OFF      4096
%define K_OFF       2048
%define BUF_SIZE    6144
%define BUF_A       0
%define BUF_B       BUF_SIZE
%define STATE_SLOT  (2 * BUF_SIZE)
%define INPUT_SLOT  (2 * BUF_SIZE + 8)
%define COUNT_SLOT  (2 * BUF_SIZE + 16)
%define CUR_SLOT    (2 * BUF_SIZE + 24)
%define END_SLOT    (2 * BUF_SIZE + 32)
%define FRAME       (2 * BUF_SIZE + 64)
%define X8_MIN_BLOCKS 48

; The round loop tells its two 32-round passes apart by bit 10 of rbp's
; offset in the frame, which needs both W+K tables 2 KiB-aligned there.
%if (BUF_A + WK_OFF) % 2048 || (BUF_B + WK_OFF) % 2048
    %error "W+K tables must start at multiples of 2048 in the frame"
%endif

; ---------------------------------------------------------------------------
; Message schedule, all eight blocks in parallel.

; Rows 4q..4q+3 of the group at r12 into the buffer at r13. Lane j of each
; ymm = block j: the low 128-bit half gets blocks 0-3 and the high half
; blocks 4-7, so an in-lane 4x4 transpose is enough. ymm8 = byte-swap mask.
%macro LOAD4 1
    vmovdqu     xmm0, [r12 + 0*64 + (%1)*16]
    vmovdqu     xmm1, [r12 + 1*64 + (%1)*16]
    vmovdqu     xmm2, [r12 + 2*64 + (%1)*16]
    vmovdqu     xmm3, [r12 + 3*64 + (%1)*16]
    vinserti128 ymm0, ymm0, [r12 + 4*64 + (%1)*16], 1
    vinserti128 ymm1, ymm1, [r12 + 5*64 + (%1)*16], 1
    vinserti128 ymm2, ymm2, [r12 + 6*64 + (%1)*16], 1
    vinserti128 ymm3, ymm3, [r12 + 7*64 + (%1)*16], 1
    vpshufb     ymm0, ymm0, ymm8
    vpshufb     ymm1, ymm1, ymm8
    vpshufb     ymm2, ymm2, ymm8
    vpshufb     ymm3, ymm3, ymm8
    vpunpckldq  ymm4, ymm0, ymm1
    vpunpckhdq  ymm5, ymm0, ymm1
    vpunpckldq  ymm6, ymm2, ymm3
    vpunpckhdq  ymm7, ymm2, ymm3
    vpunpcklqdq ymm0, ymm4, ymm6
    vpunpckhqdq ymm1, ymm4, ymm6
    vpunpcklqdq ymm2, ymm5, ymm7
    vpunpckhqdq ymm3, ymm5, ymm7
%assign %%i 0
%rep 4
    vmovdqa     [r13 + W_OFF + (4*(%1) + %%i) * 32], ymm %+ %%i
    vpaddd      ymm4, ymm %+ %%i, [r13 + K_OFF + (4*(%1) + %%i) * 32]
    vmovdqa     [r13 + WK_OFF + (4*(%1) + %%i) * 32], ymm4
%assign %%i %%i + 1
%endrep
%endmacro

; W[t-2] and W[t-1] stay in registers (the t -> t+2 dependency is the
; latency chain); older words are reloaded.
%xdefine WM2 ymm13
%xdefine WM1 ymm14
%xdefine WNEW ymm15

; All 16 words of the group at r12 into the buffer at r13.
%macro LOAD16 0
    vmovdqa     ymm8, [BSWAP_MASK]
    LOAD4 0
    LOAD4 1
    LOAD4 2
    LOAD4 3
    vmovdqa     WM2, ymm2
    vmovdqa     WM1, ymm3
%endmacro

; One word W[t] for all lanes; rsi + (%1)*32 is row t of a buffer.
%macro SCHED 1
    vmovdqa     ymm4, [rsi + W_OFF + ((%1) - 15) * 32]
    vpsrld      ymm5, ymm4, 3
    vpsrld      ymm6, ymm4, 7
    vpslld      ymm7, ymm4, 14
    vpxor       ymm5, ymm5, ymm6
    vpsrld      ymm6, ymm4, 18
    vpslld      ymm4, ymm4, 25
    vpxor       ymm5, ymm5, ymm7
    vpxor       ymm6, ymm6, ymm4
    vpxor       ymm5, ymm5, ymm6                ; sigma0(W[t-15])
    vpaddd      ymm5, ymm5, [rsi + W_OFF + ((%1) - 16) * 32]
    vpaddd      ymm5, ymm5, [rsi + W_OFF + ((%1) - 7) * 32]
    vpsrld      ymm8, WM2, 10
    vpsrld      ymm9, WM2, 17
    vpslld      ymm10, WM2, 13
    vpsrld      ymm11, WM2, 19
    vpslld      ymm12, WM2, 15
    vpxor       ymm8, ymm8, ymm9
    vpxor       ymm10, ymm10, ymm11
    vpxor       ymm8, ymm8, ymm12
    vpxor       ymm8, ymm8, ymm10               ; sigma1(W[t-2])
    vpaddd      WNEW, ymm5, ymm8
    vmovdqa     [rsi + W_OFF + (%1) * 32], WNEW
    vpaddd      ymm4, WNEW, [rsi + K_OFF + (%1) * 32]
    vmovdqa     [rsi + WK_OFF + (%1) * 32], ymm4
%xdefine %%tmp WM2
%xdefine WM2 WM1
%xdefine WM1 WNEW
%xdefine WNEW %%tmp
%endmacro

; ---------------------------------------------------------------------------
; Scalar rounds. Register names rotate instead of values moving.

%xdefine A eax
%xdefine B ebx
%xdefine C ecx
%xdefine D edx
%xdefine E r8d
%xdefine F r9d
%xdefine G r10d
%xdefine H r11d
%xdefine Y0 r12d
%xdefine Y1 r13d
%xdefine Y3 r15d
; Maj's carry (sha256_round.inc): a round leaves a ^ b in AB and consumes
; b ^ c from BC; AB is free for other use until a ^ b is computed.
%xdefine AB r14d
%xdefine BC edi

; rbp points at this block's column of the W+K table.
; Ch(e,f,g) = (e & f) + (~e & g): the halves share no set bit, so both go
; straight into h. Maj(a,b,c) = b ^ ((a ^ b) & (b ^ c)), with b ^ c kept
; from the round before. The order was picked by measurement on Zen 3,
; where rorx has only two pipes.
%macro ROUND 1
    add         H, [rbp + (%1) * 32]
    rorx        Y0, E, 25
    rorx        Y1, E, 11
    andn        Y3, E, G
    xor         Y0, Y1
    mov         Y1, F
    and         Y1, E
    rorx        AB, E, 6                        ; AB as a temporary
    add         H, Y3
    add         H, Y1
    xor         Y0, AB                          ; Sigma1(e)
    rorx        Y3, A, 22
    rorx        Y1, A, 13
    mov         AB, A
    xor         AB, B                           ; a ^ b
    add         H, Y0                           ; T1
    and         BC, AB
    rorx        Y0, A, 2
    xor         Y3, Y1
    add         D, H                            ; e' = d + T1
    xor         Y3, Y0                          ; Sigma0(a)
    xor         BC, B                           ; Maj(a,b,c)
    add         Y3, BC
    add         H, Y3                           ; a' = T1 + Sigma0 + Maj
    STATE_ROTATE
%endmacro

; ---------------------------------------------------------------------------

TRANSFORM_LABEL sha256_rorx_x8ms_transform, ymm
    ; Short calls go straight to the two-block code, before any register is saved.
    cmp         rdx, X8_MIN_BLOCKS
    jae         .eight
    TRANSFORM_TAILCALL sha256_rorx_transform
.eight:
TRANSFORM_PROLOGUE FRAME
    mov         [rsp + STATE_SLOT], rdi
    mov         [rsp + INPUT_SLOT], rsi
    mov         [rsp + COUNT_SLOT], rdx
    mov         qword [rsp + CUR_SLOT], BUF_A

    ; K rows into both buffers
    lea         r12, [KB]
    xor         eax, eax
.kcopy:
    vmovdqa     ymm0, [r12 + rax]
    vmovdqa     ymm1, [r12 + rax + 32]
    vmovdqa     [rsp + BUF_A + K_OFF + rax], ymm0
    vmovdqa     [rsp + BUF_A + K_OFF + rax + 32], ymm1
    vmovdqa     [rsp + BUF_B + K_OFF + rax], ymm0
    vmovdqa     [rsp + BUF_B + K_OFF + rax + 32], ymm1
    add         eax, 64
    cmp         eax, 2048
    jb          .kcopy

    ; first group, scheduled on its own
    mov         r12, rsi
    lea         r13, [rsp + BUF_A]
    LOAD16
    lea         rsi, [rsp + BUF_A + 16 * 32]
%assign i 0
%rep 48
    SCHED i
%assign i i + 1
%endrep

    STATE_LOAD  rdi

.group:
    mov         r13, [rsp + CUR_SLOT]
    lea         rbp, [rsp + r13 + WK_OFF]
    lea         r12, [rbp + 32]
    mov         [rsp + END_SLOT], r12
    xor         r13, BUF_A ^ BUF_B
    add         r13, rsp                        ; the other buffer: next group
    lea         rsi, [r13 + 16 * 32]
    ; The next group's 16 input words only if it exists; the 48 later
    ; schedule steps run anyway (on stale stack data when there is no next
    ; group), which keeps one copy of the round code.
    cmp         qword [rsp + COUNT_SLOT], 16
    jb          .block
    mov         r12, [rsp + INPUT_SLOT]
    add         r12, 512
    LOAD16

.block:
    mov         BC, B
    xor         BC, C
.half:
    ; 32 rounds per pass keep the loop body small for the op cache; each pass
    ; also does three steps of the next group's schedule.
%assign t 0
%assign s 0
%rep 32
    ROUND t
  %if (t % 10) == 5
    SCHED s
    %assign s s + 1
  %endif
%assign t t + 1
%endrep
    add         rsi, 3 * 32
    add         rbp, 32 * 32
    mov         r12, rbp
    sub         r12, rsp
    test        r12d, 32 * 32                   ; set after the first pass only
    jnz         .half
    sub         rbp, 64 * 32 - 4
    mov         rdi, [rsp + STATE_SLOT]
    STATE_ADD   rdi
    cmp         rbp, [rsp + END_SLOT]
    jb          .block

    xor         qword [rsp + CUR_SLOT], BUF_A ^ BUF_B
    add         qword [rsp + INPUT_SLOT], 512
    sub         qword [rsp + COUNT_SLOT], 8
    cmp         qword [rsp + COUNT_SLOT], 8
    jae         .group                          ; edx is D: no count in rdx here
    mov         rsi, [rsp + INPUT_SLOT]
    mov         rdx, [rsp + COUNT_SLOT]
    test        rdx, rdx
    jz          .done
    ; rdi, rsi, rdx describe the unprocessed rest; the two-block transform
    ; returns straight to our caller.
    TRANSFORM_TAILCALL sha256_rorx_transform
.done:
    TRANSFORM_END

RODATA
BSWAP_MASK:
    dq 0x0405060700010203, 0x0c0d0e0f08090a0b
    dq 0x0405060700010203, 0x0c0d0e0f08090a0b
; K[t] repeated in all eight lanes, one 32-byte row per round.
KB:
    SHA256_K_GROUPS SHA256_K_BROADCAST8
