// The portable kernels of the D64, fixed-size and multi-buffer families (one
// input at a time, and sixteen in portable lanes): the lane algorithm of
// sha256_lanes.h on plain integers, built for every CPU.
#include <crypto/sha256_kernels.h>
#include <crypto/sha256_lanes_portable.h>

namespace sha256 {
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

void kernel::portable_16way_d64(unsigned char* out, const unsigned char* in)
{
    lanes::Lanes<lanes::PortableLanes<16>>::D64(out, in);
}

void kernel::portable_16way_lanes(uint32_t* st, const unsigned char* const* blocks)
{
    lanes::Lanes<lanes::PortableLanes<16>>::Transform(st, blocks);
}

void kernel::portable_16way_hash32(unsigned char* out, const unsigned char* in)
{
    using L = lanes::PortableLanes<16>;
    L::V w[16], s[8];
    for (int j = 0; j < 8; ++j) {
        for (int i = 0; i < L::N; ++i) w[j].v[i] = lanes::LoadBE(in + 32 * i + 4 * j);
    }
    lanes::Lanes<L>::Hash32(s, w);
    L::StoreContiguous(out, s);
}

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

#ifdef SHA256_TEST_EXTRA_ROW
// Test-only (ci/extra-row.sh): a width no other kernel has.
void kernel::portable_6way_d64(unsigned char* out, const unsigned char* in)
{
    lanes::Lanes<lanes::PortableLanes<6>>::D64(out, in);
}
void kernel::portable_6way_lanes(uint32_t* st, const unsigned char* const* blocks)
{
    lanes::Lanes<lanes::PortableLanes<6>>::Transform(st, blocks);
}
#endif

} // namespace sha256
