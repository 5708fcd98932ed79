// SPDX-License-Identifier: MIT
// The D64 and D64Batch kernels of the kernel table (the double SHA-256 of
// `ways` 64-byte inputs, in one call or in many calls' worth at once), every
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

BOOST_AUTO_TEST_SUITE_END()
