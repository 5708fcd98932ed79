// SPDX-License-Identifier: MIT
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
    AVX512F = 1u << 6,  // only set when the OS saves opmask+ZMM state (XCR0 bits 5-7)
    AVX512VL = 1u << 7, // likewise
    ASIMD = 1u << 8,    // aarch64 Advanced SIMD (HWCAP_ASIMD)
    SHA2 = 1u << 9,     // aarch64 SHA-256 instructions (HWCAP_SHA2)
    AVX512BW = 1u << 10, // like AVX512F
};

//! Every feature this file knows, for "hide" masks and listings.
constexpr uint32_t ALL_FEATURES = (1u << 11) - 1;

//! Features of the running CPU (detected on first call, then cached), less
//! those named in the environment variable SHA256BENCH_HIDE_FEATURES
//! (e.g. "avx512f,sha-ni"): dispatch, tests and the bench then behave as on a
//! CPU without them. An unknown name there stops the program with a message.
uint32_t Features();

//! What the CPU reports, before SHA256BENCH_HIDE_FEATURES is applied.
uint32_t DetectedFeatures();

//! The mask of one feature name as FeatureNames() prints it, or 0 if unknown.
uint32_t FeatureByName(const std::string& name);

//! "ssse3 sse4.1 avx ..." for a feature mask.
std::string FeatureNames(uint32_t features);

//! CPUID brand string, or the host architecture where there is no CPUID.
std::string Brand();

//! The vendor signature of CPUID leaf 0x40000000 ("KVMKVMKVM", "TCGTCGTCGTCG",
//! ...) where leaf 1 sets the hypervisor bit, else "" (bare metal, no CPUID).
std::string HypervisorVendor();

} // namespace cpu

#endif
