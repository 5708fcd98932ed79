// SPDX-License-Identifier: MIT
// The SHA-NI job kernels in C++ (the interface of crypto/sha256_jobs.h): S
// streams, each hashing one message and, where it ends, storing the digest and
// taking the next job itself. Two streams interleave instruction by
// instruction (sha256_x86_shani_streams.h); four as the 4-way D64 does, with
// the states in registers and the message windows in a ring
// (sha256_x86_shani_ring.h): laid out as two, four spill and ran slower than
// two (doc/results/2026-11-27-lab-notes.md). The job interface keeps a
// stream's state in sha256rnds2's order, as the vector lanes' kernels hand it
// over, so a message a vector kernel started can end here. Only for files
// compiled with -msha -msse4.1 (everything is file-local, see sha256_lanes.h).
#ifndef SHA256BENCH_CRYPTO_SHA256_X86_SHANI_JOBS_H
#define SHA256BENCH_CRYPTO_SHA256_X86_SHANI_JOBS_H

#include <crypto/sha256_jobs.h>
#include <crypto/sha256_x86_shani_ring.h>
#include <crypto/sha256_x86_shani_streams.h>

#include <cstddef>
#include <cstring>
#include <immintrin.h>

namespace sha256 {
namespace shani_jobs {
namespace {

// What the job kernels of both layouts share: each stream's cursor and block
// count, and the jobs they take. The states are the kernels' own.
template <int S>
struct Streams {
    sha256_jobs::Lane* const lane;
    const sha256_jobs::Job* const first;
    const sha256_jobs::Job* const last;
    const sha256_jobs::Job* next;
    const unsigned char* at[S];
    const unsigned char* end[S];
    const unsigned char* then[S];
    size_t left[S];

    SHA256_LANES_INLINE Streams(sha256_jobs::Lane* l, const sha256_jobs::Job* job, size_t njobs)
        : lane{l}, first{job}, last{job + njobs}, next{job}
    {
#pragma GCC unroll 16
        for (int s = 0; s < S; ++s) {
            at[s] = lane[s].c.at;
            end[s] = lane[s].c.end;
            then[s] = lane[s].c.then;
            left[s] = lane[s].left;
        }
    }

    // Streams without a message take the next jobs (fresh(s): reset its
    // state); false where one is left without.
    template <class Fresh>
    SHA256_LANES_INLINE bool Take(Fresh fresh)
    {
        bool starved = false;
#pragma GCC unroll 16
        for (int s = 0; s < S; ++s) {
            if (left[s]) continue;
            if (next == last) {
                starved = true;
                continue;
            }
            std::memcpy(lane[s].pad, next->area + 64, sizeof(lane[s].pad));
            at[s] = next->at ? next->at : lane[s].pad; // no whole block: the padding first
            then[s] = next->then ? next->then : lane[s].pad; // a job that repeats its block
            end[s] = next->end;
            left[s] = next->blocks;
            lane[s].out = next->out;
            fresh(s);
            ++next;
        }
        return !starved;
    }

    // After a block on every stream: each steps on; ended(s, out) where its message ends.
    template <class Ended>
    SHA256_LANES_INLINE void Step(Ended ended)
    {
#pragma GCC unroll 16
        for (int s = 0; s < S; ++s) {
            at[s] += 64;
            if (at[s] == end[s]) at[s] = then[s];
            if (--left[s] == 0) ended(s, lane[s].out);
        }
    }

    // The cursors back to the lanes (the states are the kernel's); the jobs taken.
    SHA256_LANES_INLINE size_t Save()
    {
#pragma GCC unroll 16
        for (int s = 0; s < S; ++s) {
            lane[s].c.at = at[s];
            lane[s].c.end = end[s];
            lane[s].c.then = then[s];
            lane[s].left = left[s];
        }
        return static_cast<size_t>(next - first);
    }
};

} // namespace
} // namespace shani_jobs

namespace shani {
namespace {

template <int S>
SHA256_LANES_INLINE size_t Jobs(sha256_jobs::Lane* lane, const sha256_jobs::Job* job, size_t njobs)
{
    shani_jobs::Streams<S> js(lane, job, njobs);
    State st[S];
    for (int s = 0; s < S; ++s) st[s] = {Load(lane[s].abef), Load(lane[s].cdgh)};
    while (js.Take([&](int s) { st[s] = Initial(); })) {
        __m128i m[S][4];
#pragma GCC unroll 4
        for (int s = 0; s < S; ++s) {
#pragma GCC unroll 4
            for (int q = 0; q < 4; ++q) m[s][q] = LoadBE(js.at[s] + 16 * q);
        }
        Block<S>(st, m);
        js.Step([&](int s, unsigned char* out) { StoreDigest(out, st[s]); });
    }
    for (int s = 0; s < S; ++s) {
        Store(lane[s].abef, st[s].abef);
        Store(lane[s].cdgh, st[s].cdgh);
    }
    return js.Save();
}

} // namespace
} // namespace shani

namespace shani_ring {
namespace {

template <int S>
SHA256_RING_INLINE size_t Jobs(sha256_jobs::Lane* lane, const sha256_jobs::Job* job, size_t njobs)
{
    shani_jobs::Streams<S> js(lane, job, njobs);
    __m128i abef[S], cdgh[S], lw[S];
    alignas(64) __m128i ring[S][4];
    alignas(64) __m128i saved[S][2];
    SHA256_RING_UNROLL
    for (int s = 0; s < S; ++s) {
        abef[s] = Load(lane[s].abef);
        cdgh[s] = Load(lane[s].cdgh);
    }
    while (js.Take([&](int s) {
        abef[s] = Load(TABLES.iv_abef);
        cdgh[s] = Load(TABLES.iv_cdgh);
    })) {
        SHA256_RING_UNROLL
        for (int s = 0; s < S; ++s) {
            Put(saved[s][0], abef[s]);
            Put(saved[s][1], cdgh[s]);
        }
        MessageBlock<S, Source::Input>(abef, cdgh, ring, lw, js.at);
        SHA256_RING_UNROLL
        for (int s = 0; s < S; ++s) {
            abef[s] = _mm_add_epi32(abef[s], saved[s][0]);
            cdgh[s] = _mm_add_epi32(cdgh[s], saved[s][1]);
        }
        js.Step([&](int s, unsigned char* out) { shani::StoreDigest(out, {abef[s], cdgh[s]}); });
    }
    SHA256_RING_UNROLL
    for (int s = 0; s < S; ++s) {
        _mm_store_si128(reinterpret_cast<__m128i*>(lane[s].abef), abef[s]);
        _mm_store_si128(reinterpret_cast<__m128i*>(lane[s].cdgh), cdgh[s]);
    }
    return js.Save();
}

} // namespace
} // namespace shani_ring
} // namespace sha256

#endif
