// One SHA-256 algorithm for N independent messages at once, written over a
// small set of lane-wise primitives. Each instruction set supplies a "lanes"
// class L (one 32-bit word per lane in a vector type L::V) and instantiates:
//
//   Lanes<L>::Compress(s, w)  64 rounds of N independent states on N blocks
//                             (word-sliced: s[j] holds word j of every lane)
//   Lanes<L>::Transform(st, blocks)
//                             the same on a word-sliced state in memory, each
//                             lane reading its own 64-byte block pointer
//   Lanes<L>::D64(out, in)    Bitcoin's double SHA-256 of N 64-byte inputs,
//                             with the constant padding blocks precomputed
//
// Everything here lives in an unnamed namespace: each file that includes it
// is compiled with its own -m flags, and an inline function shared between
// such files could be merged by the linker into one that uses instructions
// the CPU lacks.
//
// A lanes class (one per instruction set, each in a file of its own) provides:
// V, N, Add, Xor, And, Or, ShR<n>, ShL<n>, Set1,
// LoadBlocks(w, p) (16 big-endian words of lane i from p[i]), LoadContiguous(w, in)
// (lane i at in + 64*i) and StoreContiguous(out, s) (8 big-endian words of lane i
// at out + 32*i). Rotr, Xor3, Ch, Maj and Table have portable defaults in
// LanesBase that an instruction set may replace (AVX-512: vprord, vpternlogd,
// broadcast loads).
#ifndef SHA256BENCH_CRYPTO_SHA256_LANES_H
#define SHA256BENCH_CRYPTO_SHA256_LANES_H

#include <crypto/sha256_constants.h>

#include <cstddef>
#include <cstdint>

// Small helpers are always inlined. Whole blocks of rounds are inlined only
// where the register file holds the working set (AVX-512: 32 registers; a file
// defines SHA256_LANES_INLINE_BLOCKS before including this one): with 16
// registers, GCC's spills in one huge function cost more than the calls.
#if defined(__GNUC__)
#define SHA256_LANES_INLINE inline __attribute__((always_inline))
#else
#define SHA256_LANES_INLINE inline
#endif
#if defined(SHA256_LANES_INLINE_BLOCKS)
#define SHA256_LANES_BLOCK SHA256_LANES_INLINE
#else
#define SHA256_LANES_BLOCK inline
#endif

namespace sha256 {
namespace lanes {
namespace {

using constants::Csigma0;
using constants::Csigma1;
using constants::IV;
using constants::K;
using constants::PAD64_KW;

// The block hashed by the second SHA-256 of D64: eight variable words (the
// first digest), then 0x80, zeros and the bit length 256. These are its fixed
// words 8..15.
constexpr uint32_t PAD32[8] = {0x80000000, 0, 0, 0, 0, 0, 0, 256};

// Portable defaults, in terms of the instruction set's own primitives. (Vector
// types are deduced, not passed as template arguments: GCC drops their
// alignment attributes there, and says so.)
template <class D>
struct LanesBase {
    // The round form (Lanes::Round): the textbook one unless a class says
    // otherwise. (The counting class of sha256_lanes_count.h copies every form
    // constant of the class it counts; lane_count_tests fails where it does not.)
    static constexpr bool SHORT_E_PATH = false;
    template <int n, class V>
    static inline V Rotr(V x) { return D::Or(D::template ShR<n>(x), D::template ShL<32 - n>(x)); }
    template <class V>
    static inline V Xor3(V a, V b, V c) { return D::Xor(D::Xor(a, b), c); }
    template <class V>
    static inline V Ch(V e, V f, V g) { return D::Xor(g, D::And(e, D::Xor(f, g))); }
    template <class V>
    static inline V Maj(V a, V b, V c) { return D::Or(D::And(a, b), D::And(c, D::Or(a, b))); }
    // Word i of a constant table (K, the padding block's W+K) in every lane.
    static inline auto Table(const uint32_t* table, int i) { return D::Set1(table[i]); }
    // The same as a broadcast load, for classes that replace Table with it:
    // from a known word GCC builds the vector from an immediate (mov, vmovd or
    // a general register, vpbroadcastd: vector uops the rounds need), where a
    // broadcast from memory costs only a load. The empty asm hides the table's
    // contents, not its address; having no side effects, it is shared by all uses.
    static inline auto TableLoad(const uint32_t* table, int i)
    {
        __asm__("" : "+r"(table));
        return D::Set1(table[i]);
    }
    // Always inlined and unrolled, like the AVX-512 class's LoadBlocks: left
    // to itself, g++ 12 makes it an out-of-line function whose loops go
    // through the stack.
    template <class V>
    static SHA256_LANES_INLINE void LoadContiguous(V* w, const unsigned char* in)
    {
        const unsigned char* p[D::N];
#pragma GCC unroll 16
        for (int i = 0; i < D::N; ++i) p[i] = in + 64 * i;
        D::LoadBlocks(w, p);
    }
};

// Work interleaved with the rounds: Step(r) runs after lane round r (0..191
// in D64: block 1, the padding block, the second hash), so that other
// independent work (SHA-NI streams, for one) can share the instruction
// stream. NoSide does nothing. (A SHA-NI side with intrinsics loses here:
// legacy-SSE sha256rnds2 next to 512-bit code in zmm0-15 pays the SSE/AVX
// transition penalty; see doc/d64.md.)
struct NoSide {
    // Unused in a file that includes this header only for what Lanes shares.
    [[maybe_unused]] SHA256_LANES_INLINE void Step(int) {}
};

template <class L>
struct Lanes {
    using V = typename L::V;
    static constexpr int N = L::N;

