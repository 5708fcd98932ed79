// SHA256D64 and its registry of kernels; the fixed-size double SHA-256 paths
// and theirs. Same shape as the transform registry in sha256.cpp: one table
// per family is the single source of truth for dispatch, tests, bench and docs.
#include <crypto/sha256.h>
#include <crypto/sha256d64.h>
#include <crypto/sha256_internal.h>

#include <compat/cpuid.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#ifdef SHA256_D64_ASM
// W+K of the padding block of a 64-byte message for the assembly kernels
// (sha256_shani_streams.asm), from the one compile-time schedule of
// sha256_constants.h: constant-initialised, hidden, 64-byte aligned.
struct PaddingWK {
    uint32_t v[64];
};
static constexpr PaddingWK CopyPaddingWK()
{
    PaddingWK w{};
    for (int i = 0; i < 64; ++i) w.v[i] = sha256::constants::PAD64_KW.v[i];
    return w;
}
extern "C" {
__attribute__((visibility("hidden"))) extern const PaddingWK sha256_pad64_wk;
alignas(64) const PaddingWK sha256_pad64_wk = CopyPaddingWK();
}
#endif
#if defined(ENABLE_SHA256_ARM) && !defined(DISABLE_OPTIMIZED_SHA256)
#include <crypto/sha256_arm.h>
#define SHA256_D64_ARM(fn) fn
#else
#define SHA256_D64_ARM(fn) nullptr
#endif

