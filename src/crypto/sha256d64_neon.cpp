// Double SHA-256 of four 64-byte inputs at once with plain Advanced SIMD
// (ASIMD/NEON): one input per 32-bit lane, every SHA-256 operation done on
// four lanes. For aarch64 CPUs without the SHA-256 instructions, such as
// the Raspberry Pi 4's Cortex-A72. Needs cpu::ASIMD only (baseline on
// aarch64, so this file takes the default flags).
#include <crypto/sha256_arm.h>

#include <arm_neon.h>

namespace {

constexpr uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

constexpr uint32_t IV[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
    0x5be0cd19};

struct Table {
    uint32_t v[64];
};

constexpr uint32_t RorScalar(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

// W[t] + K[t] of the block that pads a 64-byte message (0x80, zeros, bit
// length 512): input-independent, so computed by the compiler.
constexpr Table PaddingWK()
{
    uint32_t w[64] = {0x80000000, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 512};
    for (int t = 16; t < 64; ++t) {
        const uint32_t s0 = RorScalar(w[t - 15], 7) ^ RorScalar(w[t - 15], 18) ^ (w[t - 15] >> 3);
        const uint32_t s1 = RorScalar(w[t - 2], 17) ^ RorScalar(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    Table out{};
    for (int t = 0; t < 64; ++t) out.v[t] = w[t] + K[t];
    return out;
}

constexpr Table PADDING_WK = PaddingWK();

#define ALWAYS_INLINE inline __attribute__((always_inline))

using V = uint32x4_t;

// Rotate right: shift left, then shift-right-and-insert the low bits (SLI/SRI
// pair, two instructions instead of three).
template <int n>
ALWAYS_INLINE V Ror(V x)
{
    return vsriq_n_u32(vshlq_n_u32(x, 32 - n), x, n);
}

ALWAYS_INLINE V Xor3(V a, V b, V c) { return veorq_u32(veorq_u32(a, b), c); }
ALWAYS_INLINE V Add(V a, V b) { return vaddq_u32(a, b); }
ALWAYS_INLINE V Sigma0(V a) { return Xor3(Ror<2>(a), Ror<13>(a), Ror<22>(a)); }
ALWAYS_INLINE V Sigma1(V e) { return Xor3(Ror<6>(e), Ror<11>(e), Ror<25>(e)); }
ALWAYS_INLINE V sigma0(V x) { return Xor3(Ror<7>(x), Ror<18>(x), vshrq_n_u32(x, 3)); }
ALWAYS_INLINE V sigma1(V x) { return Xor3(Ror<17>(x), Ror<19>(x), vshrq_n_u32(x, 10)); }
// Ch(e,f,g) is a bitwise select by e; Maj(a,b,c) is c where a and b differ, else b.
ALWAYS_INLINE V Ch(V e, V f, V g) { return vbslq_u32(e, f, g); }
ALWAYS_INLINE V Maj(V a, V b, V c) { return vbslq_u32(veorq_u32(a, b), c, b); }

// One round; the caller rotates the names instead of moving the values.
ALWAYS_INLINE void Round(V a, V b, V c, V& d, V e, V f, V g, V& h, V kw)
{
    const V t1 = Add(Add(h, kw), Add(Sigma1(e), Ch(e, f, g)));
    const V t2 = Add(Sigma0(a), Maj(a, b, c));
    d = Add(d, t1);
    h = Add(t1, t2);
}

struct State {
    V s[8];
};

// Sixteen rounds; kw(i) gives W[t+i] + K[t+i].
template <typename KW>
ALWAYS_INLINE void Rounds16(State& x, KW kw)
{
    V& a = x.s[0]; V& b = x.s[1]; V& c = x.s[2]; V& d = x.s[3];
    V& e = x.s[4]; V& f = x.s[5]; V& g = x.s[6]; V& h = x.s[7];
    Round(a, b, c, d, e, f, g, h, kw(0));
    Round(h, a, b, c, d, e, f, g, kw(1));
    Round(g, h, a, b, c, d, e, f, kw(2));
    Round(f, g, h, a, b, c, d, e, kw(3));
    Round(e, f, g, h, a, b, c, d, kw(4));
    Round(d, e, f, g, h, a, b, c, kw(5));
    Round(c, d, e, f, g, h, a, b, kw(6));
    Round(b, c, d, e, f, g, h, a, kw(7));
    Round(a, b, c, d, e, f, g, h, kw(8));
    Round(h, a, b, c, d, e, f, g, kw(9));
    Round(g, h, a, b, c, d, e, f, kw(10));
    Round(f, g, h, a, b, c, d, e, kw(11));
    Round(e, f, g, h, a, b, c, d, kw(12));
    Round(d, e, f, g, h, a, b, c, kw(13));
    Round(c, d, e, f, g, h, a, b, kw(14));
    Round(b, c, d, e, f, g, h, a, kw(15));
}

// The next sixteen schedule words, in place.
ALWAYS_INLINE void Expand16(V* w)
{
    for (int i = 0; i < 16; ++i) {
        w[i] = Add(Add(w[i], sigma0(w[(i + 1) & 15])), Add(w[(i + 9) & 15], sigma1(w[(i + 14) & 15])));
    }
}

// 64 rounds over the message w[0..15] (consumed), added into x.
ALWAYS_INLINE void Compress(State& x, V* w)
{
    State y = x;
    for (int t = 0; t < 64; t += 16) {
        if (t) Expand16(w);
        Rounds16(y, [&](int i) { return Add(w[i], vdupq_n_u32(K[t + i])); });
    }
    for (int i = 0; i < 8; ++i) x.s[i] = Add(x.s[i], y.s[i]);
}

// 64 rounds over the padding block's precomputed W+K, added into x.
ALWAYS_INLINE void CompressPadding(State& x)
{
    State y = x;
    for (int t = 0; t < 64; t += 16) {
        Rounds16(y, [&](int i) { return vdupq_n_u32(PADDING_WK.v[t + i]); });
    }
    for (int i = 0; i < 8; ++i) x.s[i] = Add(x.s[i], y.s[i]);
}

// 4x4 transpose of 32-bit elements: rows become columns.
ALWAYS_INLINE void Transpose(V& r0, V& r1, V& r2, V& r3)
{
    const V t0 = vtrn1q_u32(r0, r1), t1 = vtrn2q_u32(r0, r1), t2 = vtrn1q_u32(r2, r3), t3 = vtrn2q_u32(r2, r3);
    r0 = vreinterpretq_u32_u64(vtrn1q_u64(vreinterpretq_u64_u32(t0), vreinterpretq_u64_u32(t2)));
    r1 = vreinterpretq_u32_u64(vtrn1q_u64(vreinterpretq_u64_u32(t1), vreinterpretq_u64_u32(t3)));
    r2 = vreinterpretq_u32_u64(vtrn2q_u64(vreinterpretq_u64_u32(t0), vreinterpretq_u64_u32(t2)));
    r3 = vreinterpretq_u32_u64(vtrn2q_u64(vreinterpretq_u64_u32(t1), vreinterpretq_u64_u32(t3)));
}

ALWAYS_INLINE V LoadBE(const unsigned char* p) { return vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p))); }
ALWAYS_INLINE void StoreBE(unsigned char* p, V v) { vst1q_u8(p, vrev32q_u8(vreinterpretq_u8_u32(v))); }

} // namespace

