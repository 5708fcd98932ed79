// CPU feature detection for the SHA-256 transforms. The only place that
// executes CPUID/XGETBV; features are read once and cached.
#ifndef SHA256BENCH_COMPAT_CPUID_H
#define SHA256BENCH_COMPAT_CPUID_H

#include <cstdint>
#include <string>

namespace cpu {

enum Feature : uint32_t {
    SSSE3 = 1u << 0,
    SSE41 = 1u << 1,
    AVX = 1u << 2,   // only set when the OS saves XMM+YMM state (XGETBV)
    AVX2 = 1u << 3,  // likewise
    BMI2 = 1u << 4,
    SHANI = 1u << 5,
};

//! Features of the running CPU (detected on first call, then cached).
uint32_t Features();

//! "ssse3 sse4.1 avx ..." for a feature mask.
std::string FeatureNames(uint32_t features);

//! CPUID brand string, or the host architecture where there is no CPUID.
std::string Brand();

} // namespace cpu

#endif
