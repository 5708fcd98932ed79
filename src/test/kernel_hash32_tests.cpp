// SPDX-License-Identifier: MIT
// The Hash32 kernels of the kernel table (the second SHA-256 of SHA256DMulti:
// one 32-byte message per stream or lane), every one this build has and this
// CPU runs: one call at a time through the ABI trampoline, at every offset,
// in place and against guard pages, against CSHA256.
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

BOOST_AUTO_TEST_SUITE(kernel_hash32_tests)

// The Hash32 kernels (DMulti's second hash: one 32-byte message per stream):
// against CSHA256, through the ABI trampoline, input and output at every
// offset, in place, and against guard pages.
BOOST_AUTO_TEST_CASE(hash32_kernels)
{
    using Flush = test::GuardedBuffer::Flush;
    test::Rng rng(0x3232);
    for (const auto* k : test::RunnableKernels(sha256::kernel::Shape::Hash32)) {
        const sha256::kernel::HashFn fn = k->hash;
        const size_t n = static_cast<size_t>(k->ways);
        auto wrong = [&](const unsigned char* out, const unsigned char* in_copy) {
            for (size_t i = 0; i < n; ++i) {
                unsigned char want[32];
                CSHA256().Write(in_copy + 32 * i, 32).Finalize(want);
                if (std::memcmp(out + 32 * i, want, 32) != 0) return true;
            }
            return false;
        };
        int bad = 0, cases = 0;
        for (size_t off = 0; off < 64; ++off) {
            std::vector<unsigned char> in(64 + 32 * n), out(64 + 32 * n + 64, 0x5a);
            rng.Fill(in.data() + off, 32 * n);
            const std::vector<unsigned char> copy(in.begin() + off, in.begin() + off + 32 * n);
            const size_t out_off = 63 - off;
            std::string why = test::CallKernel(*k, fn, out.data() + out_off, in.data() + off);
            if (wrong(out.data() + out_off, copy.data())) why += "wrong digest; ";
            for (size_t i = 0; i < out.size(); ++i) {
                if ((i < out_off || i >= out_off + 32 * n) && out[i] != 0x5a) {
                    why += "wrote outside its output; ";
                    break;
                }
            }
            why += test::CallKernel(*k, fn, in.data() + off, in.data() + off);
            if (wrong(in.data() + off, copy.data())) why += "wrong digest in place; ";
            ++cases;
            if (!why.empty() && ++bad <= 5) BOOST_ERROR(k->name << " hash32: offset " << off << ": " << why);
        }
        for (Flush in_flush : {Flush::End, Flush::Begin}) {
            for (Flush out_flush : {Flush::End, Flush::Begin}) {
                test::GuardedBuffer in(32 * n, in_flush), out(32 * n, out_flush);
                rng.Fill(in.begin(), 32 * n);
                std::string why = test::CallKernel(*k, fn, out.begin(), in.begin());
                if (wrong(out.begin(), in.begin())) why += "wrong digest; ";
                ++cases;
                if (!why.empty() && ++bad <= 5) BOOST_ERROR(k->name << " hash32: guard pages: " << why);
            }
        }
        BOOST_CHECK_MESSAGE(bad == 0, k->name << " hash32: " << bad << " of " << cases << " cases failed");
        BOOST_TEST_MESSAGE("  " << k->name << " hash32: " << cases
                                << " cases (offsets, in place, guard pages), ABI-checked: " << (bad ? "FAILED" : "ok"));
    }
}

BOOST_AUTO_TEST_SUITE_END()
