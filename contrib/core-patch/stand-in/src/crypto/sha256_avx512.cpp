// STAND-IN, NOT FOR UPSTREAM: sha256bench's contrib/core-patch.sh puts this
// file in the series only when the exported kernel is missing (it says so
// loudly). It gives the glue something to compile and test against: sixteen
// SHA256D64 inputs done one at a time by the plain scalar code below, so it
// is slow and measures nothing. The real file (contrib/core-export.py)
// provides the same function.

#ifdef ENABLE_AVX512

#include <cstdint>
#include <cstring>

namespace sha256d64_avx512 {
namespace {

const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
const uint32_t IV[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

uint32_t Rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

// One compression of the big-endian 64-byte block `p` into `h`.
void Compress(uint32_t h[8], const unsigned char* p)
{
    uint32_t w[64];
    for (int t = 0; t < 16; ++t) {
        w[t] = uint32_t{p[4 * t]} << 24 | uint32_t{p[4 * t + 1]} << 16 | uint32_t{p[4 * t + 2]} << 8 | p[4 * t + 3];
    }
    for (int t = 16; t < 64; ++t) {
        w[t] = w[t - 16] + w[t - 7] + (Rotr(w[t - 15], 7) ^ Rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)) +
               (Rotr(w[t - 2], 17) ^ Rotr(w[t - 2], 19) ^ (w[t - 2] >> 10));
    }
    uint32_t v[8];
    std::memcpy(v, h, sizeof(v));
    for (int t = 0; t < 64; ++t) {
        const uint32_t t1 = v[7] + (Rotr(v[4], 6) ^ Rotr(v[4], 11) ^ Rotr(v[4], 25)) + ((v[4] & v[5]) ^ (~v[4] & v[6])) + K[t] + w[t];
        const uint32_t t2 = (Rotr(v[0], 2) ^ Rotr(v[0], 13) ^ Rotr(v[0], 22)) + ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]));
        std::memmove(v + 1, v, 7 * sizeof(uint32_t));
        v[4] += t1;
        v[0] = t1 + t2;
    }
    for (int i = 0; i < 8; ++i) h[i] += v[i];
}

void PutState(unsigned char* out, const uint32_t h[8])
{
    for (int i = 0; i < 32; ++i) out[i] = static_cast<unsigned char>(h[i / 4] >> (24 - 8 * (i % 4)));
}

} // namespace

void Transform_16way(unsigned char* out, const unsigned char* in)
{
    unsigned char hashes[16][32];
    for (int n = 0; n < 16; ++n) {
        unsigned char block[64] = {};
        uint32_t h[8];
        std::memcpy(h, IV, sizeof(h));
        Compress(h, in + 64 * n);
        block[0] = 0x80; // padding of a 64-byte message: 512 bits
        block[62] = 0x02;
        Compress(h, block);
        std::memset(block, 0, sizeof(block));
        PutState(block, h);
        block[32] = 0x80; // padding of a 32-byte message: 256 bits
        block[62] = 0x01;
        std::memcpy(h, IV, sizeof(h));
        Compress(h, block);
        PutState(hashes[n], h);
    }
    std::memcpy(out, hashes, sizeof(hashes)); // all inputs read first: in == out works
}

} // namespace sha256d64_avx512

#endif
