// SPDX-License-Identifier: MIT
// The avx512_16way and avx512_32way kernels: the lane algorithm of
// sha256_lanes.h in the 32-bit lanes of AVX-512 registers (vprord for the
// rotations, vpternlogd for Ch, Maj and the three-way xors of the Sigma
// functions, vpshufb for the byte swaps): SHA256D64 of sixteen inputs
// (sha256_lanes_avx512.h) or of groups of 32 on two registers a word
// (sha256_lanes_avx512_x2.h) and the levels of a Merkle tree on them
// (sha256_lanes_avx512_merkle.h), the avx512_48way kernel's SHA256D64 of
// groups of 48 on three registers a word (sha256_lanes_avx512_x3.h), and the
// job and second-hash kernels of the multi-buffer hasher on one register a
// word or two (sha256_lanes_avx512_jobs.h). Compiled with -mavx512f -mavx512bw -mavx512vl;
// called only on CPUs and OSes with AVX-512F/BW/VL and the opmask/ZMM state
// enabled in XCR0.

// Under GCC: -O3, and neither the post-allocation scheduler (sched2), which
// interleaves neighbouring rounds, nor the reassociation of each round's adds:
// both put the same operations in a worse order than the source's (the
// measured runs: doc/results/). Debug builds keep their -O0.
#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__)
#pragma GCC optimize("O3", "no-schedule-insns2", "no-tree-reassoc")
#endif

#include <crypto/sha256_kernels.h>

#ifdef SHA256_KERNELS_X86
#define SHA256_LANES_INLINE_BLOCKS 1
#include <crypto/sha256_lanes_avx512.h>
#include <crypto/sha256_lanes_avx512_x2.h>
#include <crypto/sha256_lanes_avx512_jobs.h>
#include <crypto/sha256_lanes_avx512_merkle.h>
#include <crypto/sha256_lanes_avx512_x3.h>
#include <crypto/sha256_lanes_count.h>

// Bitcoin Core's SHA256D64 16-way is this function (contrib/core-export.py).
void sha256::kernel::avx512_16way_d64(unsigned char* out, const unsigned char* in)
{
    sha256::lanes::Lanes<sha256::lanes::Avx512>::D64(out, in);
    _mm256_zeroupper();
}

void sha256::kernel::avx512_16way_hash32(unsigned char* out, const unsigned char* in)
{
    Hash32<Avx512>(out, in);
}

size_t sha256::kernel::avx512_16way_jobs(sha256_jobs::Lane* lane, const sha256_jobs::Job* job, size_t njobs)
{
    return Jobs<Avx512>(lane, job, njobs);
}

void sha256::kernel::avx512_32way_d64(unsigned char* out, const unsigned char* in)
{
    D64TwoSets<Avx512, Avx512x2>(out, in);
    _mm256_zeroupper();
}

// Pipelined from three batches on: with one or two, the pipeline's ends (the
// schedules beside no rounds) made it slower than a call per batch
// (doc/results/2026-11-28-amd-epyc-zen5-log.md).
void sha256::kernel::avx512_32way_d64_batch(unsigned char* out, const unsigned char* in, size_t batches)
{
    if (batches < 3) {
        for (size_t i = 0; i < batches; ++i) D64TwoSets<Avx512, Avx512x2>(out + 32 * 32 * i, in + 64 * 32 * i);
    } else {
        D64Pipelined<Avx512, Avx512x2>(out, in, batches);
    }
    _mm256_zeroupper();
}

size_t sha256::kernel::avx512_32way_merkle(unsigned char* hashes, size_t n, bool* mutated)
{
    const size_t m = MerkleLevels(hashes, n, mutated);
    _mm256_zeroupper();
    return m;
}

void sha256::kernel::avx512_32way_hash32(unsigned char* out, const unsigned char* in)
{
    Hash32<Avx512x2>(out, in);
}

size_t sha256::kernel::avx512_32way_jobs(sha256_jobs::Lane* lane, const sha256_jobs::Job* job, size_t njobs)
{
    return JobsAhead<Avx512, Avx512x2>(lane, job, njobs);
}

sha256::kernel::OpCount sha256::kernel::avx512_16way_count(Shape shape)
{
    return sha256::lanes::Count<Avx512, 64>(shape);
}

sha256::kernel::OpCount sha256::kernel::avx512_32way_count(Shape shape)
{
    // Its D64 and its job kernel's blocks are functions of their own
    // (D64TwoSets, BlockAndNext), counted as they run.
    using sha256::lanes::Counting;
    using One = Counting<Avx512, 64>;
    using Two = Counting<Avx512x2, 64>;
    if (shape == Shape::D64) {
        return sha256::lanes::CountRun([](unsigned char* out, const unsigned char* in) {
            D64TwoSets<One, Two>(out, in);
        }, 32, 64);
    }
    if (shape == Shape::Jobs) {
        return sha256::lanes::CountRun([](unsigned char*, const unsigned char*) {
            Two::V s[8], kw[64], next[64];
            for (auto& x : s) x = {0};
            for (auto& x : kw) x = {0};
            const unsigned char* const blocks[32] = {};
            BlockAndNext<One>(s, kw, blocks, blocks, next);
        }, 32, 64);
    }
    return sha256::lanes::Count<Avx512x2, 64>(shape);
}

void sha256::kernel::avx512_48way_d64(unsigned char* out, const unsigned char* in)
{
    D64Groups<Avx512, AsmBlocks>(out, in, 1, PadKW());
    _mm256_zeroupper();
}

void sha256::kernel::avx512_48way_d64_batch(unsigned char* out, const unsigned char* in, size_t batches)
{
    D64Groups<Avx512, AsmBlocks>(out, in, batches, PadKW());
    _mm256_zeroupper();
}

sha256::kernel::OpCount sha256::kernel::avx512_48way_count(Shape shape)
{
    using One = sha256::lanes::Counting<Avx512, 64>;
    if (shape == Shape::D64) {
        return sha256::lanes::CountRun([](unsigned char* out, const unsigned char* in) {
            One::V pad[64 * 3];
            for (auto& v : pad) v = {0};
            D64Groups<One, ModelBlocks<One>>(out, in, 1, pad);
        }, 48, 64);
    }
    if (shape == Shape::Lanes) { // a block of 48 lanes, its schedule included
        return sha256::lanes::CountRun([](unsigned char*, const unsigned char*) {
            One::V window[64 * 3], kw[64 * 3], s[24];
            for (auto& v : window) v = {0};
            for (auto& v : s) v = {0};
            Schedule<One>(window, kw);
            ModelBlocks<One>::Block(s, kw);
        }, 48, 64);
    }
    return {};
}
#endif
