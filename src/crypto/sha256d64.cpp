// SPDX-License-Identifier: MIT
// SHA256D64 and its registry: rows of the kernel table's D64 kernels, in
// AutoDetectD64's order of preference.
#include <crypto/sha256.h>
#include <crypto/sha256_internal.h>
#include <crypto/sha256_kernels.h>
#include <crypto/sha256_registry.h>

#include <atomic>
#include <cassert>
#include <cstring>
#include <vector>

namespace sha256 {
namespace {

struct D64Row {
    registry::Base base;
    kernel::HashFn fn;
    kernel::BatchFn batch; // nullptr, or the set's kernel for many calls' worth at once
    kernel::MerkleFn merkle; // nullptr, or the set's kernel for a Merkle tree's levels
};

// The row of a kernel set: its D64 kernel, and its D64Batch and Merkle
// kernels where the set has them (of the same width and needs).
constexpr D64Row FromD64Kernels(const char* name, const char* technique)
{
    const kernel::Kernel& k = kernel::Get(name, kernel::Shape::D64);
    D64Row row{registry::From(k, technique), k.hash, nullptr, nullptr};
    for (const kernel::Shape shape : {kernel::Shape::D64Batch, kernel::Shape::Merkle}) {
        const size_t i = kernel::Lookup(name, shape);
        if (i == kernel::KERNEL_COUNT) continue;
        const kernel::Kernel& kb = kernel::KERNELS[i];
        if (kb.ways != k.ways) kernel::NotInTheKernelTable(); // a batch is a call's worth of inputs
        row.base.needs |= kb.needs;
        row.base.built = row.base.built && kb.Built();
        if (shape == kernel::Shape::D64Batch) row.batch = kb.batch;
        else row.merkle = kb.merkle;
    }
    return row;
}

#ifdef SHA256_KERNELS_ASM
#define AVX2_8WAY_TECHNIQUE "AVX2 8 lanes (assembly), padding block W+K precomputed"
#else
#define AVX2_8WAY_TECHNIQUE "AVX2 8 lanes, padding schedules precomputed (intrinsics: a build without an assembler)"
#endif

// Order is AutoDetectD64's preference, fastest first, from bench_bitcoin's
// "SHA256D64, 1024 inputs of 64 bytes" table (doc/d64.md). The rows of three
// or more SHA-NI streams carry the streams' order rules (StreamsLeading): ahead
// of the vector rows where the SHA unit works on as many sha256rnds2 at once,
// ahead of the other SHA-NI rows where it works on more than one. The last
// row is the portable 1-way one, so SHA256D64 can always finish.
//
// "More than one" is 1.2 here (the multi-buffer rows: 1.7): where the unit
// overlaps any second sha256rnds2, two streams fill it as well as five, and
// five in staggered halves then win on what they do besides the rounds (the
// first block's W+K a batch ahead, the schedule beside the other half's
// rounds); three and four in lock step do as well as two. A decision from
// the measured runs of doc/results/ (doc/d64.md); below 1.2, measured on no
// CPU, the listed order.
constexpr double STREAMS_LEAD_SHANI_ROWS = 1.2;
constexpr D64Row ROWS[] = {
    FromD64Kernels("avx512_16way", "AVX-512 16 lanes (vprord, vpternlogd), padding schedules precomputed"),
    // Two register sets of lanes halve each input's share of the rounds'
    // chain of dependent operations, which binds where the vector unit works
    // on several 512-bit adds at once: then ahead of the AVX-512 rows with one
    // (a decision from the measured runs of doc/results/, doc/d64.md).
    registry::Leading(FromD64Kernels("avx512_32way",
                                     "AVX-512 32 lanes in two register sets, each block's W+K computed ahead into memory"),
                      {cpu::Probe::Avx512AddDepth, 4.0, kernel::AVX512_NEEDS, 2}),
    // Three register sets where the unit works on more 512-bit adds at once
    // still: two sets' rounds left it idle a quarter of the time at a depth
    // of 7.8 (AMD Zen 5), three about a tenth. Ahead of the two-set row there
    // (the only CPU measured with it, doc/d64.md; 6: between that depth and
    // the 4 from which two sets win).
    registry::Leading(FromD64Kernels("avx512_48way",
                                     "AVX-512 48 lanes in three register sets, each block's rounds in assembly with every state in a register"),
                      {cpu::Probe::Avx512AddDepth, 6.0, kernel::AVX512_NEEDS, 1}),
    FromD64Kernels("shani_2way", "SHA-NI, two interleaved streams, padding block W+K precomputed"),
    StreamsLeading(FromD64Kernels("shani_4way", "SHA-NI, four interleaved streams, every state in registers, padding block W+K precomputed"), 2, STREAMS_LEAD_SHANI_ROWS),
    FromD64Kernels("shani", "SHA-NI, one input at a time"),
    StreamsLeading(FromD64Kernels("shani_3way", "SHA-NI, three interleaved streams, padding block W+K precomputed"), 3, STREAMS_LEAD_SHANI_ROWS),
    StreamsLeading(FromD64Kernels("shani_5way",
        "SHA-NI, five streams in staggered halves, the first block's W+K a batch ahead, many batches a call"), 1, STREAMS_LEAD_SHANI_ROWS),
    FromD64Kernels("avx2_8way", AVX2_8WAY_TECHNIQUE),
    FromD64Kernels("sse41_4way", "SSE4.1 4 lanes, padding schedules precomputed"),
    FromD64Kernels("arm_shani_2way",
        "ARMv8 SHA-256 instructions, two inputs as two interleaved streams; padding block's W+K precomputed"),
    FromD64Kernels("neon_4way", "Advanced SIMD, one input per 32-bit lane; for aarch64 CPUs without SHA2 (Cortex-A72, Raspberry Pi 4)"),
    FromD64Kernels("portable_16way", "the lane algorithm on 16 lanes of GCC/Clang generic vectors (baseline ISA: SSE2 on x86-64)"),
#ifdef SHA256_TEST_EXTRA_ROW
    // Test-only (ci/extra-row.sh): a width no other row has, after every row
    // that needs a feature; and an order rule on the CPU model's test-only
    // probe (it leads every row where SHA256BENCH_TEST_PROBE is 2 or more).
    registry::Leading(FromD64Kernels("portable_6way", "the lane algorithm on 6 lanes of generic vectors (SHA256_TEST_EXTRA_ROW)"),
                      {cpu::Probe::TestProbe, 2.0, 0, 1}),
#endif
    FromD64Kernels("basic", "portable C++, one input, padding schedules precomputed"),
};
constexpr int ROW_COUNT = sizeof(ROWS) / sizeof(ROWS[0]);
constexpr int BASIC = registry::PortableRow(ROWS);
static_assert(BASIC == ROW_COUNT - 1, "a portable 1-way row is the last: SHA256D64 can always finish");
static_assert(ROW_COUNT < 16, "a plan packs row numbers into nibbles");

uint32_t MakePlan(int first);
void StorePlan(int i);
registry::Registry<D64Row, ROW_COUNT> g_registry{ROWS, "D64 implementation", BASIC, StorePlan};

// What SHA256D64 runs, packed for one atomic load: nibble k holds row number + 1
// of the k-th row to use, with strictly decreasing ways, the last one 1-way;
// the narrower rows in this CPU's order of preference.
uint32_t MakePlan(int first)
{
    uint32_t plan = static_cast<uint32_t>(first + 1);
    int shift = 4;
    int narrowest = ROWS[first].base.ways;
    for (int i : g_registry.Order()) {
        if (narrowest == 1) break;
        if (ROWS[i].base.ways < narrowest && g_registry.Runnable(i)) {
            plan |= static_cast<uint32_t>(i + 1) << shift;
            shift += 4;
            narrowest = ROWS[i].base.ways;
        }
    }
    return plan;
}

std::atomic<uint32_t> g_plan{BASIC + 1};

void StorePlan(int i) { g_plan.store(MakePlan(i), std::memory_order_relaxed); }

} // namespace

std::vector<D64Implementation> D64Implementations()
{
    return g_registry.List<D64Implementation>([](D64Implementation& impl, const D64Row& e) {
        impl.fn = e.fn;
        impl.batch = e.batch;
        impl.merkle = e.merkle;
    });
}

bool SetD64Implementation(const std::string& name) { return g_registry.Set(name); }

std::string CurrentD64Implementation() { return g_registry.Current().base.name; }

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
        kernel::basic_d64(ref, in + 3 + 64 * i);
        if (std::memcmp(out + 5 + 32 * i, ref, 32) != 0) return false;
    }
    // In place.
    unsigned char inplace[64 * 64];
    std::memcpy(inplace, in + 3, 64 * static_cast<size_t>(ways));
    fn(inplace, inplace);
    return std::memcmp(inplace, out + 5, 32 * static_cast<size_t>(ways)) == 0;
}

