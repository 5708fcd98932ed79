; SPDX-License-Identifier: MIT
; sha256_avx2.asm -- eight independent SHA-256 compressions, one per
; 32-bit lane of the AVX2 registers: the avx2_8way kernels of the kernel
; table (crypto/sha256_kernels.h), which the multi-buffer and D64 rows run.
;
;     void sha256_avx2_8way_lanes(uint32_t* st, const unsigned char* const* blocks);
;
; st is word-sliced, as every Lanes kernel keeps it: st[8*j + i] is word j
; (a..h) of lane i. Lane i compresses the 64-byte block at blocks[i] (any
; alignment; lanes may share a block) into its state.
;
;     void sha256_avx2_8way_d64(unsigned char* out, const unsigned char* in);
;
; out[32*i..] = SHA256(SHA256(in[64*i..64*i+63])) for i < 8;
; any alignment, out may equal in. Three compressions a lane: the input, the
; padding block (its W+K is a constant, sha256_pad64_wk: no schedule), and
; the first digest with the padding of a 32-byte message (its words 8..15 are
; constants: their W+K comes from a table, and the first 16 schedule steps
; leave out the terms that are zero and take the constant ones in one add).
;
; Why assembly: the same algorithm from the lane template (sha256_avx2.cpp,
; intrinsics) comes out of g++ with hundreds of vmovdqa of spills and reloads a
; block, and no g++ option avoids them; clang's is better, this file faster
; still (doc/results/2026-11-27-lab-notes.md). With 16 ymm registers, the
; state, the temporaries and the carried Maj term fit exactly when the message
; schedule lives in memory, which is what this file does.
;
; The rounds are near the bound of vector ALU throughput (simple ops on every
; vector pipe, shifts on two of them), not the chain from e to the next e:
; AVX2 has no rotate, so each Sigma is six shifts and five xors.
; Maj(a,b,c) = b ^ ((a ^ b) & (b ^ c)) costs three ops because a ^ b of one
; round is b ^ c of the next. Rounds run in a loop of 16 (the names come back
; every 8), which halves the code (21 to 11 KB) at the same speed; only the
; digest's block has its first 16 rounds written out (4 KB), for its folded
; schedule. The vector operations executed are what sha256_avx2.cpp's Avx2Asm
; counts, exactly (doc/benchmarking.md).
;
; Registers: a..h in ymm0..7 (the names rotate from round to round; no
; moves); BC (b ^ c) and AB in ymm8/ymm9, swapping names every round;
; ymm10..15 temporaries; rcx walks the constants, edx counts the loop. W[i]
; sits in a 16-slot ring on the stack (32 bytes a slot, slot i mod 16);
; W[i+16] is computed after round i into the slot that round has just read.

%include "x86_64.inc"
%include "sha256_k.inc"
%include "sha256_round.inc"

RODATA
align 64
K256_X8:    SHA256_K_GROUPS SHA256_K_BROADCAST8
BSWAP32_X8: db 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12
            db 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12
IV_X8:      times 8 dd SHA256_IV_A           ; each word of the initial hash value in every lane
            times 8 dd SHA256_IV_B
            times 8 dd SHA256_IV_C
            times 8 dd SHA256_IV_D
            times 8 dd SHA256_IV_E
            times 8 dd SHA256_IV_F
            times 8 dd SHA256_IV_G
            times 8 dd SHA256_IV_H

; W+K of rounds 8..15 of the digest's block (K plus the padding of a 32-byte
; message: words 9..14 are 0), in every lane.
%macro PAD32_WK_GROUP 4
    %if _group == 2
        times 8 dd ((%1) + SHA256_PAD32_W8) & 0xffffffff
        times 8 dd %2
        times 8 dd %3
        times 8 dd %4
    %elif _group == 3
        times 8 dd %1
        times 8 dd %2
        times 8 dd %3
        times 8 dd ((%4) + SHA256_PAD32_W15) & 0xffffffff
    %endif
    %assign _group _group + 1
%endmacro
%assign _group 0
PAD32_WK_X8: SHA256_K_GROUPS PAD32_WK_GROUP

; The constant terms of the digest's schedule W[16..31] (at most one a word).
%define ROR32(x, n) ((((x) >> (n)) | ((x) << (32 - (n)))) & 0xffffffff)
%define SIGMA0_OF(x) (ROR32(x, 7) ^ ROR32(x, 18) ^ ((x) >> 3))
%define SIGMA1_OF(x) (ROR32(x, 17) ^ ROR32(x, 19) ^ ((x) >> 10))
PAD32_S1_W15_X8: times 8 dd SIGMA1_OF(SHA256_PAD32_W15)  ; W[17]
PAD32_W15_X8:    times 8 dd SHA256_PAD32_W15             ; W[22], W[31]
PAD32_S0_W8_X8:  times 8 dd SIGMA0_OF(SHA256_PAD32_W8)   ; W[23]
PAD32_W8_X8:     times 8 dd SHA256_PAD32_W8              ; W[24]
PAD32_S0_W15_X8: times 8 dd SIGMA0_OF(SHA256_PAD32_W15)  ; W[30]

