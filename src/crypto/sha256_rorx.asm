; SPDX-License-Identifier: MIT
; sha256_rorx.asm -- SHA-256 transform for AVX2 + BMI2 CPUs.
;
;     void sha256_rorx_transform(uint32_t* s, const unsigned char* chunk, size_t blocks);
;
; Blocks are taken two at a time: block N sits in the low 128-bit lane and
; block N+1 in the high lane, so one pass of vector code computes both
; message schedules. All 2 x 64 W+K words go to the stack; the first block
; is compressed while the schedule is still being produced, the second one
; just replays its stored W+K. A lone last block is loaded with 128-bit loads
; only, so nothing past the end of the input is ever read.
;
; The scalar rounds use rorx (three-operand rotate, no flags) and andn, and
; register names rotate (sha256_round.inc) instead of values moving.

%include "x86_64.inc"
%include "sha256_k.inc"
%include "sha256_round.inc"

; Stack scratch: 16 groups x 32 bytes of W+K (low 16 bytes: first block,
; high 16 bytes: second block), then a few saved pointers.
%define WK_BYTES    512
%define SAVE_STATE  (WK_BYTES + 0)
%define SAVE_INP    (WK_BYTES + 8)
%define SAVE_END    (WK_BYTES + 16)
%define FRAME_BYTES (WK_BYTES + 32)

; Working variables a..h. Their names rotate every round.
%xdefine A eax
%xdefine B ebx
%xdefine C ecx
%xdefine D r8d
%xdefine E edx
%xdefine F r9d
%xdefine G r10d
%xdefine H r11d

%define T0 r12d
%define T1 r13d
%define T2 r14d
; AB holds a^b of the round being computed; BC holds b^c, which is the
; previous round's a^b. They swap names every round.
%xdefine AB r15d
%xdefine BC edi

%define IDX  rsi         ; byte offset of the current 4-group slice of W+K
%define KTAB rbp

; Message words: X0 = W[t-16..t-13] ... X3 = W[t-4..t-1], both lanes.
%xdefine X0 ymm0
%xdefine X1 ymm1
%xdefine X2 ymm2
%xdefine X3 ymm3
%define XT0 ymm4
%define XT1 ymm5
%define XT2 ymm6
%define XT3 ymm7
%define XT4 ymm8
%define XT5 ymm9
%define BSWAP  ymm10
%define SHUF_LO ymm11
%define SHUF_HI ymm12

; One round; %1 = displacement of this round's W+K word from rsp + IDX.
; Ch(e,f,g) = (e & f) + (~e & g): the two halves never share a set bit,
; so each can be added to h on its own.
; Maj(a,b,c) = b ^ ((a ^ b) & (b ^ c)), where b ^ c is last round's a ^ b.
%macro RND 1
    add     H, [rsp + IDX + (%1)]
    andn    T0, E, G
    rorx    T1, E, 25
    rorx    T2, E, 11
    add     H, T0
    mov     T0, F
    xor     T1, T2
    and     T0, E
    rorx    T2, E, 6
    add     H, T0
    xor     T1, T2
    mov     AB, A
    rorx    T0, A, 22
    add     H, T1
    rorx    T2, A, 13
    xor     AB, B
    add     D, H
    xor     T0, T2
    and     BC, AB
    rorx    T2, A, 2
    xor     BC, B
    xor     T0, T2
    add     H, BC
    add     H, T0
    STATE_ROTATE
%endmacro

; The schedule for W[t..t+3] (both lanes), split into four parts so that
; each can be slotted next to one scalar round. SCHED3's %1 is the byte
; offset (from rsp + IDX and KTAB + IDX) where this group's W+K goes.
%macro SCHED0 0
    vpalignr XT0, X3, X2, 4         ; W[t-7..t-4]
    vpalignr XT1, X1, X0, 4         ; W[t-15..t-12]
    vpaddd   XT0, XT0, X0
    vpsrld   XT2, XT1, 7
    vpslld   XT3, XT1, 25
    vpor     XT3, XT3, XT2
%endmacro

%macro SCHED1 0
    vpsrld   XT2, XT1, 18
    vpslld   XT4, XT1, 14
    vpsrld   XT1, XT1, 3
    vpxor    XT3, XT3, XT2
    vpxor    XT1, XT1, XT4
    vpxor    XT1, XT1, XT3          ; sigma0
    vpaddd   XT0, XT0, XT1
%endmacro

; sigma1 on two words at a time: duplicating each word into a qword turns
; a 64-bit right shift into a 32-bit rotate in the low dword.
%macro SCHED2 0
    vpshufd  XT2, X3, 0xFA          ; W[t-2], W[t-2], W[t-1], W[t-1]
    vpsrld   XT4, XT2, 10
    vpsrlq   XT3, XT2, 19
    vpsrlq   XT2, XT2, 17
    vpxor    XT2, XT2, XT3
    vpxor    XT4, XT4, XT2
    vpshufb  XT4, XT4, SHUF_LO
    vpaddd   XT0, XT0, XT4          ; W[t], W[t+1] are final
%endmacro

%macro SCHED3 1
    vpshufd  XT2, XT0, 0x50         ; W[t], W[t], W[t+1], W[t+1]
    vpsrld   XT5, XT2, 10
    vpsrlq   XT3, XT2, 19
    vpsrlq   XT2, XT2, 17
    vpxor    XT2, XT2, XT3
    vpxor    XT5, XT5, XT2
    vpshufb  XT5, XT5, SHUF_HI
    vpaddd   X0, XT0, XT5
    vpaddd   XT1, X0, [KTAB + IDX + (%1)]
    vmovdqa  [rsp + IDX + (%1)], XT1
    ROTATE_X
