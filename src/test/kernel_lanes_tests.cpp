// SPDX-License-Identifier: MIT
// The Lanes kernels of the kernel table (lane i compresses the block at
// blocks[i] into a word-sliced state), every one this build has and this CPU
// runs: against the portable transform lane by lane, and through the ABI
// trampoline.
#include <crypto/sha256.h>
#include <crypto/sha256_internal.h>
#include <crypto/sha256_kernels.h>
#include <test/util/common.h>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

BOOST_AUTO_TEST_SUITE(kernel_lanes_tests)

// The N-lane transforms (lane i compresses its own block into a word-sliced
// state) against the portable 1-way transform, each lane its own state and block.
BOOST_AUTO_TEST_CASE(lane_transforms_against_basic)
{
    struct LaneFn {
        std::string name;
        int lanes;
        sha256::kernel::LanesFn fn;
    };
    std::vector<LaneFn> fns;
    for (const auto* k : test::RunnableKernels(sha256::kernel::Shape::Lanes)) fns.push_back({k->name, k->ways, k->lanes});
    test::Rng rng(0x1a9e);
    for (const auto& f : fns) {
        int bad = 0;
        for (int round = 0; round < 20; ++round) {
            std::vector<unsigned char> data = rng.Bytes(64 * 16 * 2 + 64);
            std::vector<uint32_t> st(8 * f.lanes);
            for (auto& w : st) w = static_cast<uint32_t>(rng.Next());
            std::vector<const unsigned char*> blocks;
            // Lanes read scattered, misaligned blocks (some lanes share one).
            for (int i = 0; i < f.lanes; ++i) blocks.push_back(data.data() + rng.Below(64 * 16 * 2));
            std::vector<uint32_t> want(st);
            for (int i = 0; i < f.lanes; ++i) {
                uint32_t s[8];
                for (int j = 0; j < 8; ++j) s[j] = want[j * f.lanes + i];
                sha256::TransformBasic(s, blocks[i], 1);
                for (int j = 0; j < 8; ++j) want[j * f.lanes + i] = s[j];
            }
            f.fn(st.data(), blocks.data());
            if (st != want) ++bad;
        }
        BOOST_CHECK_MESSAGE(bad == 0, f.name << ": " << bad << " of 20 rounds differ from basic");
        BOOST_TEST_MESSAGE("  " << f.name << ": 20 rounds of " << f.lanes << " lanes: " << (bad ? "FAILED" : "ok"));
    }
}

// Through the ABI trampoline: callee-saved registers, stack, direction flag
// and upper vector state are as the ABI wants, and the state is a direct call's.
BOOST_AUTO_TEST_CASE(kernels_keep_the_abi)
{
    unsigned char block[64 + 1];
    for (int i = 0; i < 65; ++i) block[i] = static_cast<unsigned char>(i);
    for (const auto* k : test::RunnableKernels(sha256::kernel::Shape::Lanes)) {
        const size_t n = static_cast<size_t>(k->ways);
        std::vector<uint32_t> st(8 * n), want(8 * n);
        std::vector<const unsigned char*> blocks(n, block + 1);
        k->lanes(want.data(), blocks.data());
        std::string why = test::CallKernel(*k, k->lanes, st.data(), blocks.data());
        if (st != want) why += "state differs from a direct call; ";
        BOOST_CHECK_MESSAGE(why.empty(), k->name << " lanes: " << why);
        BOOST_TEST_MESSAGE("  " << k->name << " lanes: through the ABI trampoline: " << (why.empty() ? "ok" : why));
    }
}

BOOST_AUTO_TEST_SUITE_END()
