// SPDX-License-Identifier: MIT
// The AVX-512 job kernels' algorithm (SHA256Multi, SHA256DMulti): the lane
// algorithm of sha256_lanes.h on 16 messages in the 32-bit lanes of one
// AVX-512 register a word (Avx512), or on 32 in two (Avx512x2, of
// sha256_lanes_avx512_x2.h); Jobs runs each lane's message and hands the lane
// the next one itself, Hash32 the second hash of 16 or 32 digests at once.
// Only for files compiled with -mavx512f -mavx512bw -mavx512vl (everything is
// file-local, see sha256_constants.h).
#ifndef SHA256BENCH_CRYPTO_SHA256_LANES_AVX512_JOBS_H
#define SHA256BENCH_CRYPTO_SHA256_LANES_AVX512_JOBS_H

#include <crypto/sha256_jobs.h>
#include <crypto/sha256_lanes_avx512.h>
#include <crypto/sha256_lanes_avx512_x2.h>

#include <cstdint>
#include <x86intrin.h>

namespace {

//! Prefetch the 64-byte block at p into L1: two lines, as a block need not be
//! aligned. Forced inline: GCC judges a function that only prefetches to have
//! no effect and drops calls to it (it did so with the 32-lane kernel's).
SHA256_LANES_INLINE void PrefetchBlock(uintptr_t p)
{
    _mm_prefetch(reinterpret_cast<const char*>(p), _MM_HINT_T0);
    _mm_prefetch(reinterpret_cast<const char*>(p + 63), _MM_HINT_T0);
}

//! One block of the 32-lane job kernel with the next block's schedule beside
//! it: the rounds of both sets on their states s (this block's W+K in kw),
//! and the next block's W+K, from the blocks at p[0..31], into kwn. Not
//! inlined: the caller's own values (and s) stay out of its registers.
//! Beside the rounds it prefetches the blocks at ahead[0..31] (nullptr: none),
//! the blocks the call after this one reads, six lanes a loop of eight
//! rounds: the block's loads wait on bytes that are in no cache yet, which
//! prefetches issued just before the call did not hide (and prefetches of
//! lines the lanes would not read slowed the row;
//! doc/results/2026-12-05-amd-epyc-zen5-log.md).
template <class One, class V2>
__attribute__((noinline)) void BlockAndNext(V2* s, const V2* kw, const unsigned char* const* p,
                                            const unsigned char* const* ahead, V2* kwn)
{
    using V1 = typename One::V;
    alignas(64) V1 window[2][64];
#pragma GCC unroll 1
    for (int k = 0; k < 2; ++k) {
        V1 w[16];
        One::LoadBlocks(w, p + 16 * k);
#pragma GCC unroll 16
        for (int i = 0; i < 16; ++i) window[k][i] = w[i];
    }
    // Forced inline, as PrefetchBlock is.
    RoundsAndNext<One>(s, SetsInMemory(kw), window, kwn, [ahead](int n) __attribute__((always_inline)) {
        for (int i = 6 * n; i < 6 * n + 6 && i < 32; ++i) {
            if (ahead[i]) PrefetchBlock(reinterpret_cast<uintptr_t>(ahead[i]));
        }
    });
}

// The few steps that differ between one register a word and two, by the word's type.
SHA256_LANES_INLINE void Load(Z& v, const uint32_t* p) { v = _mm512_load_si512(p); }
SHA256_LANES_INLINE void Load(Pair& v, const uint32_t* p) { v = {_mm512_load_si512(p), _mm512_load_si512(p + 16)}; }
SHA256_LANES_INLINE void Store(uint32_t* p, Z v) { _mm512_store_si512(p, v); }
SHA256_LANES_INLINE void Store(uint32_t* p, const Pair& v)
{
    _mm512_store_si512(p, v.lo);
    _mm512_store_si512(p + 16, v.hi);
}
// Lanes in mask take x.
SHA256_LANES_INLINE Z Blend(Z v, uint32_t mask, Z x) { return _mm512_mask_mov_epi32(v, static_cast<__mmask16>(mask), x); }
SHA256_LANES_INLINE Pair Blend(const Pair& v, uint32_t mask, Z x)
{
    return {Blend(v.lo, mask, x), Blend(v.hi, mask >> 16, x)};
}
// Lane i (of 16 or 32) in every lane.
SHA256_LANES_INLINE Z Pick(Z v, Z i) { return _mm512_permutexvar_epi32(i, v); }
SHA256_LANES_INLINE Z Pick(const Pair& v, Z i) { return _mm512_permutex2var_epi32(v.lo, i, v.hi); }

// Sixteen contiguous 32-byte digests as the first eight words of sixteen lanes, in w[0..7].
SHA256_LANES_INLINE void LoadDigests(Z* w, const unsigned char* in)
{
    const auto load2 = [in](int a, int b) {
        return _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 32 * a))),
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 32 * b)), 1);
    };
