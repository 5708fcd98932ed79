// SPDX-License-Identifier: MIT
// SHA256D64 of `batches` x (NA + NB) 64-byte inputs with the Intel SHA
// extensions, in one call: S = NA + NB streams in two halves, half B one
// block behind half A. Only for files compiled with -msha -msse4.1
// (everything is file-local, see sha256_constants.h).
//
// Why: four streams in lock step (sha256_x86_shani_ring.h) leave the SHA unit
// idle where every stream schedules its message at once. sha256msg2 issues
// less often than the rounds (on AMD Zen 4) and a D64 input needs 24 of them,
// so the schedule is spread out instead:
//  - a batch is three columns of 16 quads of rounds; half A runs the first
//    block, the padding block and the second hash of batch k in them, half B
//    the second hash of batch k-1, then the first and padding blocks of k, so
//    one half's second hash (scheduled in line) always runs beside the other
//    half's first or padding block;
//  - the first block's W+K is computed a batch ahead, quad by quad, round-
//    robin over the streams, a quarter, a half and a quarter of it in the
//    three columns, into a stack buffer: the first block's rounds only load it.
// The same layout rules as sha256_x86_shani_ring.h keep the states in registers
// (every loop unrolled; stack buffers stored through an empty asm with a "+m"
// operand); how close this comes to the SHA unit's floor of 96 sha256rnds2
// an input, and what the sha256msg2 cost: doc/results/2026-11-27-lab-notes.md.
// Inputs are read a batch ahead of the outputs written, so out may equal in.
#ifndef SHA256BENCH_CRYPTO_SHA256_X86_SHANI_STAGGER_H
#define SHA256BENCH_CRYPTO_SHA256_X86_SHANI_STAGGER_H

#include <crypto/sha256_constants.h>

#include <cstddef>
#include <cstdint>
#include <immintrin.h>
#include <utility>

#if defined(__GNUC__)
#define SHA256_STAGGER_INLINE inline __attribute__((always_inline))
#else
#define SHA256_STAGGER_INLINE inline
#endif
#define SHA256_STAGGER_UNROLL _Pragma("GCC unroll 64")

// Clang's -fsanitize=pointer-overflow check turns this header's straight-line
// kernel (a few thousand address computations, every offset a small constant
// from in or out) into minutes of compiling (~9 min under load against ~2 s
// without it); GCC's takes ~30 s. The check stays on everywhere else.
#if defined(__clang__)
#pragma clang attribute push(__attribute__((no_sanitize("pointer-overflow"))), apply_to = function)
#endif

namespace sha256 {
namespace shani_stagger {
namespace {

using constants::IV;
using constants::K;
using constants::PAD64_KW;

// The constants in the layouts the SHA instructions take them.
struct alignas(64) Tables {
    uint32_t pad64_wk[64];           //!< the padding block's W+K
    uint32_t pad32[8], pad32_wk[8];  //!< the second hash's fixed words 8..15, and plus K
    uint32_t iv_abef[4], iv_cdgh[4]; //!< IV as sha256rnds2 holds a state: ABEF = f e b a, CDGH = h g d c
    uint8_t bswap32[16], digest_bswap[16];
};
constexpr Tables MakeTables()
{
    Tables t{};
    for (int i = 0; i < 64; ++i) t.pad64_wk[i] = PAD64_KW.v[i];
    const uint32_t pad32[8] = {0x80000000, 0, 0, 0, 0, 0, 0, 256};
    for (int i = 0; i < 8; ++i) t.pad32[i] = pad32[i], t.pad32_wk[i] = pad32[i] + K[8 + i];
    const uint32_t abef[4] = {IV[5], IV[4], IV[1], IV[0]}, cdgh[4] = {IV[7], IV[6], IV[3], IV[2]};
    for (int i = 0; i < 4; ++i) t.iv_abef[i] = abef[i], t.iv_cdgh[i] = cdgh[i];
    for (int i = 0; i < 16; ++i) t.bswap32[i] = static_cast<uint8_t>((i & ~3) + 3 - (i & 3));
    for (int i = 0; i < 16; ++i) t.digest_bswap[i] = static_cast<uint8_t>(i < 8 ? 7 - i : 23 - i);
    return t;
}
constexpr Tables TABLES = MakeTables();

SHA256_STAGGER_INLINE __m128i L(const void* p) { return _mm_load_si128(static_cast<const __m128i*>(p)); }
SHA256_STAGGER_INLINE __m128i LU(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }
SHA256_STAGGER_INLINE __m128i KQ(int q) { return L(K + 4 * q); }
// A stack slot that stays memory: stored, then opaque to the optimiser.
SHA256_STAGGER_INLINE void Put(__m128i& slot, __m128i v)
{
    slot = v;
#if defined(__GNUC__)
    __asm__("" : "+m"(slot));
#endif
}

enum Op { B1, PAD, B3 };

// The stack buffers (kept apart from the register-resident state: an object
// whose field is an asm memory operand is not split into registers by GCC).
template <int S, int NB>
struct Buffers {
    alignas(64) __m128i wk[2][S][16];   // W+K of the first block: this batch, next batch
    alignas(64) __m128i ring[S][4];     // second hash: older schedule quads
    alignas(64) __m128i save[S][2];     // first hash: state after the first block
    alignas(64) __m128i wpre[S][4];     // precompute: schedule window
    unsigned char dummy[32 * NB];       // half B's output in the first iteration (batch -1)
};

template <int NA, int NB>
struct Kernel {
    static constexpr int S = NA + NB;
    __m128i abef[S], cdgh[S], lw[S];
    Buffers<S, NB>& mem;
    __m128i (&wk)[2][S][16] = mem.wk;
    __m128i (&ring)[S][4] = mem.ring;
    __m128i (&save)[S][2] = mem.save;
    __m128i (&wpre)[S][4] = mem.wpre;

