// SPDX-License-Identifier: MIT
// CSHA256 and the registry of SHA-256 transforms.
#include <crypto/sha256.h>
#include <crypto/sha256_internal.h>
#include <crypto/sha256_kernels.h>
#include <crypto/sha256_registry.h>

#include <compat/cpuid.h>
#include <crypto/common.h>

#include <cstdio>
#include <cstring>

namespace sha256 {

namespace {

using kernel::Get;
using kernel::Shape;

struct TransformRow {
    registry::Base base;
    TransformFn fn;
    size_t max_path_blocks;
};

// The row of a kernel set's Transform kernel.
constexpr TransformRow FromTransformKernel(const char* name, const char* technique)
{
    const kernel::Kernel& k = Get(name, Shape::Transform);
    return {registry::From(k, technique), k.transform, k.max_path_blocks};
}

// Order is AutoDetect's preference, fastest first, as measured with
// bench_bitcoin (doc/transforms.md). "x8ms" = eight message schedules at once:
// one 32-bit AVX2 lane per block.
constexpr TransformRow ROWS[] = {
    FromTransformKernel("shani", "Intel SHA extensions (sha256rnds2/msg1/msg2), one block at a time"),
    FromTransformKernel("rorx_x8ms", "AVX2 schedule of eight blocks at once (one lane per block), BMI2 scalar rounds; tail via rorx"),
    FromTransformKernel("rorx", "AVX2 schedule of two blocks (one per 128-bit half), BMI2 rorx rounds, second block replays W+K"),
    FromTransformKernel("avx", "AVX (VEX) four-word message schedule interleaved with scalar rounds"),
    FromTransformKernel("sse4", "SSSE3 four-word message schedule interleaved with scalar rounds"),
    FromTransformKernel("arm_shani",
        "ARMv8 SHA-256 instructions (sha256h/h2/su0/su1), four rounds per instruction pair, one block at a time"),
#ifdef SHA256_TEST_EXTRA_ROW
    // Test-only: the portable transform under a second name (just before it, so
    // AutoDetect never prefers it to a row that needs a feature), proving that tests,
    // bench and scripts follow the registry with no other file touched.
    FromTransformKernel("basic_alias", "portable C++ under a second name (SHA256_TEST_EXTRA_ROW)"),
#endif
    FromTransformKernel("basic", "portable C++, schedule computed on the fly"),
};
constexpr int BASIC = registry::PortableRow(ROWS);
static_assert(BASIC >= 0 && BASIC == sizeof(ROWS) / sizeof(ROWS[0]) - 1, "the portable transform is the last row");

void StoreTransform(int i) { Transform.store(ROWS[i].fn); }

registry::Registry<TransformRow, sizeof(ROWS) / sizeof(ROWS[0])> g_registry{ROWS, "transform", BASIC, StoreTransform};

} // namespace

AtomicTransformFn Transform{TransformBasic};

std::vector<Implementation> Implementations()
{
    return g_registry.List<Implementation>([](Implementation& impl, const TransformRow& e) {
        impl.fn = e.fn;
        impl.max_path_blocks = e.max_path_blocks;
    });
}

bool SetImplementation(const std::string& name) { return g_registry.Set(name); }

std::string CurrentImplementation() { return g_registry.Current().base.name; }

bool SelfTest(TransformFn fn)
{
    // A row that is not built has no function (Implementation::fn is null): it fails, it does not crash.
    if (!fn) return false;
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
    for (const auto& k : kernel::KERNELS) {
        if (k.shape == Shape::Transform && k.max_path_blocks > m) m = k.max_path_blocks;
    }
    return m;
}

std::string AutoDetect()
{
    // The SHA256D64, fixed-size double SHA-256 and multi-buffer paths are chosen with the transform.
    AutoDetectD64();
    const int pick = g_registry.Detect([](const TransformRow& e) { return SelfTest(e.fn); }, -1);
    if (pick < 0) {
        // Even the portable transform failed: keep it (nothing better exists) but say so.
        std::fprintf(stderr, "sha256: no transform passed its self-test; using %s\n", ROWS[BASIC].base.name);
    }
    g_registry.Select(pick < 0 ? BASIC : pick);
    // After the transform: the multi-buffer rows finish short work through it.
    AutoDetectMulti();
    return ROWS[g_registry.Selected()].base.name;
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
