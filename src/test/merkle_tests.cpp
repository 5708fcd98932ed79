// uint256, ComputeMerkleRoot and real mainnet blocks: Merkle roots from txids
// and block hashes from headers, with every supported SHA256D64 row.
//
// The block facts below were checked offline before use: each header,
// rebuilt from its fields, double-SHA-256es (Python hashlib) to the block's
// well-known hash, which pins every field including the Merkle root; the
// roots were recomputed from the txids the same way.
#include <consensus/merkle.h>
#include <crypto/sha256.h>
#include <test/util/common.h>
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

// SHA256(SHA256(a || b)) through CSHA256: an oracle that shares no code with SHA256D64.
uint256 HashPair(const uint256& a, const uint256& b)
{
    unsigned char buf[64], d[32];
    std::memcpy(buf, a.data(), 32);
    std::memcpy(buf + 32, b.data(), 32);
    CSHA256().Write(buf, 64).Finalize(d);
    uint256 out;
    CSHA256().Write(d, 32).Finalize(out.data());
    return out;
}

// The Merkle root the slow, obvious way, with the same mutation rule.
uint256 NaiveRoot(std::vector<uint256> level, bool& mutated)
{
    mutated = false;
    if (level.empty()) return uint256();
    while (level.size() > 1) {
        std::vector<uint256> next;
        for (size_t i = 0; i < level.size(); i += 2) {
            const uint256& left = level[i];
            const uint256& right = i + 1 < level.size() ? level[i + 1] : level[i];
            if (i + 1 < level.size() && left == right) mutated = true;
            next.push_back(HashPair(left, right));
        }
        level = next;
    }
    return level[0];
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

struct Block {
    int height;
    std::vector<std::string> txids;
    std::string merkle_root, prev, hash;
    uint32_t version, time, bits, nonce;
};

// Mainnet blocks (txids, header fields and hashes as Bitcoin displays them).
const std::vector<Block>& Blocks()
{
    static const std::vector<Block> blocks = {
        // Height 0, the genesis block: one transaction, so the root is its txid.
        {0, {"4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b"},
         "4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b",
         "0000000000000000000000000000000000000000000000000000000000000000",
         "000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f", 1, 1231006505, 0x1d00ffff, 2083236893},
        // Height 170: the first bitcoin payment (coinbase + one transaction).
        {170,
         {"b1fea52486ce0c62bb442b530a3f0132b826c74e473d1f2c220bfa78111c5082",
          "f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16"},
         "7dac2c5666815c17a3b36427de37bb9d2e2c5ccec3f8633eb91a4205cb4c10ff",
         "000000002a22cfee1f2c846adbd12b3e183d4f97683f85dad08a79780a84bd55",
         "00000000d1145790a8694403d4063f323d499e655c83426834d4ce2f8dd4a2ee", 1, 1231731025, 0x1d00ffff, 1889418792},
        // Height 100000: four transactions, two levels.
        {100000,
         {"8c14f0db3df150123e6f3dbbf30f8b955a8249b62ac1d1ff16284aefa3d06d87",
          "fff2525b8931402dd09222c50775608f75787bd2b87e56995a7bdd30f79702c4",
          "6359f0868171b1d194cbee1af2f16ea598ae8fad666d9b012c8ed2b79a236ec4",
          "e9a66845e05d5abc0ad04ec80f774a7e585c6e8db975962d069a522137b80c1d"},
         "f3e94742aca4b5ef85488dc37c06c3282295ffec960994b2c0d5ac2a25a95766",
         "000000000002d01c1fccc21636b607dfd930d31d01c3a62104612a1719011250",
         "000000000003ba27aa200b1cecaad478d2b00432346c3f1f3986da1afd33e506", 1, 1293623863, 0x1b04864c, 274148111},
    };
    return blocks;
}

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
