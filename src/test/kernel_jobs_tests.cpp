// SPDX-License-Identifier: MIT
// The Jobs kernels of the kernel table (each of `ways` streams or lanes runs
// a message and takes the next job itself), every one this build has and this
// CPU runs: against CSHA256 on random messages handed out a few at a time,
// and through the ABI trampoline.
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

BOOST_AUTO_TEST_SUITE(kernel_jobs_tests)

// The job kernels (the multi-buffer hasher's SHA-NI rows), one call at a
// time: random messages of every padding case, read in place at odd
// addresses, handed out 0..5 jobs per call. After every call: all its jobs
// taken, some lane idle. Then the lanes still busy run on, idle lanes taking
// jobs that repeat one block, until each of their messages ends. Every digest
// against CSHA256.
BOOST_AUTO_TEST_CASE(job_kernels)
{
    using sha256_jobs::Job;
    using sha256_jobs::Lane;
    constexpr size_t IDLE = sha256::IDLE_JOB_BLOCKS;
    test::Rng rng(0x10b5);
    for (const auto* k : test::RunnableKernels(sha256::kernel::Shape::Jobs)) {
        const sha256::kernel::JobsFn fn = k->jobs;
        const size_t streams = static_cast<size_t>(k->ways);
        int bad = 0, calls = 0, rounds = 0;
        const std::vector<unsigned char> repeat = rng.Bytes(64);
        std::vector<Job> idle(streams);
        for (auto& j : idle) sha256::IdleJob(j, repeat.data());
        for (; rounds < 40; ++rounds) {
            const size_t count = 1 + rng.Below(40);
            std::vector<std::vector<unsigned char>> msg(count);
            std::vector<unsigned char> got(32 * count, 0), want(32 * count);
            std::vector<Job> jobs(count);
            for (size_t i = 0; i < count; ++i) {
                const size_t len = rng.Below(4) == 0 ? rng.Below(130) : rng.Below(700);
                msg[i] = rng.Bytes(len + 3);
                const unsigned char* p = msg[i].data() + 1 + i % 3;
                CSHA256().Write(p, len).Finalize(want.data() + 32 * i);
                sha256::FillJob(jobs[i], p, len, got.data() + 32 * i);
            }
            std::vector<Lane> lane(streams);
            std::memset(static_cast<void*>(lane.data()), 0x5a, sizeof(Lane) * streams);
            for (auto& l : lane) l.left = 0;
            for (size_t given = 0; given < count;) {
                const size_t n = std::min<size_t>(count - given, rng.Below(6));
                bad += fn(lane.data(), jobs.data() + given, n) != n;
                given += n;
                ++calls;
                bool some_idle = false;
                for (const auto& l : lane) some_idle |= l.left == 0;
                bad += !some_idle;
            }
            for (int guard = 0; guard < 100; ++guard) {
                size_t busy = 0, free = 0;
                for (const auto& l : lane) {
                    busy += l.left != 0 && l.left < IDLE / 2;
                    free += l.left == 0;
                }
                if (!busy) break;
                bad += fn(lane.data(), idle.data(), free) != free;
                ++calls;
            }
            for (size_t i = 0; i < count; ++i) bad += std::memcmp(got.data() + 32 * i, want.data() + 32 * i, 32) != 0;
        }
        BOOST_CHECK_MESSAGE(bad == 0, k->name << " jobs: " << bad << " wrong digests or broken contracts");
        BOOST_TEST_MESSAGE("  " << k->name << " jobs: " << rounds << " sets of 1..40 messages, " << calls
                                << " calls: " << (bad ? "FAILED" : "ok"));
    }
}

// Through the ABI trampoline: six messages through the lanes, the lanes
// (states, cursors, counts), the digests and the jobs taken compared with a
// direct call's.
BOOST_AUTO_TEST_CASE(kernels_keep_the_abi)
{
    for (const auto* k : test::RunnableKernels(sha256::kernel::Shape::Jobs)) {
        const size_t n = static_cast<size_t>(k->ways);
        unsigned char data[700];
        for (int i = 0; i < 700; ++i) data[i] = static_cast<unsigned char>(i * 7);
        unsigned char direct_out[6 * 32], called_out[6 * 32];
        sha256_jobs::Job jobs[6], called_jobs[6];
        for (int i = 0; i < 6; ++i) {
            const size_t len = static_cast<size_t>(i) * 123 % 300;
            sha256::FillJob(jobs[i], data + 1 + i, len, direct_out + 32 * i);
            sha256::FillJob(called_jobs[i], data + 1 + i, len, called_out + 32 * i);
        }
        std::vector<sha256_jobs::Lane> direct(n), called(n);
        std::memset(static_cast<void*>(direct.data()), 0, sizeof(sha256_jobs::Lane) * n);
        std::memset(static_cast<void*>(called.data()), 0, sizeof(sha256_jobs::Lane) * n);
        std::memset(direct_out, 0, sizeof(direct_out));
        std::memset(called_out, 0, sizeof(called_out));
        const size_t taken = k->jobs(direct.data(), jobs, 6);
        const checkasm::Result r = checkasm::Call(k->jobs, called.data(), called_jobs, 6);
        std::string why = test::AbiFailures(r, *k);
        if (r.returned != taken) why += "took " + std::to_string(r.returned) + " jobs, a direct call " + std::to_string(taken) + "; ";
        if (std::memcmp(direct_out, called_out, sizeof(direct_out)) != 0) why += "digests differ from a direct call; ";
        // A cursor in the lane's own copy of the padding, as an offset into it.
        auto where = [&data](const sha256_jobs::Lane& l, const unsigned char* q) {
            return q >= l.pad && q <= l.pad + sizeof(l.pad) ? std::make_pair(true, q - l.pad) : std::make_pair(false, q - data);
        };
        bool same = true;
        for (size_t i = 0; i < n; ++i) {
            same &= std::memcmp(direct[i].abef, called[i].abef, 16) == 0 && std::memcmp(direct[i].cdgh, called[i].cdgh, 16) == 0;
            same &= direct[i].left == called[i].left && direct[i].c.end == called[i].c.end;
            same &= where(direct[i], direct[i].c.at) == where(called[i], called[i].c.at);
        }
        if (!same) why += "lanes differ from a direct call; ";
        BOOST_CHECK_MESSAGE(why.empty(), k->name << " jobs: " << why);
        BOOST_TEST_MESSAGE("  " << k->name << " jobs: through the ABI trampoline: " << (why.empty() ? "ok" : why));
    }
}

BOOST_AUTO_TEST_SUITE_END()
