// SPDX-License-Identifier: MIT
// SHA256D64 on 48 lanes: three AVX-512 register sets of 16 lanes a word.
// Where a 512-bit operation takes two cycles and the vector unit works on
// about eight at once (the CPU model's AVX-512 add depth; AMD Zen 5), the
// rounds of two sets leave it idle a quarter of the time; three sets fill it
// (doc/d64.md). Three sets' states take 24 of the 32 registers, which GCC's
// allocation of the intrinsics spilled; so each block's 64 rounds are one
// assembly loop with every state in a register, and everything else (loads,
// transposes, the schedules at the pipeline's ends, stores) is the lane
// template's C++: D64Groups. Only for files compiled with -mavx512f
// -mavx512bw -mavx512vl (everything is file-local, see sha256_constants.h).
#ifndef SHA256BENCH_CRYPTO_SHA256_LANES_AVX512_X3_H
#define SHA256BENCH_CRYPTO_SHA256_LANES_AVX512_X3_H

#include <crypto/sha256_constants.h>
#include <crypto/sha256_lanes_avx512.h>
#include <crypto/sha256_lanes_avx512_x2.h>

#include <cstddef>
#include <cstdint>
#include <x86intrin.h>

namespace {

using sha256::lanes::Avx512;
using Z = __m512i;

// The blocks' assembly. Registers: set k's a..h in zmm8k..zmm8k+7 (the names
// rotate a round, as in Lanes::Round8: a table row names round q's registers),
// the rounds' temporaries zmm24-26, the schedule's zmm27-31. A round is
// Lanes::Round in its SHORT_E_PATH order (h + W+K + Ch, then Sigma1, then d;
// the new a from t1, Maj, Sigma0): the same sixteen operations, counted from
// the C++ model below.
// The three-way xor of x rotated right by r1 and r2 and rotated or shifted
// (OP3: "vprord" or "vpsrld") by r3, into zmm t1 (t2, t3: temporaries): the
// Sigma and sigma functions (Lanes::Sigma0 and the rest).
#define XOR3(x, r1, r2, OP3, r3, t1, t2, t3)                           \
    "vprord $" #r1 ", %%zmm" #x ", %%zmm" #t1 "\n\t"                     \
    "vprord $" #r2 ", %%zmm" #x ", %%zmm" #t2 "\n\t"                     \
    OP3 " $" #r3 ", %%zmm" #x ", %%zmm" #t3 "\n\t"                       \
    "vpternlogd $0x96, %%zmm" #t3 ", %%zmm" #t2 ", %%zmm" #t1 "\n\t"
#define ROUND(a, b, c, d, e, f, g, h, KW)                               \
    "vpaddd " KW "(%[kw]), %%zmm" #h ", %%zmm" #h "\n\t"                 \
    "vmovdqa32 %%zmm" #e ", %%zmm24\n\t"                                 \
    "vpternlogd $0xca, %%zmm" #g ", %%zmm" #f ", %%zmm24\n\t"             \
    "vpaddd %%zmm24, %%zmm" #h ", %%zmm" #h "\n\t"                       \
    XOR3(e, 6, 11, "vprord", 25, 24, 25, 26)                            \
    "vpaddd %%zmm24, %%zmm" #h ", %%zmm" #h "\n\t"                       \
    "vpaddd %%zmm" #h ", %%zmm" #d ", %%zmm" #d "\n\t"                   \
    "vmovdqa32 %%zmm" #a ", %%zmm24\n\t"                                 \
    "vpternlogd $0xe8, %%zmm" #c ", %%zmm" #b ", %%zmm24\n\t"             \
    "vpaddd %%zmm24, %%zmm" #h ", %%zmm" #h "\n\t"                       \
    XOR3(a, 2, 13, "vprord", 22, 24, 25, 26)                            \
    "vpaddd %%zmm24, %%zmm" #h ", %%zmm" #h "\n\t"
// Beside a round, the next block's W+K of one word of one set: word W of the
// window plus K (rounds 0..15), or the schedule's new word W from its four
// terms, stored to the window and, plus K, to the next block's W+K at KN.
#define COPY(W, KB, KN)                                                 \
    "vmovdqa64 " W "(%[w]), %%zmm27\n\t"                                 \
    "vpaddd " KB "(%[k])%{1to16%}, %%zmm27, %%zmm27\n\t"                 \
    "vmovdqa64 %%zmm27, " KN "(%[kwn])\n\t"
#define WORD(W2, W15, W7, W16, W, KB, KN)                               \
    "vmovdqa64 " W2 "(%[w]), %%zmm27\n\t"                                \
    XOR3(27, 17, 19, "vpsrld", 10, 28, 29, 30)                          \
    "vmovdqa64 " W15 "(%[w]), %%zmm27\n\t"                               \
    XOR3(27, 7, 18, "vpsrld", 3, 29, 30, 31)                            \
    "vpaddd " W7 "(%[w]), %%zmm29, %%zmm29\n\t"                          \
    "vpaddd " W16 "(%[w]), %%zmm29, %%zmm29\n\t"                         \
    "vpaddd %%zmm29, %%zmm28, %%zmm28\n\t"                               \
    "vmovdqa64 %%zmm28, " W "(%[w])\n\t"                                 \
    "vpaddd " KB "(%[k])%{1to16%}, %%zmm28, %%zmm28\n\t"                 \
    "vmovdqa64 %%zmm28, " KN "(%[kwn])\n\t"

// Eight rounds of the three sets, W+K of round q of set k at 64 (3q + k)
// from %[kw]: a round of each set in turn.
#define EIGHT_ROUNDS \
    ROUND(0, 1, 2, 3, 4, 5, 6, 7, "0") ROUND(8, 9, 10, 11, 12, 13, 14, 15, "64") ROUND(16, 17, 18, 19, 20, 21, 22, 23, "128") \
    ROUND(7, 0, 1, 2, 3, 4, 5, 6, "192") ROUND(15, 8, 9, 10, 11, 12, 13, 14, "256") ROUND(23, 16, 17, 18, 19, 20, 21, 22, "320") \
    ROUND(6, 7, 0, 1, 2, 3, 4, 5, "384") ROUND(14, 15, 8, 9, 10, 11, 12, 13, "448") ROUND(22, 23, 16, 17, 18, 19, 20, 21, "512") \
    ROUND(5, 6, 7, 0, 1, 2, 3, 4, "576") ROUND(13, 14, 15, 8, 9, 10, 11, 12, "640") ROUND(21, 22, 23, 16, 17, 18, 19, 20, "704") \
    ROUND(4, 5, 6, 7, 0, 1, 2, 3, "768") ROUND(12, 13, 14, 15, 8, 9, 10, 11, "832") ROUND(20, 21, 22, 23, 16, 17, 18, 19, "896") \
    ROUND(3, 4, 5, 6, 7, 0, 1, 2, "960") ROUND(11, 12, 13, 14, 15, 8, 9, 10, "1024") ROUND(19, 20, 21, 22, 23, 16, 17, 18, "1088") \
    ROUND(2, 3, 4, 5, 6, 7, 0, 1, "1152") ROUND(10, 11, 12, 13, 14, 15, 8, 9, "1216") ROUND(18, 19, 20, 21, 22, 23, 16, 17, "1280") \
    ROUND(1, 2, 3, 4, 5, 6, 7, 0, "1344") ROUND(9, 10, 11, 12, 13, 14, 15, 8, "1408") ROUND(17, 18, 19, 20, 21, 22, 23, 16, "1472")

// The same, each set's round followed by that set's next-block W+K of word q
// (window word q of set k at 64 (64k + q) from %[w], K[q] at 4q from %[k],
// the W+K at 64 (3q + k) from %[kwn]); and with the schedule's words.
#define EIGHT_ROUNDS_AND_W_K \
    ROUND(0, 1, 2, 3, 4, 5, 6, 7, "0") COPY("0", "0", "0") \
    ROUND(8, 9, 10, 11, 12, 13, 14, 15, "64") COPY("4096", "0", "64") \
    ROUND(16, 17, 18, 19, 20, 21, 22, 23, "128") COPY("8192", "0", "128") \
    ROUND(7, 0, 1, 2, 3, 4, 5, 6, "192") COPY("64", "4", "192") \
    ROUND(15, 8, 9, 10, 11, 12, 13, 14, "256") COPY("4160", "4", "256") \
    ROUND(23, 16, 17, 18, 19, 20, 21, 22, "320") COPY("8256", "4", "320") \
    ROUND(6, 7, 0, 1, 2, 3, 4, 5, "384") COPY("128", "8", "384") \
    ROUND(14, 15, 8, 9, 10, 11, 12, 13, "448") COPY("4224", "8", "448") \
    ROUND(22, 23, 16, 17, 18, 19, 20, 21, "512") COPY("8320", "8", "512") \
    ROUND(5, 6, 7, 0, 1, 2, 3, 4, "576") COPY("192", "12", "576") \
    ROUND(13, 14, 15, 8, 9, 10, 11, 12, "640") COPY("4288", "12", "640") \
    ROUND(21, 22, 23, 16, 17, 18, 19, 20, "704") COPY("8384", "12", "704") \
    ROUND(4, 5, 6, 7, 0, 1, 2, 3, "768") COPY("256", "16", "768") \
    ROUND(12, 13, 14, 15, 8, 9, 10, 11, "832") COPY("4352", "16", "832") \
    ROUND(20, 21, 22, 23, 16, 17, 18, 19, "896") COPY("8448", "16", "896") \
    ROUND(3, 4, 5, 6, 7, 0, 1, 2, "960") COPY("320", "20", "960") \
    ROUND(11, 12, 13, 14, 15, 8, 9, 10, "1024") COPY("4416", "20", "1024") \
    ROUND(19, 20, 21, 22, 23, 16, 17, 18, "1088") COPY("8512", "20", "1088") \
    ROUND(2, 3, 4, 5, 6, 7, 0, 1, "1152") COPY("384", "24", "1152") \
    ROUND(10, 11, 12, 13, 14, 15, 8, 9, "1216") COPY("4480", "24", "1216") \
    ROUND(18, 19, 20, 21, 22, 23, 16, 17, "1280") COPY("8576", "24", "1280") \
    ROUND(1, 2, 3, 4, 5, 6, 7, 0, "1344") COPY("448", "28", "1344") \
    ROUND(9, 10, 11, 12, 13, 14, 15, 8, "1408") COPY("4544", "28", "1408") \
    ROUND(17, 18, 19, 20, 21, 22, 23, 16, "1472") COPY("8640", "28", "1472")
#define EIGHT_ROUNDS_AND_WORDS \
    ROUND(0, 1, 2, 3, 4, 5, 6, 7, "0") WORD("-128", "-960", "-448", "-1024", "0", "0", "0") \
    ROUND(8, 9, 10, 11, 12, 13, 14, 15, "64") WORD("3968", "3136", "3648", "3072", "4096", "0", "64") \
    ROUND(16, 17, 18, 19, 20, 21, 22, 23, "128") WORD("8064", "7232", "7744", "7168", "8192", "0", "128") \
    ROUND(7, 0, 1, 2, 3, 4, 5, 6, "192") WORD("-64", "-896", "-384", "-960", "64", "4", "192") \
    ROUND(15, 8, 9, 10, 11, 12, 13, 14, "256") WORD("4032", "3200", "3712", "3136", "4160", "4", "256") \
    ROUND(23, 16, 17, 18, 19, 20, 21, 22, "320") WORD("8128", "7296", "7808", "7232", "8256", "4", "320") \
    ROUND(6, 7, 0, 1, 2, 3, 4, 5, "384") WORD("0", "-832", "-320", "-896", "128", "8", "384") \
    ROUND(14, 15, 8, 9, 10, 11, 12, 13, "448") WORD("4096", "3264", "3776", "3200", "4224", "8", "448") \
    ROUND(22, 23, 16, 17, 18, 19, 20, 21, "512") WORD("8192", "7360", "7872", "7296", "8320", "8", "512") \
    ROUND(5, 6, 7, 0, 1, 2, 3, 4, "576") WORD("64", "-768", "-256", "-832", "192", "12", "576") \
    ROUND(13, 14, 15, 8, 9, 10, 11, 12, "640") WORD("4160", "3328", "3840", "3264", "4288", "12", "640") \
    ROUND(21, 22, 23, 16, 17, 18, 19, 20, "704") WORD("8256", "7424", "7936", "7360", "8384", "12", "704") \
    ROUND(4, 5, 6, 7, 0, 1, 2, 3, "768") WORD("128", "-704", "-192", "-768", "256", "16", "768") \
    ROUND(12, 13, 14, 15, 8, 9, 10, 11, "832") WORD("4224", "3392", "3904", "3328", "4352", "16", "832") \
    ROUND(20, 21, 22, 23, 16, 17, 18, 19, "896") WORD("8320", "7488", "8000", "7424", "8448", "16", "896") \
    ROUND(3, 4, 5, 6, 7, 0, 1, 2, "960") WORD("192", "-640", "-128", "-704", "320", "20", "960") \
    ROUND(11, 12, 13, 14, 15, 8, 9, 10, "1024") WORD("4288", "3456", "3968", "3392", "4416", "20", "1024") \
    ROUND(19, 20, 21, 22, 23, 16, 17, 18, "1088") WORD("8384", "7552", "8064", "7488", "8512", "20", "1088") \
    ROUND(2, 3, 4, 5, 6, 7, 0, 1, "1152") WORD("256", "-576", "-64", "-640", "384", "24", "1152") \
    ROUND(10, 11, 12, 13, 14, 15, 8, 9, "1216") WORD("4352", "3520", "4032", "3456", "4480", "24", "1216") \
    ROUND(18, 19, 20, 21, 22, 23, 16, 17, "1280") WORD("8448", "7616", "8128", "7552", "8576", "24", "1280") \
    ROUND(1, 2, 3, 4, 5, 6, 7, 0, "1344") WORD("320", "-512", "0", "-576", "448", "28", "1344") \
    ROUND(9, 10, 11, 12, 13, 14, 15, 8, "1408") WORD("4416", "3584", "4096", "3520", "4544", "28", "1408") \
    ROUND(17, 18, 19, 20, 21, 22, 23, 16, "1472") WORD("8512", "7680", "8192", "7616", "8640", "28", "1472")

#define LOAD_STATES \
    "vmovdqa64 0(%[s]), %%zmm0\n\t" \
    "vmovdqa64 64(%[s]), %%zmm1\n\t" \
    "vmovdqa64 128(%[s]), %%zmm2\n\t" \
    "vmovdqa64 192(%[s]), %%zmm3\n\t" \
    "vmovdqa64 256(%[s]), %%zmm4\n\t" \
    "vmovdqa64 320(%[s]), %%zmm5\n\t" \
    "vmovdqa64 384(%[s]), %%zmm6\n\t" \
    "vmovdqa64 448(%[s]), %%zmm7\n\t" \
    "vmovdqa64 512(%[s]), %%zmm8\n\t" \
    "vmovdqa64 576(%[s]), %%zmm9\n\t" \
    "vmovdqa64 640(%[s]), %%zmm10\n\t" \
    "vmovdqa64 704(%[s]), %%zmm11\n\t" \
    "vmovdqa64 768(%[s]), %%zmm12\n\t" \
    "vmovdqa64 832(%[s]), %%zmm13\n\t" \
    "vmovdqa64 896(%[s]), %%zmm14\n\t" \
    "vmovdqa64 960(%[s]), %%zmm15\n\t" \
    "vmovdqa64 1024(%[s]), %%zmm16\n\t" \
    "vmovdqa64 1088(%[s]), %%zmm17\n\t" \
    "vmovdqa64 1152(%[s]), %%zmm18\n\t" \
    "vmovdqa64 1216(%[s]), %%zmm19\n\t" \
    "vmovdqa64 1280(%[s]), %%zmm20\n\t" \
    "vmovdqa64 1344(%[s]), %%zmm21\n\t" \
    "vmovdqa64 1408(%[s]), %%zmm22\n\t" \
    "vmovdqa64 1472(%[s]), %%zmm23\n\t"
#define ADD_STORE_STATES \
    "vpaddd 0(%[s]), %%zmm0, %%zmm0\n\t" "vmovdqa64 %%zmm0, 0(%[s])\n\t" \
    "vpaddd 64(%[s]), %%zmm1, %%zmm1\n\t" "vmovdqa64 %%zmm1, 64(%[s])\n\t" \
    "vpaddd 128(%[s]), %%zmm2, %%zmm2\n\t" "vmovdqa64 %%zmm2, 128(%[s])\n\t" \
    "vpaddd 192(%[s]), %%zmm3, %%zmm3\n\t" "vmovdqa64 %%zmm3, 192(%[s])\n\t" \
    "vpaddd 256(%[s]), %%zmm4, %%zmm4\n\t" "vmovdqa64 %%zmm4, 256(%[s])\n\t" \
    "vpaddd 320(%[s]), %%zmm5, %%zmm5\n\t" "vmovdqa64 %%zmm5, 320(%[s])\n\t" \
    "vpaddd 384(%[s]), %%zmm6, %%zmm6\n\t" "vmovdqa64 %%zmm6, 384(%[s])\n\t" \
    "vpaddd 448(%[s]), %%zmm7, %%zmm7\n\t" "vmovdqa64 %%zmm7, 448(%[s])\n\t" \
    "vpaddd 512(%[s]), %%zmm8, %%zmm8\n\t" "vmovdqa64 %%zmm8, 512(%[s])\n\t" \
    "vpaddd 576(%[s]), %%zmm9, %%zmm9\n\t" "vmovdqa64 %%zmm9, 576(%[s])\n\t" \
    "vpaddd 640(%[s]), %%zmm10, %%zmm10\n\t" "vmovdqa64 %%zmm10, 640(%[s])\n\t" \
    "vpaddd 704(%[s]), %%zmm11, %%zmm11\n\t" "vmovdqa64 %%zmm11, 704(%[s])\n\t" \
    "vpaddd 768(%[s]), %%zmm12, %%zmm12\n\t" "vmovdqa64 %%zmm12, 768(%[s])\n\t" \
    "vpaddd 832(%[s]), %%zmm13, %%zmm13\n\t" "vmovdqa64 %%zmm13, 832(%[s])\n\t" \
    "vpaddd 896(%[s]), %%zmm14, %%zmm14\n\t" "vmovdqa64 %%zmm14, 896(%[s])\n\t" \
    "vpaddd 960(%[s]), %%zmm15, %%zmm15\n\t" "vmovdqa64 %%zmm15, 960(%[s])\n\t" \
    "vpaddd 1024(%[s]), %%zmm16, %%zmm16\n\t" "vmovdqa64 %%zmm16, 1024(%[s])\n\t" \
    "vpaddd 1088(%[s]), %%zmm17, %%zmm17\n\t" "vmovdqa64 %%zmm17, 1088(%[s])\n\t" \
    "vpaddd 1152(%[s]), %%zmm18, %%zmm18\n\t" "vmovdqa64 %%zmm18, 1152(%[s])\n\t" \
    "vpaddd 1216(%[s]), %%zmm19, %%zmm19\n\t" "vmovdqa64 %%zmm19, 1216(%[s])\n\t" \
    "vpaddd 1280(%[s]), %%zmm20, %%zmm20\n\t" "vmovdqa64 %%zmm20, 1280(%[s])\n\t" \
    "vpaddd 1344(%[s]), %%zmm21, %%zmm21\n\t" "vmovdqa64 %%zmm21, 1344(%[s])\n\t" \
    "vpaddd 1408(%[s]), %%zmm22, %%zmm22\n\t" "vmovdqa64 %%zmm22, 1408(%[s])\n\t" \
    "vpaddd 1472(%[s]), %%zmm23, %%zmm23\n\t" "vmovdqa64 %%zmm23, 1472(%[s])\n\t"
#define CLOBBERS "cc", "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23", "xmm24", "xmm25", "xmm26", "xmm27", "xmm28", "xmm29", "xmm30", "xmm31"

//! s[8k + j] (word j of set k's state) += 64 rounds of the three sets, set
//! k's W+K of round r at kw[3r + k].
__attribute__((noinline)) void RoundsThreeSets(Z* s, const Z* kw)
{
    int n;
    __asm__ volatile(
        LOAD_STATES
        "mov $8, %[n]\n\t"
        "1:\n\t"
        EIGHT_ROUNDS
        "add $1536, %[kw]\n\t"
        "dec %[n]\n\t"
        "jnz 1b\n\t"
        ADD_STORE_STATES
        : [kw] "+r"(kw), [n] "=&r"(n)
        : [s] "r"(s)
        : CLOBBERS);
}

//! The same, and beside the rounds the next block's W+K into kwn (as kw),
//! from each set's 16 words in window[64k..64k + 15] (the rest of the window
//! is the schedule's, as in RoundsAndNext of sha256_lanes_avx512_x2.h).
__attribute__((noinline)) void RoundsThreeSetsAndNext(Z* s, const Z* kw, Z* window, Z* kwn)
{
    const uint32_t* k = sha256::lanes::K;
    int n;
    __asm__ volatile(
        LOAD_STATES
        "mov $2, %[n]\n\t"
        "1:\n\t"
        EIGHT_ROUNDS_AND_W_K
        "add $1536, %[kw]\n\t"
        "add $1536, %[kwn]\n\t"
        "add $512, %[w]\n\t"
        "add $32, %[k]\n\t"
        "dec %[n]\n\t"
        "jnz 1b\n\t"
        "mov $6, %[n]\n\t"
        "2:\n\t"
        EIGHT_ROUNDS_AND_WORDS
        "add $1536, %[kw]\n\t"
        "add $1536, %[kwn]\n\t"
        "add $512, %[w]\n\t"
        "add $32, %[k]\n\t"
        "dec %[n]\n\t"
        "jnz 2b\n\t"
        ADD_STORE_STATES
        : [kw] "+r"(kw), [kwn] "+r"(kwn), [w] "+r"(window), [k] "+r"(k), [n] "=&r"(n)
        : [s] "r"(s)
        : CLOBBERS);
}

#undef XOR3
#undef ROUND
#undef COPY
#undef WORD
#undef EIGHT_ROUNDS
#undef EIGHT_ROUNDS_AND_W_K
#undef EIGHT_ROUNDS_AND_WORDS
#undef LOAD_STATES
#undef ADD_STORE_STATES
#undef CLOBBERS

//! The assembly blocks, for the AVX-512 class.
struct AsmBlocks {
    static void Block(Z* s, const Z* kw) { RoundsThreeSets(s, kw); }
    static void BlockAndNext(Z* s, const Z* kw, Z* window, Z* kwn) { RoundsThreeSetsAndNext(s, kw, window, kwn); }
};

//! The same blocks in C++ on a lanes class One (the counting class): the
//! operations the assembly runs, which is what the kernel's count counts.
template <class One>
struct ModelBlocks {
    using V = typename One::V;
    using A = sha256::lanes::Lanes<One>;
    //! Round r of the three sets on their working states t[8k..8k + 7].
    static void Round(V* t, const V* kw, int r)
    {
        const int q = r & 7;
        for (int k = 0; k < 3; ++k) {
            V* x = t + 8 * k;
            A::Round(x[(0 - q) & 7], x[(1 - q) & 7], x[(2 - q) & 7], x[(3 - q) & 7], x[(4 - q) & 7], x[(5 - q) & 7],
                     x[(6 - q) & 7], x[(7 - q) & 7], kw[3 * r + k]);
        }
    }
    static void Block(V* s, const V* kw)
    {
        V t[24];
        for (int j = 0; j < 24; ++j) t[j] = s[j];
        for (int r = 0; r < 64; ++r) Round(t, kw, r);
        for (int j = 0; j < 24; ++j) s[j] = One::Add(s[j], t[j]);
    }
    static void BlockAndNext(V* s, const V* kw, V* window, V* kwn)
    {
        using sha256::lanes::K;
        V t[24];
        for (int j = 0; j < 24; ++j) t[j] = s[j];
        for (int r = 0; r < 64; ++r) {
            Round(t, kw, r);
            for (int k = 0; k < 3; ++k) {
                V* w = window + 64 * k;
                if (r >= 16) w[r] = One::Add(A::sigma1(w[r - 2]), One::Add(One::Add(w[r - 7], A::sigma0(w[r - 15])), w[r - 16]));
                kwn[3 * r + k] = One::Add(w[r], A::T(K, r));
            }
        }
        for (int j = 0; j < 24; ++j) s[j] = One::Add(s[j], t[j]);
    }
};

//! The padding block's W+K in every lane of the three sets, laid out as a
//! block's W+K (kw[3r + k]).
const Z* PadKW()
{
    struct Table {
        alignas(64) uint32_t v[64 * 3][16];
    };
    alignas(64) static constexpr Table table = [] {
        Table t{};
        for (int r = 0; r < 64 * 3; ++r) {
            for (int i = 0; i < 16; ++i) t.v[r][i] = sha256::lanes::PAD64_KW.v[r / 3];
        }
        return t;
    }();
    return reinterpret_cast<const Z*>(table.v);
}

//! W+K of each set's 16 words in window[64k..64k + 15] into kw (kw[3r + k]),
//! with no rounds beside (the pipeline's ends, and the count of a block).
template <class One>
void Schedule(const typename One::V* window, typename One::V* kw)
{
    using V = typename One::V;
    for (int k = 0; k < 3; ++k) {
        V w[16];
        for (int j = 0; j < 16; ++j) w[j] = window[64 * k + j];
        ScheduleWords<One>(w, [kw, k](int i, V x) __attribute__((always_inline)) { kw[3 * i + k] = x; });
    }
}

//! SHA256D64 of 48 x `groups` inputs at in into out (One, Blocks: Avx512 and
//! AsmBlocks, or the counting class and its model; pad: the padding block's
//! W+K as PadKW lays it out). Pipelined as D64Pipelined: a group's first
//! block runs beside the previous group's second-hash schedule, its padding
//! block beside the next group's input schedule, and its second hash (the
//! next group's, between them) alone. The schedules at the pipeline's two
//! ends run alone, and the loads and stores between the blocks: beside the
//! lone block, as Beside places them for two sets, they took as long (three
//! sets' rounds leave the vector unit no room; doc/d64.md). out may be in:
//! group g's digests are stored after group g + 1's inputs are loaded.
template <class One, class Blocks>
void D64Groups(unsigned char* out, const unsigned char* in, size_t groups, const typename One::V* pad)
{
    using V = typename One::V;
    alignas(64) V kw1[64 * 3], kw3[64 * 3], window[64 * 3], s[24], t[24], x[24];
    const auto iv = [](V* v) {
        for (int k = 0; k < 3; ++k) {
            for (int j = 0; j < 8; ++j) v[8 * k + j] = One::Set1(sha256::constants::IV[j]);
        }
    };
    const auto load = [&](size_t g) {
        for (int k = 0; k < 3; ++k) One::LoadContiguous(window + 64 * k, in + 64 * (48 * g + 16 * k));
    };
    // The second hash's words: the digest, then its fixed padding.
    const auto digests = [&](const V* d) {
        for (int k = 0; k < 3; ++k) {
            for (int j = 0; j < 8; ++j) window[64 * k + j] = d[8 * k + j], window[64 * k + 8 + j] = One::Set1(sha256::lanes::PAD32[j]);
        }
    };
    const auto store = [&](size_t g, const V* d) {
        for (int k = 0; k < 3; ++k) One::StoreContiguous(out + 32 * (48 * g + 16 * k), d + 8 * k);
    };
    if (!groups) return;
    load(0);
    Schedule<One>(window, kw1);
    for (size_t g = 0; g < groups; ++g) {
        iv(s);
        if (g) {
            digests(t);
            Blocks::BlockAndNext(s, kw1, window, kw3);
            iv(x);
            Blocks::Block(x, kw3);
            if (g + 1 < groups) load(g + 1);
            store(g - 1, x);
        } else {
            Blocks::Block(s, kw1);
            if (g + 1 < groups) load(g + 1);
        }
        if (g + 1 < groups) {
            Blocks::BlockAndNext(s, pad, window, kw1);
        } else {
            Blocks::Block(s, pad);
        }
        for (int j = 0; j < 24; ++j) t[j] = s[j];
    }
    digests(t);
    Schedule<One>(window, kw3);
    iv(x);
    Blocks::Block(x, kw3);
    store(groups - 1, x);
}

} // namespace

#endif