extern sha256_pad64_wk                      ; W+K of a 64-byte message's padding block (sha256d64.cpp)

%define W(i) [rsp + 32 * ((i) & 15)]

%xdefine T1 ymm10
%xdefine T2 ymm11
%xdefine T3 ymm12
%xdefine T4 ymm13
%xdefine T5 ymm14
%xdefine X  ymm15

; The names at round 0 (and again after 64 rounds: 64 is a multiple of 8).
%macro NAMES 0
    %xdefine A ymm0
    %xdefine B ymm1
    %xdefine C ymm2
    %xdefine D ymm3
    %xdefine E ymm4
    %xdefine F ymm5
    %xdefine G ymm6
    %xdefine H ymm7
    %xdefine BC ymm8
    %xdefine AB ymm9
%endmacro

; %1 = ror(%2, %3) and T3 = ror(%2, %4), each rotation a pair of shifts
; (AVX2 has no rotate); T2 and T4 are written too. Both Sigmas and both sigmas
; start so; each xors %1 with T3 after issuing its third term's shifts.
%macro TWO_ROTATIONS 4
    vpsrld      %1, %2, %3
    vpslld      T2, %2, 32 - %3
    vpsrld      T3, %2, %4
    vpslld      T4, %2, 32 - %4
    vpxor       %1, %1, T2
    vpxor       T3, T3, T4
%endmacro

; %1 = ror(%2, r1) ^ ror(%2, r2) ^ ror(%2, r3), depth 4; %1 and T2..T4 are written.
%macro BIG_SIGMA 5
    TWO_ROTATIONS %1, %2, %3, %4
    vpsrld      T2, %2, %5
    vpslld      T4, %2, 32 - %5
    vpxor       %1, %1, T3
    vpxor       T2, T2, T4
    vpxor       %1, %1, T2
%endmacro

; Round %1 (mod 16; rcx points at the constants of this group of 16): h
; becomes the new a, d the new e, as STATE_ROTATE (sha256_round.inc) renames
; them; Maj's b ^ c comes in BC and a ^ b leaves in AB, as there.
%macro ROUND 1
    vpaddd      H, H, W(%1)
    vpaddd      H, H, [rcx + 32 * ((%1) & 15)]
    ROUND_REST
%endmacro

; Round %1 of a block whose W+K is a constant: rcx points at this group's 16
; words of it (sha256_pad64_wk), one for every lane.
%macro ROUND_CONSTANT_WK 1
    vpbroadcastd T1, [rcx + 4 * ((%1) & 15)]
    vpaddd      H, H, T1
    ROUND_REST
%endmacro

; The rest of a round, once h holds h + W + K.
%macro ROUND_REST 0
    vpxor       T1, F, G                ; Ch(e,f,g) = ((f ^ g) & e) ^ g
    vpand       T1, T1, E
    vpxor       T1, T1, G
    vpaddd      H, H, T1
    BIG_SIGMA   T1, E, 6, 11, 25
    vpaddd      H, H, T1                ; T1 of the round
    vpaddd      D, D, H                 ; e' = d + T1
    vpxor       AB, A, B                ; Maj = b ^ ((a ^ b) & (b ^ c))
    vpand       BC, BC, AB
    vpxor       BC, BC, B
    BIG_SIGMA   T1, A, 2, 13, 22
    vpaddd      BC, BC, T1              ; Sigma0(a) + Maj, then a' = T1 + that
    vpaddd      H, H, BC
    STATE_ROTATE
%endmacro

; %1 = ror(%2, r1) ^ ror(%2, r2) ^ (%2 >> s); %2 is overwritten.
%macro SMALL_SIGMA 5
    TWO_ROTATIONS %1, %2, %3, %4
    vpsrld      %2, %2, %5
    vpxor       %1, %1, T3
    vpxor       %1, %1, %2
%endmacro

; W[%1 + 16] = sigma1(W[%1 + 14]) + W[%1 + 9] + sigma0(W[%1 + 1]) + W[%1],
; into the slot of W[%1], which round %1 has read.
%macro SCHEDULE 1
    vmovdqa     X, W((%1) + 1)
    SMALL_SIGMA T1, X, 7, 18, 3
    vpaddd      T1, T1, W(%1)
    vpaddd      T1, T1, W((%1) + 9)
    vmovdqa     X, W((%1) + 14)
    SMALL_SIGMA T5, X, 17, 19, 10
    vpaddd      T1, T1, T5
    vmovdqa     W(%1), T1
