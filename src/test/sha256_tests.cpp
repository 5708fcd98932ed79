// SPDX-License-Identifier: MIT
// CSHA256 through every transform this CPU supports: NIST CAVP vectors, FIPS
// examples, every length 0..300 and every input offset 0..63.
#include <crypto/sha256.h>
#include <test/util/nist.h>
#include <test/util/reference.h>
#include <test/util/common.h>

#include <boost/test/unit_test.hpp>

#include <cstring>
#include <fstream>
#include <string>

using test::Digest;

namespace {

// Hash `msg` with the current transform in random-sized pieces.
Digest HashInPieces(const std::vector<unsigned char>& msg, test::Rng& rng)
{
    CSHA256 h;
    size_t pos = 0;
    while (pos < msg.size()) {
        // Mostly short pieces so partial-block buffering is exercised, sometimes long ones.
        const size_t limit = rng.Below(4) == 0 ? 300 : 70;
        const size_t n = std::min(msg.size() - pos, size_t(rng.Below(limit + 1)));
        h.Write(msg.data() + pos, n);
        pos += n;
    }
    Digest d;
    h.Finalize(d.data());
    return d;
}

// Runs every message vector through the current transform, whole and split;
// returns one description per wrong digest.
std::vector<std::string> MsgVectorMismatches(const std::vector<nist::MsgVector>& vectors, const std::string& file,
                                             uint64_t seed)
{
    std::vector<std::string> bad;
    test::Rng rng(seed);
    for (const auto& v : vectors) {
        const Digest whole = test::Hash(v.msg.data(), v.msg.size());
        const Digest split = HashInPieces(v.msg, rng);
        for (const Digest* d : {&whole, &split}) {
            if (std::memcmp(d->data(), v.md.data(), 32) == 0) continue;
            bad.push_back(file + ":" + std::to_string(v.line) + " transform " + sha256::CurrentImplementation() +
                          " Len=" + std::to_string(v.len_bits) +
                          (d == &whole ? " (one Write)" : " (split, seed " + std::to_string(seed) + ")") + ": got " +
                          test::Hex(d->data(), 32) + " want " + test::Hex(v.md.data(), 32));
        }
    }
    return bad;
}

// The SHA-2 Monte Carlo test (CAVS SHA validation system, section 6.4).
int CheckMonte(const nist::MonteVectors& mv)
{
    int bad = 0;
    std::vector<unsigned char> seed = mv.seed;
    for (size_t j = 0; j < mv.checkpoints.size(); ++j) {
        unsigned char md[3][32];
        for (auto& m : md) std::memcpy(m, seed.data(), 32);
        for (int i = 3; i < 1003; ++i) {
            unsigned char next[32];
            CSHA256().Write(md[0], 32).Write(md[1], 32).Write(md[2], 32).Finalize(next);
            std::memmove(md[0], md[1], 32);
            std::memmove(md[1], md[2], 32);
            std::memcpy(md[2], next, 32);
        }
        seed.assign(md[2], md[2] + 32);
        if (seed != mv.checkpoints[j]) {
            ++bad;
            BOOST_ERROR("SHA256Monte COUNT=" << j << " transform " << sha256::CurrentImplementation() << ": got "
                                             << test::Hex(seed.data(), 32) << " want "
                                             << test::Hex(mv.checkpoints[j].data(), 32));
            break; // later checkpoints chain from this one
        }
    }
    return bad;
}

std::string VectorFile(const char* name)
{
    const std::string dir = nist::VectorsDir();
    const std::string path = dir + "/" + name;
    if (dir.empty() || !std::ifstream(path)) BOOST_FAIL(nist::MissingVectorsHelp(dir));
    return path;
}

void LogSkipped()
{
    BOOST_TEST_MESSAGE("  not run on this CPU/build: " << test::SkippedTransforms());
}

} // namespace

BOOST_AUTO_TEST_SUITE(sha256_tests)

BOOST_AUTO_TEST_CASE(nist_short_and_long_msg)
{
    for (const char* name : {"SHA256ShortMsg.rsp", "SHA256LongMsg.rsp"}) {
        const std::string path = VectorFile(name);
        const auto vectors = nist::ReadMsgFile(path);
        test::ForEachTransform([&](const sha256::Implementation& impl) {
            test::ScopedTransform use(impl.name);
            const auto bad = MsgVectorMismatches(vectors, name, 0x5eed0000 + vectors.size());
            for (const auto& m : bad) BOOST_ERROR(m);
            BOOST_CHECK_MESSAGE(bad.empty(), impl.name << ": " << bad.size() << " wrong digests in " << name);
            BOOST_TEST_MESSAGE("  " << name << ": " << vectors.size() << " vectors x 2 (whole, split) on "
                                    << impl.name << ": " << (bad.empty() ? "ok" : "FAILED"));
        });
    }
    LogSkipped();
}

BOOST_AUTO_TEST_CASE(nist_monte)
{
    const auto mv = nist::ReadMonteFile(VectorFile("SHA256Monte.rsp"));
    BOOST_REQUIRE_EQUAL(mv.checkpoints.size(), nist::MONTE_CHECKPOINTS);
    test::ForEachTransform([&](const sha256::Implementation& impl) {
        test::ScopedTransform use(impl.name);
        const int bad = CheckMonte(mv);
        BOOST_CHECK_MESSAGE(bad == 0, impl.name << ": SHA256Monte failed");
        BOOST_TEST_MESSAGE("  SHA256Monte.rsp: " << mv.checkpoints.size() << " checkpoints (100000 hashes) on "
                                                 << impl.name << ": " << (bad ? "FAILED" : "ok"));
    });
    LogSkipped();
}

