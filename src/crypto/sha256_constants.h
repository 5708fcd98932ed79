// SPDX-License-Identifier: MIT
// The constants of SHA-256 (FIPS 180-4, 4.2.2 and 5.3.3) and compile-time
// schedules of constant blocks, for the C++ kernels. (This project's assembly
// has its own copy of K, and its test oracle an independent one on purpose.)
//
// Everything is in an unnamed namespace: files that include this are compiled
// with different -m/-march flags, and an inline function shared between them
// could be merged by the linker into one built for the wrong CPU.
#ifndef SHA256BENCH_CRYPTO_SHA256_CONSTANTS_H
#define SHA256BENCH_CRYPTO_SHA256_CONSTANTS_H

#include <cstdint>

namespace sha256 {
namespace constants {
namespace {

alignas(16) constexpr uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

//! Initial hash value; as two vectors, ABCD and EFGH.
alignas(16) constexpr uint32_t IV[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c,
    0x1f83d9ab, 0x5be0cd19};

constexpr uint32_t CRotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }
constexpr uint32_t Csigma0(uint32_t x) { return CRotr(x, 7) ^ CRotr(x, 18) ^ (x >> 3); }
constexpr uint32_t Csigma1(uint32_t x) { return CRotr(x, 17) ^ CRotr(x, 19) ^ (x >> 10); }

struct Words64 {
    uint32_t v[64];
};

//! W[i] + K[i] for all 64 rounds of a block whose 16 words are known at compile time.
constexpr Words64 ScheduleplusK(const uint32_t (&m)[16])
{
    Words64 w{};
    for (int i = 0; i < 16; ++i) w.v[i] = m[i];
    for (int i = 16; i < 64; ++i) w.v[i] = Csigma1(w.v[i - 2]) + w.v[i - 7] + Csigma0(w.v[i - 15]) + w.v[i - 16];
    for (int i = 0; i < 64; ++i) w.v[i] += K[i];
    return w;
}

//! The second block of the SHA-256 of any 64-byte message: 0x80, zeros, bit length 512.
constexpr uint32_t PAD64[16] = {0x80000000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 512};
alignas(16) constexpr Words64 PAD64_KW = ScheduleplusK(PAD64);

} // namespace
} // namespace constants
} // namespace sha256

#endif
