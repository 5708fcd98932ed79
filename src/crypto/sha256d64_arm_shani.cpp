// Double SHA-256 of two 64-byte inputs at once with the ARMv8 SHA-256
// instructions (FEAT_SHA256). Compiled with -march=armv8-a+crypto; call it
// only when cpu::SHA2 is set.
//
// Each input takes three compressions: the input itself, its padding block
// (a constant, so its W+K is a table), and the 32-byte first digest with its
// padding. SHA256H/SHA256H2 feed each other's results back, so one stream
// leaves the SHA unit idle between dependent instructions; a second,
// independent stream, issued step for step beside the first, fills those
// gaps. Two, not three or four, is a choice made without ARM hardware to
// measure on (doc/arm.md).
#include <crypto/sha256_kernels.h>
#include <crypto/sha256_constants.h>

#include <arm_neon.h>

namespace {

using sha256::constants::IV;
using sha256::constants::K;
// W+K of the block that pads a 64-byte message: a compile-time table.
using sha256::constants::PAD64_KW;

// The second message block (the 32-byte digest) ends with 0x80, zeros and the bit length 256.
alignas(16) const uint32_t DIGEST_PAD[8] = {0x80000000, 0, 0, 0, 0, 0, 0, 256};

// Both streams must stay in registers: a call boundary would spill them.
#define ALWAYS_INLINE inline __attribute__((always_inline))

struct Stream {
    uint32x4_t abcd, efgh;
    uint32x4_t m0, m1, m2, m3; // the message block as W[0..3], W[4..7], W[8..11], W[12..15]
};

inline uint32x4_t LoadBE(const unsigned char* p) { return vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p))); }

inline void Rounds4(Stream& x, uint32x4_t wk)
{
    const uint32x4_t abcd_in = x.abcd;
    x.abcd = vsha256hq_u32(x.abcd, x.efgh, wk);
    x.efgh = vsha256h2q_u32(x.efgh, abcd_in, wk);
}

// Four rounds with w0 = W[t..t+3], which then becomes W[t+16..t+19].
inline void Rounds4Schedule(Stream& x, uint32x4_t& w0, uint32x4_t w4, uint32x4_t w8, uint32x4_t w12, int t)
{
    const uint32x4_t wk = vaddq_u32(w0, vld1q_u32(K + t));
    w0 = vsha256su1q_u32(vsha256su0q_u32(w0, w4), w8, w12);
    Rounds4(x, wk);
}

// 64 rounds of each stream over its m0..m3, the two streams step by step.
ALWAYS_INLINE void Compress2(Stream& x, Stream& y)
{
    for (int t = 0; t < 48; t += 16) {
        Rounds4Schedule(x, x.m0, x.m1, x.m2, x.m3, t);
        Rounds4Schedule(y, y.m0, y.m1, y.m2, y.m3, t);
        Rounds4Schedule(x, x.m1, x.m2, x.m3, x.m0, t + 4);
        Rounds4Schedule(y, y.m1, y.m2, y.m3, y.m0, t + 4);
        Rounds4Schedule(x, x.m2, x.m3, x.m0, x.m1, t + 8);
        Rounds4Schedule(y, y.m2, y.m3, y.m0, y.m1, t + 8);
        Rounds4Schedule(x, x.m3, x.m0, x.m1, x.m2, t + 12);
        Rounds4Schedule(y, y.m3, y.m0, y.m1, y.m2, t + 12);
    }
    const uint32x4_t k48 = vld1q_u32(K + 48), k52 = vld1q_u32(K + 52), k56 = vld1q_u32(K + 56),
                     k60 = vld1q_u32(K + 60);
    Rounds4(x, vaddq_u32(x.m0, k48));
    Rounds4(y, vaddq_u32(y.m0, k48));
    Rounds4(x, vaddq_u32(x.m1, k52));
    Rounds4(y, vaddq_u32(y.m1, k52));
    Rounds4(x, vaddq_u32(x.m2, k56));
    Rounds4(y, vaddq_u32(y.m2, k56));
    Rounds4(x, vaddq_u32(x.m3, k60));
    Rounds4(y, vaddq_u32(y.m3, k60));
}

// 64 rounds of each stream over the padding block's precomputed W+K.
ALWAYS_INLINE void CompressPadding2(Stream& x, Stream& y)
{
    for (int t = 0; t < 64; t += 4) {
        const uint32x4_t wk = vld1q_u32(PAD64_KW.v + t);
        Rounds4(x, wk);
        Rounds4(y, wk);
    }
}

inline void StoreBE(unsigned char* p, uint32x4_t v) { vst1q_u8(p, vrev32q_u8(vreinterpretq_u8_u32(v))); }

} // namespace

void sha256_arm_shani_2way_d64(unsigned char* out, const unsigned char* in)
{
    const uint32x4_t iv_abcd = vld1q_u32(IV), iv_efgh = vld1q_u32(IV + 4);
    // Every input byte is loaded before any output byte is stored: out may equal in.
    Stream x{iv_abcd, iv_efgh, LoadBE(in), LoadBE(in + 16), LoadBE(in + 32), LoadBE(in + 48)};
    Stream y{iv_abcd, iv_efgh, LoadBE(in + 64), LoadBE(in + 80), LoadBE(in + 96), LoadBE(in + 112)};

    // First hash, block 1: the input.
    Compress2(x, y);
    x.abcd = vaddq_u32(x.abcd, iv_abcd);
    x.efgh = vaddq_u32(x.efgh, iv_efgh);
    y.abcd = vaddq_u32(y.abcd, iv_abcd);
    y.efgh = vaddq_u32(y.efgh, iv_efgh);

    // First hash, block 2: the padding.
    const uint32x4_t x_abcd = x.abcd, x_efgh = x.efgh, y_abcd = y.abcd, y_efgh = y.efgh;
    CompressPadding2(x, y);
    x.abcd = vaddq_u32(x.abcd, x_abcd);
    x.efgh = vaddq_u32(x.efgh, x_efgh);
    y.abcd = vaddq_u32(y.abcd, y_abcd);
    y.efgh = vaddq_u32(y.efgh, y_efgh);

    // Second hash: the first digest's words are the message words as they are.
    const uint32x4_t pad_lo = vld1q_u32(DIGEST_PAD), pad_hi = vld1q_u32(DIGEST_PAD + 4);
    x.m0 = x.abcd, x.m1 = x.efgh, x.m2 = pad_lo, x.m3 = pad_hi;
    y.m0 = y.abcd, y.m1 = y.efgh, y.m2 = pad_lo, y.m3 = pad_hi;
    x.abcd = y.abcd = iv_abcd;
    x.efgh = y.efgh = iv_efgh;
    Compress2(x, y);

    StoreBE(out, vaddq_u32(x.abcd, iv_abcd));
    StoreBE(out + 16, vaddq_u32(x.efgh, iv_efgh));
    StoreBE(out + 32, vaddq_u32(y.abcd, iv_abcd));
    StoreBE(out + 48, vaddq_u32(y.efgh, iv_efgh));
}