// The checker itself must notice a wrong digest: corrupt one vector's MD.
BOOST_AUTO_TEST_CASE(nist_checker_catches_corruption)
{
    auto vectors = nist::ReadMsgFile(VectorFile("SHA256ShortMsg.rsp"));
    BOOST_REQUIRE_GE(vectors.size(), 3u); // the reader guarantees 65; never index past what was read
    vectors.resize(3);
    vectors[1].md[17] ^= 0x01;
    const auto bad = MsgVectorMismatches(vectors, "corrupted copy", 1);
    BOOST_CHECK_EQUAL(bad.size(), 2u); // the corrupted vector, whole and split
    for (const auto& m : bad) BOOST_CHECK_MESSAGE(m.find("corrupted copy:" + std::to_string(vectors[1].line)) == 0, m);
}

BOOST_AUTO_TEST_CASE(fips_180_2_examples)
{
    struct Example { std::string msg; size_t repeat; const char* md; };
    const Example examples[] = {
        {"", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
        {"abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"a", 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"},
    };
    test::ForEachTransform([&](const sha256::Implementation& impl) {
        test::ScopedTransform use(impl.name);
        for (const auto& ex : examples) {
            std::string all;
            for (size_t i = 0; i < ex.repeat; ++i) all += ex.msg;
            const auto* p = reinterpret_cast<const unsigned char*>(all.data());
            const Digest whole = test::Hash(p, all.size());
            BOOST_CHECK_MESSAGE(test::Hex(whole.data(), 32) == ex.md,
                                impl.name << ": '" << ex.msg.substr(0, 20) << "' x" << ex.repeat << " (one Write)");
            // Byte by byte for the short ones, 1000-byte pieces for the million.
            CSHA256 h;
            const size_t step = ex.repeat > 1 ? 1000 : 1;
            for (size_t i = 0; i < all.size(); i += step) h.Write(p + i, std::min(step, all.size() - i));
            Digest pieces;
            h.Finalize(pieces.data());
            BOOST_CHECK_MESSAGE(test::Hex(pieces.data(), 32) == ex.md,
                                impl.name << ": '" << ex.msg.substr(0, 20) << "' x" << ex.repeat << " (in pieces)");
        }
    });
    LogSkipped();
}

BOOST_AUTO_TEST_CASE(every_length_0_to_300)
{
    test::Rng rng(300);
    const auto data = rng.Bytes(300);
    std::vector<Digest> want;
    for (size_t len = 0; len <= 300; ++len) want.push_back(test::ReferenceSha256(data.data(), len));
    test::ForEachTransform([&](const sha256::Implementation& impl) {
        test::ScopedTransform use(impl.name);
        int bad = 0;
        for (size_t len = 0; len <= 300; ++len) {
            if (test::Hash(data.data(), len) != want[len]) {
                ++bad;
                BOOST_ERROR(impl.name << ": wrong digest for length " << len);
            }
        }
        BOOST_CHECK_MESSAGE(bad == 0, impl.name << ": " << bad << " of 301 lengths wrong");
        BOOST_TEST_MESSAGE("  lengths 0..300 on " << impl.name << ": " << (bad ? "FAILED" : "ok"));
    });
    LogSkipped();
}

BOOST_AUTO_TEST_CASE(every_offset_0_to_63)
{
    test::Rng rng(64);
    std::vector<unsigned char> buf(64 + 1100);
    rng.Fill(buf.data(), buf.size());
    const size_t lengths[] = {0, 1, 55, 56, 63, 64, 65, 119, 128, 129, 191, 256, 511, 512, 576, 1024, 1100};
    test::ForEachTransform([&](const sha256::Implementation& impl) {
        test::ScopedTransform use(impl.name);
        for (size_t off = 0; off < 64; ++off) {
            for (size_t len : lengths) {
                const Digest got = test::Hash(buf.data() + off, len);
                const Digest want = test::ReferenceSha256(buf.data() + off, len);
                BOOST_CHECK_MESSAGE(got == want, impl.name << ": offset " << off << " length " << len);
            }
        }
    });
    LogSkipped();
}

BOOST_AUTO_TEST_CASE(empty_writes_accept_a_null_pointer)
{
    // An empty span may arrive as (nullptr, 0), before, between and after real data;
    // the UBSan build would flag memcpy(…, nullptr, 0).
    const unsigned char abc[3] = {'a', 'b', 'c'};
    test::ForEachTransform([&](const sha256::Implementation& impl) {
        test::ScopedTransform use(impl.name);
        CSHA256 h;
        h.Write(nullptr, 0).Write(abc, 1).Write(nullptr, 0).Write(abc + 1, 2).Write(nullptr, 0);
        test::Digest got;
        h.Finalize(got.data());
        BOOST_CHECK_MESSAGE(got == test::ReferenceSha256(abc, 3), impl.name);
        CSHA256 empty;
        empty.Write(nullptr, 0).Finalize(got.data());
        BOOST_CHECK_MESSAGE(got == test::ReferenceSha256(abc, 0), impl.name);
    });
}

// Every per-transform test above ran every runnable registry row.
BOOST_AUTO_TEST_CASE(per_transform_tests_follow_the_registry) { test::CheckEveryTransformRan("sha256_tests"); }

BOOST_AUTO_TEST_SUITE_END()
