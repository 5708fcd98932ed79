// SPDX-License-Identifier: MIT
// CSHA256 and the one registry of SHA-256 transforms.
#include <crypto/sha256.h>
#include <crypto/sha256_internal.h>

#include <compat/cpuid.h>
#include <crypto/common.h>

#include <cstdio>
#include <cstring>

#if defined(ENABLE_SHA256_ASM) && !defined(DISABLE_OPTIMIZED_SHA256)
#define SHA256_HAVE_ASM 1
// The assembly transforms (src/crypto/sha256_*.asm), all with TransformFn's signature.
extern "C" {
void sha256_sse4_transform(uint32_t* s, const unsigned char* chunk, size_t blocks);
void sha256_avx_transform(uint32_t* s, const unsigned char* chunk, size_t blocks);
void sha256_rorx_transform(uint32_t* s, const unsigned char* chunk, size_t blocks);
void sha256_rorx_x8ms_transform(uint32_t* s, const unsigned char* chunk, size_t blocks);
void sha256_shani_transform(uint32_t* s, const unsigned char* chunk, size_t blocks);
}
#define SHA256_ASM(fn) fn
#else
#define SHA256_ASM(fn) nullptr
#endif

#if defined(ENABLE_SHA256_ARM) && !defined(DISABLE_OPTIMIZED_SHA256)
#include <crypto/sha256_arm.h>
#define SHA256_ARM(fn) fn
#else
#define SHA256_ARM(fn) nullptr
#endif

namespace sha256 {

namespace {

struct Entry {
    const char* name;
    uint32_t needs;
    TransformFn fn; // nullptr: not built
    const char* technique;
    size_t max_path_blocks; // block count from which the last code path runs (1: a single path)
};

// The single source of truth for tests, bench and docs. Order is AutoDetect's
// preference, fastest first, as measured with bench_bitcoin (doc/transforms.md).
// Adding a transform: its own source file, one row here, one build line.
// max_path_blocks is the block count from which a transform takes its last code
// path; tests and SelfTest go up to the largest one plus a margin, so a new row
// with a longer path is covered without touching them.
// "x8ms" = eight message schedules at once: one 32-bit AVX2 lane per block.
const Entry REGISTRY[] = {
    {"shani", cpu::SHANI | cpu::SSE41 | cpu::SSSE3, SHA256_ASM(sha256_shani_transform),
     "Intel SHA extensions (sha256rnds2/msg1/msg2), one block at a time", 1},
    {"rorx_x8ms", cpu::AVX2 | cpu::BMI2, SHA256_ASM(sha256_rorx_x8ms_transform),
     "AVX2 schedule of eight blocks at once (one lane per block), BMI2 scalar rounds; tail via rorx", 48},
    {"rorx", cpu::AVX2 | cpu::BMI2, SHA256_ASM(sha256_rorx_transform),
     "AVX2 schedule of two blocks (one per 128-bit half), BMI2 rorx rounds, second block replays W+K", 2},
    {"avx", cpu::AVX, SHA256_ASM(sha256_avx_transform),
     "AVX (VEX) four-word message schedule interleaved with scalar rounds", 1},
    {"sse4", cpu::SSSE3, SHA256_ASM(sha256_sse4_transform),
     "SSSE3 four-word message schedule interleaved with scalar rounds", 1},
    {"arm_shani", cpu::SHA2 | cpu::ASIMD, SHA256_ARM(sha256_arm_shani_transform),
     "ARMv8 SHA-256 instructions (sha256h/h2/su0/su1), four rounds per instruction pair, one block at a time", 1},
#ifdef SHA256_TEST_EXTRA_ROW
    // Test-only: the portable transform under a second name (just before it, so
    // AutoDetect never prefers it to a row that needs a feature), proving that tests,
    // bench and scripts follow the registry with no other file touched.
    {"basic_alias", 0, TransformBasic, "portable C++ under a second name (SHA256_TEST_EXTRA_ROW)", 1},
#endif
    {"basic", 0, TransformBasic, "portable C++, schedule computed on the fly", 1},
};

const Entry* Find(const std::string& name)
{
    for (const auto& e : REGISTRY) {
        if (name == e.name) return &e;
    }
    return nullptr;
}

bool Runnable(const Entry& e) { return detail::Runnable(e.needs, e.fn != nullptr); }

std::atomic<const char*> g_current{"basic"};

} // namespace

AtomicTransformFn Transform{TransformBasic};

std::string detail::NotBuiltReason(uint32_t needs, bool assembly)
{
#if defined(DISABLE_OPTIMIZED_SHA256)
    (void)needs;
    (void)assembly;
    return "not built (DISABLE_OPTIMIZED_SHA256)";
#else
    // Rows that need an aarch64 feature are the aarch64 files; the rest are x86-64 code.
    if (needs & (cpu::ASIMD | cpu::SHA2)) {
#if defined(__aarch64__)
        return "not built (the build did not define ENABLE_SHA256_ARM)";
#else
        return "not built (needs an aarch64 host)";
#endif
    }
#if !defined(__x86_64__)
    (void)assembly;
    return "not built (needs an x86-64 host)";
#else
    return assembly ? "not built (no assembler: configure found no yasm/nasm or --with-asm=no)"
                    : "not built (this build left it out)";
#endif
#endif
}

std::vector<Implementation> Implementations()
{
    std::vector<Implementation> out;
    for (const auto& e : REGISTRY) {
        Implementation impl;
        detail::Describe(impl, e.name, e.needs, e.technique, e.fn != nullptr, /*assembly=*/true);
        impl.fn = e.fn;
        impl.max_path_blocks = e.max_path_blocks;
        out.push_back(impl);
    }
    return out;
}

bool SetImplementation(const std::string& name)
{
    const Entry* e = Find(name);
    if (!e || !Runnable(*e)) return false;
    Transform.store(e->fn);
    g_current.store(e->name);
    return true;
}

std::string CurrentImplementation() { return g_current.load(); }

bool SelfTest(TransformFn fn)
{
    // A known answer for one block, then agreement with the portable transform
    // on misaligned multi-block input, with counts that reach every code path:
    // one block, two, odd tails, and every row's longest path (max_path_blocks).
    static const unsigned char abc_block[64] = {'a', 'b', 'c', 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 24};
    // FIPS 180-2 example "abc".
    static const uint32_t abc_digest[8] = {0xba7816bf, 0x8f01cfea, 0x414140de, 0x5dae2223, 0xb00361a3, 0x96177a9c,
        0xb410ff61, 0xf20015ad};
    const size_t max_path = detail::MaxPathBlocks();
    std::vector<unsigned char> buf((max_path + 9) * 64 + 3);
    std::memcpy(buf.data() + 3, abc_block, 64); // misaligned by 3
    uint32_t s[8];
    std::memcpy(s, sha256::IV, sizeof(s));
    fn(s, buf.data() + 3, 1);
    if (std::memcmp(s, abc_digest, sizeof(s)) != 0) return false;

    uint32_t x = 0x12345678;
    for (auto& c : buf) { x = x * 1103515245 + 12345; c = static_cast<unsigned char>(x >> 24); }
    for (size_t blocks : {size_t{0}, size_t{1}, size_t{2}, size_t{3}, size_t{8}, size_t{9}, size_t{17}, max_path,
                          max_path + 1, max_path + 9}) {
        uint32_t want[8], got[8];
        std::memcpy(want, sha256::IV, sizeof(want));
        std::memcpy(got, sha256::IV, sizeof(got));
        TransformBasic(want, buf.data() + 1, blocks);
        fn(got, buf.data() + 1, blocks);
        if (std::memcmp(want, got, sizeof(want)) != 0) return false;
    }
    return true;
}

size_t detail::MaxPathBlocks()
{
    size_t m = 1;
    for (const auto& e : REGISTRY) m = e.max_path_blocks > m ? e.max_path_blocks : m;
    return m;
}

int detail::FirstPassing(const std::vector<Candidate>& candidates)
{
    for (size_t i = 0; i < candidates.size(); ++i) {
        if (SelfTest(candidates[i].fn)) return static_cast<int>(i);
        std::fprintf(stderr, "sha256: transform '%s' failed its self-test and will not be used\n", candidates[i].name);
    }
    return -1;
}

std::string AutoDetect()
{
    // The SHA256D64, fixed-size double SHA-256 and multi-buffer paths are chosen with the transform.
    AutoDetectD64();
    std::vector<detail::Candidate> candidates;
    for (const auto& e : REGISTRY) {
        if (Runnable(e)) candidates.push_back({e.name, e.fn});
    }
    const int pick = detail::FirstPassing(candidates);
    if (pick < 0) {
        // Even the portable transform failed: keep it (nothing better exists) but say so.
        std::fprintf(stderr, "sha256: no transform passed its self-test; using basic\n");
        Transform.store(TransformBasic);
        g_current.store("basic");
        AutoDetectMulti();
        return "basic";
    }
    Transform.store(candidates[pick].fn);
    g_current.store(candidates[pick].name);
    // After the transform: the multi-buffer rows finish short work through it.
    AutoDetectMulti();
    return candidates[pick].name;
}

} // namespace sha256

