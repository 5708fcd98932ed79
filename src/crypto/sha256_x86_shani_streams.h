// SHA-NI building blocks for the D64 kernels: S independent SHA-256 streams
// interleaved instruction by instruction. Only for files compiled with
// -msha -msse4.1 (and everything is file-local, see sha256_lanes.h).
#ifndef SHA256BENCH_CRYPTO_SHA256_X86_SHANI_STREAMS_H
#define SHA256BENCH_CRYPTO_SHA256_X86_SHANI_STREAMS_H

#include <crypto/sha256_lanes.h>

#include <immintrin.h>

namespace sha256 {
namespace shani {
namespace {

using lanes::IV;
using lanes::K;
using lanes::PAD64_KW;

SHA256_LANES_INLINE __m128i Load(const void* p) { return _mm_loadu_si128(static_cast<const __m128i*>(p)); }
SHA256_LANES_INLINE void Store(void* p, __m128i x) { _mm_storeu_si128(static_cast<__m128i*>(p), x); }

// Four big-endian message words -> lanes 0..3.
SHA256_LANES_INLINE __m128i LoadBE(const unsigned char* p)
{
    return _mm_shuffle_epi8(Load(p), _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3));
}

// The SHA extensions keep the state as ABEF (lane 3 = a) and CDGH (lane 3 = c).
struct State {
    __m128i abef, cdgh;
};

SHA256_LANES_INLINE State Initial() { return {_mm_set_epi32(IV[0], IV[1], IV[4], IV[5]), _mm_set_epi32(IV[2], IV[3], IV[6], IV[7])}; }

// The 32-byte big-endian digest (one byte shuffle swaps the word pairs and the bytes).
SHA256_LANES_INLINE void StoreDigest(unsigned char* out, const State& st)
{
    const __m128i rev = _mm_set_epi8(8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7);
    Store(out, _mm_shuffle_epi8(_mm_unpackhi_epi64(st.abef, st.cdgh), rev));
    Store(out + 16, _mm_shuffle_epi8(_mm_unpacklo_epi64(st.abef, st.cdgh), rev));
}

// Four rounds on every stream; wk[s] = W+K for them.
template <int S>
SHA256_LANES_INLINE void Rounds4(State* st, const __m128i* wk)
{
    // sha256rnds2 takes CDGH and ABEF and returns the new ABEF; the old ABEF is the new CDGH.
    for (int s = 0; s < S; ++s) st[s].cdgh = _mm_sha256rnds2_epu32(st[s].cdgh, st[s].abef, wk[s]);
    for (int s = 0; s < S; ++s) st[s].abef = _mm_sha256rnds2_epu32(st[s].abef, st[s].cdgh, _mm_shuffle_epi32(wk[s], 0x0e));
}

// Rounds 4q..4q+3 of a message block on every stream; m[s][0..3] = the
// 16-word window of stream s (from q = 4 on, the schedule overwrites it).
// PAD32: words 8..15 are a 32-byte message's padding (0x80000000, zeros, 256),
// so for q = 4 the W[9..12] added are zeros and for q = 6 sha256msg1 would
// return W[8..11] unchanged (s0 of zeros): one sha256msg1 (on the SHA unit),
// an alignr and an add fewer, as in sha256_x86_shani_multi.asm.
template <int S, bool PAD32 = false>
SHA256_LANES_INLINE void MessageQuad(State* st, __m128i (*m)[4], int q)
{
    __m128i wk[S];
    for (int s = 0; s < S; ++s) {
        __m128i* w = m[s];
        if (PAD32 && q == 4) {
            w[0] = _mm_sha256msg2_epu32(_mm_sha256msg1_epu32(w[0], w[1]), w[3]);
        } else if (PAD32 && q == 6) {
            w[2] = _mm_sha256msg2_epu32(_mm_add_epi32(w[2], _mm_alignr_epi8(w[1], w[0], 4)), w[1]);
        } else if (q >= 4) {
            // W[i..i+3] from W[i-16..i-13], W[i-15..], W[i-7..] (alignr) and sigma1 of W[i-2], W[i-1].
            const __m128i t = _mm_add_epi32(_mm_sha256msg1_epu32(w[q & 3], w[(q + 1) & 3]),
                _mm_alignr_epi8(w[(q + 3) & 3], w[(q + 2) & 3], 4));
            w[q & 3] = _mm_sha256msg2_epu32(t, w[(q + 3) & 3]);
        }
        wk[s] = _mm_add_epi32(w[q & 3], Load(K + 4 * q));
    }
    Rounds4<S>(st, wk);
}

// 64 rounds on every stream, m[s][0..3] = W0..15 of stream s (overwritten by
// the schedule); no feed-forward.
template <int S, bool PAD32 = false>
SHA256_LANES_INLINE void Rounds64(State* st, __m128i (*m)[4])
{
#pragma GCC unroll 16
    for (int q = 0; q < 16; ++q) MessageQuad<S, PAD32>(st, m, q);
}

// st[s] += saved[s]: the feed-forward that ends a block.
template <int S>
SHA256_LANES_INLINE void AddSaved(State* st, const State* saved)
{
    for (int s = 0; s < S; ++s) {
        st[s].abef = _mm_add_epi32(st[s].abef, saved[s].abef);
        st[s].cdgh = _mm_add_epi32(st[s].cdgh, saved[s].cdgh);
    }
}

// One block on every stream, m[s][0..3] = W0..15 of stream s (overwritten by the schedule).
template <int S, bool PAD32 = false>
SHA256_LANES_INLINE void Block(State* st, __m128i (*m)[4])
{
    State saved[S];
    for (int s = 0; s < S; ++s) saved[s] = st[s];
    Rounds64<S, PAD32>(st, m);
    AddSaved<S>(st, saved);
}

// W+K of the padding block of a 64-byte message, two rounds per entry in
// lanes 0 and 1, as sha256rnds2 takes them (no shuffle for the odd pairs).
struct PadPairs {
    uint32_t v[32][4];
};
constexpr PadPairs MakePadPairs()
{
    PadPairs p{};
    for (int i = 0; i < 32; ++i) {
        p.v[i][0] = PAD64_KW.v[2 * i];
        p.v[i][1] = PAD64_KW.v[2 * i + 1];
    }
    return p;
}
constexpr PadPairs PAD64_PAIRS = MakePadPairs();

// Rounds 4q..4q+3 of the padding block of a 64-byte message on every stream.
template <int S>
SHA256_LANES_INLINE void PaddingQuad(State* st, int q)
{
    const __m128i lo = Load(PAD64_PAIRS.v[2 * q]), hi = Load(PAD64_PAIRS.v[2 * q + 1]);
    for (int s = 0; s < S; ++s) st[s].cdgh = _mm_sha256rnds2_epu32(st[s].cdgh, st[s].abef, lo);
    for (int s = 0; s < S; ++s) st[s].abef = _mm_sha256rnds2_epu32(st[s].abef, st[s].cdgh, hi);
}

// The padding block of a 64-byte message (every W+K a constant), no feed-forward.
template <int S>
SHA256_LANES_INLINE void PaddingRounds64(State* st)
{
#pragma GCC unroll 16
    for (int q = 0; q < 16; ++q) PaddingQuad<S>(st, q);
}

// The message block of the second SHA-256: the first digest, then fixed
// padding. A template, so that a file with no second hash has no unused function.
template <int = 0>
SHA256_LANES_INLINE void DigestAsMessage(const State& st, __m128i* m)
{
    // Digest words a..d and e..h in lanes 0..3, as W0..3 and W4..7.
    m[0] = _mm_shuffle_epi32(_mm_unpackhi_epi64(st.abef, st.cdgh), 0xb1);
    m[1] = _mm_shuffle_epi32(_mm_unpacklo_epi64(st.abef, st.cdgh), 0xb1);
    m[2] = _mm_set_epi32(0, 0, 0, static_cast<int>(0x80000000));
    m[3] = _mm_set_epi32(256, 0, 0, 0);
}

// SHA-256 of each stream's 32-byte digest (one block, words 8..15 fixed
// padding), given the state before the first hash's feed-forward (st) and the
// state it adds (saved).
template <int S>
SHA256_LANES_INLINE void HashDigests(State* st, const State* saved)
{
    __m128i m[S][4];
    if constexpr (S == 1) {
        // One stream waits on this handover (the chained single-input paths),
        // so its first quad's W+K skip the feed-forward and the digest's
        // reordering: W0+K0, W1+K1 are a, b of ABEF reversed plus those of
        // saved and K, added beforehand (two steps after the last sha256rnds2,
        // not four); W2+K2, W3+K3 the same from CDGH, ready a sha256rnds2
        // earlier. With two streams the registers it takes cost D64 more than
        // the early start gains, so they take the plain way (doc/results/2026-11-27-lab-notes.md).
        __m128i early_ab = _mm_add_epi32(_mm_shuffle_epi32(saved[0].abef, 0x1b), Load(K));
        __m128i early_cd = _mm_add_epi32(_mm_shuffle_epi32(saved[0].cdgh, 0x1b), _mm_shuffle_epi32(Load(K), 0x0e));
        // Kept whole, or GCC regroups the sums and adds K last (three steps).
        __asm__("" : "+x"(early_ab), "+x"(early_cd));
        const __m128i wk_ab = _mm_add_epi32(_mm_shuffle_epi32(st[0].abef, 0x1b), early_ab); // a b e f
        const __m128i wk_cd = _mm_add_epi32(_mm_shuffle_epi32(st[0].cdgh, 0x1b), early_cd); // c d g h
        AddSaved<1>(st, saved);
        DigestAsMessage(st[0], m[0]);
        st[0] = Initial();
        st[0].cdgh = _mm_sha256rnds2_epu32(st[0].cdgh, st[0].abef, wk_ab);
        st[0].abef = _mm_sha256rnds2_epu32(st[0].abef, st[0].cdgh, wk_cd);
#pragma GCC unroll 15
        for (int q = 1; q < 16; ++q) MessageQuad<1, true>(st, m, q);
        const State iv[1] = {Initial()};
        AddSaved<1>(st, iv);
    } else {
        AddSaved<S>(st, saved);
        for (int s = 0; s < S; ++s) {
            DigestAsMessage(st[s], m[s]);
            st[s] = Initial();
        }
        Block<S, true>(st, m);
    }
}

template <int S>
inline void D64(unsigned char* out, const unsigned char* in)
{
    State st[S];
    __m128i m[S][4];
    // Unrolled, or GCC 12 keeps the loads a loop that stores m to the stack
    // and reads it back: a store-to-load forwarding before the first round of
    // a latency-bound path, measurable in Double64 (doc/results/2026-11-27-lab-notes.md).
#pragma GCC unroll 4
    for (int s = 0; s < S; ++s) {
#pragma GCC unroll 4
        for (int q = 0; q < 4; ++q) m[s][q] = LoadBE(in + 64 * s + 16 * q);
        st[s] = Initial();
    }
    Block<S>(st, m);
    State saved[S];
    for (int s = 0; s < S; ++s) saved[s] = st[s];
    PaddingRounds64<S>(st);
    HashDigests<S>(st, saved);
    for (int s = 0; s < S; ++s) StoreDigest(out + 32 * s, st[s]);
}

} // namespace
} // namespace shani
} // namespace sha256

#endif
