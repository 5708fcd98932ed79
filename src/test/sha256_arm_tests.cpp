// The aarch64 functions called directly, beside the registry's per-transform
// suites: the transform against the independent oracle (test/reference.h) on
// random lengths and offsets, multi-block calls, guard pages; the two D64
// functions against CSHA256 run twice, in place and misaligned. A function
// this CPU (after SHA256BENCH_HIDE_FEATURES) cannot run, or this build lacks,
// makes its test case skipped with the reason: never a pass.
#include <compat/cpuid.h>
#include <crypto/sha256.h>
#include <crypto/sha256_internal.h>
#include <crypto/sha256_kernels.h>
#include <test/util/reference.h>
#include <test/util/common.h>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstring>
#include <vector>

namespace {

using D64Fn = void (*)(unsigned char* out, const unsigned char* in);

#if defined(SHA256_KERNELS_ARM)
constexpr bool BUILT = true;
constexpr sha256::TransformFn ARM_SHANI = sha256_arm_shani_transform;
constexpr D64Fn ARM_SHANI_2WAY = sha256_arm_shani_2way_d64;
constexpr D64Fn NEON_4WAY = sha256_neon_4way_d64;
#else
constexpr bool BUILT = false;
constexpr sha256::TransformFn ARM_SHANI = nullptr;
constexpr D64Fn ARM_SHANI_2WAY = nullptr;
constexpr D64Fn NEON_4WAY = nullptr;
#endif

#if defined(__aarch64__)
const char* const NOT_BUILT = "not built (the build did not define ENABLE_SHA256_ARM)";
#else
const char* const NOT_BUILT = "not built (needs an aarch64 host)";
#endif

// Empty when this binary has the ARM functions and the CPU has `needs`.
std::string WhyNot(uint32_t needs)
{
    if (!BUILT) return NOT_BUILT;
    const uint32_t missing = needs & ~cpu::Features();
    return missing ? "CPU lacks " + cpu::FeatureNames(missing) : "";
}

// Boost.Test precondition: a false result skips the case and prints the message.
struct Needs {
    uint32_t mask;
    boost::test_tools::assertion_result operator()(boost::unit_test::test_unit_id) const
    {
        const std::string why = WhyNot(mask);
        boost::test_tools::assertion_result r(why.empty());
        if (!why.empty()) r.message() << "not run: " << why;
        return r;
    }
};

constexpr uint32_t SHANI_NEEDS = cpu::SHA2 | cpu::ASIMD;
constexpr uint32_t NEON_NEEDS = cpu::ASIMD;

// FIPS 180-4 padding of `len` bytes at `msg`, placed `offset` bytes into `buf`; returns the block count.
size_t PadInto(std::vector<unsigned char>& buf, size_t offset, const unsigned char* msg, size_t len)
{
    const size_t blocks = (len + 9 + 63) / 64;
    buf.assign(offset + blocks * 64, 0);
    std::memcpy(buf.data() + offset, msg, len);
    buf[offset + len] = 0x80;
    const uint64_t bits = uint64_t(len) * 8;
    for (int i = 0; i < 8; ++i) buf[offset + blocks * 64 - 1 - i] = static_cast<unsigned char>(bits >> (8 * i));
    return blocks;
}

test::Digest DigestOf(const uint32_t s[8])
{
    test::Digest d;
    for (int i = 0; i < 8; ++i) {
        for (int j = 0; j < 4; ++j) d[4 * i + j] = static_cast<unsigned char>(s[i] >> (24 - 8 * j));
    }
    return d;
}

// Double SHA-256 of each 64-byte input with CSHA256 on the portable transform.
std::vector<unsigned char> D64Want(const unsigned char* in, size_t n)
{
    test::ScopedTransform use("basic");
    std::vector<unsigned char> out(32 * n);
    for (size_t i = 0; i < n; ++i) {
        unsigned char h[32];
        CSHA256().Write(in + 64 * i, 64).Finalize(h);
        CSHA256().Write(h, 32).Finalize(out.data() + 32 * i);
    }
    return out;
}

// One D64 function on random inputs: separate buffers at every pair of
// offsets in a sample, then in place; returns the number of wrong digests.
int CheckD64(const char* name, D64Fn fn, size_t ways, uint64_t seed)
{
    test::Rng rng(seed);
    int bad = 0, cases = 0;
    for (int iter = 0; iter < 256; ++iter) {
        const size_t in_off = rng.Below(64), out_off = rng.Below(64);
        std::vector<unsigned char> in(64 + 64 * ways), out(64 + 32 * ways + 64);
        rng.Fill(in.data(), in.size());
        rng.Fill(out.data(), out.size());
        const std::vector<unsigned char> around = out;
        const std::vector<unsigned char> want = D64Want(in.data() + in_off, ways);

        fn(out.data() + out_off, in.data() + in_off);
        ++cases;
        if (std::memcmp(out.data() + out_off, want.data(), want.size()) != 0 && ++bad <= 5) {
            BOOST_ERROR(name << ": wrong digest, input offset " << in_off << ", output offset " << out_off << ", seed " << seed);
        }
        // Nothing written outside the 32 * ways output bytes.
        if (std::memcmp(out.data(), around.data(), out_off) != 0 ||
            std::memcmp(out.data() + out_off + 32 * ways, around.data() + out_off + 32 * ways,
                        out.size() - out_off - 32 * ways) != 0) {
            ++bad;
            BOOST_ERROR(name << ": wrote outside its output, output offset " << out_off);
        }

        // In place, as SHA256D64's callers (the Merkle tree) use it.
        unsigned char* inout = in.data() + in_off;
        fn(inout, inout);
        ++cases;
        if (std::memcmp(inout, want.data(), want.size()) != 0 && ++bad <= 5) {
            BOOST_ERROR(name << ": wrong digest in place, offset " << in_off << ", seed " << seed);
        }
    }
    BOOST_TEST_MESSAGE("  " << name << ": " << cases << " calls (" << ways << " inputs each), "
                            << (bad ? "FAILED" : "ok"));
    return bad;
}

// Input ending at a PROT_NONE page / starting right after one, and output likewise.
int CheckD64GuardPages(const char* name, D64Fn fn, size_t ways)
{
    test::Rng rng(ways);
    int bad = 0;
    for (auto flush : {test::GuardedBuffer::Flush::End, test::GuardedBuffer::Flush::Begin}) {
        test::GuardedBuffer in(64 * ways, flush), out(32 * ways, flush);
        rng.Fill(in.begin(), 64 * ways);
        const std::vector<unsigned char> want = D64Want(in.begin(), ways);
        fn(out.begin(), in.begin());
        if (std::memcmp(out.begin(), want.data(), want.size()) != 0) {
            ++bad;
            BOOST_ERROR(name << ": wrong digest with guard pages");
        }
    }
    BOOST_TEST_MESSAGE("  " << name << ": input and output flush against guard pages: " << (bad ? "FAILED" : "ok"));
    return bad;
}

} // namespace

