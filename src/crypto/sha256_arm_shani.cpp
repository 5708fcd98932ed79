// SPDX-License-Identifier: MIT
// The arm_shani kernels, with the ARMv8 SHA-256 instructions (FEAT_SHA256):
// the transform, and SHA256D64 of two inputs at once (arm_shani_2way).
// Compiled with -march=armv8-a+crypto; called only when cpu::SHA2 is set.
//
// The instructions work on the state as two vectors, ABCD and EFGH (lane 0 =
// a and e), and on four schedule words at a time:
//   SHA256H   ABCD, EFGH, WK  -> ABCD after four rounds with W[t]+K[t] in WK
//   SHA256H2  EFGH, ABCD, WK  -> EFGH after the same four rounds (it needs the
//                                ABCD from before them)
//   SHA256SU0 W0, W4          -> W[t] + sigma0(W[t+1]), four lanes
//   SHA256SU1 that, W8, W12   -> W[t+16] = that + W[t+9] + sigma1(W[t+14])
// so sixteen H/H2 pairs make a block, and twelve SU0/SU1 pairs its schedule.
#include <crypto/sha256_kernels.h>
#include <crypto/sha256_constants.h>

#include <arm_neon.h>

namespace {

using sha256::constants::K;

// Sixteen message bytes as four big-endian words; vld1q_u8 accepts any alignment.
inline uint32x4_t LoadBE(const unsigned char* p) { return vreinterpretq_u32_u8(vrev32q_u8(vld1q_u8(p))); }

// Four rounds on (abcd, efgh) with wk = W[t..t+3] + K[t..t+3].
inline void Rounds4(uint32x4_t& abcd, uint32x4_t& efgh, uint32x4_t wk)
{
    const uint32x4_t abcd_in = abcd;
    abcd = vsha256hq_u32(abcd, efgh, wk);
    efgh = vsha256h2q_u32(efgh, abcd_in, wk);
}

// Four rounds with w0 = W[t..t+3], then w0 becomes W[t+16..t+19], computed
// from the window w0, w4, w8, w12 = W[t..t+15] (w0 is not needed after the rounds).
inline void Rounds4Schedule(uint32x4_t& abcd, uint32x4_t& efgh, uint32x4_t& w0, uint32x4_t w4, uint32x4_t w8,
                            uint32x4_t w12, const uint32_t* k)
{
    const uint32x4_t wk = vaddq_u32(w0, vld1q_u32(k));
    w0 = vsha256su1q_u32(vsha256su0q_u32(w0, w4), w8, w12);
    Rounds4(abcd, efgh, wk);
}

} // namespace

void sha256_arm_shani_transform(uint32_t* s, const unsigned char* chunk, size_t blocks)
{
    uint32x4_t abcd = vld1q_u32(s);
    uint32x4_t efgh = vld1q_u32(s + 4);
    while (blocks--) {
        const uint32x4_t abcd_save = abcd, efgh_save = efgh;
        uint32x4_t m0 = LoadBE(chunk), m1 = LoadBE(chunk + 16), m2 = LoadBE(chunk + 32), m3 = LoadBE(chunk + 48);
        // Written out, not looped: the window rotates by renaming, with no copies.
        Rounds4Schedule(abcd, efgh, m0, m1, m2, m3, K + 0);
        Rounds4Schedule(abcd, efgh, m1, m2, m3, m0, K + 4);
        Rounds4Schedule(abcd, efgh, m2, m3, m0, m1, K + 8);
        Rounds4Schedule(abcd, efgh, m3, m0, m1, m2, K + 12);
        Rounds4Schedule(abcd, efgh, m0, m1, m2, m3, K + 16);
        Rounds4Schedule(abcd, efgh, m1, m2, m3, m0, K + 20);
        Rounds4Schedule(abcd, efgh, m2, m3, m0, m1, K + 24);
        Rounds4Schedule(abcd, efgh, m3, m0, m1, m2, K + 28);
        Rounds4Schedule(abcd, efgh, m0, m1, m2, m3, K + 32);
        Rounds4Schedule(abcd, efgh, m1, m2, m3, m0, K + 36);
        Rounds4Schedule(abcd, efgh, m2, m3, m0, m1, K + 40);
        Rounds4Schedule(abcd, efgh, m3, m0, m1, m2, K + 44);
        // W[48..63]: the schedule is complete.
        Rounds4(abcd, efgh, vaddq_u32(m0, vld1q_u32(K + 48)));
        Rounds4(abcd, efgh, vaddq_u32(m1, vld1q_u32(K + 52)));
        Rounds4(abcd, efgh, vaddq_u32(m2, vld1q_u32(K + 56)));
        Rounds4(abcd, efgh, vaddq_u32(m3, vld1q_u32(K + 60)));
        abcd = vaddq_u32(abcd, abcd_save);
        efgh = vaddq_u32(efgh, efgh_save);
        chunk += 64;
    }
    vst1q_u32(s, abcd);
    vst1q_u32(s + 4, efgh);
}

// arm_shani_2way: double SHA-256 of two 64-byte inputs at once.
//
// Each input takes three compressions: the input itself, its padding block
// (a constant, so its W+K is a table), and the 32-byte first digest with its
// padding. SHA256H/SHA256H2 feed each other's results back, so one stream
// leaves the SHA unit idle between dependent instructions; a second,
// independent stream, issued step for step beside the first, fills those
// gaps. Two, not three or four, is a choice made without ARM hardware to
// measure on (doc/arm.md).
namespace {
namespace two_streams {

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

} // namespace two_streams
} // namespace

void sha256_arm_shani_2way_d64(unsigned char* out, const unsigned char* in)
{
    using namespace two_streams;
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
