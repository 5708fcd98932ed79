// SPDX-License-Identifier: MIT
// SHA256Multi / SHA256DMulti: every multi-buffer row this CPU supports against
// CSHA256 (once and twice), on random sets of sizes and counts, misaligned and
// aliasing inputs, inputs against guard pages, a few multi-megabyte messages,
// and a mainnet transaction's known txid. Rows the CPU cannot run are named.
#include <compat/cpu_model.h>
#include <crypto/sha256.h>
#include <crypto/sha256_internal.h>
#include <crypto/sha256_kernels.h>
#include <test/util/common.h>
#include <test/util/reference.h>
#include <uint256.h>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include <set>
#include <string>
#include <vector>

namespace {

using test::Digest;

std::vector<sha256::MultiImplementation> Supported() { return test::Supported(sha256::MultiImplementations()); }
std::string NotRun() { return test::NotRun(sha256::MultiImplementations()); }

// Selects a multi-buffer row for the scope, restoring the previous one afterwards.
struct ScopedMulti : test::ScopedRow {
    explicit ScopedMulti(const std::string& name)
        : ScopedRow(sha256::SetMultiImplementation, sha256::CurrentMultiImplementation, name) {}
};

Digest Once(const unsigned char* p, size_t n)
{
    Digest d;
    CSHA256().Write(p, n).Finalize(d.data());
    return d;
}

// Hashes the set with SHA256Multi and SHA256DMulti; returns the number of wrong digests.
int Check(const std::vector<const unsigned char*>& in, const std::vector<size_t>& len)
{
    const size_t n = in.size();
    std::vector<unsigned char> out(32 * n + 1), dout(32 * n + 1);
    // Output misaligned by one.
    SHA256Multi(out.data() + 1, in.data(), len.data(), n);
    SHA256DMulti(dout.data() + 1, in.data(), len.data(), n);
    int bad = 0;
    for (size_t i = 0; i < n; ++i) {
        if (std::memcmp(out.data() + 1 + 32 * i, Once(in[i], len[i]).data(), 32) != 0) ++bad;
        if (std::memcmp(dout.data() + 1 + 32 * i, test::DoubleSha256(in[i], len[i]).data(), 32) != 0) ++bad;
    }
    return bad;
}

} // namespace

BOOST_AUTO_TEST_SUITE(sha256multi_tests)

BOOST_AUTO_TEST_CASE(registry_rows_are_consistent)
{
    const auto impls = sha256::MultiImplementations();
    test::CheckRows(impls);
    for (const auto& impl : impls) BOOST_CHECK(impl.ways <= 32);
    // AutoDetect picks the first supported row that passes its self-test.
    std::string first;
    for (const auto& impl : impls) {
        if (!impl.supported) continue;
        BOOST_CHECK(sha256::SelfTestMulti(impl.name));
        if (first.empty()) first = impl.name;
    }
    const std::string picked = sha256::AutoDetectMulti();
    BOOST_CHECK_EQUAL(picked, first);
    BOOST_CHECK(!sha256::SetMultiImplementation("no_such_row"));
    BOOST_CHECK_EQUAL(sha256::CurrentMultiImplementation(), picked);
    BOOST_TEST_MESSAGE("  AutoDetectMulti: " << picked << "; not run: " << NotRun());
}