BOOST_AUTO_TEST_SUITE(sha256_arm_tests)

// The registry row agrees with what this binary and CPU can do (runs everywhere).
BOOST_AUTO_TEST_CASE(registry_row)
{
    bool found = false;
    for (const auto& impl : sha256::Implementations()) {
        if (impl.name != "arm_shani") continue;
        found = true;
        BOOST_CHECK_EQUAL(impl.needs_mask, SHANI_NEEDS);
#if defined(DISABLE_OPTIMIZED_SHA256)
        BOOST_CHECK(!impl.built);
        BOOST_CHECK_EQUAL(impl.why_not, "not built (DISABLE_OPTIMIZED_SHA256)");
#else
        BOOST_CHECK_EQUAL(impl.built, BUILT);
        BOOST_CHECK_EQUAL(impl.why_not, WhyNot(SHANI_NEEDS));
        if (BUILT) BOOST_CHECK(impl.fn == ARM_SHANI);
#endif
        BOOST_TEST_MESSAGE("  arm_shani: " << (impl.supported ? "runnable" : "not run: " + impl.why_not));
    }
    BOOST_CHECK_MESSAGE(found, "no arm_shani row in the transform registry");
    // The D64 kernels of this file run only where the CPU has what they need; their tests are skipped for these reasons.
    BOOST_TEST_MESSAGE("  arm_shani_2way: " << (WhyNot(SHANI_NEEDS).empty() ? "runnable" : "not run: " + WhyNot(SHANI_NEEDS)));
    BOOST_TEST_MESSAGE("  neon_4way: " << (WhyNot(NEON_NEEDS).empty() ? "runnable" : "not run: " + WhyNot(NEON_NEEDS)));
}