namespace {
// A batch kernel on three batches (the pipeline's start, middle and end)
// against the portable kernel, misaligned, then in place.
bool SelfTestBatch(kernel::BatchFn fn, int ways)
{
    const size_t n = 3 * static_cast<size_t>(ways);
    std::vector<unsigned char> in(64 * n + 1), out(32 * n + 3), want(32 * n);
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<unsigned char>(i * 151 + 3);
    for (size_t i = 0; i < n; ++i) kernel::basic_d64(want.data() + 32 * i, in.data() + 1 + 64 * i);
    fn(out.data() + 3, in.data() + 1, 3);
    if (std::memcmp(out.data() + 3, want.data(), want.size()) != 0) return false;
    fn(in.data() + 1, in.data() + 1, 3);
    return std::memcmp(in.data() + 1, want.data(), want.size()) == 0;
}
// A Merkle kernel on 203 hashes (two levels of it, the first with its odd
// last hash doubled, down to 51) against the levels hashed with the portable
// kernel, at an odd offset; then with a pair of equal hashes at an even index,
// which must set the mutation flag.
bool SelfTestMerkle(kernel::MerkleFn fn)
{
    constexpr size_t N = 203;
    std::vector<unsigned char> level(32 * (N + 1)), got(32 * N + 5);
    for (size_t i = 0; i < level.size(); ++i) level[i] = static_cast<unsigned char>(i * 167 + 11);
    std::memcpy(got.data() + 5, level.data(), 32 * N);
    size_t n = N;
    while (n >= 64) {
        if (n & 1) std::memcpy(level.data() + 32 * n, level.data() + 32 * (n - 1), 32);
        for (size_t i = 0; 2 * i < n; ++i) kernel::basic_d64(level.data() + 32 * i, level.data() + 64 * i);
        n = (n + 1) / 2;
    }
    bool mutated = false;
    if (fn(got.data() + 5, N, &mutated) != n || mutated || std::memcmp(got.data() + 5, level.data(), 32 * n) != 0) return false;
    std::memcpy(got.data() + 5 + 32 * 101, got.data() + 5 + 32 * 100, 32);
    return fn(got.data() + 5, N, &mutated) == n && mutated;
}
} // namespace

