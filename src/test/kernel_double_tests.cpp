// SPDX-License-Identifier: MIT
// The Double32 and Double80 kernels of the kernel table (the double SHA-256
// of one 32-byte input, a hash of a hash, and of one 80-byte input, a block
// header), every one this build has and this CPU runs: through the ABI
// trampoline at every input and output offset, in place, against guard pages,
// against CSHA256 twice. (Their 64-byte sibling is the set's 1-way D64 kernel:
// kernel_d64_tests.)
#include <crypto/sha256.h>
#include <crypto/sha256_kernels.h>
#include <test/util/common.h>

#include <boost/test/unit_test.hpp>

#include <cstring>
#include <string>
#include <vector>

namespace {

using sha256::kernel::Shape;
using test::Digest;

// Every kernel of one shape (of input size `len`) at every offset, in place and at guard pages.
void CheckKernels(Shape shape, size_t len, uint64_t seed)
{
    using Flush = test::GuardedBuffer::Flush;
    test::Rng rng(seed);
    for (const auto* k : test::RunnableKernels(shape)) {
        int bad = 0, cases = 0;
        for (size_t off = 0; off < 64; ++off, ++cases) {
            std::vector<unsigned char> in(len + 64), out(32 + 128, 0x5a);
            rng.Fill(in.data() + off, len);
            const Digest want = test::DoubleSha256(in.data() + off, len);
            const size_t out_off = 63 - off;
            std::string why = test::CallKernel(*k, k->hash, out.data() + out_off, in.data() + off);
            if (std::memcmp(out.data() + out_off, want.data(), 32) != 0) why += "wrong digest; ";
            for (size_t i = 0; i < out.size(); ++i) {
                if ((i < out_off || i >= out_off + 32) && out[i] != 0x5a) {
                    why += "wrote outside its output; ";
                    break;
                }
            }
            why += test::CallKernel(*k, k->hash, in.data() + off, in.data() + off);
            if (std::memcmp(in.data() + off, want.data(), 32) != 0) why += "wrong digest in place; ";
            if (!why.empty() && ++bad <= 5) BOOST_ERROR(k->name << ": " << len << " bytes at offset " << off << ": " << why);
        }
        for (Flush in_flush : {Flush::End, Flush::Begin}) {
            for (Flush out_flush : {Flush::End, Flush::Begin}) {
                test::GuardedBuffer in(len, in_flush), out(32, out_flush);
                rng.Fill(in.begin(), len);
                std::string why = test::CallKernel(*k, k->hash, out.begin(), in.begin());
                if (std::memcmp(out.begin(), test::DoubleSha256(in.begin(), len).data(), 32) != 0) why += "wrong digest; ";
                ++cases;
                if (!why.empty() && ++bad <= 5) BOOST_ERROR(k->name << ": " << len << " bytes at guard pages: " << why);
            }
        }
        BOOST_CHECK_MESSAGE(bad == 0, k->name << ": " << bad << " of " << cases << " cases failed");
        BOOST_TEST_MESSAGE("  " << k->name << " double" << len << ": " << cases
                                << " cases (offsets, in place, guard pages), ABI-checked: " << (bad ? "FAILED" : "ok"));
    }
}

} // namespace

BOOST_AUTO_TEST_SUITE(kernel_double_tests)

BOOST_AUTO_TEST_CASE(double32_kernels) { CheckKernels(Shape::Double32, 32, 0xd32); }

BOOST_AUTO_TEST_CASE(double80_kernels) { CheckKernels(Shape::Double80, 80, 0xd80); }

BOOST_AUTO_TEST_SUITE_END()
