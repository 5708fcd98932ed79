// SHA-256 transform with the ARMv8 SHA-256 instructions (FEAT_SHA256).
// Compiled with -march=armv8-a+crypto; call it only when cpu::SHA2 is set.
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