// The rows with two registers of lanes a word follow the vector unit's depth:
// ahead of the row after them (one register a word) from their rule's
// threshold on, behind it below (ci/test-all.sh runs this suite with
// SHA256BENCH_AVX512_ADD_DEPTH at 2 and 8, whatever this CPU is).
BOOST_AUTO_TEST_CASE(two_register_rows_follow_the_add_depth)
{
    const double depth = cpu::Read(cpu::Probe::Avx512AddDepth).value;
    // Independent adds never issue slower than a chain of them (at least 1),
    // and sixteen chains are the most the probe reads. Every AVX-512 CPU
    // measured has two 512-bit adders or adds taking more than a cycle (2 or
    // more), but the vCPU beside a busy one reads less (an Intel Xeon in CI:
    // doc/results/2026-11-28-intel-xeon-emerald-rapids-log.md).
    bool avx512 = false;
    for (const auto& impl : sha256::MultiImplementations()) avx512 |= impl.supported && (impl.needs_mask & cpu::AVX512F);
    test::CheckReading(cpu::Probe::Avx512AddDepth, avx512, 1.0, 17);
    std::vector<std::string> names;
    double threshold = -1;
    for (const auto& impl : sha256::MultiImplementations()) {
        names.push_back(impl.name);
        for (const sha256::Lead& l : impl.leads) {
            if (l.probe == cpu::Probe::Avx512AddDepth && impl.name == "avx512_32way") threshold = l.at_least;
        }
    }
    BOOST_REQUIRE_MESSAGE(threshold > 0, "avx512_32way has no rule on the AVX-512 add depth");
    const auto at = [&names](const char* name) { return std::find(names.begin(), names.end(), name) - names.begin(); };
    const auto two = at("avx512_32way"), one = at("avx512_16way");
    BOOST_REQUIRE(two < static_cast<long>(names.size()) && one < static_cast<long>(names.size()));
    const bool deep = depth >= threshold;
    BOOST_CHECK_MESSAGE(deep ? two + 1 == one : one + 1 == two,
                        "at depth " << depth << ": avx512_32way at " << two << ", avx512_16way at " << one);
    BOOST_TEST_MESSAGE("  AVX-512 add depth " << depth << ": " << names[std::min(two, one)] << " before "
                                              << names[std::max(two, one)]);
}

// Random sets: counts 0..100, sizes 0..2000, each input misaligned by 0..63.
BOOST_AUTO_TEST_CASE(random_sets_against_csha256)
{
    test::Rng rng(0x5eed);
    std::vector<unsigned char> pool(200000);
    rng.Fill(pool.data(), pool.size());
    for (const auto& impl : Supported()) {
        ScopedMulti use(impl.name);
        int bad = 0, sets = 0;
        for (size_t count = 0; count <= 100; count += 1 + count / 8) {
            for (int rep = 0; rep < 3; ++rep, ++sets) {
                std::vector<const unsigned char*> in;
                std::vector<size_t> len;
                for (size_t i = 0; i < count; ++i) {
                    const size_t n = rng.Next() % 2001;
                    const size_t off = rng.Next() % 64 + 64 * (rng.Next() % 1000);
                    in.push_back(pool.data() + off);
                    len.push_back(n);
                }
                bad += Check(in, len);
            }
        }
        BOOST_CHECK_MESSAGE(bad == 0, impl.name << ": " << bad << " wrong digests");
        BOOST_TEST_MESSAGE("  " << impl.name << ": " << sets << " random sets of 0..100 messages of 0..2000 bytes: "
                                << (bad ? "FAILED" : "ok"));
    }
    BOOST_TEST_MESSAGE("  not run: " << NotRun());
}

// Every length around the padding boundaries, all at once (one ends in every
// lane at a different block), then the same message many times (aliasing).
BOOST_AUTO_TEST_CASE(padding_boundaries_and_aliasing)
{
    std::vector<unsigned char> data(300);
    for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<unsigned char>(i * 7 + 1);
    for (const auto& impl : Supported()) {
        ScopedMulti use(impl.name);
        std::vector<const unsigned char*> in;
        std::vector<size_t> len;
        for (size_t n = 0; n <= 260; ++n) {
            in.push_back(data.data() + (n % 40));
            len.push_back(n);
        }
        int bad = Check(in, len);
        std::vector<const unsigned char*> same(50, data.data() + 3);
        std::vector<size_t> same_len(50, 119);
        bad += Check(same, same_len);
        // Zero-length messages may come as null pointers.
        std::vector<const unsigned char*> nulls(20, nullptr);
        std::vector<size_t> zeros(20, 0);
        bad += Check(nulls, zeros);
        BOOST_CHECK_MESSAGE(bad == 0, impl.name << ": " << bad << " wrong digests");
        BOOST_TEST_MESSAGE("  " << impl.name << ": lengths 0..260, aliasing, null empty messages: " << (bad ? "FAILED" : "ok"));
    }
}

