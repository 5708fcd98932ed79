// SPDX-License-Identifier: MIT
// Switching the transform while other threads hash, and AutoDetect() on two
// threads at once: every digest stays right, and ThreadSanitizer (configure
// --with-sanitizers=thread) sees no race.
#include <crypto/sha256.h>
#include <test/util/reference.h>
#include <test/util/common.h>

#include <boost/test/unit_test.hpp>

#include <atomic>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

BOOST_AUTO_TEST_SUITE(concurrency_tests)

BOOST_AUTO_TEST_CASE(switching_while_two_threads_hash)
{
    const std::string before = sha256::CurrentImplementation();

    // Messages of 0..1000 bytes, so calls cover the buffered tail, one block and many.
    test::Rng rng(0x5eed);
    std::vector<std::vector<unsigned char>> msgs;
    std::vector<test::Digest> want;
    for (size_t len = 0; len <= 1000; len += 37) {
        msgs.push_back(rng.Bytes(len));
        want.push_back(test::ReferenceSha256(msgs.back().data(), len));
    }

    std::vector<std::string> names;
    for (const auto& impl : sha256::Implementations()) {
        if (impl.supported) names.push_back(impl.name);
    }
    BOOST_REQUIRE(!names.empty());

    std::atomic<bool> stop{false};
    std::atomic<unsigned> switches{0};
    std::atomic<unsigned> set_failures{0};
    std::thread switcher([&] {
        // At least two rounds over every supported transform, then keep going until the hashers finish.
        for (unsigned round = 0; round < 2 || !stop.load(); ++round) {
            for (const auto& name : names) {
                if (!sha256::SetImplementation(name)) set_failures.fetch_add(1);
                switches.fetch_add(1);
            }
            sha256::AutoDetect();
            switches.fetch_add(1);
        }
    });

    constexpr int ROUNDS = 40;
    std::atomic<unsigned> hashed[2] = {{0}, {0}};
    std::atomic<unsigned> wrong[2] = {{0}, {0}};
    auto hasher = [&](int id) {
        for (int r = 0; r < ROUNDS; ++r) {
            for (size_t i = 0; i < msgs.size(); ++i) {
                // Split each message in two Writes so one hash spans calls that may see different transforms.
                const size_t cut = (msgs[i].size() * (r + id + 1)) / (ROUNDS + 2);
                CSHA256 h;
                h.Write(msgs[i].data(), cut).Write(msgs[i].data() + cut, msgs[i].size() - cut);
                test::Digest got;
                h.Finalize(got.data());
                if (got != want[i]) wrong[id].fetch_add(1);
                hashed[id].fetch_add(1);
            }
        }
    };
    std::thread t0(hasher, 0), t1(hasher, 1);
    t0.join();
    t1.join();
    stop.store(true);
    switcher.join();

    for (int id = 0; id < 2; ++id) {
        BOOST_CHECK_EQUAL(hashed[id].load(), ROUNDS * msgs.size());
        BOOST_CHECK_MESSAGE(wrong[id].load() == 0, "thread " << id << ": " << wrong[id].load() << " wrong digests");
    }
    BOOST_CHECK_EQUAL(set_failures.load(), 0u);
    BOOST_CHECK_GE(switches.load(), 2 * (names.size() + 1));
    BOOST_TEST_MESSAGE("switched " << switches.load() << " times among: " << [&] {
        std::string s;
        for (const auto& n : names) s += n + " ";
        return s + "(and AutoDetect)";
    }());
    BOOST_CHECK(sha256::SetImplementation(before));
}

// AutoDetect() from several threads at once (a library may be initialised from
// any thread): every family's self-tests run concurrently, each selects the same
// rows, and ThreadSanitizer sees no shared data written (the multi-buffer
// self-test once rewrote a static buffer that another thread was reading).
// Meanwhile a third thread hashes through every family.
BOOST_AUTO_TEST_CASE(autodetect_from_two_threads)
{
    const std::string want = sha256::AutoDetect();
    const std::string want_d64 = sha256::CurrentD64Implementation();
    const std::string want_multi = sha256::CurrentMultiImplementation();
    constexpr int CALLS = 4;
    std::string got[2];
    std::atomic<bool> done{false};
    std::atomic<unsigned> wrong{0};
    auto detect = [&](int id) {
        for (int i = 0; i < CALLS; ++i) got[id] += sha256::AutoDetect() + " ";
    };
    std::thread user([&] {
        unsigned char in[64 * 4], out[32 * 4], d[32], ref[32];
        for (size_t i = 0; i < sizeof(in); ++i) in[i] = static_cast<unsigned char>(i);
        const unsigned char* msgs[2] = {in, in + 100};
        const size_t lens[2] = {100, 156};
        unsigned char m[64];
        while (!done.load()) {
            SHA256D64(out, in, 4);
            sha256::Double64(d, in);
            CSHA256().Write(in, 64).Finalize(ref);
            CSHA256().Write(ref, 32).Finalize(ref);
            if (std::memcmp(d, ref, 32) != 0 || std::memcmp(out, ref, 32) != 0) wrong.fetch_add(1);
            SHA256Multi(m, msgs, lens, 2);
            CSHA256().Write(in, 100).Finalize(ref);
            if (std::memcmp(m, ref, 32) != 0) wrong.fetch_add(1);
        }
    });
    std::thread t0(detect, 0), t1(detect, 1);
    t0.join();
    t1.join();
    done.store(true);
    user.join();
    std::string expected;
    for (int i = 0; i < CALLS; ++i) expected += want + " ";
    BOOST_CHECK_EQUAL(got[0], expected);
    BOOST_CHECK_EQUAL(got[1], expected);
    BOOST_CHECK_EQUAL(sha256::CurrentD64Implementation(), want_d64);
    BOOST_CHECK_EQUAL(sha256::CurrentMultiImplementation(), want_multi);
    BOOST_CHECK_EQUAL(wrong.load(), 0u);
    BOOST_TEST_MESSAGE("AutoDetect() x" << CALLS << " on two threads at once: " << want << ", " << want_d64 << ", "
                                        << want_multi);
}

BOOST_AUTO_TEST_SUITE_END()
