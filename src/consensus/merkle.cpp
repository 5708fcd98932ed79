#include <consensus/merkle.h>

#include <crypto/sha256.h>

#include <cstring>

uint256 ComputeMerkleRoot(std::vector<uint256> hashes, bool* mutated)
{
    bool mutation = false;
    // Where SHA256D64's row has a kernel for them, the levels of 64 hashes or
    // more in one call: it keeps them in its own layout from level to level.
    if (hashes.size() >= 64) {
        hashes.resize(SHA256D64Levels(hashes[0].data(), hashes.size(), &mutation));
    }
    while (hashes.size() > 1) {
        // Only identical hashes at an even index and the one after it form a pair.
        for (size_t i = 0; i + 1 < hashes.size(); i += 2) {
            if (hashes[i] == hashes[i + 1]) mutation = true;
        }
        if (hashes.size() & 1) hashes.push_back(hashes.back());
        // uint256 is exactly 32 bytes with no padding, so the level is one
        // contiguous array of 64-byte pairs, hashed into its own first half.
        static_assert(sizeof(uint256) == 32, "a level must be contiguous 32-byte hashes");
        SHA256D64(hashes[0].data(), hashes[0].data(), hashes.size() / 2);
        hashes.resize(hashes.size() / 2);
    }
    if (mutated) *mutated = mutation;
    if (hashes.empty()) return uint256();
    return hashes[0];
}
