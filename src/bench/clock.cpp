// SPDX-License-Identifier: MIT
#include <bench/clock.h>

#include <compat/cpu_model.h>
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
// One quarter of a scheduled block as a SHA-NI stream kernel issues it (a block:
// 32 sha256rnds2, 12 sha256msg1, 12 sha256msg2, 28 paddd, 32 shuffles), every
// instruction independent of the others but for its own register: xmm0 and
// xmm13 are only read, the rounds run on eight chains. It measures what the
// units cost when they share the work, not latency (on AMD Zen 4 the adds and
// shuffles compete with sha256msg2: doc/results/2026-11-27-lab-notes.md).
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

// 2000 blocks of that mix (64000 sha256rnds2, as the CPU model's chains).
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

#endif
} // namespace

cpu::Probe ClockCalibration::VecLatencyProbe(int w)
{
    return w == 0 ? cpu::Probe::Vec16Latency : w == 1 ? cpu::Probe::Vec32Latency : cpu::Probe::Vec64Latency;
}

cpu::Probe ClockCalibration::VecIntervalProbe(int w)
{
    return w == 0 ? cpu::Probe::Vec16Interval : w == 1 ? cpu::Probe::Vec32Interval : cpu::Probe::Vec64Interval;
}

ClockCalibration MeasureClock()
{
    // The clock and the SHA unit are the CPU model's readings; the block
    // mixes below are shapes of this project's kernels, timed in its clock.
    ClockCalibration c;
    c.tsc_hz = cpu::Read(cpu::Probe::TscGhz).value * 1e9;
    c.core_hz = cpu::Read(cpu::Probe::CoreGhz).value * 1e9;
    c.rnds2_latency = cpu::Read(cpu::Probe::Rnds2Latency).value;
    c.rnds2_interval = cpu::Read(cpu::Probe::Rnds2Interval).value;
    for (int w = 0; w < 3; ++w) {
        c.vec_latency[w] = cpu::Read(ClockCalibration::VecLatencyProbe(w)).value;
        c.vec_interval[w] = cpu::Read(ClockCalibration::VecIntervalProbe(w)).value;
    }
#ifdef BENCH_HAVE_TSC
    if (cpu::Features() & cpu::SHANI) {
        // Per block: 2000 blocks of each kind.
        c.block_mix = cpu::BestCoreCycles(BlockMix, 200) / 2000;
        c.stream_block = cpu::BestCoreCycles(StreamBlocks<false>, 200) / 2000; // per block of one stream
        c.stream_block_msg2_add = cpu::BestCoreCycles(StreamBlocks<true>, 200) / 2000;
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
