// SPDX-License-Identifier: MIT
// The D64, D64Batch and Merkle kernels of the kernel table (the double
// SHA-256 of `ways` 64-byte inputs, in one call or in many calls' worth at
// once, or the levels of a Merkle tree in place), every
// one this build has and this CPU runs, ARM's included: one call at a time
// through the ABI trampoline, at every input and output offset, in place,
// against guard pages, against CSHA256 twice and the textbook SHA-256.
#include <crypto/sha256.h>
#include <crypto/sha256_kernels.h>
#include <test/util/common.h>
#include <test/util/reference.h>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace {

using sha256::kernel::Shape;
using test::Digest;

// Whether a supported D64 row runs the kernel set (a kernel may have no row:
// the AVX2 intrinsics in a build whose avx2_8way row is assembly).
bool InRegistry(const std::string& name)
{
    for (const auto& impl : sha256::D64Implementations()) {
        if (impl.supported && impl.name == name) return true;
    }
    return false;
}

// The levels a Merkle kernel must hash, the slow way: from `level` (n hashes),
// while a level has 64 or more, with ComputeMerkleRoot's doubled odd hash and
// its mutation rule; none when n < 64.
std::vector<unsigned char> MerkleLevelsNaive(std::vector<unsigned char> level, bool& mutated)
{
    mutated = false;
    while (level.size() >= 64 * 32) level = test::NaiveMerkleLevel(std::move(level), mutated);
    return level;
}

} // namespace

BOOST_AUTO_TEST_SUITE(kernel_d64_tests)

// Each kernel on its own, through the trampoline: input and output offsets 0..63
// (every pair (k, 63 - k) and (k, k)), random data, and in place.
BOOST_AUTO_TEST_CASE(kernels_misaligned_in_place_abi_checked)
{
    test::Rng rng(0x64d);
    for (const auto* kernel : test::RunnableKernels(Shape::D64)) {
        const sha256::kernel::Kernel& impl = *kernel;
        const size_t ways = static_cast<size_t>(impl.ways);
        int bad = 0, cases = 0;
        for (size_t k = 0; k < 64; ++k) {
            for (size_t out_off : {k, 63 - k}) {
                std::vector<unsigned char> in(64 + 64 * ways), out(64 + 32 * ways + 64, 0x5a);
                rng.Fill(in.data() + k, 64 * ways);
                std::vector<Digest> want;
                for (size_t i = 0; i < ways; ++i) want.push_back(test::DoubleSha256(in.data() + k + 64 * i, 64));
                std::string why = test::CallKernel(impl, impl.hash, out.data() + out_off, in.data() + k);
                if (test::CountWrong(out.data() + out_off, want, ways)) why += "wrong digest; ";
                for (size_t i = 0; i < out.size(); ++i) {
                    if ((i < out_off || i >= out_off + 32 * ways) && out[i] != 0x5a) {
                        why += "wrote outside its output; ";
                        break;
                    }
                }
                // In place, at the input's offset.
                why += test::CallKernel(impl, impl.hash, in.data() + k, in.data() + k);
                if (test::CountWrong(in.data() + k, want, ways)) why += "wrong digest in place; ";
                ++cases;
                if (!why.empty() && ++bad <= 5) {
                    BOOST_ERROR(impl.name << ": input offset " << k << ", output offset " << out_off << ": " << why);
                }
            }
        }
        BOOST_CHECK_MESSAGE(bad == 0, impl.name << ": " << bad << " of " << cases << " cases failed");
        BOOST_TEST_MESSAGE("  " << impl.name << ": " << cases << " offset pairs + in place"
#if defined(__x86_64__)
                                << ", ABI-checked"
#endif
                                << ": " << (bad ? "FAILED" : "ok"));
    }
}