    static constexpr int First(int h) { return h == 0 ? 0 : NA; }
    static constexpr int Size(int h) { return h == 0 ? NA : NB; }

    SHA256_STAGGER_INLINE void Rounds(int s, __m128i w_k)
    {
        cdgh[s] = _mm_sha256rnds2_epu32(cdgh[s], abef[s], w_k);
        abef[s] = _mm_sha256rnds2_epu32(abef[s], cdgh[s], _mm_shuffle_epi32(w_k, 0x0e));
    }

    // First block, quad q of stream s: W+K from the buffer.
    SHA256_STAGGER_INLINE void GroupB1(int s, int q, int buf)
    {
        if (q == 0) {
            abef[s] = L(TABLES.iv_abef);
            cdgh[s] = L(TABLES.iv_cdgh);
        }
        Rounds(s, wk[buf][s][q]);
        if (q == 15) {
            abef[s] = _mm_add_epi32(abef[s], L(TABLES.iv_abef));
            cdgh[s] = _mm_add_epi32(cdgh[s], L(TABLES.iv_cdgh));
            Put(save[s][0], abef[s]);
            Put(save[s][1], cdgh[s]);
        }
    }

    // Padding block, quad q of half H (every W+K a constant).
    template <int H, int... J>
    SHA256_STAGGER_INLINE void PadRounds(std::integer_sequence<int, J...>, __m128i lo, __m128i hi)
    {
        ((cdgh[First(H) + J] = _mm_sha256rnds2_epu32(cdgh[First(H) + J], abef[First(H) + J], lo)), ...);
        ((abef[First(H) + J] = _mm_sha256rnds2_epu32(abef[First(H) + J], cdgh[First(H) + J], hi)), ...);
    }
    template <int H>
    SHA256_STAGGER_INLINE void GroupPad(int q)
    {
        const __m128i lo = L(TABLES.pad64_wk + 4 * q);
        const __m128i hi = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(TABLES.pad64_wk + 4 * q + 2));
        PadRounds<H>(std::make_integer_sequence<int, Size(H)>{}, lo, hi);
    }