    static SHA256_LANES_INLINE V Add(V a, V b) { return L::Add(a, b); }
    static SHA256_LANES_INLINE V Add(V a, V b, V c) { return L::Add(L::Add(a, b), c); }
    static SHA256_LANES_INLINE V Add(V a, V b, V c, V d) { return L::Add(L::Add(a, b), L::Add(c, d)); }
    static SHA256_LANES_INLINE V C(uint32_t x) { return L::Set1(x); }
    static SHA256_LANES_INLINE V T(const uint32_t* table, int i) { return L::Table(table, i); }

    static SHA256_LANES_INLINE V Sigma0(V a) { return L::Xor3(L::template Rotr<2>(a), L::template Rotr<13>(a), L::template Rotr<22>(a)); }
    static SHA256_LANES_INLINE V Sigma1(V e) { return L::Xor3(L::template Rotr<6>(e), L::template Rotr<11>(e), L::template Rotr<25>(e)); }
    static SHA256_LANES_INLINE V sigma0(V x) { return L::Xor3(L::template Rotr<7>(x), L::template Rotr<18>(x), L::template ShR<3>(x)); }
    static SHA256_LANES_INLINE V sigma1(V x) { return L::Xor3(L::template Rotr<17>(x), L::template Rotr<19>(x), L::template ShR<10>(x)); }

    // One round; callers rotate the names instead of moving the values.
    // From e to the new e the textbook order takes five dependent operations
    // (rotate, xor, add, add, add). Where a vector operation takes two cycles
    // (AMD Zen 5, 512-bit and 256-bit alike) that chain bounds the rounds, so
    // a class with SHORT_E_PATH adds h + W+K and Ch before Sigma1 arrives, and
    // Sigma0, the longest term of the new a, last: four dependent operations,
    // and the same operations as the textbook order (faster with AVX-512 on
    // Zen 5: doc/results/2026-11-27-lab-notes.md). Adding d + h + W+K first as well makes it
    // three for one operation more a round, which a CPU bound by 512-bit
    // throughput rather than latency would pay; none was measured. With 16
    // registers GCC spills this order, so the SSE4.1 and AVX2 classes keep the
    // textbook one.
    static SHA256_LANES_INLINE void Round(V a, V b, V c, V& d, V e, V f, V g, V& h, V kw)
    {
        if constexpr (L::SHORT_E_PATH) {
            const V t1 = Add(Add(Add(h, kw), L::Ch(e, f, g)), Sigma1(e));
            d = Add(d, t1);
            h = Add(Add(t1, L::Maj(a, b, c)), Sigma0(a));
        } else {
            const V t1 = Add(h, kw, Sigma1(e), L::Ch(e, f, g));
            const V t2 = Add(Sigma0(a), L::Maj(a, b, c));
            d = Add(d, t1);
            h = Add(t1, t2);
        }
    }