// On an aarch64 build AutoDetect takes arm_shani exactly when the CPU has
// SHA2 and ASIMD (SHA256BENCH_HIDE_FEATURES=sha2 makes it fall back to basic).
BOOST_AUTO_TEST_CASE(autodetect_takes_arm_shani_when_supported)
{
    const std::string picked = sha256::AutoDetect();
#if defined(__aarch64__) && !defined(DISABLE_OPTIMIZED_SHA256)
    BOOST_CHECK_EQUAL(picked, WhyNot(SHANI_NEEDS).empty() ? "arm_shani" : "basic");
#else
    BOOST_CHECK_NE(picked, "arm_shani");
#endif
    BOOST_TEST_MESSAGE("  AutoDetect() picked " << picked << " (CPU features: " << cpu::FeatureNames(cpu::Features()) << ")");
    sha256::SetImplementation("basic");
}

// Random messages of 0..2000 bytes at offsets 0..63, padded here and hashed
// by one call of the transform, against the textbook oracle.
BOOST_AUTO_TEST_CASE(arm_shani_random_lengths_and_offsets, *boost::unit_test::precondition(Needs{SHANI_NEEDS}))
{
    const uint64_t seed = 0x41524d31;
    test::Rng rng(seed);
    int bad = 0;
    const int cases = 1000;
    std::vector<unsigned char> msg(2000), padded;
    for (int i = 0; i < cases; ++i) {
        // Every offset at least a dozen times; lengths cluster at block edges now and then.
        const size_t off = i % 64;
        size_t len = rng.Below(2001);
        if (rng.Below(4) == 0) len = std::min<size_t>(2000, 64 * rng.Below(32) + 55 + rng.Below(3));
        rng.Fill(msg.data(), len);
        const size_t blocks = PadInto(padded, off, msg.data(), len);
        uint32_t s[8];
        std::memcpy(s, sha256::IV, sizeof(s));
        ARM_SHANI(s, padded.data() + off, blocks);
        if (DigestOf(s) != test::ReferenceSha256(msg.data(), len) && ++bad <= 5) {
            BOOST_ERROR("arm_shani: length " << len << " offset " << off << " seed " << seed);
        }
    }
    BOOST_CHECK_MESSAGE(bad == 0, "arm_shani: " << bad << " of " << cases << " messages differ from the oracle");
    BOOST_TEST_MESSAGE("  arm_shani: " << cases << " random lengths 0..2000 at offsets 0..63: " << (bad ? "FAILED" : "ok"));
}

// The same through CSHA256 with arm_shani selected: Write's whole-block calls straight from misaligned memory.
BOOST_AUTO_TEST_CASE(arm_shani_through_csha256, *boost::unit_test::precondition(Needs{SHANI_NEEDS}))
{
    test::Rng rng(0x41524d32);
    const std::vector<unsigned char> buf = rng.Bytes(64 + 2000);
    test::ScopedTransform use("arm_shani");
    int bad = 0;
    for (int i = 0; i < 400; ++i) {
        const size_t off = rng.Below(64), len = rng.Below(2001);
        if (test::Hash(buf.data() + off, len) != test::ReferenceSha256(buf.data() + off, len) && ++bad <= 5) {
            BOOST_ERROR("arm_shani via CSHA256: length " << len << " offset " << off);
        }
    }
    BOOST_CHECK_EQUAL(bad, 0);
}

// One call over n blocks equals n one-block calls and the portable transform,
// from random states; the state's neighbours are never written.
BOOST_AUTO_TEST_CASE(arm_shani_multi_block_calls, *boost::unit_test::precondition(Needs{SHANI_NEEDS}))
{
    test::Rng rng(0x41524d33);
    std::vector<unsigned char> buf(64 + 40 * 64);
    int bad = 0;
    for (size_t blocks = 0; blocks <= 40; ++blocks) {
        const size_t off = rng.Below(64);
        rng.Fill(buf.data(), buf.size());
        uint32_t words[16], basic[8], single[8];
        for (auto& w : words) w = static_cast<uint32_t>(rng.Next());
        const std::vector<uint32_t> before(words, words + 16);
        std::memcpy(basic, words + 4, 32);
        std::memcpy(single, words + 4, 32);
        ARM_SHANI(words + 4, buf.data() + off, blocks);
        sha256::TransformBasic(basic, buf.data() + off, blocks);
        for (size_t b = 0; b < blocks; ++b) ARM_SHANI(single, buf.data() + off + 64 * b, 1);
        const bool same = std::memcmp(words + 4, basic, 32) == 0 && std::memcmp(single, basic, 32) == 0;
        const bool fenced = std::equal(words, words + 4, before.begin()) && std::equal(words + 12, words + 16, before.begin() + 12);
        if (!same || !fenced) {
            ++bad;
            BOOST_ERROR("arm_shani: blocks " << blocks << " offset " << off << (same ? "" : ": state differs") << (fenced ? "" : ": wrote outside the state"));
        }
    }
    BOOST_CHECK_EQUAL(bad, 0);
    BOOST_TEST_MESSAGE("  arm_shani: one call of 0..40 blocks vs single blocks and basic: " << (bad ? "FAILED" : "ok"));
}