// A few large messages (64 KiB to 4 MiB) among small ones: the long ones end
// after every short one, so they finish through the 1-way transform.
BOOST_AUTO_TEST_CASE(large_messages)
{
    std::vector<unsigned char> big(4 * 1024 * 1024 + 64);
    test::Rng rng(0xb16);
    rng.Fill(big.data(), big.size());
    for (const auto& impl : Supported()) {
        ScopedMulti use(impl.name);
        std::vector<const unsigned char*> in;
        std::vector<size_t> len;
        const size_t sizes[] = {65536, 4 * 1024 * 1024, 100, 300001, 0, 65537, 5, 1048576 + 17};
        for (size_t i = 0; i < 24; ++i) {
            in.push_back(big.data() + (i * 13) % 64);
            len.push_back(sizes[i % 8] > 1000 && i >= 8 ? 1000 + i : sizes[i % 8]);
        }
        const int bad = Check(in, len);
        BOOST_CHECK_MESSAGE(bad == 0, impl.name << ": " << bad << " wrong digests");
        BOOST_TEST_MESSAGE("  " << impl.name << ": messages of 64 KiB to 4 MiB among short ones: " << (bad ? "FAILED" : "ok"));
    }
}

// The order messages go to the lanes: every one once; those of 4 KiB or more
// first, longest first (equal ones in input order), then the rest in input
// order. Long ones handed out in input order left one running alone at the
// end of a block's txids.
BOOST_AUTO_TEST_CASE(feed_order)
{
    const size_t sizes[] = {100, 4096, 0, 300001, 4095, 65536, 5, 65536, 1048593, 4096, 200, 70000};
    const std::vector<size_t> want{8, 3, 11, 5, 7, 1, 9, 0, 2, 4, 6, 10};
    BOOST_CHECK(sha256::detail::FeedOrder(sizes, std::size(sizes)) == want);
    BOOST_CHECK(sha256::detail::FeedOrder(sizes, 0).empty());
    // Only short ones, or only long ones of one size: input order.
    const size_t small[] = {3, 2, 1}, same[] = {5000, 5000, 5000};
    BOOST_CHECK((sha256::detail::FeedOrder(small, 3) == std::vector<size_t>{0, 1, 2}));
    BOOST_CHECK((sha256::detail::FeedOrder(same, 3) == std::vector<size_t>{0, 1, 2}));
}

// No read outside an input: each ends exactly at a PROT_NONE page, or starts right after one.
BOOST_AUTO_TEST_CASE(guard_pages)
{
    using Flush = test::GuardedBuffer::Flush;
    for (const auto& impl : Supported()) {
        ScopedMulti use(impl.name);
        int bad = 0;
        for (Flush flush : {Flush::End, Flush::Begin}) {
            std::vector<std::unique_ptr<test::GuardedBuffer>> bufs;
            std::vector<const unsigned char*> in;
            std::vector<size_t> len;
            for (size_t n : {2, 1, 55, 56, 63, 64, 65, 119, 120, 128, 129, 200, 1000, 4096, 33, 64, 17, 640}) {
                bufs.push_back(std::make_unique<test::GuardedBuffer>(n, flush));
                for (size_t k = 0; k < n; ++k) bufs.back()->begin()[k] = static_cast<unsigned char>(k * 3 + n);
                in.push_back(bufs.back()->begin());
                len.push_back(n);
            }
            bad += Check(in, len);
        }
        BOOST_CHECK_MESSAGE(bad == 0, impl.name << ": " << bad << " wrong digests");
        BOOST_TEST_MESSAGE("  " << impl.name << ": inputs against guard pages: " << (bad ? "FAILED" : "ok"));
    }
}

