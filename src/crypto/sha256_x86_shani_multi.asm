; SPDX-License-Identifier: MIT
; sha256_x86_shani_multi.asm -- S independent SHA-256 computations interleaved
; with the Intel SHA extensions (legacy SSE encodings only), for the
; multi-buffer hasher (its SHA-NI rows).
;
;     void sha256_shani_2way_hash32(unsigned char* out, const unsigned char* in); // also 4way
;     size_t sha256_shani_2way_jobs(Lane* lane, const Job* job, size_t njobs);   // also 4way
;
; The hash32 functions write SHA256(in[32i..32i+31]) to out[32i..] for i < S
; (the second hash of a txid); in and out may be the same buffer, any
; alignment. The job kernels run one message per stream and hand out the next
; message themselves where one ends (below, and crypto/sha256_jobs.h).
; SHA256D64's stream kernels are C++
; (sha256_x86_shani_ring.h, the same register plan in intrinsics).

; Why streams: one block is a chain of 32 dependent sha256rnds2, so one stream
; runs at the instruction's latency, while the SHA unit may take a new one
; before the last is done (how many at once: the CPU model's SHA-NI overlap,
; compat/cpu_model.h). Several chains fill such a unit. Here every stream's
; state stays in its registers across all the jobs of a call.
;
; Registers: xmm0 is W+K, the implicit operand of sha256rnds2. Stream s keeps
; ABEF in xmm(1+2s), CDGH in xmm(2+2s) and its newest message quad in
; xmm(1+2S+s); its quads also go to a 64-byte ring on the stack (the four
; newest). The schedule's critical path (W[q-1] -> W[q]) so stays in
; registers; the rounds and the later quads read the ring. Two temporaries
; follow (S = 4: xmm0..xmm14). Memory operands of legacy SSE instructions
; must be 16-byte aligned: the ring and the save area are (rsp is
; 32-aligned), and so are the tables.
;
; The schedule runs AHEAD quads ahead of the rounds in the instruction stream:
; the rounds of quad q read W(q) from the ring, after W(q + AHEAD) has been
; made. With every stream's W(q) made just before its rounds of quad q, those
; rounds waited on sha256msg2 and the SHA unit idled between them; two quads
; ahead, four streams run a block at the unit's rate, as if sha256msg2 were
; an add (one quad ahead is not quite enough; measured in
; doc/results/2026-12-02-intel-xeon-emerald-rapids-log.md).

%include "x86_64.inc"
%include "sha256_k.inc"

; Select stream %1: ABEF, CDGH, LW (newest message quad), PTR (its block, for
; the transforms) and the stream's ring and save slots.
%macro STREAM 1
    %assign _s (%1)
    %assign _ra 1 + 2 * _s
    %assign _rc 2 + 2 * _s
    %assign _rl 1 + 2 * S + _s
    %assign _rp 8 + _s
    %xdefine ABEF xmm %+ _ra
    %xdefine CDGH xmm %+ _rc
    %xdefine LW xmm %+ _rl
    %xdefine PTR r %+ _rp
%endmacro

; Declare the stream count of the function that follows. sha256rnds2 and the
; other SHA instructions exist only in legacy SSE encodings, which reach
; xmm0..xmm15: more streams than this plan fits must not assemble.
%macro STREAMS 1
    %assign S (%1)
    %assign _t1 1 + 3 * S
    %assign _t2 2 + 3 * S
    %if _t2 > 15
        %error "STREAMS: this register plan needs registers above xmm15, and SHA-NI instructions reach xmm15 at most"
    %endif
    %xdefine T1 xmm %+ _t1
    %xdefine T2 xmm %+ _t2
    %assign FRAME 96 * S            ; ring (64 bytes) + save area (32) per stream
%endmacro

; W(q + AHEAD) goes to the ring before the rounds of quad q read W(q): it
; overwrites W(q + AHEAD - 4), which must be older than W(q).
%assign AHEAD 2
%if AHEAD > 3
    %error "the schedule may lead the rounds by three quads at most: the ring holds four"
