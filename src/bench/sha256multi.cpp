// SPDX-License-Identifier: MIT
// "txids of a block": the double SHA-256 of every transaction of a synthetic
// block, one op = the whole block. The first row is what Bitcoin Core does, a
// loop of CSHA256 twice per transaction with AutoDetect's transform (the baseline);
// then every multi-buffer row through SHA256DMulti.
#include <bench/bench.h>

#include <crypto/sha256.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr size_t BLOCK_TXS = 3000;
const char* const TABLE = "txids of a block: SHA256D of 3000 transactions";

// Sizes shaped like mainnet's (serialized with witness), per 1000
// transactions: 850 of 200-600 bytes (one or two inputs), 120 of 600-2,000,
// 25 of 2,000-10,000 (many inputs or outputs), 5 of 10,000-100,000
// (consolidations, large scripts). Fixed seed.
struct Block {
    std::vector<unsigned char> bytes;
    std::vector<const unsigned char*> tx;
    std::vector<size_t> len;
    size_t total{0};
};

const Block& SyntheticBlock()
{
    static const std::unique_ptr<Block> block = [] {
        auto b = std::make_unique<Block>();
        uint64_t x = 0x7478696473; // "txids"
        auto next = [&x] {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            return x;
        };
        for (size_t i = 0; i < BLOCK_TXS; ++i) {
            const uint64_t r = next() % 1000;
            size_t n;
            if (r < 850) {
                n = 200 + next() % 401;
            } else if (r < 970) {
                n = 600 + next() % 1401;
            } else if (r < 995) {
                n = 2000 + next() % 8001;
            } else {
                n = 10000 + next() % 90001;
            }
            b->len.push_back(n);
            b->total += n;
        }
        b->bytes.resize(b->total);
        for (auto& c : b->bytes) c = static_cast<unsigned char>(next() >> 24);
        size_t off = 0;
        for (size_t n : b->len) {
            b->tx.push_back(b->bytes.data() + off);
            off += n;
        }
        return b;
    }();
    return *block;
}

void OneWayTxids(const Block& b, unsigned char* out)
{
    for (size_t i = 0; i < BLOCK_TXS; ++i) {
        unsigned char* d = out + 32 * i;
        CSHA256().Write(b.tx[i], b.len[i]).Finalize(d);
        CSHA256().Write(d, 32).Finalize(d);
    }
}

void Rows(std::vector<benchmark::Bench>& out)
{
    const Block& blk = SyntheticBlock();
    // The baseline runs with AutoDetect's transform, whatever rows of other
    // tables selected before it.
    const std::string transform = sha256::AutoDetect();
    // The rows that run SHA-NI code: their sha256rnds2 per transaction.
    bool transform_shani = false;
    for (const auto& impl : sha256::Implementations()) {
        if (impl.name == transform) transform_shani = impl.needs_mask & cpu::SHANI;
    }
    double blocks = 0, first_blocks = 0;
    for (size_t n : blk.len) blocks += double(benchmark::ShaBlocks(n) + 1), first_blocks += double(benchmark::ShaBlocks(n));
    const double rnds2 = 32 * blocks / BLOCK_TXS;
    auto want = std::make_shared<std::vector<unsigned char>>(32 * BLOCK_TXS);
    OneWayTxids(blk, want->data());

    {
        benchmark::Bench b;
        b.table = TABLE;
        b.name = "TXIDS_3000/csha256_loop";
        b.impl = "csha256_loop (" + transform + ")";
        b.family = "reference";
        b.bytes_per_op = blk.total;
        b.unit = "transaction";
        b.units_per_op = BLOCK_TXS;
        if (transform_shani) b.sha_rnds2_per_unit = rnds2;
        b.baseline = true;
        b.setup = [transform] { sha256::SetImplementation(transform); };
        const auto got = benchmark::TimedLoop(b, [] { return std::vector<unsigned char>(32 * BLOCK_TXS); },
                                              [&blk](std::vector<unsigned char>& out) { OneWayTxids(blk, out.data()); });
        b.check = [got, want]() -> std::string { return *got == *want ? "" : "txids differ"; };
        out.push_back(std::move(b));
    }
    const std::string selected = sha256::CurrentMultiImplementation();
    for (const auto& impl : sha256::MultiImplementations()) {
        benchmark::Bench b;
        b.table = TABLE;
        b.name = "TXIDS_3000/" + impl.name;
        b.impl = impl.name;
        b.family = "multi";
        b.bytes_per_op = blk.total;
        b.unit = "transaction";
        b.units_per_op = BLOCK_TXS;
        if ((impl.needs_mask & cpu::SHANI) || (impl.uses_transform && transform_shani)) b.sha_rnds2_per_unit = rnds2;
        // A lane row's transaction: its blocks, a lane each, of the job (or
        // lanes) kernel, and its second hash.
        for (const sha256::kernel::Shape shape : {sha256::kernel::Shape::Jobs, sha256::kernel::Shape::Lanes}) {
            const size_t k = sha256::kernel::Lookup(impl.name.c_str(), shape);
            if (k == sha256::kernel::KERNEL_COUNT || b.lane_ops_per_unit > 0) continue;
            const double ways = sha256::kernel::KERNELS[k].ways;
            benchmark::SetLaneCount(b, impl.name, shape, first_blocks / BLOCK_TXS / ways, 1.0 / ways);
        }
        b.not_run = impl.supported ? "" : impl.why_not;
        const std::string name = impl.name;
        b.setup = [name] { sha256::SetMultiImplementation(name); };
        benchmark::TimedLoop(b, [] { return std::vector<unsigned char>(32 * BLOCK_TXS); },
                             [&blk](std::vector<unsigned char>& out) {
                                 SHA256DMulti(out.data(), blk.tx.data(), blk.len.data(), BLOCK_TXS);
                             });
        b.check = [name, &blk, want]() -> std::string {
            if (!sha256::SetMultiImplementation(name)) return "cannot select " + name;
            std::vector<unsigned char> got(32 * BLOCK_TXS);
            SHA256DMulti(got.data(), blk.tx.data(), blk.len.data(), BLOCK_TXS);
            return got == *want ? "" : "txids differ from CSHA256's";
        };
        out.push_back(std::move(b));
    }
    sha256::SetMultiImplementation(selected);
}

void Notes(std::vector<benchmark::Note>& out)
{
    const Block& blk = SyntheticBlock();
    char text[200];
    std::snprintf(text, sizeof(text), "%s; the block: %zu transactions, %zu bytes (mean %.0f)",
                  sha256::AutoDetectMulti().c_str(), BLOCK_TXS, blk.total, static_cast<double>(blk.total) / BLOCK_TXS);
    out.push_back({"Selected multi-buffer (SHA256Multi)", text, ""});
}

void Impls(std::vector<benchmark::ImplRow>& out)
{
    benchmark::AddFamily(out, "multi", sha256::MultiImplementations(), sha256::AutoDetectMulti());
}

const benchmark::Registrar registrar({"SHA256Multi", Rows, Notes, Impls});

} // namespace