#pragma GCC unroll 4
    for (int j = 0; j < 4; ++j) {
        // Digests j, 4 + j and 8 + j, 12 + j; then words 0..3 (4..7) of the
        // four, one per 128-bit lane.
        const Z x = load2(j, 4 + j), y = load2(8 + j, 12 + j);
        w[j] = _mm512_shuffle_i32x4(x, y, 0x88);
        w[4 + j] = _mm512_shuffle_i32x4(x, y, 0xdd);
    }
    // In 128-bit lane q, word j of digests 4q..4q+3: word j of all sixteen in order.
    Avx512::Transpose4(w[0], w[1], w[2], w[3]);
    Avx512::Transpose4(w[4], w[5], w[6], w[7]);
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) w[j] = Avx512::ByteSwap(w[j]);
}

// The second SHA-256 of SHA256DMulti: L::N contiguous 32-byte digests, one
// block each (Hash32's fixed padding words).
template <class L>
SHA256_LANES_INLINE void Hash32(unsigned char* out, const unsigned char* in)
{
    typename L::V w[16], s[8];
    Z lo[8];
    LoadDigests(lo, in);
    if constexpr (L::N == 16) {
#pragma GCC unroll 8
        for (int j = 0; j < 8; ++j) w[j] = lo[j];
    } else {
        Z hi[8];
        LoadDigests(hi, in + 32 * 16);
#pragma GCC unroll 8
        for (int j = 0; j < 8; ++j) w[j] = {lo[j], hi[j]};
    }
    sha256::lanes::Lanes<L>::Hash32(s, w);
    L::StoreContiguous(out, s);
    _mm256_zeroupper();
}

// s += compress(s, w) for the 16-lane job kernel: the rounds of
// sha256_lanes.h, unrolled only as far as the message schedule's window needs
// (16 rounds), not all 64: fully unrolled, the job kernels are more code than
// the instruction cache holds, and ran slower (doc/results/2026-11-27-lab-notes.md).
// The 32-lane kernel runs its blocks with BlockAndNext above: on the words
// of both register sets at once, this form's schedule window spilled.
template <class L>
SHA256_LANES_INLINE void Compress(typename L::V* s, typename L::V* w)
{
    using Lanes = sha256::lanes::Lanes<L>;
    using V = typename L::V;
    using sha256::lanes::K;
    V t[8];
    for (int j = 0; j < 8; ++j) t[j] = s[j];
    sha256::lanes::NoSide none;
#pragma GCC unroll 2
    for (int i = 0; i < 16; i += 8) {
        V kw[8];
#pragma GCC unroll 8
        for (int j = 0; j < 8; ++j) kw[j] = Lanes::Add(w[i + j], Lanes::T(K, i + j));
        Lanes::Round8(t, kw, none, i);
    }
    // A loop of sixteen rounds, so each word's place in the 16-word window is
    // the same in every pass and known when compiled (h + j); with a loop of
    // eight unrolled twice, GCC computed every place at run time.
#pragma GCC unroll 1
    for (int i = 16; i < 64; i += 16) {
#pragma GCC unroll 2
        for (int h = 0; h < 16; h += 8) {
            V kw[8];
#pragma GCC unroll 8
            for (int j = 0; j < 8; ++j) kw[j] = Lanes::Add(Lanes::Expand(w, h + j), Lanes::T(K, i + h + j));
            Lanes::Round8(t, kw, none, i + h);
        }
    }
    for (int j = 0; j < 8; ++j) s[j] = Lanes::Add(s[j], t[j]);
}

