// SPDX-License-Identifier: MIT
// The basic kernels, portable C++ for every CPU: the transform (the baseline row
// every other transform is measured against, and the reference the tests
// compare them with; also the public sha256::TransformBasic), and the 1-way
// D64, Double32 and Double80 kernels, the lane algorithm of sha256_lanes.h on
// one lane of plain integers (the last resort of those families).
#include <crypto/common.h>
#include <crypto/sha256_constants.h>
#include <crypto/sha256_kernels.h>
#include <crypto/sha256_lanes_portable.h>

namespace sha256 {
namespace {

using constants::K;

inline uint32_t Ror(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

inline uint32_t Sigma0(uint32_t a) { return Ror(a, 2) ^ Ror(a, 13) ^ Ror(a, 22); }
inline uint32_t Sigma1(uint32_t e) { return Ror(e, 6) ^ Ror(e, 11) ^ Ror(e, 25); }
inline uint32_t sigma0(uint32_t x) { return Ror(x, 7) ^ Ror(x, 18) ^ (x >> 3); }
inline uint32_t sigma1(uint32_t x) { return Ror(x, 17) ^ Ror(x, 19) ^ (x >> 10); }

// One round; the caller rotates the variable names instead of moving values.
// Maj(a,b,c) == b ^ ((a^b) & (b^c)), and b^c is the previous round's a^b, so
// carrying it in `bc` saves an operation per round.
inline void Round(uint32_t a, uint32_t b, uint32_t& d, uint32_t e, uint32_t f, uint32_t g, uint32_t& h,
                  uint32_t kw, uint32_t& bc)
{
    const uint32_t t1 = h + kw + Sigma1(e) + (g ^ (e & (f ^ g)));
    const uint32_t ab = a ^ b;
    const uint32_t t2 = Sigma0(a) + (b ^ (ab & bc));
    bc = ab;
    d += t1;
    h = t1 + t2;
}

// W[i] for i >= 16, in place in a 16-word window.
inline uint32_t Expand(uint32_t& w0, uint32_t w1, uint32_t w9, uint32_t w14)
{
    return w0 += sigma1(w14) + w9 + sigma0(w1);
}

} // namespace

void TransformBasic(uint32_t* s, const unsigned char* chunk, size_t blocks)
{
    while (blocks--) {
        uint32_t a = s[0], b = s[1], c = s[2], d = s[3], e = s[4], f = s[5], g = s[6], h = s[7];
        uint32_t bc = b ^ c;
        uint32_t w0 = ReadBE32(chunk + 0), w1 = ReadBE32(chunk + 4), w2 = ReadBE32(chunk + 8),
                 w3 = ReadBE32(chunk + 12), w4 = ReadBE32(chunk + 16), w5 = ReadBE32(chunk + 20),
                 w6 = ReadBE32(chunk + 24), w7 = ReadBE32(chunk + 28), w8 = ReadBE32(chunk + 32),
                 w9 = ReadBE32(chunk + 36), w10 = ReadBE32(chunk + 40), w11 = ReadBE32(chunk + 44),
                 w12 = ReadBE32(chunk + 48), w13 = ReadBE32(chunk + 52), w14 = ReadBE32(chunk + 56),
                 w15 = ReadBE32(chunk + 60);

        Round(a, b, d, e, f, g, h, K[0] + w0, bc);
        Round(h, a, c, d, e, f, g, K[1] + w1, bc);
        Round(g, h, b, c, d, e, f, K[2] + w2, bc);
        Round(f, g, a, b, c, d, e, K[3] + w3, bc);
        Round(e, f, h, a, b, c, d, K[4] + w4, bc);
        Round(d, e, g, h, a, b, c, K[5] + w5, bc);
        Round(c, d, f, g, h, a, b, K[6] + w6, bc);
        Round(b, c, e, f, g, h, a, K[7] + w7, bc);
        Round(a, b, d, e, f, g, h, K[8] + w8, bc);
        Round(h, a, c, d, e, f, g, K[9] + w9, bc);
        Round(g, h, b, c, d, e, f, K[10] + w10, bc);
        Round(f, g, a, b, c, d, e, K[11] + w11, bc);
        Round(e, f, h, a, b, c, d, K[12] + w12, bc);
        Round(d, e, g, h, a, b, c, K[13] + w13, bc);
        Round(c, d, f, g, h, a, b, K[14] + w14, bc);
        Round(b, c, e, f, g, h, a, K[15] + w15, bc);

        for (int i = 16; i < 64; i += 16) {
            Round(a, b, d, e, f, g, h, K[i + 0] + Expand(w0, w1, w9, w14), bc);
            Round(h, a, c, d, e, f, g, K[i + 1] + Expand(w1, w2, w10, w15), bc);
            Round(g, h, b, c, d, e, f, K[i + 2] + Expand(w2, w3, w11, w0), bc);
            Round(f, g, a, b, c, d, e, K[i + 3] + Expand(w3, w4, w12, w1), bc);
            Round(e, f, h, a, b, c, d, K[i + 4] + Expand(w4, w5, w13, w2), bc);
            Round(d, e, g, h, a, b, c, K[i + 5] + Expand(w5, w6, w14, w3), bc);
            Round(c, d, f, g, h, a, b, K[i + 6] + Expand(w6, w7, w15, w4), bc);
            Round(b, c, e, f, g, h, a, K[i + 7] + Expand(w7, w8, w0, w5), bc);
            Round(a, b, d, e, f, g, h, K[i + 8] + Expand(w8, w9, w1, w6), bc);
            Round(h, a, c, d, e, f, g, K[i + 9] + Expand(w9, w10, w2, w7), bc);
            Round(g, h, b, c, d, e, f, K[i + 10] + Expand(w10, w11, w3, w8), bc);
            Round(f, g, a, b, c, d, e, K[i + 11] + Expand(w11, w12, w4, w9), bc);
            Round(e, f, h, a, b, c, d, K[i + 12] + Expand(w12, w13, w5, w10), bc);
            Round(d, e, g, h, a, b, c, K[i + 13] + Expand(w13, w14, w6, w11), bc);
            Round(c, d, f, g, h, a, b, K[i + 14] + Expand(w14, w15, w7, w12), bc);
            Round(b, c, e, f, g, h, a, K[i + 15] + Expand(w15, w0, w8, w13), bc);
        }

        s[0] += a; s[1] += b; s[2] += c; s[3] += d;
        s[4] += e; s[5] += f; s[6] += g; s[7] += h;
        chunk += 64;
    }
}

namespace {

using One = lanes::Lanes<lanes::PortableLanes<1>>;
using Word = One::V;

void LoadWords(Word* w, const unsigned char* in, int n)
{
    for (int j = 0; j < n; ++j) w[j].v[0] = lanes::LoadBE(in + 4 * j);
}

void StoreDigest(unsigned char* out, const Word* s)
{
    for (int j = 0; j < 8; ++j) lanes::StoreBE(out + 4 * j, s[j].v[0]);
}

} // namespace

void kernel::basic_d64(unsigned char* out, const unsigned char* in) { One::D64(out, in); }

void kernel::basic_double32(unsigned char* out, const unsigned char* in)
{
    Word w[16], s[8];
    LoadWords(w, in, 8);
    One::Hash32(s, w);
    for (int j = 0; j < 8; ++j) w[j] = s[j];
    One::Hash32(s, w);
    StoreDigest(out, s);
}

void kernel::basic_double80(unsigned char* out, const unsigned char* in)
{
    Word w[16], s[8];
    for (int j = 0; j < 8; ++j) s[j].v[0] = lanes::IV[j];
    LoadWords(w, in, 16);
    One::Compress(s, w);
    // Bytes 64..79, then 0x80, zeros and the bit length 640.
    LoadWords(w, in + 64, 4);
    w[4].v[0] = 0x80000000;
    for (int j = 5; j < 15; ++j) w[j].v[0] = 0;
    w[15].v[0] = 640;
    One::Compress(s, w);
    for (int j = 0; j < 8; ++j) w[j] = s[j];
    One::Hash32(s, w);
    StoreDigest(out, s);
}

} // namespace sha256
