// The AVX-512 lanes class for sha256_lanes.h: sixteen 32-bit lanes per
// register, vprord for the rotations and vpternlogd for Ch, Maj and three-way
// xors, vpshufb for byte swaps. Only for files compiled with -mavx512f
// -mavx512bw -mavx512vl.
#ifndef SHA256BENCH_CRYPTO_SHA256_LANES_AVX512_H
#define SHA256BENCH_CRYPTO_SHA256_LANES_AVX512_H

#include <crypto/sha256_lanes.h>

// GCC 12's AVX-512 headers start some intrinsics from an "undefined" register
// that -Wuninitialized (or, with sanitizers, -Wmaybe-uninitialized) then
// reports (GCC bug 105593, fixed in later releases).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

namespace sha256 {
namespace lanes {
namespace {

struct Avx512 : LanesBase<Avx512> {
    using V = __m512i;
    static constexpr int N = 16;
    static constexpr bool SHORT_E_PATH = true;
    static inline V Add(V a, V b) { return _mm512_add_epi32(a, b); }
    template <int n>
    static inline V ShR(V a) { return _mm512_srli_epi32(a, n); }
    template <int n>
    static inline V ShL(V a) { return _mm512_slli_epi32(a, n); }
    template <int n>
    static inline V Rotr(V a) { return _mm512_ror_epi32(a, n); }
    // vpternlogd truth tables, bit index (a<<2)|(b<<1)|c: a^b^c = 0x96,
    // a ? b : c = 0xca, majority = 0xe8.
    static inline V Xor3(V a, V b, V c) { return _mm512_ternarylogic_epi32(a, b, c, 0x96); }
    static inline V Ch(V e, V f, V g) { return _mm512_ternarylogic_epi32(e, f, g, 0xca); }
    static inline V Maj(V a, V b, V c) { return _mm512_ternarylogic_epi32(a, b, c, 0xe8); }
    static inline V Set1(uint32_t x) { return _mm512_set1_epi32(static_cast<int>(x)); }
    // Broadcast loads (LanesBase::TableLoad), folded into the vpaddd that uses
    // them; from an immediate GCC's vpbroadcastd is a uop on port 5, which the
    // rounds need.
    static inline V Table(const uint32_t* table, int i) { return TableLoad(table, i); }

