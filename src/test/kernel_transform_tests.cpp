// SPDX-License-Identifier: MIT
// The Transform kernels of the kernel table (`blocks` consecutive blocks into
// one state), every one this build has and this CPU runs, ARM's included:
// checkasm-grade checks against the portable transform on seeded random
// input, through the ABI-checking trampoline, against guard pages, with
// canaries around the state (each through its transform registry row, one per
// Transform kernel: the cases that also select it for CSHA256); and each
// kernel called directly on padded random messages against the textbook
// SHA-256, and over many blocks in one call against one block a call.
#include <crypto/sha256.h>
#include <crypto/sha256_internal.h>
#include <test/util/reference.h>
#include <test/util/common.h>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>

namespace {

constexpr uint32_t CANARY = 0xdeadbeef;

// The state with four canary words on either side: a transform must write s[0..7] only.
struct GuardedState {
    uint32_t words[16];
    GuardedState(const uint32_t init[8])
    {
        for (auto& w : words) w = CANARY;
        std::memcpy(words + 4, init, 32);
    }
    uint32_t* s() { return words + 4; }
    bool canaries_intact() const
    {
        for (int i : {0, 1, 2, 3, 12, 13, 14, 15}) {
            if (words[i] != CANARY) return false;
        }
        return true;
    }
};

struct CaseResult {
    bool ok{true};
    std::string why;
};

// Run `impl` on (state, input, blocks) through the trampoline and compare with
// `want` (basic's result; computed here when not given).
CaseResult RunCase(const sha256::Implementation& impl, const uint32_t init[8], const unsigned char* in, size_t blocks,
                   const uint32_t* want = nullptr)
{
    CaseResult r;
    uint32_t basic[8];
    if (!want) {
        std::memcpy(basic, init, 32);
        sha256::TransformBasic(basic, in, blocks);
        want = basic;
    }

    GuardedState st(init);
    const checkasm::Result call = checkasm::Call(impl.fn, st.s(), in, blocks);
    std::ostringstream why;
    for (const auto& f : call.failures) why << f << "; ";
    if (!st.canaries_intact()) why << "wrote outside the 8-word state; ";
    if (std::memcmp(st.s(), want, 32) != 0) why << "state differs from basic; ";
    r.why = why.str();
    r.ok = r.why.empty();
    return r;
}

uint64_t RandomCasesFromEnv()
{
    // make check: a quick mode; SHA256_CHECK_CASES=10000000 for the long run (doc/testing.md).
    if (const char* env = std::getenv("SHA256_CHECK_CASES"); env && *env) return std::strtoull(env, nullptr, 10);
    return 20000;
}

uint64_t SeedFromEnv()
{
    if (const char* env = std::getenv("SHA256_CHECK_SEED"); env && *env) return std::strtoull(env, nullptr, 0);
    return 0x53484132; // fixed default: make check is reproducible
}

} // namespace

BOOST_AUTO_TEST_SUITE(kernel_transform_tests)

// Block counts 0..MAX_BLOCKS at every input offset 0..63, each call through the
// ABI trampoline. MAX_BLOCKS is the registry's largest max_path_blocks plus a
// margin, so every row's longest path runs with every remainder 0..7.
const size_t MAX_BLOCKS = sha256::detail::MaxPathBlocks() + sha256::detail::PATH_MARGIN_BLOCKS;

BOOST_AUTO_TEST_CASE(blocks_0_to_max_at_every_offset)
{
    BOOST_TEST_MESSAGE("  block counts 0.." << MAX_BLOCKS);
    const uint64_t seed = SeedFromEnv();
    test::Rng rng(seed);
    std::vector<unsigned char> buf(64 + MAX_BLOCKS * 64);
    rng.Fill(buf.data(), buf.size());
    test::ForEachTransform([&](const sha256::Implementation& impl) {
        int cases = 0, bad = 0;
        for (size_t blocks = 0; blocks <= MAX_BLOCKS; ++blocks) {
            for (size_t off = 0; off < 64; ++off) {
                uint32_t init[8];
                for (auto& w : init) w = static_cast<uint32_t>(rng.Next());
                const CaseResult r = RunCase(impl, init, buf.data() + off, blocks);
                ++cases;
                if (!r.ok && ++bad <= 5) {
                    BOOST_ERROR(impl.name << ": blocks=" << blocks << " offset=" << off << " seed=" << seed << ": " << r.why);
                }
            }
        }
        BOOST_CHECK_MESSAGE(bad == 0, impl.name << ": " << bad << " of " << cases << " cases failed");
        BOOST_TEST_MESSAGE("  " << impl.name << ": " << cases << " block-count x offset cases"
#if defined(__x86_64__)
                                << ", ABI-checked"
#endif
                                << ": " << (bad ? "FAILED" : "ok"));
    });
    BOOST_TEST_MESSAGE("  not run: " << test::SkippedTransforms());
}

