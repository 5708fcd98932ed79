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
#include <crypto/sha256_arm.h>

#include <arm_neon.h>

namespace {

alignas(16) const uint32_t K[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

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