    // Eight rounds on t[0..7] = a..h; afterwards every name is back in its slot.
    template <class Side>
    static SHA256_LANES_BLOCK void Round8(V* t, const V* kw, Side& side, int r0)
    {
        Round(t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], kw[0]);
        side.Step(r0);
        Round(t[7], t[0], t[1], t[2], t[3], t[4], t[5], t[6], kw[1]);
        side.Step(r0 + 1);
        Round(t[6], t[7], t[0], t[1], t[2], t[3], t[4], t[5], kw[2]);
        side.Step(r0 + 2);
        Round(t[5], t[6], t[7], t[0], t[1], t[2], t[3], t[4], kw[3]);
        side.Step(r0 + 3);
        Round(t[4], t[5], t[6], t[7], t[0], t[1], t[2], t[3], kw[4]);
        side.Step(r0 + 4);
        Round(t[3], t[4], t[5], t[6], t[7], t[0], t[1], t[2], kw[5]);
        side.Step(r0 + 5);
        Round(t[2], t[3], t[4], t[5], t[6], t[7], t[0], t[1], kw[6]);
        side.Step(r0 + 6);
        Round(t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[0], kw[7]);
        side.Step(r0 + 7);
    }

    // W[i] for i >= 16 in a 16-word window, in place of W[i - 16].
    static SHA256_LANES_INLINE V Expand(V* w, int i)
    {
        return w[i & 15] = Add(sigma1(w[(i - 2) & 15]), w[(i - 7) & 15], sigma0(w[(i - 15) & 15]), w[i & 15]);
    }

    // Rounds 16..63 of a block with a general schedule.
    template <class Side>
    static SHA256_LANES_BLOCK void Rounds16to63(V* t, V* w, Side& side, int r0)
    {
#pragma GCC unroll 6
        for (int i = 16; i < 64; i += 8) {
            V kw[8];
#pragma GCC unroll 8
            for (int j = 0; j < 8; ++j) kw[j] = Add(Expand(w, i + j), T(K, i + j));
            Round8(t, kw, side, r0 + i);
        }
    }

    //! s += compress(s, w): 64 rounds on N independent states; w is overwritten.
    template <class Side>
    static SHA256_LANES_BLOCK void Compress(V* s, V* w, Side& side, int r0)
    {
        V t[8];
        for (int j = 0; j < 8; ++j) t[j] = s[j];
#pragma GCC unroll 2
        for (int i = 0; i < 16; i += 8) {
            V kw[8];
#pragma GCC unroll 8
            for (int j = 0; j < 8; ++j) kw[j] = Add(w[i + j], T(K, i + j));
            Round8(t, kw, side, r0 + i);
        }
        Rounds16to63(t, w, side, r0);
        for (int j = 0; j < 8; ++j) s[j] = Add(s[j], t[j]);
    }
    static SHA256_LANES_INLINE void Compress(V* s, V* w)
    {
        NoSide none;
        Compress(s, w, none, 0);
    }

    //! st: word-sliced state in memory (st[j * N + lane]); lane i compresses the block at blocks[i].
    static SHA256_LANES_INLINE void Transform(uint32_t* st, const unsigned char* const* blocks)
    {
        V s[8], w[16];
        for (int j = 0; j < 8; ++j) s[j] = L::LoadState(st + j * N);
        L::LoadBlocks(w, blocks);
        Compress(s, w);
        for (int j = 0; j < 8; ++j) L::StoreState(st + j * N, s[j]);
    }

    //! s = SHA-256 of each lane's 64-byte message in w (w is overwritten).
    template <class Side>
    static SHA256_LANES_BLOCK void Hash64(V* s, V* w, Side& side)
    {
        // Block 1: the message.
        for (int j = 0; j < 8; ++j) s[j] = C(IV[j]);
        Compress(s, w, side, 0);

        PaddingBlock(s, side);
    }

    //! Block 2 of a 64-byte message: the padding, every W+K a constant.
    template <class Side>
    static SHA256_LANES_BLOCK void PaddingBlock(V* s, Side& side)
    {
        V t[8];
        for (int j = 0; j < 8; ++j) t[j] = s[j];
#pragma GCC unroll 8
        for (int i = 0; i < 64; i += 8) {
            V kw[8];
#pragma GCC unroll 8
            for (int j = 0; j < 8; ++j) kw[j] = T(PAD64_KW.v, i + j);
            Round8(t, kw, side, 64 + i);
        }
        for (int j = 0; j < 8; ++j) s[j] = Add(s[j], t[j]);
    }

