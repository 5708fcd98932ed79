// Double SHA-256 of four 64-byte inputs at once with plain Advanced SIMD
// (ASIMD/NEON): one input per 32-bit lane, every SHA-256 operation done on
// four lanes. For aarch64 CPUs without the SHA-256 instructions, such as
// the Raspberry Pi 4's Cortex-A72. Needs cpu::ASIMD only (baseline on
// aarch64, so this file takes the default flags).
#include <crypto/sha256_kernels.h>
#include <crypto/sha256_constants.h>

#include <arm_neon.h>

namespace {

using sha256::constants::IV;
using sha256::constants::K;
// W+K of the block that pads a 64-byte message: a compile-time table.
using sha256::constants::PAD64_KW;

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
        Rounds16(y, [&](int i) { return vdupq_n_u32(PAD64_KW.v[t + i]); });
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

void sha256_neon_4way_d64(unsigned char* out, const unsigned char* in)
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
