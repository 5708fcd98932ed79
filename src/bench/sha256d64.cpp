// Bitcoin's own hashing: SHA256D64 (every D64 row), the Merkle root of 9001
// leaves, and the fixed-size double SHA-256 of 32, 64 and 80 bytes. The
// portable 1-way row is the baseline row of each table. In the SHA256D64 table an op is one call
// (1024 inputs), in the MerkleRoot table one root (9001 leaves = 9009 64-byte inputs
// over all levels, the copy of the leaves included): both give core cycles per
// 64-byte input (the cycles/input column).
#include <bench/bench.h>

#include <consensus/merkle.h>
#include <crypto/sha256.h>
#include <uint256.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace {

constexpr size_t D64_INPUTS = 1024;
constexpr size_t MERKLE_LEAVES = 9001;
constexpr double D64_RNDS2 = 96; // an input: its block, the padding block and the second hash's block

std::vector<unsigned char> Pseudorandom(size_t n, uint32_t seed)
{
    std::vector<unsigned char> v(n);
    for (auto& c : v) {
        seed = seed * 1664525 + 1013904223;
        c = static_cast<unsigned char>(seed >> 24);
    }
    return v;
}

// Hashes of every level of a Merkle tree over `leaves` leaves (64-byte inputs per root).
// A lane row's D64 input: 1/ways of a call of its D64 kernel.
void SetLaneD64(benchmark::Bench& b, const std::string& name)
{
    const size_t i = sha256::kernel::Lookup(name.c_str(), sha256::kernel::Shape::D64);
    if (i < sha256::kernel::KERNEL_COUNT) {
        benchmark::SetLaneCount(b, name, sha256::kernel::Shape::D64, 1.0 / sha256::kernel::KERNELS[i].ways);
    }
}

size_t MerkleInputs(size_t leaves)
{
    size_t n = 0;
    while (leaves > 1) {
        leaves = (leaves + 1) / 2;
        n += leaves;
    }
    return n;
}

// Why a row is not run (the registry's reason), or "" when it runs.
template <typename Impl>
std::string NotRun(const Impl& impl)
{
    return impl.supported ? "" : impl.why_not;
}

