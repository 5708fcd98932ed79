// SPDX-License-Identifier: MIT
// SHA256D64 of S independent 64-byte inputs with the Intel SHA extensions, S
// streams interleaved stream by stream within each quad of rounds, for S of
// three and more. Only for files compiled with -msha -msse4.1 (everything is
// file-local, see sha256_constants.h).
//
// One stream is a chain of dependent sha256rnds2, so a SHA unit that takes a
// new one before the last is done needs several streams to be kept busy. Their
// working set (two state registers and a 16-word message window each) does not
// fit in 16 xmm registers, and how it is laid out decides what compilers make
// of it:
//  - every loop over streams and quads is unrolled before GCC turns arrays
//    into scalars (#pragma GCC unroll): a rolled `for (s < S)` leaves the
//    states in a stack array that every sha256rnds2 reads and writes;
//  - only each stream's newest message quad is a value; the three older ones
//    live in a 64-byte ring on the stack, as the states saved for a block's
//    feed-forward do, each store followed by an empty asm with a "+m" operand,
//    so that the compiler keeps them in memory rather than spilling and copying
//    a working set of 8 + 16 vectors.
// Then g++ 12 and clang 14 both keep every state in registers (what each
// layout cost, measured: doc/results/2026-11-27-lab-notes.md).
#ifndef SHA256BENCH_CRYPTO_SHA256_X86_SHANI_RING_H
#define SHA256BENCH_CRYPTO_SHA256_X86_SHANI_RING_H

#include <crypto/sha256_constants.h>

#include <cstdint>
#include <immintrin.h>
#include <type_traits>

#if defined(__GNUC__)
#define SHA256_RING_INLINE inline __attribute__((always_inline))
#else
#define SHA256_RING_INLINE inline
#endif
#define SHA256_RING_UNROLL _Pragma("GCC unroll 16")

namespace sha256 {
namespace shani_ring {
namespace {

using constants::IV;
using constants::K;
using constants::PAD64_KW;

// The constants in the layouts the SHA instructions take them.
struct Tables {
    uint32_t pad64_pairs[32][4]; //!< the padding block's W+K, two rounds an entry, in lanes 0 and 1
    uint32_t pad32_wk[2][4];     //!< the second hash's fixed words 8..15, plus K
    uint32_t iv_abef[4], iv_cdgh[4]; //!< IV as sha256rnds2 holds a state: ABEF = f e b a, CDGH = h g d c
};
constexpr Tables MakeTables()
{
    Tables t{};
    for (int i = 0; i < 32; ++i) {
        t.pad64_pairs[i][0] = PAD64_KW.v[2 * i];
        t.pad64_pairs[i][1] = PAD64_KW.v[2 * i + 1];
    }
    const uint32_t pad32[8] = {0x80000000, 0, 0, 0, 0, 0, 0, 256};
    for (int i = 0; i < 8; ++i) t.pad32_wk[i / 4][i % 4] = pad32[i] + K[8 + i];
    const uint32_t abef[4] = {IV[5], IV[4], IV[1], IV[0]}, cdgh[4] = {IV[7], IV[6], IV[3], IV[2]};
    for (int i = 0; i < 4; ++i) t.iv_abef[i] = abef[i], t.iv_cdgh[i] = cdgh[i];
    return t;
}
alignas(64) constexpr Tables TABLES = MakeTables();

SHA256_RING_INLINE __m128i Load(const void* p) { return _mm_load_si128(static_cast<const __m128i*>(p)); }

// Four big-endian message words -> lanes 0..3.
SHA256_RING_INLINE __m128i LoadBE(const unsigned char* p)
{
    return _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p)),
                            _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3));
}

// A stack slot the compiler must treat as memory: stored, then opaque to it
// (the empty asm emits nothing).
SHA256_RING_INLINE void Put(__m128i& slot, __m128i v)
{
    slot = v;
#if defined(__GNUC__)
    __asm__("" : "+m"(slot));
#endif
}

// W[4q..4q+3] from the ring (quads q-4..q-2) and the newest quad w1 = W(q-1).
SHA256_RING_INLINE __m128i Schedule(const __m128i* ring, __m128i w1, int q)
{
    const __m128i t = _mm_sha256msg1_epu32(ring[q & 3], ring[(q + 1) & 3]);
    return _mm_sha256msg2_epu32(_mm_add_epi32(t, _mm_alignr_epi8(w1, ring[(q + 2) & 3], 4)), w1);
}

// The same where words 8..15 are a 32-byte message's padding: for q = 4,
// W[9..12] are zero; for q = 6, sha256msg1 of W[8..15] would return W[8..11]
// unchanged (one sha256msg1, which shares the unit with the rounds, fewer).
SHA256_RING_INLINE __m128i SchedulePad32(const __m128i* ring, __m128i w1, int q)
{
    if (q == 4) return _mm_sha256msg2_epu32(_mm_sha256msg1_epu32(ring[0], ring[1]), w1);
    if (q == 6) return _mm_sha256msg2_epu32(_mm_add_epi32(ring[2], _mm_alignr_epi8(w1, ring[0], 4)), w1);
    return Schedule(ring, w1, q);
}

SHA256_RING_INLINE void Rounds4(__m128i& abef, __m128i& cdgh, __m128i wk)
{
    cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk); // the old ABEF is the new CDGH
    abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0e));
}

enum class Source { Input, Digest };

