// SHA256D64 and the fixed-size double SHA-256 fast paths with the Intel SHA
// extensions: one SHA-256 per instruction stream, and two independent streams
// interleaved so that each sha256rnds2 waits less on its own previous result.
// (Three and four streams: sha256_shani_ring.h, whose layout keeps four
// streams' states in registers, where this template's would not be.)
// Compiled with -msha -msse4.1; called only on CPUs that have both.
#include <crypto/sha256_kernels.h>

#ifdef SHA256_KERNELS_X86
#include <crypto/sha256_lanes_shani.h>

#include <x86intrin.h>

namespace sha256 {
using namespace shani;

void kernel::shani_d64(unsigned char* out, const unsigned char* in) { D64<1>(out, in); }
void kernel::shani_2way_d64(unsigned char* out, const unsigned char* in) { D64<2>(out, in); }

void kernel::shani_double32(unsigned char* out, const unsigned char* in)
{
    // The first SHA-256 is the same one-block hash of 32 bytes as the second.
    const State iv[1] = {Initial()};
    State st[1] = {Initial()};
    __m128i m[1][4] = {{LoadBE(in), LoadBE(in + 16), _mm_set_epi32(0, 0, 0, static_cast<int>(0x80000000)),
        _mm_set_epi32(256, 0, 0, 0)}};
    Rounds64<1, true>(st, m);
    HashDigests<1>(st, iv);
    StoreDigest(out, st[0]);
}

void kernel::shani_double80(unsigned char* out, const unsigned char* in)
{
    State st[1] = {Initial()};
    __m128i m[1][4] = {{LoadBE(in), LoadBE(in + 16), LoadBE(in + 32), LoadBE(in + 48)}};
    Block<1>(st, m);
    // Bytes 64..79, then 0x80, zeros and the bit length 640.
    __m128i m2[1][4] = {{LoadBE(in + 64), _mm_set_epi32(0, 0, 0, static_cast<int>(0x80000000)), _mm_setzero_si128(),
        _mm_set_epi32(640, 0, 0, 0)}};
    const State saved[1] = {st[0]};
    Rounds64<1>(st, m2);
    HashDigests<1>(st, saved);
    StoreDigest(out, st[0]);
}

} // namespace sha256
#endif