%endif
%define RING(q) [rsp + 64 * _s + 16 * ((q) & 3)]
%define SAVE_ABEF [rsp + 64 * S + 32 * _s]
%define SAVE_CDGH [rsp + 64 * S + 32 * _s + 16]

; LW <- W[4q..4q+3] from the three older quads in the ring and LW = W(q-1);
; stored in the ring for the rounds and the later quads.
%macro SCHEDULE 1
    movdqa      T1, RING(%1 - 4)
    sha256msg1  T1, RING(%1 - 3)        ; W(q-4) + s0(W(q-3))
    movdqa      T2, LW
    palignr     T2, RING(%1 - 2), 4     ; W[4q-7..4q-4]
    paddd       T1, T2
    sha256msg2  T1, LW                  ; + s1(W[4q-2], W[4q-1])
    movdqa      LW, T1
    movdqa      RING(%1), T1
%endmacro

; The same where words 8..15 are a 32-byte message's padding (0x80000000,
; zeros, 256): for q = 4, W[9..12] are zero, so nothing is added before
; sha256msg2; for q = 6, s0(W[9..12]) is zero, so sha256msg1 would return
; W[8..11] unchanged. A stream does one sha256msg1 fewer for each such block
; (it shares the SHA unit with the rounds), and a palignr and a paddd.
%macro SCHEDULE_PAD32 1
%if (%1) == 4
    movdqa      T1, RING(0)
    sha256msg1  T1, RING(1)
    sha256msg2  T1, LW
    movdqa      LW, T1
    movdqa      RING(4), T1
%elif (%1) == 6
    movdqa      T1, LW
    palignr     T1, RING(4), 4          ; W[17..20]
    paddd       T1, RING(2)             ; + W[8..11], s0 of zeros being zero
    sha256msg2  T1, LW
    movdqa      LW, T1
    movdqa      RING(6), T1
%else
    SCHEDULE %1
%endif
%endmacro

; Four rounds of the selected stream with W = W(%1) from its ring. xmm0 is
; renamed per stream, so the streams' rounds overlap freely.
%macro ROUNDS4 1
    movdqa      xmm0, [K256 + 16 * (%1)]
    paddd       xmm0, RING(%1)
    sha256rnds2 CDGH, ABEF              ; CDGH now holds the new ABEF
    pshufd      xmm0, xmm0, 0x0E
    sha256rnds2 ABEF, CDGH
%endmacro

; Make W(%1) of the selected stream (in LW and the ring) with %2 for q < 4,
; with %3 for the rest.
%macro MAKE_W 3
    %if (%1) < 4
        %2 %1
    %else
        %3 %1
    %endif
%endmacro

