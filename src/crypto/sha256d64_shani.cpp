// SHA256D64 and the fixed-size double SHA-256 fast paths with the Intel SHA
// extensions: one SHA-256 per instruction stream, and S independent streams
// interleaved so that each sha256rnds2 waits less on its own previous result.
// Compiled with -msha -msse4.1; called only on CPUs that have both.
#include <crypto/sha256d64.h>

#ifdef SHA256_D64_X86
#include <crypto/sha256_lanes_shani.h>

namespace sha256 {
using namespace shani;

void d64::Shani1(unsigned char* out, const unsigned char* in) { D64<1>(out, in); }
void d64::Shani2(unsigned char* out, const unsigned char* in) { D64<2>(out, in); }
void d64::Shani3(unsigned char* out, const unsigned char* in) { D64<3>(out, in); }
void d64::Shani4(unsigned char* out, const unsigned char* in) { D64<4>(out, in); }

void d64::Double32Shani(unsigned char* out, const unsigned char* in)
{
    // The first SHA-256 is the same one-block hash of 32 bytes as the second.
    State st[1];
    __m128i m[1][4] = {{LoadBE(in), LoadBE(in + 16), _mm_set_epi32(0, 0, 0, static_cast<int>(0x80000000)),
        _mm_set_epi32(256, 0, 0, 0)}};
    st[0] = Initial();
    Block<1>(st, m);
    HashDigests<1>(st);
    StoreDigest(out, st[0]);
}

void d64::Double80Shani(unsigned char* out, const unsigned char* in)
{
    State st[1] = {Initial()};
    __m128i m[1][4] = {{LoadBE(in), LoadBE(in + 16), LoadBE(in + 32), LoadBE(in + 48)}};
    Block<1>(st, m);
    // Bytes 64..79, then 0x80, zeros and the bit length 640.
    __m128i m2[1][4] = {{LoadBE(in + 64), _mm_set_epi32(0, 0, 0, static_cast<int>(0x80000000)), _mm_setzero_si128(),
        _mm_set_epi32(640, 0, 0, 0)}};
    Block<1>(st, m2);
    HashDigests<1>(st);
    StoreDigest(out, st[0]);
}

void d64::TransformShani2(uint32_t* const* s, const unsigned char* const* blocks) { TransformStreams<2>(s, blocks); }
void d64::TransformShani4(uint32_t* const* s, const unsigned char* const* blocks) { TransformStreams<4>(s, blocks); }

} // namespace sha256
#endif
