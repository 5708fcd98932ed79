// uint256, ComputeMerkleRoot and real mainnet blocks: Merkle roots from txids
// and block hashes from headers, with every supported SHA256D64 row.
//
// The blocks are in test/util/mainnet_blocks.h (how they were checked is
// said there).
#include <consensus/merkle.h>
#include <crypto/sha256.h>
#include <test/util/common.h>
#include <test/util/mainnet_blocks.h>
#include <uint256.h>

#include <boost/test/unit_test.hpp>

#include <cstring>

namespace {

uint256 U(const std::string& hex)
{
    const auto v = uint256::FromHex(hex);
    BOOST_REQUIRE_MESSAGE(v, "bad hex in test: " << hex);
    return *v;
}

// SHA256(SHA256(a || b)) through CSHA256 (test::DoubleSha256): an oracle that shares no code with SHA256D64.
uint256 HashPair(const uint256& a, const uint256& b)
{
    unsigned char buf[64];
    std::memcpy(buf, a.data(), 32);
    std::memcpy(buf + 32, b.data(), 32);
    const test::Digest d = test::DoubleSha256(buf, 64);
    uint256 out;
    std::memcpy(out.data(), d.data(), 32);
    return out;
}

// The Merkle root the slow, obvious way, with the same mutation rule.
uint256 NaiveRoot(const std::vector<uint256>& leaves, bool& mutated)
{
    mutated = false;
    if (leaves.empty()) return uint256();
    std::vector<unsigned char> level(32 * leaves.size());
    for (size_t i = 0; i < leaves.size(); ++i) std::memcpy(&level[32 * i], leaves[i].data(), 32);
    while (level.size() > 32) level = test::NaiveMerkleLevel(std::move(level), mutated);
    uint256 root;
    std::memcpy(root.data(), level.data(), 32);
    return root;
}

std::vector<uint256> RandomHashes(test::Rng& rng, size_t n)
{
    std::vector<uint256> v(n);
    for (auto& h : v) rng.Fill(h.data(), 32);
    return v;
}

// Little-endian fields of an 80-byte block header.
std::vector<unsigned char> Header(uint32_t version, const uint256& prev, const uint256& merkle, uint32_t time,
                                  uint32_t bits, uint32_t nonce)
{
    std::vector<unsigned char> h;
    auto le32 = [&](uint32_t x) {
        for (int i = 0; i < 4; ++i) h.push_back(static_cast<unsigned char>(x >> (8 * i)));
    };
    le32(version);
    h.insert(h.end(), prev.begin(), prev.end());
    h.insert(h.end(), merkle.begin(), merkle.end());
    le32(time);
    le32(bits);
    le32(nonce);
    return h;
}

using Block = test::MainnetBlock;

const std::vector<Block>& Blocks() { return test::MainnetBlocks(); }

std::vector<std::string> SupportedD64()
{
    std::vector<std::string> out;
    for (const auto& impl : sha256::D64Implementations()) {
        if (impl.supported) out.push_back(impl.name);
    }
    return out;
}

} // namespace

BOOST_AUTO_TEST_SUITE(merkle_tests)

BOOST_AUTO_TEST_CASE(uint256_hex_round_trip)
{
    uint256 zero;
    BOOST_CHECK(zero.IsNull());
    BOOST_CHECK_EQUAL(zero.size(), 32u);
    BOOST_CHECK_EQUAL(zero.end() - zero.begin(), 32);
    BOOST_CHECK_EQUAL(zero.GetHex(), std::string(64, '0'));

    // Display order is the reverse of byte order: the last byte prints first.
    uint256 v;
    for (int i = 0; i < 32; ++i) v.data()[i] = static_cast<unsigned char>(i);
    BOOST_CHECK_EQUAL(v.GetHex(), "1f1e1d1c1b1a191817161514131211100f0e0d0c0b0a09080706050403020100");
    BOOST_CHECK(!v.IsNull());
    const auto back = uint256::FromHex(v.GetHex());
    BOOST_REQUIRE(back);
    BOOST_CHECK(*back == v);
    BOOST_CHECK(*uint256::FromHex("1F1E1D1C1B1A191817161514131211100F0E0D0C0B0A09080706050403020100") == v);
    uint256 w = v;
    w.data()[31] ^= 1;
    BOOST_CHECK(w != v);

    BOOST_CHECK(!uint256::FromHex(""));
    BOOST_CHECK(!uint256::FromHex(std::string(63, '0')));
    BOOST_CHECK(!uint256::FromHex(std::string(65, '0')));
    BOOST_CHECK(!uint256::FromHex(std::string(63, '0') + "g"));
    BOOST_CHECK(!uint256::FromHex("0x" + std::string(62, '0')));
}