// Each row runs the kernels of its own name and width from the kernel table
// (a Lanes kernel with or without a Hash32 kernel, or Jobs and Hash32 kernels,
// or a 1-way Transform), or is the one row of the selected transform: a row
// cannot quietly run 1-way.
BOOST_AUTO_TEST_CASE(rows_run_their_own_kernels)
{
    using sha256::kernel::Shape;
    int selected_rows = 0;
    for (const auto& impl : sha256::MultiImplementations()) {
        std::set<Shape> shapes;
        for (const auto& k : sha256::kernel::KERNELS) {
            if (impl.name != k.name) continue;
            if (k.shape == Shape::Lanes || k.shape == Shape::Jobs || k.shape == Shape::Hash32 ||
                (k.shape == Shape::Transform && impl.ways == 1)) {
                shapes.insert(k.shape);
                BOOST_CHECK_MESSAGE(k.ways == impl.ways, impl.name << ": " << impl.ways << " ways, its kernel " << k.ways);
                BOOST_CHECK_MESSAGE((impl.needs_mask & k.needs) == k.needs, impl.name << ": needs less than its kernel");
            }
        }
        const bool lanes = shapes == std::set<Shape>{Shape::Lanes} || shapes == std::set<Shape>{Shape::Lanes, Shape::Hash32};
        const bool streams = shapes == std::set<Shape>{Shape::Jobs, Shape::Hash32};
        const bool one_way = shapes == std::set<Shape>{Shape::Transform};
        if (impl.uses_transform) {
            ++selected_rows;
            BOOST_CHECK_MESSAGE(shapes.empty() && impl.ways == 1, impl.name << ": runs the selected transform and kernels");
        } else {
            BOOST_CHECK_MESSAGE(lanes || streams || one_way, impl.name << ": no kernel set of the table runs it");
        }
        const char* runs = impl.uses_transform                ? "the selected transform"
                           : lanes && shapes.count(Shape::Hash32) ? "Lanes + Hash32 kernels"
                           : lanes                                ? "Lanes kernel"
                           : streams                              ? "Jobs + Hash32 kernels"
                                                                  : "a Transform kernel";
        BOOST_TEST_MESSAGE("  " << impl.name << ": " << runs << ", " << impl.ways << " ways");
    }
    BOOST_CHECK_EQUAL(selected_rows, 1);
}