// A lane's next 64 bytes when it has none: the 32-lane kernel computes every
// lane's next block ahead, idle ones included (their words are never used).
alignas(64) const unsigned char NO_BLOCK[64] = {};

// The job kernels' lanes between blocks: each lane's cursor and count as
// arrays (8 lanes a register), and its state, a word of all lanes in s[j]
// (one register a word, or two: L::V); its digest's place stays in its Lane.
template <class L>
struct JobLanes {
    using V = typename L::V;
    static constexpr int N = L::N;
    alignas(64) const unsigned char* at[N];
    alignas(64) const unsigned char* end[N];
    alignas(64) const unsigned char* then[N];
    alignas(64) uint64_t left[N];
    alignas(64) const unsigned char* ahead[N];
    V s[8];

    explicit JobLanes(const sha256_jobs::Lane* lane)
    {
        alignas(64) uint32_t st[8 * N];
        for (int i = 0; i < N; ++i) {
            const sha256_jobs::Lane& l = lane[i];
            at[i] = l.c.at;
            end[i] = l.c.end;
            then[i] = l.c.then;
            left[i] = l.left;
            // sha256rnds2's order (abef = f e b a, cdgh = h g d c) -> a..h.
            const uint32_t w[8] = {l.abef[3], l.abef[2], l.cdgh[3], l.cdgh[2], l.abef[1], l.abef[0], l.cdgh[1], l.cdgh[0]};
            for (int j = 0; j < 8; ++j) st[j * N + i] = w[j];
        }
        for (int j = 0; j < 8; ++j) Load(s[j], st + j * N);
    }
    void Leave(sha256_jobs::Lane* lane)
    {
        alignas(64) uint32_t st[8 * N];
        for (int j = 0; j < 8; ++j) Store(st + j * N, s[j]);
        for (int i = 0; i < N; ++i) {
            sha256_jobs::Lane& l = lane[i];
            const uint32_t* w = st + i;
            l.abef[0] = w[5 * N], l.abef[1] = w[4 * N], l.abef[2] = w[1 * N], l.abef[3] = w[0];
            l.cdgh[0] = w[7 * N], l.cdgh[1] = w[6 * N], l.cdgh[2] = w[3 * N], l.cdgh[3] = w[2 * N];
            l.c.at = at[i];
            l.c.end = end[i];
            l.c.then = then[i];
            l.left = left[i];
        }
    }
    //! The lanes (a bit each) whose count is 0.
    uint32_t Idle() const
    {
        const Z zero = _mm512_setzero_si512();
        uint32_t idle = 0;
        for (int h = 0; h < N / 8; ++h) idle |= uint32_t{_mm512_cmpeq_epi64_mask(_mm512_load_si512(left + 8 * h), zero)} << (8 * h);
        return idle;
    }
    //! Of the lanes in `want`, the first ones in lane order, as many as there are jobs in [next, last).
    static uint32_t Takers(uint32_t want, const sha256_jobs::Job* next, const sha256_jobs::Job* last)
    {
        const size_t have = static_cast<size_t>(last - next);
        if (static_cast<size_t>(__builtin_popcount(want)) <= have) return want;
        uint32_t take = 0;
        for (size_t k = 0; k < have; ++k) take |= (want & ~take) & (0u - (want & ~take));
        return take;
    }
    //! Lane i takes `job`: its padding into the lane's own buffer, its cursor and count.
    void Take(sha256_jobs::Lane& l, int i, const sha256_jobs::Job& job)
    {
        // The message's second and third blocks, while its first one is
        // hashed: most of a block's transactions are a few blocks long, and
        // the hardware prefetchers follow a stream only after its first
        // misses. Past the message's whole blocks a prefetch fetches bytes
        // never hashed, never faults, and is computed as an integer, not as a
        // pointer past its object.
        if (job.at) {
            const uintptr_t second = reinterpret_cast<uintptr_t>(job.at) + 64;
            PrefetchBlock(second);
            PrefetchBlock(second + 64);
        }
        _mm512_storeu_si512(l.pad, _mm512_loadu_si512(job.area + 64));
        _mm512_storeu_si512(l.pad + 64, _mm512_loadu_si512(job.area + 128));
        at[i] = job.at ? job.at : l.pad; // no whole block: the padding first
        then[i] = job.then ? job.then : l.pad; // a job that repeats its block
        end[i] = job.end;
        left[i] = job.blocks;
        l.out = job.out;
    }
    //! The lanes in `fresh` start a message: the initial state.
    void Reset(uint32_t fresh)
    {
        for (int j = 0; j < 8; ++j) s[j] = Blend(s[j], fresh, Avx512::Set1(sha256::lanes::IV[j]));
    }
    //! Every cursor a block on, every count one less; the lanes whose count reached 0.
    uint32_t Step()
    {
        const Z byte64 = _mm512_set1_epi64(64), one = _mm512_set1_epi64(1), zero = _mm512_setzero_si512();
        uint32_t ended = 0;
        for (int h = 0; h < N / 8; ++h) {
            Z a = _mm512_add_epi64(_mm512_load_si512(at + 8 * h), byte64);
            a = _mm512_mask_mov_epi64(a, _mm512_cmpeq_epi64_mask(a, _mm512_load_si512(end + 8 * h)), _mm512_load_si512(then + 8 * h));
            _mm512_store_si512(at + 8 * h, a);
            const Z n = _mm512_sub_epi64(_mm512_load_si512(left + 8 * h), one);
            _mm512_store_si512(left + 8 * h, n);
            ended |= uint32_t{_mm512_cmpeq_epi64_mask(n, zero)} << (8 * h);
        }
        return ended;
    }
    //! ahead[i] = the block after the one at lane i's cursor where that is
    //! one of its message's whole blocks, else nullptr (the padding is the
    //! lane's own, an idle lane's block is always the same). Compared as
    //! integers, not as pointers to possibly different objects.
    void Ahead()
    {
        const Z byte64 = _mm512_set1_epi64(64);
        for (int h = 0; h < N / 8; ++h) {
            const Z next = _mm512_add_epi64(_mm512_load_si512(at + 8 * h), byte64);
            const __mmask8 whole = _mm512_cmplt_epu64_mask(next, _mm512_load_si512(end + 8 * h));
            _mm512_store_si512(ahead + 8 * h, _mm512_maskz_mov_epi64(whole, next));
        }
    }
    //! Lane i's eight words, big-endian, to out.
    void Digest(int i, unsigned char* out) const
    {
        const Z lanei = _mm512_set1_epi32(i);
        __m256i d = _mm256_setzero_si256();
        for (int j = 0; j < 8; ++j) d = _mm256_mask_mov_epi32(d, static_cast<__mmask8>(1u << j), _mm512_castsi512_si256(Pick(s[j], lanei)));
        d = _mm512_castsi512_si256(Avx512::ByteSwap(_mm512_castsi256_si512(d)));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), d);
    }
};