// No kernel reads or writes a byte outside its buffers: input ending at a
// PROT_NONE page or starting right after one, output likewise.
BOOST_AUTO_TEST_CASE(guard_pages)
{
    using Flush = test::GuardedBuffer::Flush;
    test::Rng rng(0x9a9e);
    for (const auto* kernel : test::RunnableKernels(Shape::D64)) {
        const sha256::kernel::Kernel& impl = *kernel;
        int bad = 0;
        // The kernel alone (exactly `ways` inputs), and SHA256D64 with tails
        // (a registry row's).
        std::vector<size_t> counts{static_cast<size_t>(impl.ways)};
        if (InRegistry(impl.name)) counts.insert(counts.end(), {static_cast<size_t>(impl.ways) * 2 + 1, size_t{37}});
        for (size_t n : counts) {
            for (Flush in_flush : {Flush::End, Flush::Begin}) {
                for (Flush out_flush : {Flush::End, Flush::Begin}) {
                    test::GuardedBuffer in(64 * n, in_flush), out(32 * n, out_flush);
                    rng.Fill(in.begin(), 64 * n);
                    std::vector<Digest> want;
                    for (size_t i = 0; i < n; ++i) want.push_back(test::DoubleSha256(in.begin() + 64 * i, 64));
                    std::string why;
                    if (n == static_cast<size_t>(impl.ways)) {
                        why = test::CallKernel(impl, impl.hash, out.begin(), in.begin());
                    } else {
                        test::ScopedD64 use(impl.name);
                        SHA256D64(out.begin(), in.begin(), n);
                    }
                    if (test::CountWrong(out.begin(), want, n)) why += "wrong digest; ";
                    if (!why.empty() && ++bad <= 5) {
                        BOOST_ERROR(impl.name << ": " << n << " inputs, input "
                                              << (in_flush == Flush::End ? "ending at" : "starting after")
                                              << " a guard page, output "
                                              << (out_flush == Flush::End ? "ending at" : "starting after")
                                              << " one: " << why);
                    }
                }
            }
        }
        BOOST_CHECK_MESSAGE(bad == 0, impl.name << ": " << bad << " guard-page cases failed");
        BOOST_TEST_MESSAGE("  " << impl.name << ": guard pages: " << (bad ? "FAILED" : "ok"));
    }
}

// Every D64 kernel against the textbook SHA-256 (test/util/reference.h,
// sharing no code with src/crypto), not only against CSHA256: a mistake
// CSHA256 and a kernel shared could not hide.
BOOST_AUTO_TEST_CASE(kernels_against_the_textbook)
{
    test::Rng rng(0x0d64);
    for (const auto* k : test::RunnableKernels(Shape::D64)) {
        const size_t ways = static_cast<size_t>(k->ways);
        int bad = 0;
        for (int round = 0; round < 8; ++round) {
            const std::vector<unsigned char> in = rng.Bytes(64 * ways);
            std::vector<unsigned char> out(32 * ways);
            k->hash(out.data(), in.data());
            for (size_t i = 0; i < ways; ++i) {
                const Digest first = test::ReferenceSha256(in.data() + 64 * i, 64);
                const Digest want = test::ReferenceSha256(first.data(), 32);
                bad += std::memcmp(out.data() + 32 * i, want.data(), 32) != 0;
            }
        }
        BOOST_CHECK_MESSAGE(bad == 0, k->name << ": " << bad << " digests differ from the textbook's");
        BOOST_TEST_MESSAGE("  " << k->name << ": 8 calls against the textbook SHA-256: " << (bad ? "FAILED" : "ok"));
    }
}

