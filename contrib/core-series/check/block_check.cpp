// SPDX-License-Identifier: MIT
// block_check: what Bitcoin Core's block deserialization gives, case by case,
// through Core's own API only, so that one output from unpatched Core and one
// from Core with sha256bench's series can be compared line by line: the same
// transactions, txids, wtxids and Merkle roots, the same exceptions, the
// stream left at the same place. Cases: Core's bench block (413567), that
// block as a segwit-era one, seeded synthetic blocks (witness and not, long
// transactions, every count around the lane widths), and malformed blocks
// (cut at every transaction boundary and inside transactions, a superfluous
// witness record, an unknown flag, oversized and non-canonical counts), each
// read from a DataStream and from a SpanReader, with and without witness.
//
// Compiled with Core's include paths and linked against its
// libbitcoin_consensus.a and libbitcoin_crypto.a (unpatched or patched).
// Run by ci/core-series.sh natively and under qemu-x86_64 CPU models.
//
//   block_check BLOCK_FILE [--quick]
//
// BLOCK_FILE: Core's src/bench/data/block413567.raw. --quick: every 37th
// transaction boundary rather than all (for emulated CPUs). Prints one line a
// case ("case NAME: ...") and, after an exception, a line
// "left: NAME txs=N" with what the block holds then (unpatched Core leaves
// the transactions read so far; the series leaves none). Exit 0 unless a
// file cannot be read or an argument is wrong.

#include <consensus/merkle.h>
#include <crypto/sha256.h>
#include <primitives/block.h>
#include <primitives/transaction.h>
#include <script/script.h>
#include <serialize.h>
#include <streams.h>
#include <uint256.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

using Bytes = std::vector<std::byte>;

// A deterministic generator (xorshift64*), so every run builds the same blocks.
struct Rng {
    uint64_t s;
    uint64_t Next()
    {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        return s * 0x2545F4914F6CDD1DULL;
    }
    uint64_t Below(uint64_t n) { return Next() % n; }
    std::vector<unsigned char> Data(size_t n)
    {
        std::vector<unsigned char> v(n);
        for (auto& c : v) c = static_cast<unsigned char>(Next());
        return v;
    }
};

std::string Hex(const uint256& h) { return h.GetHex(); }

// The double SHA-256 of every txid and wtxid in order: one line for the lot.
std::string TxDigest(const CBlock& block)
{
    CSHA256 h;
    for (const auto& tx : block.vtx) {
        h.Write(tx->GetHash().ToUint256().begin(), 32);
        h.Write(tx->GetWitnessHash().ToUint256().begin(), 32);
    }
    unsigned char out[32];
    h.Finalize(out);
    return Hex(uint256{std::span<const unsigned char>{out, 32}});
}

// The block's transactions, each re-serialized, must be the bytes read (the
// batch path hashes those); checked through the block's own serialization.
template <typename Stream>
void Read(const std::string& name, const Bytes& bytes, const TransactionSerParams& params)
{
    CBlock block;
    Stream stream{bytes};
    bool bad_tx{false};
    try {
        stream >> params(block);
    } catch (const std::exception& e) {
        std::printf("case %s: exception '%s' remaining=%zu\n", name.c_str(), e.what(), stream.size());
        for (const auto& tx : block.vtx) bad_tx |= !tx;
        std::printf("left: %s txs=%zu%s\n", name.c_str(), block.vtx.size(), bad_tx ? " (a null one among them)" : "");
        return;
    }
    bool mutated{false};
    const uint256 root{BlockMerkleRoot(block, &mutated)};
    DataStream again;
    again << params(block);
    std::printf("case %s: ok txs=%zu remaining=%zu root=%s%s witness_root=%s txids_wtxids=%s reserialized=%s\n",
                name.c_str(), block.vtx.size(), stream.size(), Hex(root).c_str(), mutated ? " (mutated)" : "",
                block.vtx.empty() ? "none" : Hex(BlockWitnessMerkleRoot(block)).c_str(), TxDigest(block).c_str(),
                again.size() + stream.size() == bytes.size() &&
                        std::memcmp(again.data(), bytes.data(), again.size()) == 0
                    ? "same"
                    : "different");
}

void Case(const std::string& name, const Bytes& bytes)
{
    Read<DataStream>(name + " DataStream", bytes, TX_WITH_WITNESS);
    Read<SpanReader>(name + " SpanReader", bytes, TX_WITH_WITNESS);
    Read<DataStream>(name + " DataStream no-witness", bytes, TX_NO_WITNESS);
}

Bytes Serialize(const CBlock& block)
{
    DataStream s;
    s << TX_WITH_WITNESS(block);
    return {s.begin(), s.end()};
}