// The job kernel (the interface of crypto/sha256_jobs.h, as the SHA-NI job
// kernels): L::N messages in the lanes, and where one ends its digest goes
// out and the lane takes the next job in the same call, the states staying in
// registers. Per block, the cursors and counts step as vectors; only the
// lanes whose message ended go through scalar code. With a kernel call per
// block from the C++ lane scheduler (states through memory, a loop over the
// lanes per block and per message), much of the time went to the scheduler;
// the job kernel made the txids of a block faster (doc/results/2026-11-27-lab-notes.md).
// The 32-lane kernel is JobsAhead, below.
template <class L>
SHA256_LANES_INLINE size_t Jobs(sha256_jobs::Lane* lane, const sha256_jobs::Job* job, size_t njobs)
{
    static_assert(L::N == 16, "32 lanes: JobsAhead");
    using V = typename L::V;
    const sha256_jobs::Job* const last = job + njobs;
    const sha256_jobs::Job* next = job;
    JobLanes<L> j(lane);
    for (;;) {
        // Lanes without a message take the next jobs; stop where one is left without.
        if (const uint32_t idle = j.Idle()) {
            // The lanes that take a job: all idle ones while jobs last, known
            // from the counts alone. Their states are reset before the loop
            // that hands the jobs out, not after it: after it, 32 lanes ran
            // far slower where messages end at different blocks
            // (doc/results/2026-11-27-lab-notes.md).
            const uint32_t fresh = j.Takers(idle, next, last);
            j.Reset(fresh);
            for (uint32_t take = fresh; take; take &= take - 1) j.Take(lane[__builtin_ctz(take)], __builtin_ctz(take), *next++);
            if (idle & ~fresh) break;
        }
        V w[16];
        L::LoadBlocks(w, j.at);
        Compress<L>(j.s, w);
        for (uint32_t ended = j.Step(); ended; ended &= ended - 1) j.Digest(__builtin_ctz(ended), lane[__builtin_ctz(ended)].out);
    }
    j.Leave(lane);
    _mm256_zeroupper();
    return static_cast<size_t>(next - job);
}