%endmacro

; The same for the digest's block, steps 0..15: W[%1 + 16] from the terms
; that are not zero (W[8] = SHA256_PAD32_W8, W[9..14] = 0, W[15] =
; SHA256_PAD32_W15), the one constant term a step has (the tables above) in
; one add. Every step has a sigma of a variable word, which starts T1.
%macro SCHEDULE_DIGEST 1
    %assign _i %1
    %if _i <= 6 || _i == 15                 ; sigma0(W[i + 1])
        vmovdqa     X, W(_i + 1)
        SMALL_SIGMA T1, X, 7, 18, 3
        %assign _have 1
    %else
        %assign _have 0
    %endif
    %if _i >= 2                             ; sigma1(W[i + 14])
        vmovdqa     X, W(_i + 14)
        %if _have
            SMALL_SIGMA T5, X, 17, 19, 10
            vpaddd      T1, T1, T5
        %else
            SMALL_SIGMA T1, X, 17, 19, 10
        %endif
    %endif
    %if _i <= 7                             ; W[i]
        vpaddd      T1, T1, W(_i)
    %endif
    %if _i >= 7                             ; W[i + 9]
        vpaddd      T1, T1, W(_i + 9)
    %endif
    %if _i == 1
        vpaddd      T1, T1, [PAD32_S1_W15_X8]
    %elif _i == 6 || _i == 15
        vpaddd      T1, T1, [PAD32_W15_X8]
    %elif _i == 7
        vpaddd      T1, T1, [PAD32_S0_W8_X8]
    %elif _i == 8
        vpaddd      T1, T1, [PAD32_W8_X8]
    %elif _i == 14
        vpaddd      T1, T1, [PAD32_S0_W15_X8]
    %endif
    vmovdqa     W(_i), T1
%endmacro

; ymm0..7 hold 8 words each (row i in ymm(i)); afterwards ymm(8 + j) holds
; word j of every row (an 8x8 transpose of 32-bit words; ymm0..7 are lost).
%macro TRANSPOSE8 0
    vpunpckldq  ymm8, ymm0, ymm1        ; per 128-bit half: r0w0 r1w0 r0w1 r1w1
    vpunpckhdq  ymm9, ymm0, ymm1        ;                   r0w2 r1w2 r0w3 r1w3
    vpunpckldq  ymm10, ymm2, ymm3
    vpunpckhdq  ymm11, ymm2, ymm3
    vpunpckldq  ymm12, ymm4, ymm5
    vpunpckhdq  ymm13, ymm4, ymm5
    vpunpckldq  ymm14, ymm6, ymm7
    vpunpckhdq  ymm15, ymm6, ymm7
    vpunpcklqdq ymm0, ymm8, ymm10       ; word 0 of rows 0..3 | word 4
    vpunpckhqdq ymm1, ymm8, ymm10       ; word 1 | word 5
    vpunpcklqdq ymm2, ymm9, ymm11       ; word 2 | word 6
    vpunpckhqdq ymm3, ymm9, ymm11       ; word 3 | word 7
    vpunpcklqdq ymm4, ymm12, ymm14      ; the same for rows 4..7
    vpunpckhqdq ymm5, ymm12, ymm14
    vpunpcklqdq ymm6, ymm13, ymm15
    vpunpckhqdq ymm7, ymm13, ymm15
    %assign _j 0
    %rep 4
        %assign _k _j + 4
        %assign _lo _j + 8
        %assign _hi _j + 12
        vperm2i128  ymm %+ _lo, ymm %+ _j, ymm %+ _k, 0x20
        vperm2i128  ymm %+ _hi, ymm %+ _j, ymm %+ _k, 0x31
        %assign _j _j + 1
    %endrep
%endmacro

; W[8 %1 .. 8 %1 + 7] of every lane into the ring: words 8 %1.. of lane i,
; byte-swapped, in ymm(i), then transposed. Lane i's block is at the pointer
; blocks[i] (rsi = blocks) when %2 is `pointers`, at rsi + 64 i when `contiguous`.
%macro LOAD_HALF 2
    %assign _i 0
    %rep 8
        %ifidn %2, pointers
            mov         rax, [rsi + 8 * _i]
            vmovdqu     ymm %+ _i, [rax + 32 * (%1)]
        %else
            vmovdqu     ymm %+ _i, [rsi + 64 * _i + 32 * (%1)]
        %endif
        vpshufb     ymm %+ _i, ymm %+ _i, [BSWAP32_X8]
        %assign _i _i + 1
    %endrep
    TRANSPOSE8
    %assign _j 0
    %rep 8
        %assign _k _j + 8
        vmovdqa     W(8 * (%1) + _j), ymm %+ _k
        %assign _j _j + 1
    %endrep