// Whole messages of every length 0..1024 through CSHA256, offsets cycling 0..63.
BOOST_AUTO_TEST_CASE(lengths_0_to_1024_against_basic)
{
    const uint64_t seed = SeedFromEnv() + 1;
    test::Rng rng(seed);
    std::vector<unsigned char> buf(64 + 1024);
    rng.Fill(buf.data(), buf.size());
    std::vector<test::Digest> want;
    {
        test::ScopedTransform use(test::PortableTransform());
        for (size_t len = 0; len <= 1024; ++len) want.push_back(test::Hash(buf.data() + len % 64, len));
    }
    test::ForEachTransform([&](const sha256::Implementation& impl) {
        test::ScopedTransform use(impl.name);
        int bad = 0;
        for (size_t len = 0; len <= 1024; ++len) {
            if (test::Hash(buf.data() + len % 64, len) != want[len] && ++bad <= 5) {
                BOOST_ERROR(impl.name << ": length=" << len << " offset=" << len % 64 << " seed=" << seed);
            }
        }
        BOOST_CHECK_MESSAGE(bad == 0, impl.name << ": " << bad << " of 1025 lengths differ from basic");
        BOOST_TEST_MESSAGE("  " << impl.name << ": 1025 lengths: " << (bad ? "FAILED" : "ok"));
    });
}

// Random (state, offset, block count) cases; SHA256_CHECK_CASES sets how many.
// Each case is run on every transform against one basic result.
BOOST_AUTO_TEST_CASE(random_cases_against_basic)
{
    const uint64_t seed = SeedFromEnv() + 2;
    const uint64_t cases = RandomCasesFromEnv();
    std::vector<const sha256::Implementation*> impls;
    for (const auto& impl : test::RunnableTransforms()) {
        if (impl.name != test::PortableTransform()) impls.push_back(&impl);
    }
    std::vector<uint64_t> bad(impls.size());
    test::Rng rng(seed);
    std::vector<unsigned char> buf(64 + MAX_BLOCKS * 64);
    for (uint64_t i = 0; i < cases && !impls.empty(); ++i) {
        // Mostly short (every tail of the short paths), one in four up to
        // MAX_BLOCKS, past every row's longest path with its remainders.
        const size_t blocks = rng.Below(4) ? rng.Below(18) : rng.Below(MAX_BLOCKS + 1);
        const size_t off = rng.Below(64);
        rng.Fill(buf.data() + off, blocks * 64);
        uint32_t init[8];
        for (auto& w : init) w = static_cast<uint32_t>(rng.Next());
        uint32_t want[8];
        std::memcpy(want, init, 32);
        sha256::TransformBasic(want, buf.data() + off, blocks);
        for (size_t k = 0; k < impls.size(); ++k) {
            const CaseResult r = RunCase(*impls[k], init, buf.data() + off, blocks, want);
            if (!r.ok && ++bad[k] <= 5) {
                BOOST_ERROR(impls[k]->name << ": case " << i << " blocks=" << blocks << " offset=" << off
                                           << " seed=" << seed << ": " << r.why);
            }
        }
    }
    // The portable transform ran every case as the reference.
    if (!impls.empty()) test::NoteRun(test::PortableTransform());
    for (size_t k = 0; k < impls.size(); ++k) {
        test::NoteRun(impls[k]->name);
        BOOST_CHECK_MESSAGE(bad[k] == 0, impls[k]->name << ": " << bad[k] << " of " << cases << " random cases failed");
        BOOST_TEST_MESSAGE("  " << impls[k]->name << ": " << cases << " random cases (seed " << seed << "): "
                                << (bad[k] ? "FAILED" : "ok"));
    }
    // basic is the reference here, so with no other transform there is nothing to compare: say so.
    if (impls.empty()) BOOST_TEST_MESSAGE("  no transform besides basic is runnable: random comparison not run");
    BOOST_CHECK_EQUAL(impls.size() + 1, test::RunnableTransforms().size());
}

