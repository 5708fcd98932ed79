// SPDX-License-Identifier: MIT
// libFuzzer target: arbitrary bytes, split points and input offsets through
// every transform this CPU supports, compared with the portable transform.
//   ./configure CXX=clang++ --enable-fuzz --with-sanitizers=address,undefined
//   src/test/fuzz/fuzz -max_total_time=600      (doc/testing.md)
#include <crypto/sha256.h>
#include <crypto/sha256_internal.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

struct Digest {
    unsigned char b[32];
    bool operator!=(const Digest& o) const { return std::memcmp(b, o.b, 32) != 0; }
};

// Input layout: [offset byte][split-seed byte][message...]
Digest HashSplit(const unsigned char* msg, size_t len, unsigned split_seed)
{
    CSHA256 h;
    size_t pos = 0;
    unsigned x = split_seed | 1;
    while (pos < len) {
        x = x * 1103515245u + 12345u;
        // Piece sizes 0..200 so whole-block runs and partial buffers both occur.
        const size_t n = std::min<size_t>(len - pos, (x >> 16) % 201);
        h.Write(msg + pos, n);
        pos += n;
    }
    Digest d;
    h.Finalize(d.b);
    return d;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (size < 2) return 0;
    const size_t offset = data[0] % 64;
    const unsigned split_seed = data[1];
    const size_t len = size - 2;
    // Copy to a fresh buffer at the chosen misalignment so ASan sees its exact bounds.
    std::vector<unsigned char> storage(offset + len);
    unsigned char* msg = storage.data() + offset;
    if (len) std::memcpy(msg, data + 2, len);

    // The registry's last row is the portable transform.
    sha256::SetImplementation(sha256::Implementations().back().name);
    const Digest want = HashSplit(msg, len, split_seed);
    uint32_t want_state[8];
    std::memcpy(want_state, sha256::IV, sizeof(want_state));
    uint32_t init[8];
    std::memcpy(init, want_state, sizeof(init));
    sha256::TransformBasic(want_state, msg, len / 64);

    for (const auto& impl : sha256::Implementations()) {
        if (!impl.supported) continue;
        if (!sha256::SetImplementation(impl.name)) std::abort();
        if (HashSplit(msg, len, split_seed) != want) {
            std::fprintf(stderr, "fuzz: %s digest differs from basic (length %zu, offset %zu)\n", impl.name.c_str(), len, offset);
            std::abort();
        }
        uint32_t s[8];
        std::memcpy(s, init, sizeof(s));
        impl.fn(s, msg, len / 64);
        if (std::memcmp(s, want_state, sizeof(s)) != 0) {
            std::fprintf(stderr, "fuzz: %s transform state differs from basic (%zu blocks, offset %zu)\n", impl.name.c_str(), len / 64, offset);
            std::abort();
        }
    }
    return 0;
}