// == decides CVE-2012-2459's mutation flag: every byte must count.
BOOST_AUTO_TEST_CASE(uint256_equality_reads_every_byte)
{
    uint256 v;
    for (int i = 0; i < 32; ++i) v.data()[i] = static_cast<unsigned char>(0xa5 ^ i);
    const uint256 copy = v;
    BOOST_CHECK(copy == v && !(copy != v));
    for (int i = 0; i < 32; ++i) {
        for (unsigned char bit : {0x01, 0x80}) {
            uint256 w = v;
            w.data()[i] ^= bit;
            BOOST_CHECK_MESSAGE(w != v && !(w == v), "byte " << i << " bit " << int(bit) << " ignored by ==");
            // A pair that differs in that one bit is no mutation.
            bool mutated = true;
            ComputeMerkleRoot({v, w}, &mutated);
            BOOST_CHECK_MESSAGE(!mutated, "byte " << i << ": distinct pair taken as a mutation");
        }
    }
}

BOOST_AUTO_TEST_CASE(core_semantics_with_every_d64_row)
{
    const std::string before = sha256::CurrentD64Implementation();
    test::Rng rng(0x3e4c1e);
    for (const auto& name : SupportedD64()) {
        BOOST_REQUIRE(sha256::SetD64Implementation(name));
        int bad = 0;
        bool mutated = true;

        // Empty: all zero, not mutated.
        BOOST_CHECK(ComputeMerkleRoot({}, &mutated).IsNull());
        BOOST_CHECK(!mutated);

        // One leaf: the leaf itself.
        const auto one = RandomHashes(rng, 1);
        mutated = true;
        BOOST_CHECK(ComputeMerkleRoot(one, &mutated) == one[0]);
        BOOST_CHECK(!mutated);

        // Two leaves: the hash of the pair.
        const auto two = RandomHashes(rng, 2);
        BOOST_CHECK(ComputeMerkleRoot(two) == HashPair(two[0], two[1]));
        BOOST_CHECK(ComputeMerkleRoot(two) != HashPair(two[1], two[0]));

        // Every count 1..100 and a few large ones, odd counts included, against the naive tree.
        std::vector<size_t> counts;
        for (size_t n = 1; n <= 100; ++n) counts.push_back(n);
        for (size_t n : {255, 256, 257, 1023, 2049, 9001}) counts.push_back(n);
        for (size_t n : counts) {
            const auto leaves = RandomHashes(rng, n);
            bool naive_mutated = true;
            mutated = true;
            const uint256 want = NaiveRoot(leaves, naive_mutated);
            if (ComputeMerkleRoot(leaves, &mutated) != want || mutated || naive_mutated) {
                if (++bad <= 5) BOOST_ERROR(name << ": " << n << " random leaves");
            }
        }

        // An odd level duplicates its last hash, so [a, b, c] and [a, b, c, c]
        // share a root; only the second pairs two identical hashes.
        const auto abc = RandomHashes(rng, 3);
        std::vector<uint256> abcc = abc;
        abcc.push_back(abc[2]);
        mutated = true;
        const uint256 r3 = ComputeMerkleRoot(abc, &mutated);
        BOOST_CHECK(!mutated);
        BOOST_CHECK(r3 == HashPair(HashPair(abc[0], abc[1]), HashPair(abc[2], abc[2])));
        BOOST_CHECK(ComputeMerkleRoot(abcc, &mutated) == r3);
        BOOST_CHECK(mutated);

        // Identical neighbours that are not a pair (indices 1 and 2) are no mutation.
        std::vector<uint256> abbc = {abc[0], abc[1], abc[1], abc[2]};
        ComputeMerkleRoot(abbc, &mutated);
        BOOST_CHECK(!mutated);

        // Mutation at an inner level only: [a, b, a, b] has distinct pairs, but
        // level 1 is [H(a,b), H(a,b)].
        std::vector<uint256> abab = {abc[0], abc[1], abc[0], abc[1]};
        ComputeMerkleRoot(abab, &mutated);
        BOOST_CHECK(mutated);
        // The same two levels up: eight leaves whose halves repeat.
        auto eight = RandomHashes(rng, 4);
        eight.insert(eight.end(), eight.begin(), eight.begin() + 4);
        bool naive_mutated = false;
        BOOST_CHECK(ComputeMerkleRoot(eight, &mutated) == NaiveRoot(eight, naive_mutated));
        BOOST_CHECK(mutated && naive_mutated);
        // The null pointer is allowed.
        BOOST_CHECK(ComputeMerkleRoot(eight) == NaiveRoot(eight, naive_mutated));

        BOOST_CHECK_MESSAGE(bad == 0, name << ": " << bad << " leaf counts gave a wrong root");
        BOOST_TEST_MESSAGE("  " << name << ": empty, 1, 2, 1..100 and up to 9001 leaves, leaf and inner mutation: "
                                << (bad ? "FAILED" : "ok"));
    }
    sha256::SetD64Implementation(before);
}

