// SPDX-License-Identifier: MIT
// The C++ kernels with the Intel SHA extensions (the shani, shani_2way ...
// shani_5way sets; their Transform, Hash32 and Jobs kernels are assembly,
// sha256_x86_shani.asm and sha256_x86_shani_multi.asm, with the Jobs kernels'
// C++ twins here as shani_2way_intrinsics and shani_4way_intrinsics). One
// SHA-256 is one chain of dependent sha256rnds2, so these interleave
// independent streams: one or two instruction by instruction
// (sha256_x86_shani_streams.h; the job kernels, sha256_x86_shani_jobs.h),
// three or four with every state kept in registers (sha256_x86_shani_ring.h),
// five in two staggered halves, many batches a call (sha256_x86_shani_stagger.h).
// Compiled with -msha -msse4.1; called only on CPUs that have both.
#include <crypto/sha256_kernels.h>

#ifdef SHA256_KERNELS_X86
#include <crypto/sha256_x86_shani_jobs.h>
#include <crypto/sha256_x86_shani_ring.h>
#include <crypto/sha256_x86_shani_stagger.h>
#include <crypto/sha256_x86_shani_streams.h>

#include <x86intrin.h>

void sha256::kernel::shani_d64(unsigned char* out, const unsigned char* in)
{
    sha256::shani::D64<1>(out, in);
}

void sha256::kernel::shani_2way_d64(unsigned char* out, const unsigned char* in)
{
    sha256::shani::D64<2>(out, in);
}

void sha256::kernel::shani_double32(unsigned char* out, const unsigned char* in)
{
    using namespace sha256::shani;
    // The first SHA-256 is the same one-block hash of 32 bytes as the second.
    const State iv[1] = {Initial()};
    State st[1] = {Initial()};
    __m128i m[1][4] = {{LoadBE(in), LoadBE(in + 16), _mm_set_epi32(0, 0, 0, static_cast<int>(0x80000000)),
        _mm_set_epi32(256, 0, 0, 0)}};
    Rounds64<1, true>(st, m);
    HashDigests<1>(st, iv);
    StoreDigest(out, st[0]);
}

void sha256::kernel::shani_double80(unsigned char* out, const unsigned char* in)
{
    using namespace sha256::shani;
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

void sha256::kernel::shani_3way_d64(unsigned char* out, const unsigned char* in)
{
    sha256::shani_ring::D64<3>(out, in);
}

// Bitcoin Core's SHA256D64 4-way on SHA-NI is this function (contrib/core-export.py).
void sha256::kernel::shani_4way_d64(unsigned char* out, const unsigned char* in)
{
    sha256::shani_ring::D64<4>(out, in);
}

void sha256::kernel::shani_5way_d64(unsigned char* out, const unsigned char* in)
{
    sha256::shani_stagger::D64<2, 3>(out, in, 1);
}

// Bitcoin Core's SHA256D64 5-way batches on SHA-NI are this function (contrib/core-export.py).
void sha256::kernel::shani_5way_d64_batch(unsigned char* out, const unsigned char* in, size_t batches)
{
    sha256::shani_stagger::D64<2, 3>(out, in, batches);
}

// Bitcoin Core's SHA256DMulti ends the messages its AVX-512 lanes leave
// behind on these (contrib/core-export.py).
size_t sha256::kernel::shani_2way_intrinsics_jobs(sha256_jobs::Lane* lane, const sha256_jobs::Job* job, size_t njobs)
{
    return sha256::shani::Jobs<2>(lane, job, njobs);
}

size_t sha256::kernel::shani_4way_intrinsics_jobs(sha256_jobs::Lane* lane, const sha256_jobs::Job* job, size_t njobs)
{
    return sha256::shani_ring::Jobs<4>(lane, job, njobs);
}
#endif