%endmacro

; Four rounds of the first block (group at %1) while producing the group
; four ahead (at %1 + 128).
%macro GROUP_SCHED 1
    RND     (%1) + 0
    SCHED0
    RND     (%1) + 4
    SCHED1
    RND     (%1) + 8
    SCHED2
    RND     (%1) + 12
    SCHED3  (%1) + 128
%endmacro

; Four rounds from stored W+K; %1 = group offset (+16 for the second block).
%macro GROUP_PLAIN 1
    RND     (%1) + 0
    RND     (%1) + 4
    RND     (%1) + 8
    RND     (%1) + 12
%endmacro

; s[] += a..h
%macro ADD_STATE 0
    mov     rdi, [rsp + SAVE_STATE]
    STATE_ADD rdi
%endmacro

TRANSFORM_BEGIN sha256_rorx_transform, FRAME_BYTES, ymm
    mov     [rsp + SAVE_STATE], rdi
    shl     rdx, 6
    add     rdx, rsi
    mov     [rsp + SAVE_END], rdx

    vmovdqa BSWAP, [bswap_mask]
    vmovdqa SHUF_LO, [shuf_lo_mask]
    vmovdqa SHUF_HI, [shuf_hi_mask]
    lea     KTAB, [k256x2]

    STATE_LOAD rdi

.two_blocks_or_one:
    mov     [rsp + SAVE_INP], rsi
    mov     rdi, [rsp + SAVE_END]
    sub     rdi, rsi
    cmp     rdi, 128
    jb      .load_one

    vmovdqu xmm0, [rsi + 0]
    vmovdqu xmm1, [rsi + 16]
    vmovdqu xmm2, [rsi + 32]
    vmovdqu xmm3, [rsi + 48]
    vinserti128 ymm0, ymm0, [rsi + 64], 1
    vinserti128 ymm1, ymm1, [rsi + 80], 1
    vinserti128 ymm2, ymm2, [rsi + 96], 1
    vinserti128 ymm3, ymm3, [rsi + 112], 1
    jmp     .loaded

.load_one:
    ; Only one block is left: VEX 128-bit loads clear the high lane, whose
    ; schedule is computed but never used.
    vmovdqu xmm0, [rsi + 0]
    vmovdqu xmm1, [rsi + 16]
    vmovdqu xmm2, [rsi + 32]
    vmovdqu xmm3, [rsi + 48]

.loaded:
    vpshufb X0, X0, BSWAP
    vpshufb X1, X1, BSWAP
    vpshufb X2, X2, BSWAP
    vpshufb X3, X3, BSWAP
    vpaddd  XT0, X0, [KTAB + 0]
    vpaddd  XT1, X1, [KTAB + 32]
    vpaddd  XT2, X2, [KTAB + 64]
    vpaddd  XT3, X3, [KTAB + 96]
    vmovdqa [rsp + 0], XT0
    vmovdqa [rsp + 32], XT1
    vmovdqa [rsp + 64], XT2
    vmovdqa [rsp + 96], XT3

    mov     BC, B
    xor     BC, C
    xor     IDX, IDX

    ; Rounds 0..47 of the first block, scheduling words 16..63 for both.
    align 16
.sched_loop:
    GROUP_SCHED 0
    GROUP_SCHED 32
    GROUP_SCHED 64
    GROUP_SCHED 96
    add     IDX, 128
    cmp     IDX, 384
    jb      .sched_loop

    ; Rounds 48..63 of the first block.
    GROUP_PLAIN 0
    GROUP_PLAIN 32
    GROUP_PLAIN 64
    GROUP_PLAIN 96

    ADD_STATE

    mov     rsi, [rsp + SAVE_INP]
    add     rsi, 64
    cmp     rsi, [rsp + SAVE_END]
    jae     .done

    ; Second block: replay its W+K from the high halves.
    mov     BC, B
    xor     BC, C
    xor     IDX, IDX
    align 16
.second_loop:
    GROUP_PLAIN 16
    GROUP_PLAIN 48
    GROUP_PLAIN 80
    GROUP_PLAIN 112
    add     IDX, 128
    cmp     IDX, 512
    jb      .second_loop

    ADD_STATE

    mov     rsi, [rsp + SAVE_INP]
    add     rsi, 128
    cmp     rsi, [rsp + SAVE_END]
    jb      .two_blocks_or_one

.done:
    TRANSFORM_END

RODATA
; K, each group of four repeated for the second lane.
k256x2:
    SHA256_K_GROUPS SHA256_K_TWICE

; Per-lane byte order fix for big-endian message words.
bswap_mask:
    db 3,2,1,0, 7,6,5,4, 11,10,9,8, 15,14,13,12
    db 3,2,1,0, 7,6,5,4, 11,10,9,8, 15,14,13,12
; Dwords 0 and 2 -> 0 and 1, upper half zeroed.
shuf_lo_mask:
    db 0,1,2,3, 8,9,10,11, 0x80,0x80,0x80,0x80, 0x80,0x80,0x80,0x80
    db 0,1,2,3, 8,9,10,11, 0x80,0x80,0x80,0x80, 0x80,0x80,0x80,0x80
; Dwords 0 and 2 -> 2 and 3, lower half zeroed.
shuf_hi_mask:
    db 0x80,0x80,0x80,0x80, 0x80,0x80,0x80,0x80, 0,1,2,3, 8,9,10,11
    db 0x80,0x80,0x80,0x80, 0x80,0x80,0x80,0x80, 0,1,2,3, 8,9,10,11