    // Second hash, quad q of stream s (j-th of its half): handover at q = 0,
    // schedule in line (lw = newest quad), digest to out at q = 15. Each
    // group runs the rounds of quad q, then schedules q + 1, so the rounds
    // read a quad computed a group earlier instead of waiting on its
    // sha256msg2 (fewer cycles an input on Zen 4: doc/results/2026-11-27-lab-notes.md).
    SHA256_STAGGER_INLINE void GroupB3(int s, int q, unsigned char* out, int j)
    {
        if (q == 0) {
            const __m128i a = _mm_add_epi32(abef[s], save[s][0]);
            const __m128i c = _mm_add_epi32(cdgh[s], save[s][1]);
            const __m128i w = _mm_shuffle_epi32(_mm_unpackhi_epi64(a, c), 0xb1); // a b c d
            Put(ring[s][0], w);
            lw[s] = _mm_shuffle_epi32(_mm_unpacklo_epi64(a, c), 0xb1); // e f g h
            abef[s] = L(TABLES.iv_abef);
            cdgh[s] = L(TABLES.iv_cdgh);
            Rounds(s, _mm_add_epi32(w, KQ(0)));
        } else if (q == 1) {
            Rounds(s, _mm_add_epi32(lw[s], KQ(1)));
        } else if (q == 2) {
            Put(ring[s][1], lw[s]);
            Rounds(s, L(TABLES.pad32_wk));
        } else if (q == 3) {
            Rounds(s, L(TABLES.pad32_wk + 4));
        } else {
            Rounds(s, _mm_add_epi32(lw[s], KQ(q)));
        }
        if (q >= 3 && q < 15) ScheduleB3(s, q + 1);
        if (q == 15) {
            const __m128i a = _mm_add_epi32(abef[s], L(TABLES.iv_abef));
            const __m128i c = _mm_add_epi32(cdgh[s], L(TABLES.iv_cdgh));
            const __m128i rev = L(TABLES.digest_bswap);
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 32 * j), _mm_shuffle_epi8(_mm_unpackhi_epi64(a, c), rev));
            _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 32 * j + 16), _mm_shuffle_epi8(_mm_unpacklo_epi64(a, c), rev));
        }
    }
    // lw <- W(q) of the second hash (4 <= q <= 15), the quad it replaces to the ring.
    SHA256_STAGGER_INLINE void ScheduleB3(int s, int q)
    {
        const __m128i p0 = L(TABLES.pad32), p1 = L(TABLES.pad32 + 4);
        auto R = [&](int k) { return k == 2 ? p0 : k == 3 ? p1 : ring[s][k & 3]; };
        __m128i w;
        if (q == 4) {                 // W[9..12] are zero
            w = _mm_sha256msg2_epu32(_mm_sha256msg1_epu32(R(0), R(1)), p1);
        } else if (q == 6) {          // s0(W[9..12]) is zero
            w = _mm_sha256msg2_epu32(_mm_add_epi32(_mm_alignr_epi8(lw[s], R(4), 4), p0), lw[s]);
        } else {
            const __m128i t = _mm_add_epi32(_mm_sha256msg1_epu32(R(q - 4), R(q - 3)), _mm_alignr_epi8(lw[s], R(q - 2), 4));
            w = _mm_sha256msg2_epu32(t, lw[s]);
        }
        if (q - 1 >= 4 && q - 1 <= 13) Put(ring[s][(q - 1) & 3], lw[s]);
        lw[s] = w;
    }

    // Precompute, quad q of stream s: W+K of the next batch's first block into wk[buf].
    SHA256_STAGGER_INLINE void GroupPre(int s, int q, const unsigned char* in, int buf)
    {
        __m128i w;
        if (q < 4) {
            w = _mm_shuffle_epi8(LU(in + 64 * s + 16 * q), L(TABLES.bswap32));
        } else {
            const __m128i w1 = wpre[s][(q - 1) & 3];
            const __m128i t = _mm_add_epi32(_mm_sha256msg1_epu32(wpre[s][q & 3], wpre[s][(q + 1) & 3]),
                                            _mm_alignr_epi8(w1, wpre[s][(q + 2) & 3], 4));
            w = _mm_sha256msg2_epu32(t, w1);
        }
        if (q <= 14) Put(wpre[s][q & 3], w);
        Put(wk[buf][s][q], _mm_add_epi32(w, KQ(q)));
    }

    // ---- the interleaving: main groups of a column, precompute groups between them ----
    static constexpr Op OpOf(int h, int col) { return h == 0 ? (col == 0 ? B1 : col == 1 ? PAD : B3) : (col == 0 ? B3 : col == 1 ? B1 : PAD); }
    static constexpr int GroupsPerQuad(int h, int col) { return OpOf(h, col) == PAD ? 1 : Size(h); }
    static constexpr int MainGroups(int col) { return 16 * (GroupsPerQuad(0, col) + GroupsPerQuad(1, col)); }
    // Share of each half's 16 x Size precompute groups in column col: quads [Q0, Q1).
    static constexpr int PreQ0(int col) { return col == 0 ? 0 : col == 1 ? 4 : 12; }
    static constexpr int PreQ1(int col) { return col == 0 ? 4 : col == 1 ? 12 : 16; }
    static constexpr int PreLen(int h, int col) { return (PreQ1(col) - PreQ0(col)) * Size(h); }
    static constexpr int SideGroups(int col) { return PreLen(0, col) + PreLen(1, col); }
    // j-th precompute group of a column: the halves alternate (their leftovers last).
    static constexpr std::pair<int, int> Side(int col, int j)   // -> (stream, quad)
    {
        const int la = PreLen(0, col), lb = PreLen(1, col), m = la < lb ? la : lb;
        int h = 0, k = 0;
        if (j < 2 * m) { h = j & 1; k = j >> 1; }
        else { h = la > lb ? 0 : 1; k = m + (j - 2 * m); }
        const int q = PreQ0(col) + k / Size(h), s = First(h) + k % Size(h);
        return {s, q};
    }

    // Main group I of column COL (quad-major; within a quad half A's groups, then
    // half B's), followed by its share of the precompute groups. Index-driven
    // templates, so the code is straight-line whatever the optimiser unrolls.
    template <int COL, int J0, int... J>
    SHA256_STAGGER_INLINE void Sides(std::integer_sequence<int, J...>, const unsigned char* next, int nbuf)
    {
        (GroupPre(Side(COL, J0 + J).first, Side(COL, J0 + J).second, next, nbuf), ...);
        (void)next; // a step with no precompute group
        (void)nbuf;
    }
    template <int COL, int I>
    SHA256_STAGGER_INLINE void Step(int buf, const unsigned char* next, unsigned char* outA, unsigned char* outB)
    {
        constexpr int g0 = GroupsPerQuad(0, COL), gq = g0 + GroupsPerQuad(1, COL);
        constexpr int q = I / gq, r = I % gq, h = r < g0 ? 0 : 1, j = h ? r - g0 : r;
        constexpr Op op = OpOf(h, COL);
        if constexpr (op == PAD) GroupPad<h>(q);
        else if constexpr (op == B1) GroupB1(First(h) + j, q, buf);
        else GroupB3(First(h) + j, q, h == 0 ? outA : outB, j);
        constexpr int n = MainGroups(COL), m = SideGroups(COL), b = I * m / n, e = (I + 1) * m / n;
        Sides<COL, b>(std::make_integer_sequence<int, e - b>{}, next, buf ^ 1);
    }
    template <int COL, int... I>
    SHA256_STAGGER_INLINE void Steps(std::integer_sequence<int, I...>, int buf, const unsigned char* next, unsigned char* outA, unsigned char* outB)
    {
        (Step<COL, I>(buf, next, outA, outB), ...);
    }
    template <int COL>
    SHA256_STAGGER_INLINE void Column(int buf, const unsigned char* next, unsigned char* outA, unsigned char* outB)
    {
        Steps<COL>(std::make_integer_sequence<int, MainGroups(COL)>{}, buf, next, outA, outB);
    }

    SHA256_STAGGER_INLINE void Run(unsigned char* out, const unsigned char* in, size_t nbatch)
    {
        if (nbatch == 0) return;
SHA256_STAGGER_UNROLL
        for (int q = 0; q < 16; ++q)
SHA256_STAGGER_UNROLL
            for (int s = 0; s < S; ++s) GroupPre(s, q, in, 0);
        unsigned char* outB = mem.dummy;
        int buf = 0;
        do {
            const unsigned char* next = nbatch > 1 ? in + 64 * S : in;   // never read past the end
            Column<0>(buf, next, out, outB);
            Column<1>(buf, next, out, outB);
            Column<2>(buf, next, out, outB);
            outB = out + 32 * NA;
            out += 32 * S;
            in = next;
            buf ^= 1;
        } while (--nbatch);
SHA256_STAGGER_UNROLL
        for (int q = 0; q < 16; ++q)
SHA256_STAGGER_UNROLL
            for (int j = 0; j < NB; ++j) GroupB3(NA + j, q, outB, j);
    }
};

template <int NA, int NB>
inline void D64(unsigned char* out, const unsigned char* in, size_t nbatch)
{
    Buffers<NA + NB, NB> mem;
    Kernel<NA, NB> k{{}, {}, {}, mem};
SHA256_STAGGER_UNROLL
    for (int s = 0; s < NA + NB; ++s) {   // the first iteration's dummy second hash (half B) reads these
        k.abef[s] = k.cdgh[s] = k.lw[s] = _mm_setzero_si128();
        Put(mem.save[s][0], k.abef[s]);
        Put(mem.save[s][1], k.abef[s]);
SHA256_STAGGER_UNROLL
        for (int i = 0; i < 4; ++i) Put(mem.ring[s][i], k.abef[s]);
    }
    k.Run(out, in, nbatch);
}

} // namespace
} // namespace shani_stagger
} // namespace sha256

#if defined(__clang__)
#pragma clang attribute pop
#endif

#endif