// Every input's scriptSig, where it only pushes, becomes its witness; the
// coinbase gets the witness reserved value; the Merkle root is recomputed.
CBlock SegwitEra(CBlock block)
{
    for (auto& tx : block.vtx) {
        CMutableTransaction mtx{*tx};
        for (auto& in : mtx.vin) {
            if (tx->IsCoinBase()) {
                in.scriptWitness.stack.assign(1, std::vector<unsigned char>(32, 0));
                continue;
            }
            std::vector<std::vector<unsigned char>> stack;
            opcodetype op;
            std::vector<unsigned char> data;
            bool pushes{true};
            for (CScript::const_iterator pc{in.scriptSig.begin()}; pc < in.scriptSig.end();) {
                pushes = in.scriptSig.GetOp(pc, op, data) && op <= OP_PUSHDATA4;
                if (!pushes) break;
                stack.push_back(data);
            }
            if (pushes && !stack.empty()) {
                in.scriptWitness.stack = std::move(stack);
                in.scriptSig.clear();
            }
        }
        tx = MakeTransactionRef(std::move(mtx));
    }
    block.hashMerkleRoot = BlockMerkleRoot(block);
    return block;
}

// A transaction: `inputs` inputs (witness on each with probability
// witness_pct), `outputs` outputs, scripts of random sizes; `big` makes one
// scriptSig long enough for a stripped size above 64 KiB.
CTransactionRef RandomTx(Rng& rng, int inputs, int outputs, int witness_pct, bool big)
{
    CMutableTransaction tx;
    tx.version = static_cast<uint32_t>(rng.Below(3));
    tx.nLockTime = static_cast<uint32_t>(rng.Next());
    for (int i = 0; i < inputs; ++i) {
        CTxIn in;
        in.prevout.hash = Txid::FromUint256(uint256{std::span<const unsigned char>{rng.Data(32)}});
        in.prevout.n = static_cast<uint32_t>(rng.Below(5));
        const auto sig = rng.Data(big && i == 0 ? 70000 : rng.Below(110));
        in.scriptSig = CScript(sig.begin(), sig.end());
        in.nSequence = static_cast<uint32_t>(rng.Next());
        if (static_cast<int>(rng.Below(100)) < witness_pct) {
            const int items = static_cast<int>(rng.Below(4)) + 1;
            for (int k = 0; k < items; ++k) in.scriptWitness.stack.push_back(rng.Data(rng.Below(80)));
        }
        tx.vin.push_back(in);
    }
    for (int i = 0; i < outputs; ++i) {
        const auto spk = rng.Data(rng.Below(40));
        tx.vout.emplace_back(static_cast<CAmount>(rng.Below(21000000)), CScript(spk.begin(), spk.end()));
    }
    return MakeTransactionRef(std::move(tx));
}

CBlock RandomBlock(Rng& rng, size_t count, int witness_pct, bool with_big)
{
    CBlock block;
    block.nVersion = 0x20000000;
    block.nTime = static_cast<uint32_t>(rng.Next());
    for (size_t i = 0; i < count; ++i) {
        const bool big = with_big && (i == count / 2 || i == count - 1);
        const int inputs = static_cast<int>(rng.Below(rng.Below(10) == 0 ? 60 : 4)) + 1;
        block.vtx.push_back(RandomTx(rng, inputs, static_cast<int>(rng.Below(5)) + 1, witness_pct, big));
    }
    block.hashMerkleRoot = BlockMerkleRoot(block);
    return block;
}

// The offsets at which each transaction of `block` starts in its serialization.
std::vector<size_t> TxOffsets(const CBlock& block)
{
    std::vector<size_t> at;
    size_t pos = 80 + GetSizeOfCompactSize(block.vtx.size());
    for (const auto& tx : block.vtx) {
        at.push_back(pos);
        pos += GetSerializeSize(TX_WITH_WITNESS(*tx));
    }
    at.push_back(pos);
    return at;
}

void Truncations(const std::string& name, const CBlock& block, bool quick)
{
    const Bytes full = Serialize(block);
    const std::vector<size_t> at = TxOffsets(block);
    for (size_t i = 0; i + 1 < at.size(); ++i) {
        if (quick && i % 37 != 0 && i + 2 != at.size()) continue;
        // At the boundary (a whole transaction missing), inside the
        // transaction's first bytes, its last, and half way.
        for (size_t cut : {at[i], at[i] + 1, at[i] + 5, (at[i] + at[i + 1]) / 2, at[i + 1] - 1}) {
            if (cut >= full.size()) continue;
            Case(name + " cut at " + std::to_string(cut), Bytes(full.begin(), full.begin() + cut));
        }
    }
}

// `block` with transaction i's serialization replaced by `tx`.
Bytes Replace(const CBlock& block, size_t i, const Bytes& tx)
{
    const Bytes full = Serialize(block);
    const std::vector<size_t> at = TxOffsets(block);
    Bytes out(full.begin(), full.begin() + at[i]);
    out.insert(out.end(), tx.begin(), tx.end());
    out.insert(out.end(), full.begin() + at[i + 1], full.end());
    return out;
}

