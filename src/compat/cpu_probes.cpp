// SPDX-License-Identifier: MIT
// How many operations an x86 execution unit works on at once: the latency of
// a dependent chain of one instruction over the interval at which independent
// ones issue. The CPU model (compat/cpu_model.cpp) reads the SHA unit
// (sha256rnds2) and the 512-bit adder (vpaddd zmm) this way, and Bitcoin Core's
// dispatch asks the same two questions with this code (contrib/core-export.py).
// Inline assembly only, so no -m flags: called only on CPUs that have the unit.
#include <compat/cpu_model.h>

#if defined(__x86_64__) && !defined(DISABLE_OPTIMIZED_SHA256)
#include <cstdint>
#include <x86intrin.h>

namespace {
// TSC ticks of `work` (inline assembly): fenced, so that nothing before or
// after it overlaps the timing.
template <class Work>
[[gnu::always_inline]] inline uint64_t Timed(Work work)
{
    _mm_lfence();
    const uint64_t t0 = __rdtsc();
    _mm_lfence();
    work();
    _mm_lfence();
    return __rdtsc() - t0;
}

// TSC ticks for 1024 sha256rnds2: one dependent chain, or eight independent
// chains of 128 (each depends only on its own last result); kind 2 times
// nothing, the cost of the timing itself. Never inlined, so that its code is
// the same whatever file it is compiled in (contrib/core-export.py --same-code).
[[gnu::noinline]] uint64_t Ticks(int kind)
{
    return Timed([kind] {
        if (kind == 0) {
            __asm__ volatile("mov $8, %%ecx\n1:\n\t"
                             ".rept 64\n\tsha256rnds2 %%xmm0, %%xmm2, %%xmm1\n\tsha256rnds2 %%xmm0, %%xmm1, %%xmm2\n\t.endr\n\t"
                             "dec %%ecx\n\tjnz 1b"
                             ::: "ecx", "xmm1", "xmm2", "cc");
        } else if (kind == 1) {
            __asm__ volatile("mov $8, %%ecx\n1:\n\t.rept 16\n\t"
                             "sha256rnds2 %%xmm0, %%xmm9, %%xmm1\n\tsha256rnds2 %%xmm0, %%xmm9, %%xmm2\n\t"
                             "sha256rnds2 %%xmm0, %%xmm9, %%xmm3\n\tsha256rnds2 %%xmm0, %%xmm9, %%xmm4\n\t"
                             "sha256rnds2 %%xmm0, %%xmm9, %%xmm5\n\tsha256rnds2 %%xmm0, %%xmm9, %%xmm6\n\t"
                             "sha256rnds2 %%xmm0, %%xmm9, %%xmm7\n\tsha256rnds2 %%xmm0, %%xmm9, %%xmm8\n\t.endr\n\t"
                             "dec %%ecx\n\tjnz 1b"
                             ::: "ecx", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "cc");
        }
    });
}

// Ticks of 4096 vpaddd zmm: kind 0 one dependent chain, 1 sixteen
// independent chains, 2 none (the timing's own cost). The upper halves of the
// vector registers are cleared after the timing (vzeroupper), outside it.
// Never inlined, as Ticks.
[[gnu::noinline]] uint64_t AddTicks(int kind)
{
    const uint64_t ticks = Timed([kind] {
        if (kind == 0) {
            __asm__ volatile("mov $32, %%ecx\n1:\n\t.rept 128\n\tvpaddd %%zmm16, %%zmm0, %%zmm0\n\t.endr\n\t"
                             "dec %%ecx\n\tjnz 1b"
                             ::: "ecx", "xmm0", "cc");
        } else if (kind == 1) {
            __asm__ volatile("mov $32, %%ecx\n1:\n\t.rept 8\n\t"
                             "vpaddd %%zmm16, %%zmm0, %%zmm0\n\tvpaddd %%zmm16, %%zmm1, %%zmm1\n\t"
                             "vpaddd %%zmm16, %%zmm2, %%zmm2\n\tvpaddd %%zmm16, %%zmm3, %%zmm3\n\t"
                             "vpaddd %%zmm16, %%zmm4, %%zmm4\n\tvpaddd %%zmm16, %%zmm5, %%zmm5\n\t"
                             "vpaddd %%zmm16, %%zmm6, %%zmm6\n\tvpaddd %%zmm16, %%zmm7, %%zmm7\n\t"
                             "vpaddd %%zmm16, %%zmm8, %%zmm8\n\tvpaddd %%zmm16, %%zmm9, %%zmm9\n\t"
                             "vpaddd %%zmm16, %%zmm10, %%zmm10\n\tvpaddd %%zmm16, %%zmm11, %%zmm11\n\t"
                             "vpaddd %%zmm16, %%zmm12, %%zmm12\n\tvpaddd %%zmm16, %%zmm13, %%zmm13\n\t"
                             "vpaddd %%zmm16, %%zmm14, %%zmm14\n\tvpaddd %%zmm16, %%zmm15, %%zmm15\n\t.endr\n\t"
                             "dec %%ecx\n\tjnz 1b"
                             ::: "ecx", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
                               "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "cc");
        }
    });
    __asm__ volatile("vzeroupper");
    return ticks;
}

// Latency over issue interval from `ticks` (kind 0: a dependent chain, 1:
// independent chains of the same length in all, 2: nothing): the best of
// seven of each, the kinds alternating so that a clock change or an interrupt
// cannot favour one, the timing's own cost taken off both. The chains are long
// because a virtual machine's TSC may advance in steps of many cycles. 0 when
// the timing cannot tell (a TSC that did not move).
[[gnu::always_inline]] inline double LatencyOverInterval(uint64_t (*ticks)(int kind))
{
    // No std::min: a kernel file that takes this code may compile the
    // standard library's templates with other optimisation settings, and GCC
    // does not inline across those.
    uint64_t chain = ~uint64_t{0}, spread = ~uint64_t{0}, none = ~uint64_t{0};
    for (int run = 0; run < 7; ++run) {
        const uint64_t c = ticks(0), s = ticks(1), n = ticks(2);
        chain = c < chain ? c : chain;
        spread = s < spread ? s : spread;
        none = n < none ? n : none;
    }
    if (spread <= none || chain <= none) return 0.0;
    return static_cast<double>(chain - none) / static_cast<double>(spread - none);
}
} // namespace

double cpu::detail::MeasureShaniOverlap()
{
    // How many sha256rnds2 the SHA unit works on at once. A stream of SHA-256
    // is one dependent chain of them, so this says how many interleaved
    // streams keep the unit busy.
    return LatencyOverInterval(Ticks);
}

double cpu::detail::MeasureAvx512AddDepth()
{
    // How many independent 512-bit adds the vector unit works on at once
    // (sixteen chains: a depth above 16 reads as 16). Where it is deep, one
    // register of lanes a word leaves the unit idle for most of each round's
    // chain of dependent operations.
    return LatencyOverInterval(AddTicks);
}
#endif
