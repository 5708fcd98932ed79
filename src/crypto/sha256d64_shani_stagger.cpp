// SPDX-License-Identifier: MIT
// SHA256D64 on five inputs at once with five SHA-NI streams in two staggered
// halves of two and three (sha256_shani_stagger.h), one batch of five a call
// or many. Compiled with -msha -msse4.1; called only on CPUs that have both.
#include <crypto/sha256_kernels.h>

#ifdef SHA256_KERNELS_X86
#include <crypto/sha256_shani_stagger.h>

void sha256::kernel::shani_5way_d64(unsigned char* out, const unsigned char* in)
{
    sha256::shani_stagger::D64<2, 3>(out, in, 1);
}

void sha256::kernel::shani_5way_d64_batch(unsigned char* out, const unsigned char* in, size_t batches)
{
    sha256::shani_stagger::D64<2, 3>(out, in, batches);
}
#endif
