// SPDX-License-Identifier: MIT
// SHA256D64 on three and four inputs at once with as many SHA-NI streams
// (sha256_shani_ring.h says how they stay in registers), and the probe that
// says whether more streams pay off on this CPU. Compiled with -msha
// -msse4.1; called only on CPUs that have both.
#include <crypto/sha256_internal.h>
#include <crypto/sha256_kernels.h>

#ifdef SHA256_KERNELS_X86
#include <crypto/sha256_shani_ring.h>

#include <algorithm>
#include <cstdint>
#include <x86intrin.h>

void sha256::kernel::shani_3way_d64(unsigned char* out, const unsigned char* in)
{
    sha256::shani_ring::D64<3>(out, in);
}

// Bitcoin Core's SHA256D64 4-way on SHA-NI is this function (contrib/core-export.py).
void sha256::kernel::shani_4way_d64(unsigned char* out, const unsigned char* in)
{
    sha256::shani_ring::D64<4>(out, in);
}

namespace {
// TSC ticks for 1024 sha256rnds2: one dependent chain, or eight independent
// chains of 128 (each depends only on its own last result); kind 2 times
// nothing, the cost of the timing itself.
uint64_t Ticks(int kind)
{
    _mm_lfence();
    const uint64_t t0 = __rdtsc();
    _mm_lfence();
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
    _mm_lfence();
    return __rdtsc() - t0;
}
} // namespace

// Bitcoin Core's dispatch asks this too (contrib/core-export.py).
double sha256::detail::MeasureShaniOverlap()
{
    // How many sha256rnds2 the SHA unit works on at once: the latency of one
    // over the interval at which independent ones issue. Four streams keep a
    // unit busy that overlaps about four (AMD Zen 4: 3.9-4.1); one that
    // overlaps less (Intel Sapphire Rapids: ~1.35) is kept busy by two, and
    // more streams only add work; at two (AMD Zen 5) more streams still hide
    // the schedule.
    //
    // Best of seven, the kinds alternating so that a clock change or an
    // interrupt cannot favour one; the timing's own cost taken off both. The
    // chains are long because a VM's TSC may advance in steps (26 ticks, 10 ns,
    // on an AMD Zen 4 virtual machine: 256 rnds2 gave ratios from 3.0 to
    // 3.4 in steps; 1024 gave 3.87 to 4.07 in 60 runs).
    uint64_t chain = ~uint64_t{0}, spread = ~uint64_t{0}, none = ~uint64_t{0};
    for (int run = 0; run < 7; ++run) {
        chain = std::min(chain, Ticks(0));
        spread = std::min(spread, Ticks(1));
        none = std::min(none, Ticks(2));
    }
    if (spread <= none || chain <= none) return 0.0;
    return static_cast<double>(chain - none) / static_cast<double>(spread - none);
}
#endif
