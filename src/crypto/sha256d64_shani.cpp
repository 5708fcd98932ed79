// SHA256D64 and the fixed-size double SHA-256 fast paths with the Intel SHA
// extensions: one SHA-256 per instruction stream, and two independent streams
// interleaved so that each sha256rnds2 waits less on its own previous result.
// (Three and four streams and the job kernels are assembly,
// sha256_shani_streams.asm: from this template g++ 12 keeps four streams'
// states in memory, 2.4x the assembly's time on Zen 4.) Also the probe of how
// many sha256rnds2 the SHA unit overlaps.
// Compiled with -msha -msse4.1; called only on CPUs that have both.
#include <crypto/sha256_internal.h>
#include <crypto/sha256_kernels.h>

#ifdef SHA256_KERNELS_X86
#include <crypto/sha256_lanes_shani.h>

#include <algorithm>
#include <x86intrin.h>

namespace sha256 {
using namespace shani;

void kernel::shani_d64(unsigned char* out, const unsigned char* in) { D64<1>(out, in); }
void kernel::shani_2way_d64(unsigned char* out, const unsigned char* in) { D64<2>(out, in); }

void kernel::shani_double32(unsigned char* out, const unsigned char* in)
{
    // The first SHA-256 is the same one-block hash of 32 bytes as the second.
    const State iv[1] = {Initial()};
    State st[1] = {Initial()};
    __m128i m[1][4] = {{LoadBE(in), LoadBE(in + 16), _mm_set_epi32(0, 0, 0, static_cast<int>(0x80000000)),
        _mm_set_epi32(256, 0, 0, 0)}};
    Rounds64<1, true>(st, m);
    HashDigests<1>(st, iv);
    StoreDigest(out, st[0]);
}

void kernel::shani_double80(unsigned char* out, const unsigned char* in)
{
    State st[1] = {Initial()};
    __m128i m[1][4] = {{LoadBE(in), LoadBE(in + 16), LoadBE(in + 32), LoadBE(in + 48)}};
    Block<1>(st, m);
    // Bytes 64..79, then 0x80, zeros and the bit length 640.
    __m128i m2[1][4] = {{LoadBE(in + 64), _mm_set_epi32(0, 0, 0, static_cast<int>(0x80000000)), _mm_setzero_si128(),
        _mm_set_epi32(640, 0, 0, 0)}};
    const State saved[1] = {st[0]};
    Rounds64<1>(st, m2);
    HashDigests<1>(st, saved);
    StoreDigest(out, st[0]);
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

double detail::MeasureShaniOverlap()
{
    // Best of seven, the kinds alternating so that a clock change or an
    // interrupt cannot favour one; the timing's own cost taken off both. The
    // chains are long because a VM's TSC may advance in steps (26 ticks, 10 ns,
    // on the AMD Zen 4 guest measured here: 256 rnds2 gave ratios from 3.0 to
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

} // namespace sha256
#endif