void sha256d64_neon_4way(unsigned char* out, const unsigned char* in)
{
    // w[j] holds word j of all four inputs (lane i = input i). Every input
    // byte is loaded before any output byte is stored: out may equal in.
    V w[16];
    for (int j = 0; j < 16; j += 4) {
        V r0 = LoadBE(in + j * 4), r1 = LoadBE(in + 64 + j * 4), r2 = LoadBE(in + 128 + j * 4),
          r3 = LoadBE(in + 192 + j * 4);
        Transpose(r0, r1, r2, r3);
        w[j] = r0, w[j + 1] = r1, w[j + 2] = r2, w[j + 3] = r3;
    }

    State x;
    for (int i = 0; i < 8; ++i) x.s[i] = vdupq_n_u32(IV[i]);
    Compress(x, w);
    CompressPadding(x);

    // Second hash: the first digest (its words as they are), 0x80, zeros, bit length 256.
    for (int i = 0; i < 8; ++i) w[i] = x.s[i];
    w[8] = vdupq_n_u32(0x80000000);
    for (int i = 9; i < 15; ++i) w[i] = vdupq_n_u32(0);
    w[15] = vdupq_n_u32(256);
    for (int i = 0; i < 8; ++i) x.s[i] = vdupq_n_u32(IV[i]);
    Compress(x, w);

    // Back from one word per vector to one digest per 32 bytes.
    Transpose(x.s[0], x.s[1], x.s[2], x.s[3]);
    Transpose(x.s[4], x.s[5], x.s[6], x.s[7]);
    for (int i = 0; i < 4; ++i) {
        StoreBE(out + 32 * i, x.s[i]);
        StoreBE(out + 32 * i + 16, x.s[4 + i]);
    }
}