// The D64Batch kernels (many calls' worth of inputs in one, pipelined across
// batches): 0..9 batches of random inputs, input and output at odd offsets and
// in place, through the ABI trampoline (its third argument is the batch
// count), and against guard pages; against CSHA256 twice.
BOOST_AUTO_TEST_CASE(batch_kernels)
{
    using Flush = test::GuardedBuffer::Flush;
    test::Rng rng(0xba7c);
    for (const auto* k : test::RunnableKernels(Shape::D64Batch)) {
        const size_t ways = static_cast<size_t>(k->ways);
        int bad = 0, cases = 0;
        auto call = [&](unsigned char* out, const unsigned char* in, size_t batches) {
            return test::CallKernel(*k, k->batch, out, in, batches);
        };
        for (size_t batches = 0; batches <= 9; ++batches) {
            const size_t n = ways * batches, off = batches * 7 % 64;
            std::vector<unsigned char> in(64 * n + 64), out(32 * n + 128, 0x5a);
            rng.Fill(in.data() + off, 64 * n);
            std::vector<Digest> want;
            for (size_t i = 0; i < n; ++i) want.push_back(test::DoubleSha256(in.data() + off + 64 * i, 64));
            std::string why = call(out.data() + 63 - off, in.data() + off, batches);
            if (test::CountWrong(out.data() + 63 - off, want, n)) why += "wrong digest; ";
            for (size_t i = 0; i < out.size(); ++i) {
                if ((i < 63 - off || i >= 63 - off + 32 * n) && out[i] != 0x5a) {
                    why += "wrote outside its output; ";
                    break;
                }
            }
            why += call(in.data() + off, in.data() + off, batches);
            if (test::CountWrong(in.data() + off, want, n)) why += "wrong digest in place; ";
            for (Flush f : {Flush::End, Flush::Begin}) {
                if (n == 0) break;
                test::GuardedBuffer gin(64 * n, f), gout(32 * n, f);
                std::copy(in.begin(), in.begin() + 64 * n, gin.begin());
                std::vector<Digest> gwant;
                for (size_t i = 0; i < n; ++i) gwant.push_back(test::DoubleSha256(gin.begin() + 64 * i, 64));
                why += call(gout.begin(), gin.begin(), batches);
                if (test::CountWrong(gout.begin(), gwant, n)) why += "wrong digest at a guard page; ";
            }
            ++cases;
            if (!why.empty() && ++bad <= 5) BOOST_ERROR(k->name << " batch: " << batches << " batches: " << why);
        }
        BOOST_CHECK_MESSAGE(bad == 0, k->name << " batch: " << bad << " of " << cases << " batch counts failed");
        BOOST_TEST_MESSAGE("  " << k->name << " batch: 0..9 batches of " << ways << ", misaligned, in place, guard pages"
#if defined(__x86_64__)
                                << ", ABI-checked"
#endif
                                << ": " << (bad ? "FAILED" : "ok"));
    }
}