    // Byte swap of each word: one vpshufb (AVX512BW). Without it, two
    // rotations and a vpternlogd: three operations, two of them on the pipes
    // the rounds' rotations need.
    static SHA256_LANES_INLINE V ByteSwap(V x)
    {
        const V order = _mm512_broadcast_i32x4(_mm_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12));
        return _mm512_shuffle_epi8(x, order);
    }
    // Transpose of four rows within each 128-bit lane.
    static SHA256_LANES_INLINE void Transpose4(V& r0, V& r1, V& r2, V& r3)
    {
        const V t0 = _mm512_unpacklo_epi32(r0, r1), t1 = _mm512_unpacklo_epi32(r2, r3);
        const V t2 = _mm512_unpackhi_epi32(r0, r1), t3 = _mm512_unpackhi_epi32(r2, r3);
        r0 = _mm512_unpacklo_epi64(t0, t1);
        r1 = _mm512_unpackhi_epi64(t0, t1);
        r2 = _mm512_unpacklo_epi64(t2, t3);
        r3 = _mm512_unpackhi_epi64(t2, t3);
    }
    // The loads, stores and transposes are inlined and unrolled: otherwise
    // GCC 12 makes LoadBlocks a function of its own whose loops go through the
    // stack, at about twice the time (doc/results/2026-11-27-lab-notes.md).
    static SHA256_LANES_INLINE void LoadBlocks(V* w, const unsigned char* const* p)
    {
        // r[i] = the 16 words of lane i.
        V r[16];
#pragma GCC unroll 4
        for (int g = 0; g < 16; g += 4) LoadRows(r + g, [p, g](int j) { return p[g + j]; });
#pragma GCC unroll 4
        for (int j = 0; j < 4; ++j) GatherWords(w, r, j);
    }
    // LoadBlocks' first stage for four lanes whose blocks are at(0..3): after
    // it, r[j] holds, in 128-bit lane q, word 4q + j of the four.
    template <class At>
    static SHA256_LANES_INLINE void LoadRows(V* r, At at)
    {
#pragma GCC unroll 4
        for (int j = 0; j < 4; ++j) r[j] = _mm512_loadu_si512(at(j));
        Transpose4(r[0], r[1], r[2], r[3]);
    }
    // LoadBlocks' second stage for one j: from 128-bit lane q of r[j],
    // r[4 + j], r[8 + j] and r[12 + j], words j, 4 + j, 8 + j and 12 + j of
    // lanes 0..15 (word 4q + j is 128-bit lane q of each).
    static SHA256_LANES_INLINE void GatherWords(V* w, const V* r, int j)
    {
        const V x0 = _mm512_shuffle_i32x4(r[j], r[4 + j], 0x44), x1 = _mm512_shuffle_i32x4(r[j], r[4 + j], 0xee);
        const V y0 = _mm512_shuffle_i32x4(r[8 + j], r[12 + j], 0x44), y1 = _mm512_shuffle_i32x4(r[8 + j], r[12 + j], 0xee);
        w[0 + j] = ByteSwap(_mm512_shuffle_i32x4(x0, y0, 0x88));
        w[4 + j] = ByteSwap(_mm512_shuffle_i32x4(x0, y0, 0xdd));
        w[8 + j] = ByteSwap(_mm512_shuffle_i32x4(x1, y1, 0x88));
        w[12 + j] = ByteSwap(_mm512_shuffle_i32x4(x1, y1, 0xdd));
    }
    static SHA256_LANES_INLINE void StoreContiguous(unsigned char* out, const V* s)
    {
        V r[8];
        SwapRows(r, [s](int j) { return s[j]; });
        SwapRows(r + 4, [s](int j) { return s[4 + j]; });
#pragma GCC unroll 4
        for (int j = 0; j < 4; ++j) StoreLanes(out, r, j);
    }
    // StoreContiguous's first stage for four state words of(0..3) (words 0..3
    // or 4..7 of the digests): after it, r[j] holds, in 128-bit lane q, those
    // four words of lane 4q + j, big-endian.
    template <class Of>
    static SHA256_LANES_INLINE void SwapRows(V* r, Of of)
    {
#pragma GCC unroll 4
        for (int j = 0; j < 4; ++j) r[j] = ByteSwap(of(j));
        Transpose4(r[0], r[1], r[2], r[3]);
    }
    // StoreContiguous's second stage for one j: the 32-byte digests of lanes
    // j, 4 + j, 8 + j and 12 + j, from r[j] and r[4 + j].
    static SHA256_LANES_INLINE void StoreLanes(unsigned char* out, const V* r, int j)
    {
        // [lane j, lane 4 + j] and [lane 8 + j, lane 12 + j], 32 bytes each.
        const V lo = _mm512_shuffle_i32x4(_mm512_shuffle_i32x4(r[j], r[4 + j], 0x44),
            _mm512_shuffle_i32x4(r[j], r[4 + j], 0x44), 0xd8);
        const V hi = _mm512_shuffle_i32x4(_mm512_shuffle_i32x4(r[j], r[4 + j], 0xee),
            _mm512_shuffle_i32x4(r[j], r[4 + j], 0xee), 0xd8);
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 32 * j), _mm512_castsi512_si256(lo));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 32 * (4 + j)), _mm512_extracti64x4_epi64(lo, 1));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 32 * (8 + j)), _mm512_castsi512_si256(hi));
        _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 32 * (12 + j)), _mm512_extracti64x4_epi64(hi, 1));
    }
};

} // namespace
} // namespace lanes
} // namespace sha256

#endif
