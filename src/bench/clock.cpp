// SPDX-License-Identifier: MIT
#include <bench/clock.h>

#include <compat/cpuid.h>

#include <algorithm>
#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define BENCH_HAVE_TSC 1
#endif

namespace benchmark {

uint64_t NowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

bool HaveTicks()
{
#ifdef BENCH_HAVE_TSC
    return true;
#else
    return false;
#endif
}

uint64_t Ticks()
{
#ifdef BENCH_HAVE_TSC
    return __rdtsc();
#else
    return 0;
#endif
}

namespace {
#ifdef BENCH_HAVE_TSC
// 64000 dependent adds: exactly 64000 core cycles (the loop runs alongside).
// Register + register: recent Intel cores (Golden Cove and later) fold chains
// of add-immediate at rename, several per cycle, which made a core clock of
// 21 GHz out of a 3.6 GHz one.
void AddChain()
{
    uint64_t x = 1;
    for (int i = 0; i < 1000; ++i) __asm__ volatile(".rept 64\n\tadd %0, %0\n\t.endr" : "+r"(x));
}

// 64000 sha256rnds2, each taking the previous result as a source (alternating
// registers), as the rounds of one message do.
void Rnds2Chain()
{
    for (int i = 0; i < 1000; ++i) {
        __asm__ volatile(".rept 32\n\tsha256rnds2 %%xmm0, %%xmm2, %%xmm1\n\tsha256rnds2 %%xmm0, %%xmm1, %%xmm2\n\t.endr"
                         ::: "xmm0", "xmm1", "xmm2");
    }
}

// 64000 sha256rnds2 on twelve independent chains (each depends only on its own
// last result, xmm0 and xmm13 are read-only): the rate at which the SHA unit
// takes them, since no unit measured overlaps more than ~4.
void Rnds2Spread()
{
    for (int i = 0; i < 1000; ++i) {
        __asm__ volatile(".rept 4\n\t"
                         "sha256rnds2 %%xmm0, %%xmm13, %%xmm1\n\tsha256rnds2 %%xmm0, %%xmm13, %%xmm2\n\t"
                         "sha256rnds2 %%xmm0, %%xmm13, %%xmm3\n\tsha256rnds2 %%xmm0, %%xmm13, %%xmm4\n\t"
                         "sha256rnds2 %%xmm0, %%xmm13, %%xmm5\n\tsha256rnds2 %%xmm0, %%xmm13, %%xmm6\n\t"
                         "sha256rnds2 %%xmm0, %%xmm13, %%xmm7\n\tsha256rnds2 %%xmm0, %%xmm13, %%xmm8\n\t"
                         "sha256rnds2 %%xmm0, %%xmm13, %%xmm9\n\tsha256rnds2 %%xmm0, %%xmm13, %%xmm10\n\t"
                         "sha256rnds2 %%xmm0, %%xmm13, %%xmm11\n\tsha256rnds2 %%xmm0, %%xmm13, %%xmm12\n\t"
                         ".endr\n\t"
                         "sha256rnds2 %%xmm0, %%xmm13, %%xmm1\n\tsha256rnds2 %%xmm0, %%xmm13, %%xmm2\n\t"
                         "sha256rnds2 %%xmm0, %%xmm13, %%xmm3\n\tsha256rnds2 %%xmm0, %%xmm13, %%xmm4\n\t"
                         "sha256rnds2 %%xmm0, %%xmm13, %%xmm5\n\tsha256rnds2 %%xmm0, %%xmm13, %%xmm6\n\t"
                         "sha256rnds2 %%xmm0, %%xmm13, %%xmm7\n\tsha256rnds2 %%xmm0, %%xmm13, %%xmm8\n\t"
                         "sha256rnds2 %%xmm0, %%xmm13, %%xmm9\n\tsha256rnds2 %%xmm0, %%xmm13, %%xmm10\n\t"
                         "sha256rnds2 %%xmm0, %%xmm13, %%xmm11\n\tsha256rnds2 %%xmm0, %%xmm13, %%xmm12\n\t"
                         "sha256rnds2 %%xmm0, %%xmm13, %%xmm1\n\tsha256rnds2 %%xmm0, %%xmm13, %%xmm2\n\t"
                         "sha256rnds2 %%xmm0, %%xmm13, %%xmm3\n\tsha256rnds2 %%xmm0, %%xmm13, %%xmm4\n\t"
                         ::: "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",
                           "xmm12");
    }
}

// One quarter of a scheduled block as a SHA-NI stream kernel issues it (a block:
// 32 sha256rnds2, 12 sha256msg1, 12 sha256msg2, 28 paddd, 32 shuffles), every
// instruction independent of the others but for its own register: xmm0 and
// xmm13 are only read, the rounds run on eight chains. It measures what the
// units cost when they share the work, not latency: on AMD Zen 4 the rounds
// alone take 32 cycles a block, with the message instructions still 32.0, and
// this whole mix 43.7 in quiet periods: the adds and shuffles compete with
// sha256msg2.
#define BENCH_BLOCK_MIX_QUARTER                                                                           \
    "sha256rnds2 %%xmm0, %%xmm13, %%xmm1\n\tsha256rnds2 %%xmm0, %%xmm13, %%xmm2\n\t"                      \
    "sha256rnds2 %%xmm0, %%xmm13, %%xmm3\n\tsha256rnds2 %%xmm0, %%xmm13, %%xmm4\n\t"                      \
    "sha256rnds2 %%xmm0, %%xmm13, %%xmm5\n\tsha256rnds2 %%xmm0, %%xmm13, %%xmm6\n\t"                      \
    "sha256rnds2 %%xmm0, %%xmm13, %%xmm7\n\tsha256rnds2 %%xmm0, %%xmm13, %%xmm8\n\t"                      \
    "sha256msg2 %%xmm13, %%xmm9\n\tsha256msg2 %%xmm13, %%xmm10\n\tsha256msg2 %%xmm13, %%xmm11\n\t"       \
    "sha256msg1 %%xmm13, %%xmm12\n\tsha256msg1 %%xmm13, %%xmm14\n\tsha256msg1 %%xmm13, %%xmm12\n\t"      \
    ".rept 4\n\tpshufd $0x0e, %%xmm13, %%xmm15\n\tpaddd %%xmm13, %%xmm15\n\t.endr\n\t"                 \
    ".rept 4\n\tpshufd $0x0e, %%xmm13, %%xmm15\n\t.endr\n\t"                                            \
    ".rept 3\n\tpaddd %%xmm13, %%xmm15\n\t.endr\n\t"

// 2000 blocks of that mix (64000 sha256rnds2, as the chains above).
void BlockMix()
{
    for (int i = 0; i < 500; ++i) {
        __asm__ volatile(".rept 4\n\t" BENCH_BLOCK_MIX_QUARTER BENCH_BLOCK_MIX_QUARTER BENCH_BLOCK_MIX_QUARTER
                         BENCH_BLOCK_MIX_QUARTER ".endr" ::: "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
                         "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm14", "xmm15");
    }
}
#undef BENCH_BLOCK_MIX_QUARTER

// A block of four SHA-NI streams with a stream kernel's dependencies: each
// stream's rounds chained through its ABEF/CDGH registers, its schedule from
// one quad to the next through its newest quad W (sha256msg1 and palignr
// from a ring of four quads in memory, sha256msg2 with W), W+K into xmm0
// before each pair of rounds. The digests mean nothing; MSG2 = paddd keeps
// the data flow and shows what sha256msg2 costs there beyond an add. Buffer
// p: the streams' rings at 64 x stream, a 64-byte block at 256, K at 320,
// a pshufb mask at 336 (zeros: these instructions take the same time
// whatever the values).
#define BENCH_STREAM_RING(S, J) "64*" #S "+16*((" #J ")&3)(%[p])"
#define BENCH_STREAM_ROUNDS(A, C, W)                                                                      \
    "movdqa %%" W ", %%xmm0\n\tpaddd 320(%[p]), %%xmm0\n\tsha256rnds2 %%xmm0, %%" A ", %%" C "\n\t"     \
    "pshufd $0x0e, %%xmm0, %%xmm0\n\tsha256rnds2 %%xmm0, %%" C ", %%" A "\n\t"
#define BENCH_STREAM_LOADED(A, C, W, S, J, MSG2)                                                          \
    "movdqu 256+16*" #J "(%[p]), %%" W "\n\tpshufb 336(%[p]), %%" W "\n\t"                              \
    "movdqa %%" W ", " BENCH_STREAM_RING(S, J) "\n\t" BENCH_STREAM_ROUNDS(A, C, W)
#define BENCH_STREAM_SCHEDULED(A, C, W, S, J, MSG2)                                                       \
    "movdqa " BENCH_STREAM_RING(S, J) ", %%xmm13\n\tsha256msg1 " BENCH_STREAM_RING(S, J + 1) ", %%xmm13\n\t" \
    "movdqa %%" W ", %%xmm14\n\tpalignr $4, " BENCH_STREAM_RING(S, J + 2) ", %%xmm14\n\t"                 \
    "paddd %%xmm14, %%xmm13\n\t" MSG2 " %%" W ", %%xmm13\n\tmovdqa %%xmm13, %%" W "\n\t"                 \
    "movdqa %%xmm13, " BENCH_STREAM_RING(S, J) "\n\t" BENCH_STREAM_ROUNDS(A, C, W)
#define BENCH_STREAM_QUAD(KIND, J, MSG2)                                                                  \
    KIND("xmm1", "xmm2", "xmm3", 0, J, MSG2) KIND("xmm4", "xmm5", "xmm6", 1, J, MSG2)                    \
    KIND("xmm7", "xmm8", "xmm9", 2, J, MSG2) KIND("xmm10", "xmm11", "xmm12", 3, J, MSG2)
#define BENCH_STREAM_LOADED4                                                                              \
    BENCH_STREAM_QUAD(BENCH_STREAM_LOADED, 0, "") BENCH_STREAM_QUAD(BENCH_STREAM_LOADED, 1, "")           \
    BENCH_STREAM_QUAD(BENCH_STREAM_LOADED, 2, "") BENCH_STREAM_QUAD(BENCH_STREAM_LOADED, 3, "")
#define BENCH_STREAM_FOUR(MSG2)                                                                           \
    BENCH_STREAM_QUAD(BENCH_STREAM_SCHEDULED, 0, MSG2) BENCH_STREAM_QUAD(BENCH_STREAM_SCHEDULED, 1, MSG2) \
    BENCH_STREAM_QUAD(BENCH_STREAM_SCHEDULED, 2, MSG2) BENCH_STREAM_QUAD(BENCH_STREAM_SCHEDULED, 3, MSG2)

#define BENCH_STREAM_BLOCK(MSG2)                                                                          \
    __asm__ volatile(BENCH_STREAM_LOADED4 BENCH_STREAM_FOUR(MSG2) BENCH_STREAM_FOUR(MSG2) BENCH_STREAM_FOUR(MSG2) \
                     :: [p] "r"(g_stream_buffer)                                                           \
                     : "memory", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", \
                       "xmm10", "xmm11", "xmm12", "xmm13", "xmm14")

alignas(64) unsigned char g_stream_buffer[352];

// 500 blocks of each of the four streams (64000 sha256rnds2).
template <bool ADD>
void StreamBlocks()
{
    for (int i = 0; i < 500; ++i) {
        if (ADD) {
            BENCH_STREAM_BLOCK("paddd");
        } else {
            BENCH_STREAM_BLOCK("sha256msg2");
        }
    }
}
#undef BENCH_STREAM_BLOCK
#undef BENCH_STREAM_FOUR
#undef BENCH_STREAM_LOADED4
#undef BENCH_STREAM_QUAD
#undef BENCH_STREAM_SCHEDULED
#undef BENCH_STREAM_LOADED
#undef BENCH_STREAM_ROUNDS
#undef BENCH_STREAM_RING

// Fewest TSC ticks of `chain` over `runs` runs: the run not interrupted,
// after the core has ramped up its clock.
uint64_t BestTicks(void (*chain)(), int runs)
{
    uint64_t best = ~uint64_t(0);
    for (int i = 0; i < runs; ++i) {
        const uint64_t t0 = __rdtsc();
        chain();
        const uint64_t dt = __rdtsc() - t0;
        if (dt < best) best = dt;
    }
    return best;
}
#endif
} // namespace

ClockCalibration MeasureClock()
{
    ClockCalibration c;
#ifdef BENCH_HAVE_TSC
    // TSC rate against the wall clock over ~50 ms.
    const uint64_t n0 = NowNs(), t0 = Ticks();
    while (NowNs() - n0 < 50000000) {}
    const uint64_t n1 = NowNs(), t1 = Ticks();
    c.tsc_hz = double(t1 - t0) * 1e9 / double(n1 - n0);
    const double adds = double(BestTicks(AddChain, 1000));
    c.core_hz = 64000.0 / adds * c.tsc_hz;
    if (cpu::Features() & cpu::SHANI) {
        c.rnds2_latency = double(BestTicks(Rnds2Chain, 200)) / adds;
        c.rnds2_interval = double(BestTicks(Rnds2Spread, 200)) / adds;
        c.block_mix = double(BestTicks(BlockMix, 200)) / adds * 32; // per block: 32 of the 64000 sha256rnds2
        c.stream_block = double(BestTicks(StreamBlocks<false>, 200)) / adds * 32; // per block of one stream
        c.stream_block_msg2_add = double(BestTicks(StreamBlocks<true>, 200)) / adds * 32;
    }
#endif
    return c;
}

const char* ClockMethod()
{
#ifdef BENCH_HAVE_TSC
    return "TSC timed against steady_clock over 50 ms; core clock from a chain of dependent register adds "
           "(1 core cycle each) timed with the TSC; no hardware cycle counter";
#else
    return "none: no cycle counter on this architecture";
#endif
}

} // namespace benchmark