std::string AutoDetectD64()
{
    const std::string pick = g_registry.AutoDetect(
        [](const D64Row& e) {
            return SelfTestD64(e.fn, e.base.ways) && (!e.batch || SelfTestBatch(e.batch, e.base.ways)) &&
                   (!e.merkle || SelfTestMerkle(e.merkle));
        },
        BASIC);
    AutoDetectFixed();
    return pick;
}

} // namespace sha256

void SHA256D64(unsigned char* out, const unsigned char* in, size_t blocks)
{
    // The contract (sha256.h): out is in, or the two do not overlap. A row that
    // hashes one input at a time would overwrite inputs it has yet to read.
    assert(sha256::registry::EqualOrDisjoint(out, 32 * blocks, in, 64 * blocks) && "SHA256D64: out partly overlaps in");
    for (uint32_t plan = sha256::g_plan.load(std::memory_order_relaxed); plan && blocks; plan >>= 4) {
        const sha256::D64Row& e = sha256::ROWS[(plan & 15) - 1];
        const size_t ways = static_cast<size_t>(e.base.ways);
        if (e.batch && blocks >= ways) {
            const size_t batches = blocks / ways;
            e.batch(out, in, batches);
            out += 32 * ways * batches;
            in += 64 * ways * batches;
            blocks -= ways * batches;
        }
        while (blocks >= ways) {
            e.fn(out, in);
            out += 32 * ways;
            in += 64 * ways;
            blocks -= ways;
        }
    }
}

size_t SHA256D64Levels(unsigned char* hashes, size_t n, bool* mutated)
{
    // The first row of the plan with a Merkle kernel: a row without one
    // (avx512_48way) leaves a tree's levels to the next row that has one.
    for (uint32_t plan = sha256::g_plan.load(std::memory_order_relaxed); plan; plan >>= 4) {
        const sha256::D64Row& e = sha256::ROWS[(plan & 15) - 1];
        if (e.merkle) return e.merkle(hashes, n, mutated);
    }
    return n;
}