// No read outside the input: it ends exactly at a PROT_NONE page, or starts right after one.
BOOST_AUTO_TEST_CASE(arm_shani_guard_pages, *boost::unit_test::precondition(Needs{SHANI_NEEDS}))
{
    test::Rng rng(0x41524d34);
    int bad = 0;
    for (size_t blocks = 1; blocks <= 17; ++blocks) {
        for (auto flush : {test::GuardedBuffer::Flush::End, test::GuardedBuffer::Flush::Begin}) {
            test::GuardedBuffer gb(blocks * 64, flush);
            rng.Fill(gb.begin(), blocks * 64);
            uint32_t got[8], want[8];
            std::memcpy(got, sha256::IV, 32);
            std::memcpy(want, sha256::IV, 32);
            ARM_SHANI(got, gb.begin(), blocks); // a stray read is a SIGSEGV, which fails the run
            sha256::TransformBasic(want, gb.begin(), blocks);
            if (std::memcmp(got, want, 32) != 0) {
                ++bad;
                BOOST_ERROR("arm_shani: guard pages, blocks " << blocks);
            }
        }
    }
    BOOST_CHECK_EQUAL(bad, 0);
    BOOST_TEST_MESSAGE("  arm_shani: guard pages, 1..17 blocks: " << (bad ? "FAILED" : "ok"));
}

BOOST_AUTO_TEST_CASE(arm_shani_2way_d64, *boost::unit_test::precondition(Needs{SHANI_NEEDS}))
{
    BOOST_CHECK_EQUAL(CheckD64("arm_shani_2way", ARM_SHANI_2WAY, 2, 0x41524d35), 0);
    BOOST_CHECK_EQUAL(CheckD64GuardPages("arm_shani_2way", ARM_SHANI_2WAY, 2), 0);
}

BOOST_AUTO_TEST_CASE(neon_4way_d64, *boost::unit_test::precondition(Needs{NEON_NEEDS}))
{
    BOOST_CHECK_EQUAL(CheckD64("neon_4way", NEON_4WAY, 4, 0x41524d36), 0);
    BOOST_CHECK_EQUAL(CheckD64GuardPages("neon_4way", NEON_4WAY, 4), 0);
}

// The D64 functions against the oracle too, not only against CSHA256: a
// shared mistake in CSHA256 and the D64 code cannot hide.
BOOST_AUTO_TEST_CASE(d64_against_oracle, *boost::unit_test::precondition(Needs{NEON_NEEDS}))
{
    test::Rng rng(0x41524d37);
    unsigned char in[256], out[128];
    rng.Fill(in, sizeof(in));
    std::vector<test::Digest> want;
    for (int i = 0; i < 4; ++i) {
        const test::Digest first = test::ReferenceSha256(in + 64 * i, 64);
        want.push_back(test::ReferenceSha256(first.data(), 32));
    }
    NEON_4WAY(out, in);
    for (int i = 0; i < 4; ++i) BOOST_CHECK_MESSAGE(std::memcmp(out + 32 * i, want[i].data(), 32) == 0, "neon_4way input " << i);
    if (WhyNot(SHANI_NEEDS).empty()) {
        ARM_SHANI_2WAY(out, in + 128);
        for (int i = 0; i < 2; ++i) BOOST_CHECK_MESSAGE(std::memcmp(out + 32 * i, want[2 + i].data(), 32) == 0, "arm_shani_2way input " << i);
    } else {
        BOOST_TEST_MESSAGE("  arm_shani_2way against the oracle not run: " << WhyNot(SHANI_NEEDS));
    }
}

BOOST_AUTO_TEST_SUITE_END()