Bytes Hex2Bytes(const std::string& hex)
{
    Bytes b;
    for (size_t i = 0; i + 1 < hex.size(); i += 2) b.push_back(static_cast<std::byte>(std::stoi(hex.substr(i, 2), nullptr, 16)));
    return b;
}

Bytes WithCount(const CBlock& block, const std::string& count_hex)
{
    const Bytes full = Serialize(block);
    const Bytes count = Hex2Bytes(count_hex);
    Bytes out(full.begin(), full.begin() + 80);
    out.insert(out.end(), count.begin(), count.end());
    out.insert(out.end(), full.begin() + 80 + GetSizeOfCompactSize(block.vtx.size()), full.end());
    return out;
}

} // namespace

int main(int argc, char** argv)
{
    std::string file;
    bool quick = false;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--quick") {
            quick = true;
        } else if (file.empty() && a.rfind("--", 0) != 0) {
            file = a;
        } else {
            std::fprintf(stderr, "block_check: unknown argument '%s' (usage: block_check BLOCK_FILE [--quick])\n", a.c_str());
            return 2;
        }
    }
    if (file.empty()) {
        std::fprintf(stderr, "block_check: give Core's src/bench/data/block413567.raw\n");
        return 2;
    }
    std::ifstream in(file, std::ios::binary);
    const std::vector<char> raw{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (!in.good() && !in.eof()) {
        std::fprintf(stderr, "block_check: cannot read %s\n", file.c_str());
        return 2;
    }
    if (raw.size() < 81) {
        std::fprintf(stderr, "block_check: %s is not a block (%zu bytes)\n", file.c_str(), raw.size());
        return 2;
    }
    std::printf("block_check: SHA256AutoDetect() = %s\n", SHA256AutoDetect().c_str());
    const Bytes mainnet(reinterpret_cast<const std::byte*>(raw.data()), reinterpret_cast<const std::byte*>(raw.data()) + raw.size());
    CBlock b413567;
    DataStream{mainnet} >> TX_WITH_WITNESS(b413567);

    Case("block 413567", mainnet);
    const CBlock segwit = SegwitEra(b413567);
    Case("block 413567 segwit-era", Serialize(segwit));

    Rng rng{0x5eed2026};
    for (size_t count : {1, 2, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 255, 256, 257, 513, 1200}) {
        for (int pct : {0, 60, 100}) {
            const CBlock b = RandomBlock(rng, count, pct, count == 100 || count == 513);
            Case("random " + std::to_string(count) + " txs, witness on " + std::to_string(pct) + "% of inputs", Serialize(b));
        }
    }

    // Malformed blocks.
    Truncations("block 413567", b413567, quick);
    Truncations("segwit-era", segwit, quick);
    const CBlock r300 = RandomBlock(rng, 300, 60, true);
    Truncations("random 300", r300, quick);
    for (size_t i : {size_t{0}, size_t{1}, size_t{40}, size_t{299}}) {
        // A superfluous witness record: the extended format with every witness empty.
        CMutableTransaction tx{*r300.vtx[i]};
        for (auto& vin : tx.vin) vin.scriptWitness.stack.clear();
        DataStream plain;
        plain << TX_NO_WITNESS(tx);
        Bytes ext(plain.begin(), plain.begin() + 4);
        ext.push_back(std::byte{0});
        ext.push_back(std::byte{1});
        ext.insert(ext.end(), plain.begin() + 4, plain.end() - 4);
        for (size_t k = 0; k < tx.vin.size(); ++k) ext.push_back(std::byte{0});
        ext.insert(ext.end(), plain.end() - 4, plain.end());
        Case("superfluous witness record in tx " + std::to_string(i), Replace(r300, i, ext));
        // An unknown flag (2), and the witness flag with another one (3).
        for (unsigned flag : {2u, 3u}) {
            Bytes odd = ext;
            odd[5] = static_cast<std::byte>(flag);
            Case("flag " + std::to_string(flag) + " in tx " + std::to_string(i), Replace(r300, i, odd));
        }
    }
    // Counts: more transactions than there are, beyond MAX_SIZE, non-canonical, huge.
    Case("count 301 of 300", WithCount(r300, "fd2d01"));
    Case("count 16777216", WithCount(r300, "fe00000001"));
    Case("count MAX_SIZE + 1", WithCount(r300, "fe01000002"));
    Case("count 2^64 - 1", WithCount(r300, "ffffffffffffffffff"));
    Case("non-canonical count", WithCount(r300, "fd2c00"));
    Case("count 0", WithCount(r300, "00"));
    Case("header only", Bytes(mainnet.begin(), mainnet.begin() + 80));
    std::printf("block_check: done\n");
    return 0;
}