namespace sha256 {
namespace {

constexpr uint32_t SHANI_NEEDS = cpu::SHANI | cpu::SSE41 | cpu::SSSE3;

struct D64Entry {
    const char* name;
    int ways;
    uint32_t needs;
    D64Fn fn; // nullptr: not built
    const char* technique;
    bool assembly; // built only with an assembler (for the "not built" reason)
    int wide_rank; // 0, or its place (from 1) among the rows that lead on a CPU whose
                   // SHA unit overlaps >= WIDE_SHA_OVERLAP sha256rnds2 (PreferenceOrder)
};

// The AVX2 row is assembly where the build has an assembler (g++ spills the
// intrinsics' working set: sha256_avx2_lanes.asm), the intrinsics otherwise.
#ifdef SHA256_D64_ASM
#define AVX2_8WAY_KERNEL sha256d64_avx2_x8
#define AVX2_8WAY_TECHNIQUE "AVX2 8 lanes (assembly), padding block W+K precomputed"
#else
#define AVX2_8WAY_KERNEL SHA256_D64_FN(d64::Avx2x8)
#define AVX2_8WAY_TECHNIQUE "AVX2 8 lanes, padding schedules precomputed (intrinsics: a build without an assembler)"
#endif

// Order is AutoDetectD64's preference, fastest first, from bench_bitcoin's
// "SHA256D64, 1024 inputs of 64 bytes" table (doc/d64.md): as measured on Intel
// Sapphire Rapids; on a CPU with a wide SHA unit (AMD Zen 4) the wide_sha rows
// come first (PreferenceOrder). A 1-way row must stay runnable everywhere
// (basic), so SHA256D64 can always finish.
const D64Entry D64_REGISTRY[] = {
    {"avx512_16way", 16, cpu::AVX512F | cpu::AVX512VL, SHA256_D64_FN(d64::Avx512x16),
     "AVX-512 16 lanes (vprord, vpternlogd), padding schedules precomputed", false, 0},
    {"shani_2way", 2, SHANI_NEEDS, SHA256_D64_FN(d64::Shani2),
     "SHA-NI, two interleaved streams, padding block W+K precomputed", false, 0},
    {"shani_4way", 4, SHANI_NEEDS, SHA256_D64_ASM_FN(sha256d64_shani_x4),
     "SHA-NI, four interleaved streams (assembly: every state in registers), padding block W+K precomputed", true,
     1},
    {"shani", 1, SHANI_NEEDS, SHA256_D64_FN(d64::Shani1), "SHA-NI, one input at a time", false, 0},
    {"shani_3way", 3, SHANI_NEEDS, SHA256_D64_ASM_FN(sha256d64_shani_x3),
     "SHA-NI, three interleaved streams (assembly), padding block W+K precomputed", true, 2},
    {"avx2_8way", 8, cpu::AVX2, AVX2_8WAY_KERNEL, AVX2_8WAY_TECHNIQUE, false, 0},
    {"sse41_4way", 4, cpu::SSE41 | cpu::SSSE3, SHA256_D64_FN(d64::Sse41x4),
     "SSE4.1 4 lanes, padding schedules precomputed", false, 0},
    {"arm_shani_2way", 2, cpu::SHA2 | cpu::ASIMD, SHA256_D64_ARM(sha256d64_arm_shani_2way),
     "ARMv8 SHA-256 instructions, two inputs as two interleaved streams; padding block's W+K precomputed", false,
     0},
    {"neon_4way", 4, cpu::ASIMD, SHA256_D64_ARM(sha256d64_neon_4way),
     "Advanced SIMD, one input per 32-bit lane; for aarch64 CPUs without SHA2 (Cortex-A72, Raspberry Pi 4)", false,
     0},
    {"portable_16way", 16, 0, d64::Portable16,
     "the lane algorithm on 16 lanes of GCC/Clang generic vectors (baseline ISA: SSE2 on x86-64)", false, 0},
    {"basic", 1, 0, d64::Basic1, "portable C++, one input, padding schedules precomputed", false, 0},
};
constexpr int D64_ROWS = sizeof(D64_REGISTRY) / sizeof(D64_REGISTRY[0]);
static_assert(D64_ROWS < 16, "a plan packs row numbers into nibbles");

using detail::Runnable;
bool Runnable(const D64Entry& e) { return Runnable(e.needs, e.fn != nullptr); }

int FindD64(const std::string& name)
{
    for (int i = 0; i < D64_ROWS; ++i) {
        if (name == D64_REGISTRY[i].name) return i;
    }
    return -1;
}

int BasicRow() { return FindD64("basic"); }

// What SHA256D64 runs, packed for one atomic load: nibble k holds row number + 1
// of the k-th row to use, with strictly decreasing ways, the last one 1-way;
// the narrower rows in this CPU's order of preference.
uint32_t MakePlan(int first)
{
    uint32_t plan = static_cast<uint32_t>(first + 1);
    int shift = 4;
    int narrowest = D64_REGISTRY[first].ways;
    for (int i : detail::PreferenceOrder(D64_REGISTRY)) {
        if (narrowest == 1) break;
        const D64Entry& e = D64_REGISTRY[i];
        if (e.ways < narrowest && Runnable(e)) {
            plan |= static_cast<uint32_t>(i + 1) << shift;
            shift += 4;
            narrowest = e.ways;
        }
    }
    return plan;
}

std::atomic<uint32_t> g_plan{0}; // 0: not chosen yet, use basic

// Fixed-size paths: one row per instruction set.
struct FixedEntry {
    const char* name;
    uint32_t needs;
    DoubleFn d32, d64, d80;
    const char* technique;
};
const FixedEntry FIXED_REGISTRY[] = {
    {"shani", SHANI_NEEDS, SHA256_D64_FN(d64::Double32Shani), SHA256_D64_FN(d64::Shani1),
     SHA256_D64_FN(d64::Double80Shani), "SHA-NI, padding schedules precomputed, no CSHA256 object"},
    {"basic", 0, d64::Double32Basic, d64::Basic1, d64::Double80Basic,
     "portable C++, padding schedules precomputed, no CSHA256 object"},
};
constexpr int FIXED_ROWS = sizeof(FIXED_REGISTRY) / sizeof(FIXED_REGISTRY[0]);
bool Runnable(const FixedEntry& e) { return Runnable(e.needs, e.d32 && e.d64 && e.d80); }
std::atomic<int> g_fixed{FIXED_ROWS - 1};

// SHA256BENCH_SHANI_OVERLAP, if set: a plain decimal ("4", "1.4").
double OverlapFromEnvironment(const char* env)
{
    char* end = nullptr;
    const double v = std::strtod(env, &end);
    bool plain = *env != 0;
    for (const char* c = env; *c; ++c) plain &= (*c >= '0' && *c <= '9') || *c == '.';
    if (!plain || end == env || *end != 0 || !(v >= 0 && v <= 64)) {
        std::fprintf(stderr, "SHA256BENCH_SHANI_OVERLAP: '%s' is not a decimal number from 0 to 64\n", env);
        std::exit(2);
    }
    return v;
}

double MeasureOverlap()
{
    if (const char* env = std::getenv("SHA256BENCH_SHANI_OVERLAP")) return OverlapFromEnvironment(env);
#ifdef SHA256_D64_X86
    if (detail::Runnable(SHANI_NEEDS, true)) return d64::MeasureShaniOverlap();
#endif
    return 0.0;
}

} // namespace

double ShaniOverlap()
{
    static const double overlap = MeasureOverlap();
    return overlap;
}

d64::JobsFn d64::ShaniJobs(int streams)
{
#ifdef SHA256_D64_ASM
    if (streams == 2) return sha256_shani_x2_jobs;
    if (streams == 4) return sha256_shani_x4_jobs;
#endif
    (void)streams;
    return nullptr;
}

d64::KernelFn d64::ShaniHash32(int streams)
{
#ifdef SHA256_D64_ASM
    if (streams == 2) return sha256_shani_x2_hash32;
    if (streams == 4) return sha256_shani_x4_hash32;
#endif
    (void)streams;
    return nullptr;
}

d64::LanesFn d64::TransformAvx2x8Asm()
{
#ifdef SHA256_D64_ASM
    return sha256_avx2_x8_transform;
#else
    return nullptr;
#endif
}

d64::KernelFn d64::Avx2x8Asm()
{
#ifdef SHA256_D64_ASM
    return sha256d64_avx2_x8;
#else
    return nullptr;
#endif
}

std::vector<D64Implementation> D64Implementations()
{
    std::vector<D64Implementation> out;
    for (int i : detail::PreferenceOrder(D64_REGISTRY)) {
        const D64Entry& e = D64_REGISTRY[i];
        D64Implementation impl;
        detail::Describe(impl, e.name, e.needs, e.technique, e.fn != nullptr, e.assembly);
        impl.ways = e.ways;
        impl.fn = e.fn;
        impl.wide_sha = e.wide_rank > 0;
        out.push_back(impl);
    }
    return out;
}

bool SetD64Implementation(const std::string& name)
{
    const int i = FindD64(name);
    if (i < 0 || !Runnable(D64_REGISTRY[i])) return false;
    g_plan.store(MakePlan(i), std::memory_order_relaxed);
    return true;
}

std::string CurrentD64Implementation()
{
    const uint32_t plan = g_plan.load(std::memory_order_relaxed);
    return plan ? D64_REGISTRY[(plan & 15) - 1].name : "basic";
}

bool SelfTestD64(D64Fn fn, int ways)
{
    if (!fn || ways < 1 || ways > 64) return false;
    // Known answer: SHA256(SHA256(bytes 0x00..0x3f)), computed independently (Python hashlib).
    static const unsigned char want0[32] = {0x01, 0xc9, 0xf4, 0x64, 0x78, 0x0a, 0x1b, 0x6a, 0xf4, 0xeb, 0x40, 0x0f,
        0xe2, 0xf2, 0x89, 0x6c, 0xfb, 0x21, 0x69, 0xf5, 0xa6, 0x57, 0x01, 0x43, 0x9e, 0x4c, 0x2c, 0x4e, 0x21, 0x39,
        0x03, 0xef};
    // Zeroed: a broken kernel that writes nothing must compare deterministically.
    unsigned char in[64 * 64 + 3], out[32 * 64 + 5] = {}, ref[32];
    uint32_t x = 0x44363421;
    for (auto& c : in) { x = x * 1103515245 + 12345; c = static_cast<unsigned char>(x >> 24); }
    for (int i = 0; i < 64; ++i) in[3 + i] = static_cast<unsigned char>(i);
    // Inputs misaligned by 3, outputs by 5.
    fn(out + 5, in + 3);
    if (std::memcmp(out + 5, want0, 32) != 0) return false;
    for (int i = 1; i < ways; ++i) {
        d64::Basic1(ref, in + 3 + 64 * i);
        if (std::memcmp(out + 5 + 32 * i, ref, 32) != 0) return false;
    }
    // In place.
    unsigned char inplace[64 * 64];
    std::memcpy(inplace, in + 3, 64 * static_cast<size_t>(ways));
    fn(inplace, inplace);
    return std::memcmp(inplace, out + 5, 32 * static_cast<size_t>(ways)) == 0;
}

std::vector<FixedImplementation> FixedImplementations()
{
    std::vector<FixedImplementation> out;
    for (const auto& e : FIXED_REGISTRY) {
        FixedImplementation impl;
        detail::Describe(impl, e.name, e.needs, e.technique, e.d32 && e.d64 && e.d80, /*assembly=*/false);
        impl.double32 = e.d32;
        impl.double64 = e.d64;
        impl.double80 = e.d80;
        out.push_back(impl);
    }
    return out;
}

bool SetFixedImplementation(const std::string& name)
{
    for (int i = 0; i < FIXED_ROWS; ++i) {
        if (name == FIXED_REGISTRY[i].name && Runnable(FIXED_REGISTRY[i])) {
            g_fixed.store(i, std::memory_order_relaxed);
            return true;
        }
    }
    return false;
}

std::string CurrentFixedImplementation() { return FIXED_REGISTRY[g_fixed.load(std::memory_order_relaxed)].name; }

namespace {
// The fixed paths against the portable ones on one input each.
bool SelfTestFixed(const FixedEntry& e)
{
    unsigned char in[80 + 7], want[32], got[32];
    for (int i = 0; i < 87; ++i) in[i] = static_cast<unsigned char>(i * 37 + 11);
    const struct {
        DoubleFn got, want;
    } pairs[] = {{e.d32, d64::Double32Basic}, {e.d64, d64::Basic1}, {e.d80, d64::Double80Basic}};
    for (const auto& p : pairs) {
        p.want(want, in + 7);
        p.got(got, in + 7);
        if (std::memcmp(want, got, 32) != 0) return false;
    }
    return true;
}
} // namespace

std::string AutoDetectD64()
{
    int pick = BasicRow();
    for (int i : detail::PreferenceOrder(D64_REGISTRY)) {
        const D64Entry& e = D64_REGISTRY[i];
        if (!Runnable(e)) continue;
        if (SelfTestD64(e.fn, e.ways)) {
            pick = i;
            break;
        }
        std::fprintf(stderr, "sha256: D64 implementation '%s' failed its self-test and will not be used\n", e.name);
    }
    g_plan.store(MakePlan(pick), std::memory_order_relaxed);

    for (int i = 0; i < FIXED_ROWS; ++i) {
        const FixedEntry& e = FIXED_REGISTRY[i];
        if (!Runnable(e)) continue;
        if (SelfTestFixed(e)) {
            g_fixed.store(i, std::memory_order_relaxed);
            break;
        }
        std::fprintf(stderr, "sha256: fixed-size path '%s' failed its self-test and will not be used\n", e.name);
    }
    return D64_REGISTRY[pick].name;
}

void Double32(unsigned char out[32], const unsigned char in[32])
{
    FIXED_REGISTRY[g_fixed.load(std::memory_order_relaxed)].d32(out, in);
}
void Double64(unsigned char out[32], const unsigned char in[64])
{
    FIXED_REGISTRY[g_fixed.load(std::memory_order_relaxed)].d64(out, in);
}
void Double80(unsigned char out[32], const unsigned char in[80])
{
    FIXED_REGISTRY[g_fixed.load(std::memory_order_relaxed)].d80(out, in);
}

} // namespace sha256

void SHA256D64(unsigned char* out, const unsigned char* in, size_t blocks)
{
    uint32_t plan = sha256::g_plan.load(std::memory_order_relaxed);
    if (!plan) plan = static_cast<uint32_t>(sha256::BasicRow() + 1);
    for (; plan && blocks; plan >>= 4) {
        const sha256::D64Entry& e = sha256::D64_REGISTRY[(plan & 15) - 1];
        const size_t ways = static_cast<size_t>(e.ways);
        while (blocks >= ways) {
            e.fn(out, in);
            out += 32 * ways;
            in += 64 * ways;
            blocks -= ways;
        }
    }
}