//! The 32-lane job kernel: as Jobs, each block's W+K computed a block ahead,
//! beside the rounds of the block before (BlockAndNext). So a lane whose
//! message ends takes its next job before that block's rounds, not after; its
//! digest's place is kept until they are done. W+K of the blocks at the
//! cursors is in kw[cur] while `ahead`; after lanes take jobs at the top of
//! the loop (on entry, or where one was left without, just before the
//! return) it is computed there.
template <class One, class Two>
SHA256_LANES_INLINE size_t JobsAhead(sha256_jobs::Lane* lane, const sha256_jobs::Job* job, size_t njobs)
{
    using V1 = typename One::V;
    using V2 = typename Two::V;
    static_assert(Two::N == 32, "two sets of 16 lanes");
    const sha256_jobs::Job* const last = job + njobs;
    const sha256_jobs::Job* next = job;
    JobLanes<Two> j(lane);
    alignas(64) V2 kw[2][64];
    int cur = 0;
    bool ahead = false;
    unsigned char* out[32];
    for (uint32_t idle = j.Idle();;) {
        if (idle) {
            const uint32_t fresh = j.Takers(idle, next, last);
            j.Reset(fresh);
            for (uint32_t take = fresh; take; take &= take - 1) j.Take(lane[__builtin_ctz(take)], __builtin_ctz(take), *next++);
            if (idle & ~fresh) break;
            ahead = false;
        }
        if (!ahead) {
            for (int k = 0; k < 2; ++k) {
                V1 w[16];
                One::LoadBlocks(w, j.at + 16 * k);
                ScheduleOneSet<One>(kw[cur], k, w);
            }
        }
        // The cursors on to the next block; the lanes whose message ends with
        // this one take their next jobs now (or, with none left, read a block
        // of zeros ahead, and are idle after it).
        const uint32_t ended = j.Step();
        const uint32_t fresh = j.Takers(ended, next, last);
        for (uint32_t e = ended; e; e &= e - 1) {
            const int i = __builtin_ctz(e);
            out[i] = lane[i].out;
            if (fresh >> i & 1) {
                j.Take(lane[i], i, *next++);
            } else {
                j.at[i] = NO_BLOCK;
            }
        }
        j.Ahead();
        BlockAndNext<One>(j.s, kw[cur], j.at, j.ahead, kw[cur ^ 1]);
        cur ^= 1;
        ahead = true;
        for (uint32_t e = ended; e; e &= e - 1) j.Digest(__builtin_ctz(e), out[__builtin_ctz(e)]);
        j.Reset(fresh);
        idle = ended & ~fresh;
    }
    j.Leave(lane);
    _mm256_zeroupper();
    return static_cast<size_t>(next - job);
}

} // namespace

#endif
