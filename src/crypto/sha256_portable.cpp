// SPDX-License-Identifier: MIT
// The portable_16way kernels (D64, Lanes, Hash32): the lane algorithm of
// sha256_lanes.h on sixteen lanes of plain integers (GCC/Clang generic
// vectors), the AVX-512 kernels' algorithm and width, built for every CPU.
#include <crypto/sha256_kernels.h>
#include <crypto/sha256_lanes_count.h>
#include <crypto/sha256_lanes_portable.h>

namespace sha256 {

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

// Generic vectors become the baseline ISA's registers: 16 bytes on x86-64
// (SSE2) and aarch64 (Advanced SIMD).
kernel::OpCount kernel::portable_16way_count(Shape shape) { return lanes::Count<lanes::PortableLanes<16>, 16>(shape); }

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
kernel::OpCount kernel::portable_6way_count(Shape shape) { return lanes::Count<lanes::PortableLanes<6>, 16>(shape); }
#endif

} // namespace sha256
