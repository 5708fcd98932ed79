// SPDX-License-Identifier: MIT
// What the kernel table's assembly reads from C++: the W+K of the padding block
// of any 64-byte message, from the one compile-time schedule of
// sha256_constants.h (so no schedule is written out twice).
#include <crypto/sha256_constants.h>
#include <crypto/sha256_kernels.h>

#include <cstdlib>

#ifdef SHA256_KERNELS_ASM
struct PaddingWK {
    uint32_t v[64];
};
static constexpr PaddingWK CopyPaddingWK()
{
    PaddingWK w{};
    for (int i = 0; i < 64; ++i) w.v[i] = sha256::constants::PAD64_KW.v[i];
    return w;
}
extern "C" {
__attribute__((visibility("hidden"))) extern const PaddingWK sha256_pad64_wk;
alignas(64) const PaddingWK sha256_pad64_wk = CopyPaddingWK();
}
#endif

// Only a constant expression that names a missing kernel reaches this (a
// compile error); kernel::Find at run time with a known name never does.
void sha256::kernel::NotInTheKernelTable() { std::abort(); }