// Real transactions, as serialized on the wire: the genesis block's coinbase
// (its txid is that block's Merkle root), and block 170's coinbase and its
// payment from Satoshi Nakamoto to Hal Finney, the first one. merkle_tests
// checks these txids against the two block headers' Merkle roots; here the
// bytes must hash to them, each txid first through the textbook reference.
BOOST_AUTO_TEST_CASE(mainnet_txid)
{
    const struct {
        const char* what;
        size_t size;
        const char* txid;
        const char* hex;
    } known[] = {
        {"genesis coinbase", 204, "4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b",
         "01000000010000000000000000000000000000000000000000000000000000000000000000ffffffff4d04ffff001d0104455468652054"
         "696d65732030332f4a616e2f32303039204368616e63656c6c6f72206f6e206272696e6b206f66207365636f6e64206261696c6f7574"
         "20666f722062616e6b73ffffffff0100f2052a01000000434104678afdb0fe5548271967f1a67130b7105cd6a828e03909a67962e0ea"
         "1f61deb649f6bc3f4cef38c4f35504e51ec112de5c384df7ba0b8d578a4c702b6bf11d5fac00000000"},
        {"block 170 coinbase", 134, "b1fea52486ce0c62bb442b530a3f0132b826c74e473d1f2c220bfa78111c5082",
         "01000000010000000000000000000000000000000000000000000000000000000000000000ffffffff0704ffff001d0102ffffffff01"
         "00f2052a01000000434104d46c4968bde02899d2aa0963367c7a6ce34eec332b32e42e5f3407e052d64ac625da6f0718e7b302140434"
         "bd725706957c092db53805b821a85b23a7ac61725bac00000000"},
        {"block 170 payment", 275, "f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16",
         "0100000001c997a5e56e104102fa209c6a852dd90660a20b2d9c352423edce25857fcd3704000000004847304402204e45e16932b8af51"
         "4961a1d3a1a25fdf3f4f7732e9d624c6c61548ab5fb8cd410220181522ec8eca07de4860a4acdd12909d831cc56cbbac4622082221a876"
         "8d1d0901ffffffff0200ca9a3b00000000434104ae1a62fe09c5f51b13905f07f06b99a2f7159b2225f374cd378d71302fa28414e7aab3"
         "7397f554a7df5f142c21c1b7303b8a0626f1baded5c72a704f7e6cd84cac00286bee0000000043410411db93e1dcdb8a016b49840f8c53"
         "bc1eb68a382e97b1482ecad7b148a6909a5cb2e0eaddfb84ccf9744464f82e160bfa9b8b64f9d4c03f999b8643f656b412a3ac00000000"},
    };
    constexpr size_t KNOWN = sizeof(known) / sizeof(known[0]);
    // A digest as Bitcoin displays a txid (uint256::GetHex: bytes reversed).
    const auto txid_hex = [](const unsigned char* digest) {
        uint256 h;
        std::memcpy(h.data(), digest, h.size());
        return h.GetHex();
    };
    std::vector<std::vector<unsigned char>> tx;
    for (const auto& k : known) {
        tx.push_back(test::ParseHex(k.hex));
        BOOST_REQUIRE_EQUAL(tx.back().size(), k.size);
        const test::Digest first = test::ReferenceSha256(tx.back().data(), tx.back().size());
        BOOST_REQUIRE_EQUAL(txid_hex(test::ReferenceSha256(first.data(), 32).data()), k.txid);
    }
    for (const auto& impl : Supported()) {
        ScopedMulti use(impl.name);
        // 40 messages cycling through the three (4, 3 and 5 blocks), so every
        // lane count takes the wide path and lanes end at different steps.
        std::vector<const unsigned char*> in;
        std::vector<size_t> len;
        for (size_t i = 0; i < 40; ++i) {
            in.push_back(tx[i % KNOWN].data());
            len.push_back(tx[i % KNOWN].size());
        }
        std::vector<unsigned char> out(32 * in.size());
        SHA256DMulti(out.data(), in.data(), len.data(), in.size());
        int bad = 0;
        for (size_t i = 0; i < in.size(); ++i) {
            const std::string got = txid_hex(out.data() + 32 * i);
            if (got != known[i % KNOWN].txid && ++bad <= 3) {
                BOOST_ERROR(impl.name << ": message " << i << " (" << known[i % KNOWN].what << ") got " << got);
            }
        }
        BOOST_CHECK_MESSAGE(bad == 0, impl.name << ": " << bad << " of 40 txids differ from the known ones");
        BOOST_TEST_MESSAGE("  " << impl.name << ": genesis coinbase, block 170's coinbase and payment -> their txids: "
                                << (bad ? "FAILED" : "ok"));
    }
}

// out overlapping an input is a caller's bug: builds without NDEBUG stop on it
// (assert), in a child process here so the test can watch it abort.
BOOST_AUTO_TEST_CASE(overlapping_output_is_caught)
{
#ifndef NDEBUG
    for (bool twice : {false, true}) {
        const bool aborted = test::AbortsInChild([twice] {
            std::vector<unsigned char> buf(200);
            const unsigned char* in[2] = {buf.data() + 40, buf.data() + 120};
            const size_t len[2] = {50, 50};
            if (twice) {
                SHA256DMulti(buf.data(), in, len, 2); // out = buf[0..64) overlaps in[0] = buf[40..90)
            } else {
                SHA256Multi(buf.data(), in, len, 2);
            }
        });
        BOOST_CHECK_MESSAGE(aborted, (twice ? "SHA256DMulti" : "SHA256Multi") << " with out overlapping an input did not abort");
    }
    BOOST_TEST_MESSAGE("  out overlapping an input: SHA256Multi and SHA256DMulti abort (assert)");
#else
    BOOST_TEST_MESSAGE("  built with NDEBUG: the overlap check is compiled out, nothing to check");
#endif
}

BOOST_AUTO_TEST_SUITE_END()
