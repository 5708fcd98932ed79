// SPDX-License-Identifier: MIT
#include <compat/cpuid.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define SHA256BENCH_HAVE_CPUID 1
#endif
#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#define SHA256BENCH_HAVE_AUXV 1
#endif

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace cpu {
namespace {

const struct {
    Feature f;
    const char* name;
} NAMES[] = {
    {SSSE3, "ssse3"}, {SSE41, "sse4.1"}, {AVX, "avx"}, {AVX2, "avx2"}, {BMI2, "bmi2"}, {SHANI, "sha-ni"},
    {AVX512F, "avx512f"}, {AVX512BW, "avx512bw"}, {AVX512VL, "avx512vl"}, {ASIMD, "asimd"}, {SHA2, "sha2"},
};

#ifdef SHA256BENCH_HAVE_CPUID
void Cpuid(uint32_t leaf, uint32_t subleaf, uint32_t& a, uint32_t& b, uint32_t& c, uint32_t& d)
{
    __cpuid_count(leaf, subleaf, a, b, c, d);
}

uint64_t Xgetbv0()
{
    uint32_t lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    return (uint64_t(hi) << 32) | lo;
}

uint32_t Detect()
{
    uint32_t a, b, c, d, features = 0;
    Cpuid(0, 0, a, b, c, d);
    const uint32_t max_leaf = a;
    if (max_leaf < 1) return 0;
    Cpuid(1, 0, a, b, c, d);
    if (c & (1u << 9)) features |= SSSE3;
    if (c & (1u << 19)) features |= SSE41;
    // AVX is usable only if the CPU has it AND the OS enabled XSAVE and saves
    // both XMM (bit 1) and YMM (bit 2) state on context switch; AVX-512 also
    // needs opmask (bit 5), ZMM_Hi256 (bit 6) and Hi16_ZMM (bit 7).
    const bool osxsave = c & (1u << 27);
    const uint64_t xcr0 = osxsave ? Xgetbv0() : 0;
    const bool ymm_saved = (xcr0 & 0x6) == 0x6;
    const bool zmm_saved = (xcr0 & 0xe6) == 0xe6;
    if ((c & (1u << 28)) && ymm_saved) features |= AVX;
    if (max_leaf >= 7) {
        Cpuid(7, 0, a, b, c, d);
        if ((b & (1u << 5)) && ymm_saved) features |= AVX2;
        if (b & (1u << 8)) features |= BMI2;
        if (b & (1u << 29)) features |= SHANI;
        if ((b & (1u << 16)) && zmm_saved) features |= AVX512F;
        if ((b & (1u << 30)) && zmm_saved) features |= AVX512BW;
        if ((b & (1u << 31)) && zmm_saved) features |= AVX512VL;
    }
    return features;
}
#elif defined(SHA256BENCH_HAVE_AUXV)
uint32_t Detect()
{
    // Bit numbers of AT_HWCAP on Linux/aarch64 (asm/hwcap.h): ASIMD 1, SHA2 6.
    const unsigned long hwcap = getauxval(AT_HWCAP);
    uint32_t features = 0;
    if (hwcap & (1ul << 1)) features |= ASIMD;
    if (hwcap & (1ul << 6)) features |= SHA2;
    return features;
}
#else
uint32_t Detect() { return 0; }
#endif

uint32_t HiddenByEnvironment()
{
    const char* env = std::getenv("SHA256BENCH_HIDE_FEATURES");
    if (!env) return 0;
    uint32_t hide = 0;
    std::string list(env);
    size_t pos = 0;
    while (pos <= list.size()) {
        size_t end = list.find_first_of(", ", pos);
        if (end == std::string::npos) end = list.size();
        const std::string name = list.substr(pos, end - pos);
        pos = end + 1;
        if (name.empty()) continue;
        const uint32_t f = name == "all" ? ALL_FEATURES : FeatureByName(name);
        if (!f) {
            std::fprintf(stderr, "SHA256BENCH_HIDE_FEATURES: unknown feature '%s' (known: all %s)\n", name.c_str(),
                FeatureNames(ALL_FEATURES).c_str());
            std::exit(2);
        }
        hide |= f;
    }
    return hide;
}

} // namespace

uint32_t DetectedFeatures()
{
    static const uint32_t features = Detect();
    return features;
}

uint32_t Features()
{
    static const uint32_t features = DetectedFeatures() & ~HiddenByEnvironment();
    return features;
}

uint32_t FeatureByName(const std::string& name)
{
    for (const auto& n : NAMES) {
        if (name == n.name) return n.f;
    }
    return 0;
}

std::string FeatureNames(uint32_t features)
{
    std::string out;
    for (const auto& n : NAMES) {
        if (features & n.f) {
            if (!out.empty()) out += ' ';
            out += n.name;
        }
    }
    return out.empty() ? "none" : out;
}
std::string Brand()
{
#ifdef SHA256BENCH_HAVE_CPUID
    uint32_t a, b, c, d;
    Cpuid(0x80000000, 0, a, b, c, d);
    if (a < 0x80000004) return "unknown x86 CPU";
    char brand[49] = {};
    for (uint32_t i = 0; i < 3; ++i) {
        uint32_t r[4];
        Cpuid(0x80000002 + i, 0, r[0], r[1], r[2], r[3]);
        std::memcpy(brand + 16 * i, r, 16);
    }
    std::string s(brand);
    const auto first = s.find_first_not_of(' ');
    const auto last = s.find_last_not_of(' ');
    return first == std::string::npos ? "unknown x86 CPU" : s.substr(first, last - first + 1);
#else
    return "non-x86 CPU";
#endif
}


std::string HypervisorVendor()
{
#ifdef SHA256BENCH_HAVE_CPUID
    uint32_t a, b, c, d;
    Cpuid(0, 0, a, b, c, d);
    if (a < 1) return "";
    Cpuid(1, 0, a, b, c, d);
    // Leaf 0x40000000 means something only under a hypervisor (ECX bit 31 of
    // leaf 1); on bare metal it repeats another leaf.
    if (!(c & (1u << 31))) return "";
    Cpuid(0x40000000, 0, a, b, c, d);
    char vendor[13] = {};
    std::memcpy(vendor, &b, 4);
    std::memcpy(vendor + 4, &c, 4);
    std::memcpy(vendor + 8, &d, 4);
    return vendor;
#else
    return "";
#endif
}

} // namespace cpu