// Message quad q of stream s: loaded, taken from the ring, or scheduled (the
// ring keeps it while a later quad of the block reads it).
template <Source SRC>
SHA256_RING_INLINE __m128i Quad(__m128i* ring, __m128i lw, const unsigned char* in, int q)
{
    __m128i w;
    if (q >= 4) w = SRC == Source::Digest ? SchedulePad32(ring, lw, q) : Schedule(ring, lw, q);
    else if (SRC == Source::Input) w = LoadBE(in + 16 * q);
    else w = q == 0 ? lw : ring[q];
    if (q <= 13 && (SRC == Source::Input || q >= 4)) Put(ring[q & 3], w);
    return w;
}

// Where stream s's input block is: 64 bytes apart from in, or at in[s] (the
// job kernels). A template, so that a file using one form has no unused other.
template <class In>
SHA256_RING_INLINE const unsigned char* BlockOf(In in, int s)
{
    if constexpr (std::is_convertible_v<In, const unsigned char*>) {
        return in + 64 * s;
    } else {
        return in[s];
    }
}

// 64 rounds on every stream. Input: the block is BlockOf(in, s). Digest: the
// second hash's block, whose W0..3 is lw[s], W4..7 ring[s][1] and W8..15 the
// fixed padding of a 32-byte message. In its turn a stream runs the rounds of
// quad q, then gets quad q + 1, so the rounds read a quad computed a turn
// earlier rather than wait on its sha256msg2.
template <int S, Source SRC, class In>
SHA256_RING_INLINE void MessageBlock(__m128i* abef, __m128i* cdgh, __m128i (*ring)[4], __m128i* lw, In in)
{
    SHA256_RING_UNROLL
    for (int s = 0; s < S; ++s) lw[s] = Quad<SRC>(ring[s], lw[s], BlockOf(in, s), 0);
    SHA256_RING_UNROLL
    for (int q = 0; q < 16; ++q) {
        SHA256_RING_UNROLL
        for (int s = 0; s < S; ++s) {
            const bool pad = SRC == Source::Digest && (q == 2 || q == 3);
            Rounds4(abef[s], cdgh[s], pad ? Load(TABLES.pad32_wk[q - 2]) : _mm_add_epi32(lw[s], Load(K + 4 * q)));
            if (q < 15) lw[s] = Quad<SRC>(ring[s], lw[s], BlockOf(in, s), q + 1);
        }
    }
}

// The padding block of a 64-byte message: every W+K a constant.
template <int S>
SHA256_RING_INLINE void PaddingBlock(__m128i* abef, __m128i* cdgh)
{
    SHA256_RING_UNROLL
    for (int q = 0; q < 16; ++q) {
        const __m128i lo = Load(TABLES.pad64_pairs[2 * q]), hi = Load(TABLES.pad64_pairs[2 * q + 1]);
        SHA256_RING_UNROLL
        for (int s = 0; s < S; ++s) cdgh[s] = _mm_sha256rnds2_epu32(cdgh[s], abef[s], lo);
        SHA256_RING_UNROLL
        for (int s = 0; s < S; ++s) abef[s] = _mm_sha256rnds2_epu32(abef[s], cdgh[s], hi);
    }
}

//! out[32*s..] = SHA256(SHA256(in[64*s..64*s+63])) for s < S; any alignment;
//! out may equal in (every input is read before any output is written).
template <int S>
SHA256_RING_INLINE void D64(unsigned char* out, const unsigned char* in)
{
    __m128i abef[S], cdgh[S], lw[S];
    alignas(64) __m128i ring[S][4];
    alignas(64) __m128i saved[S][2];
    SHA256_RING_UNROLL
    for (int s = 0; s < S; ++s) {
        abef[s] = Load(TABLES.iv_abef);
        cdgh[s] = Load(TABLES.iv_cdgh);
    }
    MessageBlock<S, Source::Input>(abef, cdgh, ring, lw, in);
    SHA256_RING_UNROLL
    for (int s = 0; s < S; ++s) {
        abef[s] = _mm_add_epi32(abef[s], Load(TABLES.iv_abef));
        cdgh[s] = _mm_add_epi32(cdgh[s], Load(TABLES.iv_cdgh));
        Put(saved[s][0], abef[s]);
        Put(saved[s][1], cdgh[s]);
    }
    PaddingBlock<S>(abef, cdgh);
    SHA256_RING_UNROLL
    for (int s = 0; s < S; ++s) {
        const __m128i a = _mm_add_epi32(abef[s], saved[s][0]);
        const __m128i c = _mm_add_epi32(cdgh[s], saved[s][1]);
        // The digest as the next block's W0..3 (a b c d, lane 0 = a) and W4..7.
        lw[s] = _mm_shuffle_epi32(_mm_unpackhi_epi64(a, c), 0xb1);
        Put(ring[s][0], lw[s]);
        Put(ring[s][1], _mm_shuffle_epi32(_mm_unpacklo_epi64(a, c), 0xb1));
        Put(ring[s][2], _mm_set_epi32(0, 0, 0, static_cast<int>(0x80000000)));
        Put(ring[s][3], _mm_set_epi32(256, 0, 0, 0));
        abef[s] = Load(TABLES.iv_abef);
        cdgh[s] = Load(TABLES.iv_cdgh);
    }
    MessageBlock<S, Source::Digest>(abef, cdgh, ring, lw, in);
    const __m128i rev = _mm_set_epi8(8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
    SHA256_RING_UNROLL
    for (int s = 0; s < S; ++s) {
        const __m128i a = _mm_add_epi32(abef[s], Load(TABLES.iv_abef));
        const __m128i c = _mm_add_epi32(cdgh[s], Load(TABLES.iv_cdgh));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 32 * s), _mm_shuffle_epi8(_mm_unpackhi_epi64(a, c), rev));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 32 * s + 16), _mm_shuffle_epi8(_mm_unpacklo_epi64(a, c), rev));
    }
}

} // namespace
} // namespace shani_ring
} // namespace sha256

#endif
