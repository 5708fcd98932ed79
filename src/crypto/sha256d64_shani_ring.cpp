// SPDX-License-Identifier: MIT
// SHA256D64 on three and four inputs at once with as many SHA-NI streams
// (sha256_shani_ring.h says how they stay in registers). Compiled with -msha
// -msse4.1; called only on CPUs that have both.
#include <crypto/sha256_kernels.h>

#ifdef SHA256_KERNELS_X86
#include <crypto/sha256_shani_ring.h>


void sha256::kernel::shani_3way_d64(unsigned char* out, const unsigned char* in)
{
    sha256::shani_ring::D64<3>(out, in);
}

// Bitcoin Core's SHA256D64 4-way on SHA-NI is this function (contrib/core-export.py).
void sha256::kernel::shani_4way_d64(unsigned char* out, const unsigned char* in)
{
    sha256::shani_ring::D64<4>(out, in);
}

#endif