void Rows(std::vector<benchmark::Bench>& out)
{
    const std::string selected = sha256::AutoDetectD64();
    const auto impls = sha256::D64Implementations();

    // The baseline row and the source of expected digests: the registry's last
    // row, the portable 1-way fallback.
    const std::string base = impls.back().name;
    auto input = std::make_shared<std::vector<unsigned char>>(Pseudorandom(64 * D64_INPUTS, 64));
    auto expected = std::make_shared<std::vector<unsigned char>>(32 * D64_INPUTS);
    sha256::SetD64Implementation(base);
    ::SHA256D64(expected->data(), input->data(), D64_INPUTS);

    std::vector<uint256> leaves(MERKLE_LEAVES);
    {
        const auto bytes = Pseudorandom(32 * MERKLE_LEAVES, 9001);
        for (size_t i = 0; i < MERKLE_LEAVES; ++i) std::memcpy(leaves[i].data(), bytes.data() + 32 * i, 32);
    }
    auto leaves_ptr = std::make_shared<const std::vector<uint256>>(leaves);
    const uint256 root = ComputeMerkleRoot(leaves);
    sha256::SetD64Implementation(selected);

    // Table 1: SHA256D64 of 1024 inputs per call; the baseline row first.
    for (auto it = impls.rbegin(); it != impls.rend(); ++it) {
        const sha256::D64Implementation& impl = *it;
        benchmark::Bench b;
        b.table = "SHA256D64, 1024 inputs of 64 bytes";
        b.name = "SHA256D64_1024/" + impl.name;
        b.impl = impl.name;
        b.family = "d64";
        b.bytes_per_op = 64 * D64_INPUTS; // an op is one call
        b.unit = "input";
        b.units_per_op = D64_INPUTS;
        if (impl.needs_mask & cpu::SHANI) b.sha_rnds2_per_unit = D64_RNDS2;
        SetLaneD64(b, impl.name);
        b.baseline = impl.name == base;
        b.not_run = NotRun(impl);
        const std::string name = impl.name;
        b.setup = [name] { sha256::SetD64Implementation(name); };
        benchmark::TimedLoop(b, [] { return std::vector<unsigned char>(32 * D64_INPUTS); },
                             [input](std::vector<unsigned char>& out) { ::SHA256D64(out.data(), input->data(), D64_INPUTS); });
        b.check = [name, base, input, expected]() -> std::string {
            if (!sha256::SetD64Implementation(name)) return "cannot select " + name;
            std::vector<unsigned char> got(32 * D64_INPUTS);
            ::SHA256D64(got.data(), input->data(), D64_INPUTS);
            if (got != *expected) return "digests differ from " + base;
            return "";
        };
        out.push_back(std::move(b));
    }

    // Table 2: the Merkle root of 9001 leaves (a block of 9001 transactions):
    // AutoDetectD64's pick, then every row as the starting row.
    const size_t inputs = MerkleInputs(MERKLE_LEAVES);
    std::vector<std::pair<std::string, std::string>> merkle_rows; // label, row to select
    merkle_rows.emplace_back("autodetect (" + selected + ")", selected);
    for (auto it = impls.rbegin(); it != impls.rend(); ++it) merkle_rows.emplace_back(it->name, it->name);
    for (const auto& [label, name] : merkle_rows) {
        benchmark::Bench b;
        b.table = "MerkleRoot, 9001 leaves";
        b.name = "MerkleRoot_9001/" + (label == name ? name : std::string("autodetect"));
        b.impl = label;
        b.family = "d64";
        b.bytes_per_op = 64 * inputs; // an op is one root
        b.unit = "input";
        b.units_per_op = inputs;
        b.baseline = label == base;
        for (const auto& impl : impls) {
            if (impl.name != name) continue;
            b.not_run = NotRun(impl);
            if (impl.needs_mask & cpu::SHANI) b.sha_rnds2_per_unit = D64_RNDS2;
            SetLaneD64(b, impl.name);
        }
        const std::string row = name;
        b.setup = [row] { sha256::SetD64Implementation(row); };
        const auto last = benchmark::TimedLoop(b, [] { return uint256(); },
                                               [leaves_ptr](uint256& r) { r = ComputeMerkleRoot(*leaves_ptr); });
        b.check = [row, base, leaves_ptr, root, last]() -> std::string {
            if (!sha256::SetD64Implementation(row)) return "cannot select " + row;
            if (ComputeMerkleRoot(*leaves_ptr) != root) return "root differs from " + base;
            if (*last != root && !last->IsNull()) return "timed run's root differs from " + base;
            return "";
        };
        out.push_back(std::move(b));
    }

    // Double SHA-256 of one 32-, 64- or 80-byte input: the fixed-size paths
    // join the SHA256D tables of bench/sha256.cpp (CSHA256 twice through each
    // transform, the portable one the baseline).
    struct Fixed {
        size_t len;
        const char* table;
        const char* tag;
    };
    const Fixed sizes[] = {
        {32, "SHA256D (double SHA-256) of 32 bytes", "D32B"},
        {64, "SHA256D (double SHA-256) of 64 bytes", "D64B"},
        {80, "SHA256D (double SHA-256) of 80 bytes (block header)", "D80B"},
    };
    for (const Fixed& f : sizes) {
        auto in = std::make_shared<std::vector<unsigned char>>(Pseudorandom(f.len, static_cast<uint32_t>(f.len)));
        // The answer: CSHA256 twice with AutoDetect's transform (self-tested).
        auto want = std::make_shared<std::string>(32, '\0');
        {
            unsigned char d[32];
            CSHA256().Write(in->data(), f.len).Finalize(d);
            CSHA256().Write(d, 32).Finalize(d);
            want->assign(reinterpret_cast<char*>(d), 32);
        }
        for (const auto& impl : sha256::FixedImplementations()) {
            benchmark::Bench b;
            b.table = f.table;
            b.name = std::string("SHA256_") + f.tag + "/fixed_" + impl.name;
            b.impl = "fixed_" + impl.name;
            b.family = "fixed";
            b.bytes_per_op = f.len;
            b.unit = "hash";
            b.units_per_op = 1;
            if (impl.needs_mask & cpu::SHANI) b.sha_rnds2_per_unit = benchmark::DoubleShaRnds2(f.len);
            b.not_run = NotRun(impl);
            const sha256::DoubleFn fn = f.len == 32 ? impl.double32 : f.len == 64 ? impl.double64 : impl.double80;
            const auto last = benchmark::TimedLoop(b, [] { return std::array<unsigned char, 32>{}; },
                                                   [in, fn](std::array<unsigned char, 32>& d) { fn(d.data(), in->data()); });
            b.check = [last, want]() -> std::string {
                return std::string(reinterpret_cast<const char*>(last->data()), 32) == *want ? "" : "digest differs from CSHA256 twice";
            };
            out.push_back(std::move(b));
        }
    }
    sha256::SetD64Implementation(selected);
}

void Notes(std::vector<benchmark::Note>& out)
{
    out.push_back({"Selected SHA256D64", sha256::AutoDetectD64() + "; fixed-size double SHA-256: " +
                                             sha256::CurrentFixedImplementation(), ""});
}

void Impls(std::vector<benchmark::ImplRow>& out)
{
    const std::string d64 = sha256::AutoDetectD64();
    benchmark::AddFamily(out, "d64", sha256::D64Implementations(), d64);
    benchmark::AddFamily(out, "fixed", sha256::FixedImplementations(), sha256::CurrentFixedImplementation());
}

const benchmark::Registrar registrar({"SHA256D64", Rows, Notes, Impls});

} // namespace