BOOST_AUTO_TEST_CASE(mainnet_blocks)
{
    const std::string before = sha256::CurrentD64Implementation();
    const std::string fixed_before = sha256::CurrentFixedImplementation();
    for (const Block& b : Blocks()) {
        std::vector<uint256> txids;
        for (const auto& t : b.txids) txids.push_back(U(t));
        for (const auto& name : SupportedD64()) {
            BOOST_REQUIRE(sha256::SetD64Implementation(name));
            bool mutated = true;
            const uint256 root = ComputeMerkleRoot(txids, &mutated);
            BOOST_CHECK_MESSAGE(root.GetHex() == b.merkle_root,
                                "block " << b.height << " with " << name << ": root " << root.GetHex());
            BOOST_CHECK(!mutated);
        }
        const auto header = Header(b.version, U(b.prev), U(b.merkle_root), b.time, b.bits, b.nonce);
        BOOST_REQUIRE_EQUAL(header.size(), 80u);
        // The block hash, through CSHA256 twice and through every fixed-size path.
        uint256 hash;
        unsigned char d[32];
        CSHA256().Write(header.data(), header.size()).Finalize(d);
        CSHA256().Write(d, 32).Finalize(hash.data());
        BOOST_CHECK_EQUAL(hash.GetHex(), b.hash);
        for (const auto& impl : sha256::FixedImplementations()) {
            if (!impl.supported) {
                BOOST_TEST_MESSAGE("  not run: fixed-size " << impl.name << ": " << impl.why_not);
                continue;
            }
            BOOST_REQUIRE(sha256::SetFixedImplementation(impl.name));
            uint256 h;
            sha256::Double80(h.data(), header.data());
            BOOST_CHECK_MESSAGE(h.GetHex() == b.hash, "block " << b.height << " header with " << impl.name);
        }
        BOOST_TEST_MESSAGE("  block " << b.height << ": " << b.txids.size() << " txids -> " << b.merkle_root
                                      << ", header -> " << b.hash);
    }
    sha256::SetD64Implementation(before);
    sha256::SetFixedImplementation(fixed_before);
}

BOOST_AUTO_TEST_SUITE_END()
