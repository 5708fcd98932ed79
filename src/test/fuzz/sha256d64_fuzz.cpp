// libFuzzer target: SHA256D64 with every D64 row this CPU supports (each as
// the starting row, so its narrower tails run too), the fixed-size paths, and
// the Merkle root, against CSHA256 run twice.
//   ./configure CXX=clang++ --enable-fuzz --with-sanitizers=address,undefined
//   src/test/fuzz/fuzz_sha256d64 -max_total_time=600
// Input layout: [input offset][output offset][bit 0: in place; bit 1: an odd
// count of Merkle leaves; bit 2: a subtree repeated, 2^(bits 3..5) leaves][64-byte inputs...]
#include <consensus/merkle.h>
#include <crypto/sha256.h>
#include <uint256.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

void DoubleSha(unsigned char* out, const unsigned char* in, size_t len)
{
    unsigned char d[32];
    CSHA256().Write(in, len).Finalize(d);
    CSHA256().Write(d, 32).Finalize(out);
}

[[noreturn]] void Fail(const char* what, const std::string& impl, size_t n)
{
    std::fprintf(stderr, "sha256d64_fuzz: %s differs from CSHA256 twice (%s, %zu inputs)\n", what, impl.c_str(), n);
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 3) return 0;
    const size_t in_off = data[0] % 64, out_off = data[1] % 64;
    const bool in_place = data[2] & 1;
    const size_t n = (size - 3) / 64;
    if (n > 256) return 0;
    // Fresh buffers at the chosen misalignments, so ASan sees their exact bounds.
    std::vector<unsigned char> in_buf(in_off + 64 * n), out_buf(out_off + 32 * n);
    unsigned char* in = in_buf.data() + in_off;
    if (n) std::memcpy(in, data + 3, 64 * n);

    std::vector<unsigned char> want(32 * n);
    for (size_t i = 0; i < n; ++i) DoubleSha(want.data() + 32 * i, in + 64 * i, 64);

    const std::string before = sha256::CurrentD64Implementation();
    for (const auto& impl : sha256::D64Implementations()) {
        if (!impl.supported) continue;
        if (!sha256::SetD64Implementation(impl.name)) std::abort();
        if (in_place) {
            std::vector<unsigned char> copy(in, in + 64 * n);
            SHA256D64(copy.data(), copy.data(), n);
            if (n && std::memcmp(copy.data(), want.data(), 32 * n) != 0) Fail("SHA256D64 in place", impl.name, n);
        } else {
            unsigned char* out = out_buf.data() + out_off;
            SHA256D64(out, in, n);
            if (n && std::memcmp(out, want.data(), 32 * n) != 0) Fail("SHA256D64", impl.name, n);
        }
    }
    sha256::SetD64Implementation(before);

    // Fixed-size paths on the first 32, 64 and 80 bytes, when there are that many.
    const size_t avail = size - 3;
    for (const auto& impl : sha256::FixedImplementations()) {
        if (!impl.supported) continue;
        const struct {
            size_t len;
            sha256::DoubleFn fn;
        } paths[] = {{32, impl.double32}, {64, impl.double64}, {80, impl.double80}};
        for (const auto& p : paths) {
            if (avail < p.len) continue;
            std::vector<unsigned char> buf(data + 3, data + 3 + p.len);
            unsigned char got[32], exp[32];
            p.fn(got, buf.data());
            DoubleSha(exp, buf.data(), p.len);
            if (std::memcmp(got, exp, 32) != 0) Fail("fixed-size path", impl.name, p.len);
        }
    }

    // The Merkle root over the inputs' halves as leaves (the last left out
    // where bit 1 of data[2] is set: an odd count), level by level with CSHA256.
    const size_t nleaves = 2 * n - (n && (data[2] & 2) ? 1 : 0);
    std::vector<uint256> leaves(nleaves);
    for (size_t i = 0; i < nleaves; ++i) std::memcpy(leaves[i].data(), in + 32 * i, 32);
    // Where bit 2 is set, the first 2^t leaves again after themselves (t: bits
    // 3..5): two equal subtrees, equal hashes at an even index of level t.
    const size_t w = size_t{1} << ((data[2] >> 3) & 7);
    if ((data[2] & 4) && 2 * w <= nleaves) std::copy(leaves.begin(), leaves.begin() + w, leaves.begin() + w);
    std::vector<uint256> level = leaves;
    bool mutated = false;
    while (level.size() > 1) {
        // Identical pairs count before an odd level's last hash is duplicated.
        for (size_t i = 0; i + 1 < level.size(); i += 2) {
            if (level[i] == level[i + 1]) mutated = true;
        }
        if (level.size() & 1) level.push_back(level.back());
        std::vector<uint256> next(level.size() / 2);
        for (size_t i = 0; i < next.size(); ++i) {
            unsigned char pair[64];
            std::memcpy(pair, level[2 * i].data(), 32);
            std::memcpy(pair + 32, level[2 * i + 1].data(), 32);
            DoubleSha(next[i].data(), pair, 64);
        }
        level = next;
    }
    // With every row first (a row's Merkle kernel takes the levels of 64 hashes or more).
    for (const auto& impl : sha256::D64Implementations()) {
        if (!impl.supported) continue;
        if (!sha256::SetD64Implementation(impl.name)) std::abort();
        bool got_mutated = !mutated;
        const uint256 root = ComputeMerkleRoot(leaves, &got_mutated);
        if (root != (level.empty() ? uint256() : level[0])) Fail("Merkle root", impl.name, nleaves);
        if (got_mutated != mutated) Fail("Merkle mutation flag", impl.name, nleaves);
    }
    sha256::SetD64Implementation(before);
    return 0;
}