////// CSHA256

CSHA256::CSHA256() { Reset(); }

CSHA256& CSHA256::Write(const unsigned char* data, size_t len)
{
    // Callers may pass an empty span as (nullptr, 0); memcpy must not see it.
    if (len == 0) return *this;
    // One load per call: a concurrent SetImplementation() affects later calls only.
    const sha256::TransformFn transform = sha256::Transform.load();
    WriteWith(transform, data, len);
    return *this;
}

void CSHA256::WriteWith(sha256::TransformFn transform, const unsigned char* data, size_t len)
{
    size_t fill = bytes % 64;
    bytes += len;
    if (fill) {
        const size_t take = len < 64 - fill ? len : 64 - fill;
        std::memcpy(buf + fill, data, take);
        data += take;
        len -= take;
        if (fill + take < 64) return;
        transform(s, buf, 1);
    }
    // Every whole block in one call, straight from the caller's memory.
    if (len >= 64) {
        const size_t blocks = len / 64;
        transform(s, data, blocks);
        data += blocks * 64;
        len -= blocks * 64;
    }
    if (len) std::memcpy(buf, data, len);
}

void CSHA256::Finalize(unsigned char hash[OUTPUT_SIZE])
{
    static const unsigned char pad[64] = {0x80};
    unsigned char sizedesc[8];
    WriteBE64(sizedesc, bytes << 3);
    const sha256::TransformFn transform = sha256::Transform.load();
    WriteWith(transform, pad, 1 + ((119 - (bytes % 64)) % 64));
    WriteWith(transform, sizedesc, 8);
    for (int i = 0; i < 8; ++i) WriteBE32(hash + 4 * i, s[i]);
}

CSHA256& CSHA256::Reset()
{
    bytes = 0;
    std::memcpy(s, sha256::IV, sizeof(s));
    return *this;
}