%endmacro

; The rounds from the group of 16 at rcx to 63: edx groups with the schedule,
; then rounds 48..63.
%macro ROUNDS_FROM_RCX 0
%%schedule_rounds:
    %assign _r 0
    %rep 16
        ROUND       _r
        SCHEDULE    _r
        %assign _r _r + 1
    %endrep
    add         rcx, 32 * 16
    dec         edx
    jnz         %%schedule_rounds
    %assign _r 0
    %rep 16                             ; rounds 48..63
        ROUND       _r
        %assign _r _r + 1
    %endrep
%endmacro

; Rounds 0..63 with the message schedule from the ring, from the state in
; A..H (names as NAMES sets them, and again afterwards).
%macro ROUNDS_WITH_SCHEDULE 0
    vpxor       BC, B, C
    lea         rcx, [K256_X8]
    mov         edx, 3
    ROUNDS_FROM_RCX
%endmacro

FUNCTION_BEGIN sha256_avx2_8way_lanes, 512, ymm
    LOAD_HALF   0, pointers
    LOAD_HALF   1, pointers
    NAMES
    %assign _j 0
    %rep 8
        vmovdqu     ymm %+ _j, [rdi + 32 * _j]
        %assign _j _j + 1
    %endrep
    ROUNDS_WITH_SCHEDULE
    %assign _j 0
    %rep 8
        vpaddd      ymm %+ _j, ymm %+ _j, [rdi + 32 * _j]
        vmovdqu     [rdi + 32 * _j], ymm %+ _j
        %assign _j _j + 1
    %endrep
FUNCTION_END

; The initial hash value in every lane of ymm0..7 (a..h as NAMES sets them).
%macro LOAD_IV 0
    %assign _j 0
    %rep 8
        vmovdqa     ymm %+ _j, [IV_X8 + 32 * _j]
        %assign _j _j + 1
    %endrep
%endmacro

; The stack: the ring at [rsp], the state after the first block (the padding
; block's feed-forward) at [rsp + 512]. r8d: 0 in the first block, 1 in the third.
FUNCTION_BEGIN sha256_avx2_8way_d64, 512 + 256, ymm
    LOAD_HALF   0, contiguous
    LOAD_HALF   1, contiguous
    NAMES
    xor         r8d, r8d
    LOAD_IV
    vpxor       BC, B, C
    lea         rcx, [K256_X8]
    mov         edx, 3
.rounds_from_rcx:                       ; the input block, and the digest's from round 16
    ROUNDS_FROM_RCX
    %assign _j 0
    %rep 8
        vpaddd      ymm %+ _j, ymm %+ _j, [IV_X8 + 32 * _j]
        %assign _j _j + 1
    %endrep
    test        r8d, r8d
    jnz         .store
    %assign _j 0
    %rep 8
        vmovdqa     [rsp + 512 + 32 * _j], ymm %+ _j
        %assign _j _j + 1
    %endrep
    vpxor       BC, B, C                ; the padding block: W+K from the table
    lea         rcx, [sha256_pad64_wk]
    mov         edx, 4
.padding_rounds:
    %assign _r 0
    %rep 16
        ROUND_CONSTANT_WK _r
        %assign _r _r + 1
    %endrep
    add         rcx, 4 * 16
    dec         edx
    jnz         .padding_rounds
    %assign _j 0                        ; the first digest becomes W[0..7]
    %rep 8
        vpaddd      ymm %+ _j, ymm %+ _j, [rsp + 512 + 32 * _j]
        vmovdqa     W(_j), ymm %+ _j
        %assign _j _j + 1
    %endrep
    LOAD_IV                             ; the digest's block from the IV
    vpxor       BC, B, C
    lea         rcx, [K256_X8]
    %assign _r 0
    %rep 16                             ; its rounds 0..15 (names come back)
        %if _r < 8
            ROUND       _r
        %else
            vpaddd      H, H, [PAD32_WK_X8 + 32 * (_r - 8)]
            ROUND_REST
        %endif
        SCHEDULE_DIGEST _r
        %assign _r _r + 1
    %endrep
    add         rcx, 32 * 16
    mov         edx, 2
    mov         r8d, 1
    jmp         .rounds_from_rcx
.store:                                 ; lane i's digest, big-endian, to out + 32 i
    TRANSPOSE8
    %assign _i 0
    %rep 8
        %assign _k _i + 8
        vpshufb     ymm %+ _k, ymm %+ _k, [BSWAP32_X8]
        vmovdqu     [rdi + 32 * _i], ymm %+ _k
        %assign _i _i + 1
    %endrep
FUNCTION_END