// No transform may read a byte outside its input: the input ends exactly at a
// PROT_NONE page, or starts right after one. A stray read is a SIGSEGV, which
// the trampoline reports as a failure. 1..17 blocks covers the short paths;
// M-1..M+17 and MAX_BLOCKS (M = the registry's largest max_path_blocks) cover
// the longest path with every remainder.
BOOST_AUTO_TEST_CASE(guard_pages)
{
    test::Rng rng(17);
    const size_t m = sha256::detail::MaxPathBlocks();
    std::vector<size_t> counts;
    for (size_t b = 1; b <= 17; ++b) counts.push_back(b);
    for (size_t b = (m > 18 ? m - 1 : 18); b <= m + 17; ++b) counts.push_back(b);
    counts.push_back(MAX_BLOCKS);
    test::ForEachTransform([&](const sha256::Implementation& impl) {
        int bad = 0;
        for (size_t blocks : counts) {
            for (auto flush : {test::GuardedBuffer::Flush::End, test::GuardedBuffer::Flush::Begin}) {
                test::GuardedBuffer gb(blocks * 64, flush);
                rng.Fill(gb.begin(), blocks * 64);
                const CaseResult r = RunCase(impl, sha256::IV, gb.begin(), blocks);
                if (!r.ok && ++bad) {
                    BOOST_ERROR(impl.name << ": input " << (flush == test::GuardedBuffer::Flush::End ? "ending at" : "starting after")
                                          << " a guard page, blocks=" << blocks << ": " << r.why);
                }
            }
        }
        BOOST_CHECK_MESSAGE(bad == 0, impl.name << ": " << bad << " guard-page cases failed");
        BOOST_TEST_MESSAGE("  " << impl.name << ": guard pages, 1..17, " << counts[17] << ".." << m + 17 << " and "
                                << MAX_BLOCKS << " blocks: " << (bad ? "FAILED" : "ok"));
    });
}

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

// Random messages of 0..2000 bytes at offsets 0..63, padded here and hashed
// by one call of each Transform kernel, against the textbook SHA-256
// (test/util/reference.h, sharing no code with src/crypto).
BOOST_AUTO_TEST_CASE(kernels_against_the_textbook)
{
    for (const auto* k : test::RunnableKernels(sha256::kernel::Shape::Transform)) {
        test::Rng rng(0x41524d31);
        int bad = 0;
        const int cases = 300;
        std::vector<unsigned char> msg(2000), padded;
        for (int i = 0; i < cases; ++i) {
            // Every offset several times; lengths cluster at block edges now and then.
            const size_t off = i % 64;
            size_t len = rng.Below(2001);
            if (rng.Below(4) == 0) len = std::min<size_t>(2000, 64 * rng.Below(32) + 55 + rng.Below(3));
            rng.Fill(msg.data(), len);
            const size_t blocks = PadInto(padded, off, msg.data(), len);
            uint32_t s[8];
            std::memcpy(s, sha256::IV, sizeof(s));
            k->transform(s, padded.data() + off, blocks);
            if (DigestOf(s) != test::ReferenceSha256(msg.data(), len) && ++bad <= 5) {
                BOOST_ERROR(k->name << ": length " << len << " offset " << off);
            }
        }
        BOOST_CHECK_MESSAGE(bad == 0, k->name << ": " << bad << " of " << cases << " messages differ from the textbook's");
        BOOST_TEST_MESSAGE("  " << k->name << ": " << cases << " random lengths 0..2000 at offsets 0..63 against the textbook: "
                                << (bad ? "FAILED" : "ok"));
    }
}

// One call over n blocks equals n one-block calls and the portable transform,
// from random states; the state's neighbours are never written.
BOOST_AUTO_TEST_CASE(kernels_many_blocks_a_call)
{
    for (const auto* k : test::RunnableKernels(sha256::kernel::Shape::Transform)) {
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
            k->transform(words + 4, buf.data() + off, blocks);
            sha256::TransformBasic(basic, buf.data() + off, blocks);
            for (size_t b = 0; b < blocks; ++b) k->transform(single, buf.data() + off + 64 * b, 1);
            const bool same = std::memcmp(words + 4, basic, 32) == 0 && std::memcmp(single, basic, 32) == 0;
            const bool fenced = std::equal(words, words + 4, before.begin()) && std::equal(words + 12, words + 16, before.begin() + 12);
            if ((!same || !fenced) && ++bad <= 5) {
                BOOST_ERROR(k->name << ": blocks " << blocks << " offset " << off << (same ? "" : ": state differs")
                                    << (fenced ? "" : ": wrote outside the state"));
            }
        }
        BOOST_CHECK_EQUAL(bad, 0);
        BOOST_TEST_MESSAGE("  " << k->name << ": one call of 0..40 blocks vs single blocks and basic: " << (bad ? "FAILED" : "ok"));
    }
}

// Every per-transform test above ran every runnable registry row (Boost runs
// a file's cases in order); with -DSHA256_TEST_EXTRA_ROW that includes the
// extra row, which no test file names.
BOOST_AUTO_TEST_CASE(per_transform_tests_follow_the_registry) { test::CheckEveryTransformRan("kernel_transform_tests"); }

BOOST_AUTO_TEST_SUITE_END()