// The Merkle kernels (a tree's levels in place, in a layout of their own from
// level to level): every count from 0 to 300 and many to 9001, at odd
// offsets, through the ABI trampoline (the count they return is its rax),
// writing nothing outside the hashes; the mutation flag on trees whose equal
// pairs sit at the first level, at an inner one, or nowhere (equal neighbours
// that are no pair, an odd level's doubled hash), and never cleared; against
// guard pages at both ends.
BOOST_AUTO_TEST_CASE(merkle_kernels)
{
    using Flush = test::GuardedBuffer::Flush;
    test::Rng rng(0x3e61);
    std::vector<size_t> counts;
    for (size_t n = 0; n <= 300; ++n) counts.push_back(n);
    for (size_t n = 301; n <= 1300; n += 7) counts.push_back(n);
    for (size_t n : {2047, 2048, 2049, 4095, 4097, 9001}) counts.push_back(n);
    for (const auto* k : test::RunnableKernels(Shape::Merkle)) {
        int bad = 0, cases = 0, mutated_cases = 0;
        // One tree: the kernel's levels and mutation flag against the naive ones.
        auto check = [&](const std::vector<unsigned char>& leaves, size_t off, bool guard, const char* what) {
            const size_t n = leaves.size() / 32;
            bool want_mutated = false;
            const std::vector<unsigned char> want = MerkleLevelsNaive(leaves, want_mutated);
            std::string why;
            std::vector<unsigned char> buf(32 * n + 128, 0x5a);
            std::copy(leaves.begin(), leaves.end(), buf.begin() + off);
            bool mutated = false;
            const checkasm::Result r = checkasm::Call(k->merkle, buf.data() + off, n, &mutated);
            why += test::AbiFailures(r, *k);
            if (r.returned != want.size() / 32) why += "returned " + std::to_string(r.returned) + " hashes, not " + std::to_string(want.size() / 32) + "; ";
            else if (!std::equal(want.begin(), want.end(), buf.begin() + off)) why += "wrong hashes; ";
            if (mutated != want_mutated) why += std::string("mutation flag ") + (mutated ? "set" : "not set") + "; ";
            for (size_t i = 0; i < buf.size(); ++i) {
                if ((i < off || i >= off + 32 * n) && buf[i] != 0x5a) {
                    why += "wrote outside the hashes; ";
                    break;
                }
            }
            // The flag is only ever set.
            std::copy(leaves.begin(), leaves.end(), buf.begin() + off);
            mutated = true;
            k->merkle(buf.data() + off, n, &mutated);
            if (!mutated) why += "cleared the mutation flag; ";
            for (Flush f : {Flush::End, Flush::Begin}) {
                if (!guard || n == 0) break;
                test::GuardedBuffer g(32 * n, f);
                std::copy(leaves.begin(), leaves.end(), g.begin());
                bool gm = false;
                const size_t m = k->merkle(g.begin(), n, &gm);
                if (m != want.size() / 32 || !std::equal(want.begin(), want.end(), g.begin()) || gm != want_mutated) why += "wrong at a guard page; ";
            }
            ++cases;
            mutated_cases += want_mutated;
            if (!why.empty() && ++bad <= 5) BOOST_ERROR(k->name << " merkle: " << n << " hashes (" << what << ", offset " << off << "): " << why);
        };
        for (size_t n : counts) {
            std::vector<unsigned char> leaves(32 * n);
            rng.Fill(leaves.data(), leaves.size());
            const bool guard = n <= 160 || n % 64 <= 1 || n == 9001;
            check(leaves, n * 13 % 64, guard, "random");
            if (n >= 64) {
                const size_t pairs = n / 2;
                // An equal pair at the first level: in the first group, the
                // last pair (in the last group, which may be a copied tail),
                // and anywhere.
                for (size_t p : {size_t{0}, pairs - 1, static_cast<size_t>(rng.Below(pairs))}) {
                    auto first = leaves;
                    std::copy(first.begin() + 64 * p, first.begin() + 64 * p + 32, first.begin() + 64 * p + 32);
                    check(first, 3, false, "an equal pair at level 1");
                }
                // A pair equal but for one byte of word w: no mutation (every word is compared).
                for (int w = 0; w < 8 && n % 5 == 0; ++w) {
                    auto near = leaves;
                    const size_t p = rng.Below(pairs);
                    std::copy(near.begin() + 64 * p, near.begin() + 64 * p + 32, near.begin() + 64 * p + 32);
                    near[64 * p + 32 + 4 * w + w % 4] ^= 0x10;
                    check(near, 9, false, "a pair equal but for one word");
                }
                // Equal neighbours at an odd index: no pair, no mutation.
                auto odd = leaves;
                const size_t j = 2 * rng.Below((n - 1) / 2) + 1;
                std::copy(odd.begin() + 32 * j, odd.begin() + 32 * j + 32, odd.begin() + 32 * (j + 1));
                check(odd, 5, false, "equal neighbours at an odd index");
            }
        }
        // A subtree of 2^t leaves (t = 1..6) repeated right after itself:
        // equal hashes first at level t, a pair where the first copy starts
        // at a multiple of 2^(t + 1), no pair where it starts an odd multiple
        // of 2^t; in trees whose level t has 64 hashes or more.
        for (size_t t = 1; t <= 6; ++t) {
            for (size_t extra : {0, 1, 77, 300}) {
                for (size_t odd : {0, 1}) {
                    const size_t n = (size_t{64} << t) + extra, w = size_t{1} << t;
                    std::vector<unsigned char> leaves(32 * n);
                    rng.Fill(leaves.data(), leaves.size());
                    // Anywhere in the tree: in any group of level t.
                    const size_t at = (2 * rng.Below(n / (2 * w) - 1) + odd) * w;
                    std::copy(leaves.begin() + 32 * at, leaves.begin() + 32 * (at + w), leaves.begin() + 32 * (at + w));
                    check(leaves, t, false, odd ? "a repeated subtree, no pair" : "a repeated subtree");
                }
            }
        }
        BOOST_CHECK_MESSAGE(bad == 0, k->name << " merkle: " << bad << " of " << cases << " trees failed");
        BOOST_CHECK_MESSAGE(mutated_cases > 50, k->name << " merkle: only " << mutated_cases << " trees with a mutation");
        BOOST_TEST_MESSAGE("  " << k->name << " merkle: " << cases << " trees of 0..9001 hashes (" << mutated_cases
                                << " mutated), misaligned, guard pages"
#if defined(__x86_64__)
                                << ", ABI-checked"
#endif
                                << ": " << (bad ? "FAILED" : "ok"));
    }
}

BOOST_AUTO_TEST_SUITE_END()