; 64 rounds on every stream; %1 is the macro that puts W(q) of the selected
; stream in LW (and in the ring) for q < 4, %2 the one that schedules the
; rest. Stream by stream within each quad, so each stream's next rounds sit
; one quad of code after its last; W(q + AHEAD) is made before the rounds of
; quad q (W(0..AHEAD) before quad 0's).
%macro MESSAGE_BLOCK 1-2 SCHEDULE
    %assign _q 0
    %rep 16
        %assign _i 0
        %rep S
            STREAM _i
            %if _q == 0
                %assign _m 0
                %rep AHEAD
                    MAKE_W _m, %1, %2
                    %assign _m _m + 1
                %endrep
            %endif
            %if _q + AHEAD < 16
                MAKE_W _q + AHEAD, %1, %2
            %endif
            ROUNDS4 _q
            %assign _i _i + 1
        %endrep
        %assign _q _q + 1
    %endrep
%endmacro

; Message quads from memory: the stream's block.
%macro W_FROM_PTR 1
    movdqu      LW, [PTR + 16 * (%1)]
    pshufb      LW, [BSWAP32]
    movdqa      RING(%1), LW
%endmacro

; The block of a 32-byte message: in[32s..] and the fixed padding.
%macro W_FROM_HASH32 1
%if (%1) < 2
    movdqu      LW, [rsi + 32 * _s + 16 * (%1)]
    pshufb      LW, [BSWAP32]
%else
    movdqa      LW, [PAD32 + 16 * ((%1) - 2)]
%endif
    movdqa      RING(%1), LW
%endmacro

; Run %1 (a macro without arguments) for every stream.
%macro EACH_STREAM 1
    %assign _i 0
    %rep S
        STREAM _i
        %1
        %assign _i _i + 1
    %endrep
%endmacro

%macro LOAD_IV 0
    movdqa      ABEF, [IV_ABEF]
    movdqa      CDGH, [IV_CDGH]
%endmacro
%macro ADD_IV 0
    paddd       ABEF, [IV_ABEF]
    paddd       CDGH, [IV_CDGH]
%endmacro
%macro SAVE_STATE 0
    movdqa      SAVE_ABEF, ABEF
    movdqa      SAVE_CDGH, CDGH
%endmacro
%macro ADD_SAVED 0
    paddd       ABEF, SAVE_ABEF
    paddd       CDGH, SAVE_CDGH
%endmacro

; The big-endian digest of the selected stream to [%1] (ABEF clobbered).
%macro STORE_DIGEST_TO 1
    movdqa      T1, ABEF
    punpckhqdq  T1, CDGH                ; b a d c
    pshufb      T1, [DIGEST_BSWAP]
    movdqu      [%1], T1
    punpcklqdq  ABEF, CDGH              ; f e h g
    pshufb      ABEF, [DIGEST_BSWAP]
    movdqu      [%1 + 16], ABEF
%endmacro
; ... to rdi + 32s.
%macro STORE_DIGEST 0
    STORE_DIGEST_TO rdi + 32 * _s
%endmacro

; void sha256_shani_<S>way_hash32(unsigned char* out, const unsigned char* in)
; One block per stream from the IV: no state to load or store, and none of the
; scheduler's copies (SecondHashStreams in sha256multi.cpp says what that saves).
%macro HASH32_FUNCTION 1
    %xdefine _HASH32_NAME sha256_shani_ %+ %1 %+ way_hash32
    HASH32_FUNCTION_NAMED %1, _HASH32_NAME
%endmacro
; The same under another name (cli-tests assemble S streams with it).
%macro HASH32_FUNCTION_NAMED 2
    STREAMS %1
FUNCTION_BEGIN %2, FRAME, xmm
    EACH_STREAM LOAD_IV
    MESSAGE_BLOCK W_FROM_HASH32, SCHEDULE_PAD32 ; all input is read before out is written
    EACH_STREAM ADD_IV
    EACH_STREAM STORE_DIGEST
FUNCTION_END
%endmacro

; The job kernels: size_t sha256_shani_<S>way_jobs(Lane* lane, const Job* job, size_t njobs)
; (crypto/sha256_jobs.h). Every stream runs its lane's message; where one ends, its
; digest goes to the lane's out and the lane takes the next job at once,
; without returning: a job's padding is copied into the lane, the state starts
; from the IV. The call returns once a lane is idle and no job is left (at
; entry, at once if a lane is idle and njobs is 0), with every busy lane's
; state and cursor in its Lane; it returns the jobs it took (all of them).
; Each stream reads its blocks through its lane's cursor: from at on, 64
; bytes apart, jumping to then (the lane's copy of the padding) at end, so a
; message is one run of blocks. Why here rather than one kernel call per
; message end: that way every message end converts and reloads the states,
; drains the chains and runs the scheduler's own work, which measured far
; slower a block than long calls (doc/results/2026-11-27-lab-notes.md).
%define L_ABEF 0
%define L_CDGH 16
%define L_AT 32
%define L_END 40
%define L_THEN 48
%define L_LEFT 56
%define L_OUT 64
%define L_PAD 80
%define LANE_SIZE 208
%define J_PAD 64
%define J_AT 192
%define J_END 200
%define J_THEN 208
%define J_BLOCKS 216
%define J_OUT 224
%define JOB_SIZE 232
%define LANE(f) [rdi + LANE_SIZE * _s + (f)]

%macro LANE_LOAD 0
    movdqa      ABEF, LANE(L_ABEF)
    movdqa      CDGH, LANE(L_CDGH)
    mov         PTR, LANE(L_AT)
%endmacro
%macro LANE_STORE 0
    movdqa      LANE(L_ABEF), ABEF
    movdqa      LANE(L_CDGH), CDGH
    mov         LANE(L_AT), PTR
%endmacro

; An idle lane takes the job at rsi, or sets ecx (stop) if none is left.
%macro LANE_TAKE 0
    cmp         qword LANE(L_LEFT), 0
    jne         %%busy
    cmp         rsi, rdx
    je          %%none
    %assign _o 0
    %rep 8
        movdqu      T1, [rsi + J_PAD + _o]
        movdqa      LANE(L_PAD + _o), T1
        %assign _o _o + 16
    %endrep
    lea         rax, LANE(L_PAD)
    mov         PTR, [rsi + J_AT]
    test        PTR, PTR
    cmovz       PTR, rax                ; no whole block: the padding first
    cmp         qword [rsi + J_THEN], 0
    cmovne      rax, [rsi + J_THEN]     ; a job that repeats its block
    mov         LANE(L_THEN), rax
    mov         rax, [rsi + J_END]
    mov         LANE(L_END), rax
    mov         rax, [rsi + J_BLOCKS]
    mov         LANE(L_LEFT), rax
    mov         rax, [rsi + J_OUT]
    mov         LANE(L_OUT), rax
    LOAD_IV
    add         rsi, JOB_SIZE
    jmp         %%busy
%%none:
    mov         ecx, 1
%%busy:
%endmacro

; After a block: the cursor's step, and the digest where the message ended.
%macro LANE_NEXT 0
    add         PTR, 64
    cmp         PTR, LANE(L_END)
    cmove       PTR, LANE(L_THEN)
    dec         qword LANE(L_LEFT)
    jnz         %%busy
    mov         rax, LANE(L_OUT)
    STORE_DIGEST_TO rax
%%busy:
%endmacro

%macro JOBS_FUNCTION 1
    STREAMS %1
FUNCTION_BEGIN sha256_shani_ %+ %1 %+ way_jobs, FRAME, xmm
    mov         r12, rsi
    imul        rdx, rdx, JOB_SIZE
    add         rdx, rsi                ; after the last job
    EACH_STREAM LANE_LOAD
%%check:
    xor         ecx, ecx
    EACH_STREAM LANE_TAKE
    test        ecx, ecx
    jnz         %%out
    EACH_STREAM SAVE_STATE
    MESSAGE_BLOCK W_FROM_PTR
    EACH_STREAM ADD_SAVED
    EACH_STREAM LANE_NEXT
    jmp         %%check
%%out:
    EACH_STREAM LANE_STORE
    mov         rax, rsi
    sub         rax, r12
    xor         edx, edx
    mov         ecx, JOB_SIZE
    div         rcx
FUNCTION_END
%endmacro

HASH32_FUNCTION 2
HASH32_FUNCTION 4
JOBS_FUNCTION 2
JOBS_FUNCTION 4

RODATA
K256:
    SHA256_K_GROUPS SHA256_K_PLAIN
; The initial hash value (FIPS 180-4, 5.3.3) as sha256rnds2 holds a state:
; ABEF = f, e, b, a in dwords 0..3; CDGH = h, g, d, c.
IV_ABEF:
    dd SHA256_IV_F, SHA256_IV_E, SHA256_IV_B, SHA256_IV_A
IV_CDGH:
    dd SHA256_IV_H, SHA256_IV_G, SHA256_IV_D, SHA256_IV_C
PAD32:
    SHA256_PAD32_WORDS
; pshufb: reverse the bytes of each dword (big-endian message words).
BSWAP32:
    db 3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12
; pshufb: b a d c (or f e h g) -> the big-endian bytes of a b c d (e f g h).
DIGEST_BSWAP:
    db 7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8