    //! t = SHA-256 of each lane's 32-byte message in w[0..7] (w is overwritten):
    //! one block whose words 8..15 are fixed.
    template <class Side>
    static SHA256_LANES_BLOCK void Hash32(V* t, V* w, Side& side, int r0)
    {
        for (int j = 0; j < 8; ++j) t[j] = C(IV[j]);
        {
            V kw[8];
            for (int j = 0; j < 8; ++j) kw[j] = Add(w[j], T(K, j));
            Round8(t, kw, side, r0);
            for (int j = 0; j < 8; ++j) kw[j] = C(K[8 + j] + PAD32[j]);
            Round8(t, kw, side, r0 + 8);
        }
        // W16..W31 with the fixed words folded in (W8 = 0x80000000, W9..W14 = 0, W15 = 256).
        // Each lands in the window slot of W[i - 16].
        {
            V kw[8];
            w[0] = Add(sigma0(w[1]), w[0]);
            kw[0] = Add(w[0], T(K, 16));
            w[1] = Add(sigma0(w[2]), w[1], C(Csigma1(256)));
            kw[1] = Add(w[1], T(K, 17));
            w[2] = Add(sigma1(w[0]), sigma0(w[3]), w[2]);
            kw[2] = Add(w[2], T(K, 18));
            w[3] = Add(sigma1(w[1]), sigma0(w[4]), w[3]);
            kw[3] = Add(w[3], T(K, 19));
            w[4] = Add(sigma1(w[2]), sigma0(w[5]), w[4]);
            kw[4] = Add(w[4], T(K, 20));
            w[5] = Add(sigma1(w[3]), sigma0(w[6]), w[5]);
            kw[5] = Add(w[5], T(K, 21));
            w[6] = Add(sigma1(w[4]), sigma0(w[7]), w[6], C(256));
            kw[6] = Add(w[6], T(K, 22));
            w[7] = Add(sigma1(w[5]), w[0], w[7], C(Csigma0(0x80000000)));
            kw[7] = Add(w[7], T(K, 23));
            Round8(t, kw, side, r0 + 16);
            w[8] = Add(sigma1(w[6]), w[1], C(0x80000000));
            kw[0] = Add(w[8], T(K, 24));
            w[9] = Add(sigma1(w[7]), w[2]);
            kw[1] = Add(w[9], T(K, 25));
            w[10] = Add(sigma1(w[8]), w[3]);
            kw[2] = Add(w[10], T(K, 26));
            w[11] = Add(sigma1(w[9]), w[4]);
            kw[3] = Add(w[11], T(K, 27));
            w[12] = Add(sigma1(w[10]), w[5]);
            kw[4] = Add(w[12], T(K, 28));
            w[13] = Add(sigma1(w[11]), w[6]);
            kw[5] = Add(w[13], T(K, 29));
            w[14] = Add(sigma1(w[12]), w[7], C(Csigma0(256)));
            kw[6] = Add(w[14], T(K, 30));
            w[15] = Add(sigma1(w[13]), w[8], sigma0(w[0]), C(256));
            kw[7] = Add(w[15], T(K, 31));
            Round8(t, kw, side, r0 + 24);
        }
#pragma GCC unroll 4
        for (int i = 32; i < 64; i += 8) {
            V kw[8];
#pragma GCC unroll 8
            for (int j = 0; j < 8; ++j) kw[j] = Add(Expand(w, i + j), T(K, i + j));
            Round8(t, kw, side, r0 + i);
        }
        for (int j = 0; j < 8; ++j) t[j] = Add(t[j], C(IV[j]));
    }

    //! out[32*i..] = SHA256(SHA256(in[64*i..64*i+63])) for i < N. out may equal in:
    //! every input is read before any output is written. side.Step(r) runs
    //! after lane round r, 0..191.
    template <class Side>
    static SHA256_LANES_INLINE void D64(unsigned char* out, const unsigned char* in, Side& side)
    {
        V w[16], s[8];
        L::LoadContiguous(w, in);
        Hash64(s, w, side);
        for (int j = 0; j < 8; ++j) w[j] = s[j];
        Hash32(s, w, side, 128);
        L::StoreContiguous(out, s);
    }
    static SHA256_LANES_INLINE void D64(unsigned char* out, const unsigned char* in)
    {
        NoSide none;
        D64(out, in, none);
    }

    //! The second SHA-256 alone: t = SHA-256 of each lane's 32-byte w[0..7].
    static SHA256_LANES_INLINE void Hash32(V* t, V* w)
    {
        NoSide none;
        Hash32(t, w, none, 0);
    }
};

} // namespace
} // namespace lanes
} // namespace sha256

#endif
