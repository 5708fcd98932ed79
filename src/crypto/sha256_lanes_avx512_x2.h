// SPDX-License-Identifier: MIT
// 32 lanes in two AVX-512 registers a word (Avx512x2), and SHA256D64 on them:
// D64TwoSets on one group of 32 inputs, D64Pipelined on many groups with each
// schedule beside another block's rounds (RoundsAndNext, which the 32-lane job
// kernel of sha256_lanes_avx512_jobs.h runs its blocks with too). Only for
// files compiled with -mavx512f -mavx512bw -mavx512vl (everything is
// file-local, see sha256_constants.h).
#ifndef SHA256BENCH_CRYPTO_SHA256_LANES_AVX512_X2_H
#define SHA256BENCH_CRYPTO_SHA256_LANES_AVX512_X2_H

#include <crypto/sha256_lanes_avx512.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <x86intrin.h>

namespace {

using sha256::lanes::Avx512;
using Z = __m512i;

// 32 lanes: two registers a word, every operation on both. Each round's
// operations depend on each other: where a vector operation takes more than a
// cycle and several issue at once (the CPU model's AVX-512 add depth), a round
// of one register of lanes is a chain that leaves the unit mostly idle; two
// independent sets of lanes interleaved fill the chain's gaps with each
// other's work (doc/results/2026-11-27-lab-notes.md).
struct Pair {
    Z lo, hi;
};

struct Avx512x2 : sha256::lanes::LanesBase<Avx512x2> {
    using V = Pair;
    static constexpr int N = 32;
    static constexpr bool SHORT_E_PATH = Avx512::SHORT_E_PATH;
    static SHA256_LANES_INLINE V Add(V a, V b) { return {Avx512::Add(a.lo, b.lo), Avx512::Add(a.hi, b.hi)}; }
    template <int n>
    static SHA256_LANES_INLINE V ShR(V a) { return {Avx512::ShR<n>(a.lo), Avx512::ShR<n>(a.hi)}; }
    template <int n>
    static SHA256_LANES_INLINE V ShL(V a) { return {Avx512::ShL<n>(a.lo), Avx512::ShL<n>(a.hi)}; }
    template <int n>
    static SHA256_LANES_INLINE V Rotr(V a) { return {Avx512::Rotr<n>(a.lo), Avx512::Rotr<n>(a.hi)}; }
    static SHA256_LANES_INLINE V Xor3(V a, V b, V c) { return {Avx512::Xor3(a.lo, b.lo, c.lo), Avx512::Xor3(a.hi, b.hi, c.hi)}; }
    static SHA256_LANES_INLINE V Ch(V e, V f, V g) { return {Avx512::Ch(e.lo, f.lo, g.lo), Avx512::Ch(e.hi, f.hi, g.hi)}; }
    static SHA256_LANES_INLINE V Maj(V a, V b, V c) { return {Avx512::Maj(a.lo, b.lo, c.lo), Avx512::Maj(a.hi, b.hi, c.hi)}; }
    static SHA256_LANES_INLINE V Set1(uint32_t x)
    {
        const Z v = Avx512::Set1(x);
        return {v, v};
    }
    static SHA256_LANES_INLINE V Table(const uint32_t* table, int i)
    {
        const Z v = Avx512::Table(table, i);
        return {v, v};
    }
    static SHA256_LANES_INLINE void StoreContiguous(unsigned char* out, const V* s)
    {
        Z lo[8], hi[8];
#pragma GCC unroll 8
        for (int j = 0; j < 8; ++j) lo[j] = s[j].lo, hi[j] = s[j].hi;
        Avx512::StoreContiguous(out, lo);
        Avx512::StoreContiguous(out + 32 * 16, hi);
    }
};

// SHA256D64 of 32 inputs on two register sets. Where one register set's
// rounds are one chain the vector unit waits on (the lane floor's L), two
// interleaved sets halve the chain per input; but two sets' states and
// message schedule windows do not fit 32 registers. So each block's W+K is
// computed ahead into memory, one set at a time (its window in registers),
// and the rounds of both sets run on their states alone, W+K a memory operand.
// Unrolled whole, the code would not fit the instruction caches: the rounds
// are a loop of eight, the schedule a loop of sixteen words.

// Set k of a word of both sets (the counting class's words have no halves).
// Templates, so that a file without D64TwoSets has no unused function.
template <class V>
SHA256_LANES_INLINE auto Half(const V& v, int k)
{
    if constexpr (std::is_same_v<V, Pair>) return k ? v.hi : v.lo;
    else return v;
}
template <class V, class X>
SHA256_LANES_INLINE void SetHalf(V& v, int k, const X& x)
{
    if constexpr (std::is_same_v<V, Pair>) (k ? v.hi : v.lo) = x;
    else v = x;
}

//! W+K of a block from its 16 words w (overwritten): put(i, W+K of word i)
//! for i = 0..63, in that order.
template <class One, class Put>
SHA256_LANES_INLINE void ScheduleWords(typename One::V* w, Put put)
{
    using A = sha256::lanes::Lanes<One>;
#pragma GCC unroll 16
    for (int i = 0; i < 16; ++i) put(i, One::Add(w[i], One::Table(sha256::lanes::K, i)));
#pragma GCC unroll 1
    for (int b = 16; b < 64; b += 16) {
        // Word i from word i - 2 in three dependent operations (sigma1's
        // rotate and xor, then one add: the other three terms are summed
        // beside them), where the rounds' order takes four: the schedule
        // alone is one such chain for the even words and one for the odd.
        // A word's window slots depend on its index modulo 16 only.
#pragma GCC unroll 16
        for (int j = 0; j < 16; ++j) {
            auto& x = w[j];
            x = One::Add(A::sigma1(w[(j + 14) & 15]), One::Add(One::Add(w[(j + 9) & 15], A::sigma0(w[(j + 1) & 15])), x));
            put(b + j, One::Add(x, One::Table(sha256::lanes::K, b + j)));
        }
    }
}

//! Set k's W+K of a block from its 16 words w (overwritten) into kw[0..63].
template <class One, class V2>
SHA256_LANES_INLINE void ScheduleOneSet(V2* kw, int k, typename One::V* w)
{
    ScheduleWords<One>(w, [kw, k](int i, typename One::V x) __attribute__((always_inline)) { SetHalf(kw[i], k, x); });
}

//! s += 64 rounds of both sets, a loop of eight; kw(i, buf) gives the W+K of
//! rounds i..i+7 (in memory already, or written to buf); side.Step(r) runs
//! after round r (Beside's work, or none).
template <class Two, class KW, class Side>
SHA256_LANES_INLINE void RoundsTwoSets(typename Two::V* s, KW kw, Side& side)
{
    typename Two::V t[8];
    for (int j = 0; j < 8; ++j) t[j] = s[j];
#pragma GCC unroll 1
    for (int i = 0; i < 64; i += 8) {
        typename Two::V buf[8];
        sha256::lanes::Lanes<Two>::Round8(t, kw(i, buf), side, i);
    }
    for (int j = 0; j < 8; ++j) s[j] = Two::Add(s[j], t[j]);
}
template <class Two, class KW>
SHA256_LANES_INLINE void RoundsTwoSets(typename Two::V* s, KW kw)
{
    sha256::lanes::NoSide none;
    RoundsTwoSets<Two>(s, kw, none);
}
//! RoundsTwoSets' kw for a block's 64 W+K in memory at kw.
template <class V2>
SHA256_LANES_INLINE auto InMemory(const V2* kw)
{
    return [kw](int i, V2*) { return kw + i; };
}

//! out[32 * i..] = SHA256D64 of in[64 * i..] for i < 32: One is a set's lanes
//! class, Two the pair's (Avx512, Avx512x2; or the counting classes of
//! sha256_lanes_count.h, whose words are both).
template <class One, class Two>
SHA256_LANES_INLINE void D64TwoSets(unsigned char* out, const unsigned char* in)
{
    static_assert(Two::N == 32, "two sets of 16 lanes");
    using V1 = typename One::V;
    using V2 = typename Two::V;
    alignas(64) V2 kw[64];
    V1 w[16];
    V2 s[8];
    // Block 1: the inputs.
    One::LoadContiguous(w, in);
    ScheduleOneSet<One>(kw, 0, w);
    One::LoadContiguous(w, in + 64 * 16);
    ScheduleOneSet<One>(kw, 1, w);
    for (int j = 0; j < 8; ++j) s[j] = Two::Set1(sha256::constants::IV[j]);
    RoundsTwoSets<Two>(s, InMemory<V2>(kw));
    // Block 2: the padding, every W+K a constant (the same for both sets),
    // broadcast eight rounds at a time.
    RoundsTwoSets<Two>(s, [](int i, V2* buf) -> const V2* {
#pragma GCC unroll 8
        for (int j = 0; j < 8; ++j) buf[j] = Two::Table(sha256::lanes::PAD64_KW.v, i + j);
        return buf;
    });
    // The second hash: the digest and its fixed padding words. The digest
    // goes through memory, so that no state is held in registers while a
    // set's schedule needs them.
    alignas(64) V1 digest[16];
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) digest[j] = Half(s[j], 0), digest[8 + j] = Half(s[j], 1);
    __asm__("" : "+m"(digest));
#pragma GCC unroll 1
    for (int k = 0; k < 2; ++k) {
#pragma GCC unroll 8
        for (int j = 0; j < 8; ++j) w[j] = digest[8 * k + j];
#pragma GCC unroll 8
        for (int j = 0; j < 8; ++j) w[8 + j] = One::Set1(sha256::lanes::PAD32[j]);
        ScheduleOneSet<One>(kw, k, w);
    }
    for (int j = 0; j < 8; ++j) s[j] = Two::Set1(sha256::constants::IV[j]);
    RoundsTwoSets<Two>(s, InMemory<V2>(kw));
    Two::StoreContiguous(out, s);
}

// A load the compiler must make: a value stored to memory is read back from
// there, not kept in a register (see BlockAndNext).
template <class V>
SHA256_LANES_INLINE V Reload(const V* p)
{
    return *p; // the counting classes' values
}
SHA256_LANES_INLINE Z Reload(const Z* p) { return *static_cast<const volatile Z*>(p); }

//! RoundsAndNext's kw for a block's 64 W+K of both sets in memory at kw.
template <class V2>
SHA256_LANES_INLINE auto SetsInMemory(const V2* kw)
{
    return [kw](int r, int k) { return Half(kw[r], k); };
}

//! Nothing to do beside the rounds (RoundsAndNext's `loop`).
struct NoLoopWork {
    // Unused in a file whose every RoundsAndNext call has work beside it.
    [[maybe_unused]] void operator()(int) const {}
};

//! s += 64 rounds of both sets on their states s, kw(r, k) giving set k's
//! W+K of round r, and beside them the W+K of a next block into kwn, from
//! its 16 words of each set in window[k][0..15] (the rest of the window is
//! the schedule's). Computed ahead, the schedule is off the rounds' chains,
//! and its own chains fill their gaps. The states of both sets take 16
//! registers and the rounds' temporaries most of the rest, so the schedule's
//! window is in memory: each word is stored once and its four terms loaded
//! (Reload: GCC otherwise keeps the window in registers and spills the states).
//! loop(n) runs at the top of the n-th loop of eight rounds from round 16
//! (n = 0..5): the job kernel's prefetches.
template <class One, class V2, class KW, class Loop = NoLoopWork>
SHA256_LANES_INLINE void RoundsAndNext(V2* s, KW kw, typename One::V (*window)[64], V2* kwn, Loop loop = {})
{
    using A = sha256::lanes::Lanes<One>;
    using V1 = typename One::V;
    using sha256::lanes::K;
    V1 a[8], b[8];
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) a[j] = Half(s[j], 0), b[j] = Half(s[j], 1);
    const auto rounds = [&](int r, int q) {
        A::Round(a[(0 - q) & 7], a[(1 - q) & 7], a[(2 - q) & 7], a[(3 - q) & 7], a[(4 - q) & 7], a[(5 - q) & 7],
                 a[(6 - q) & 7], a[(7 - q) & 7], kw(r, 0));
        A::Round(b[(0 - q) & 7], b[(1 - q) & 7], b[(2 - q) & 7], b[(3 - q) & 7], b[(4 - q) & 7], b[(5 - q) & 7],
                 b[(6 - q) & 7], b[(7 - q) & 7], kw(r, 1));
    };
    // Eight rounds a loop (the code of all 64 would not fit the op cache).
    // The next block's words wait for their loads until round 16; at round r
    // from there on, word r of both sets.
#pragma GCC unroll 1
    for (int i = 0; i < 16; i += 8) {
#pragma GCC unroll 8
        for (int q = 0; q < 8; ++q) {
            rounds(i + q, q);
#pragma GCC unroll 2
            for (int k = 0; k < 2; ++k) SetHalf(kwn[i + q], k, A::Add(Reload(window[k] + i + q), A::T(K, i + q)));
        }
    }
#pragma GCC unroll 1
    for (int i = 16; i < 64; i += 8) {
        loop((i - 16) / 8);
#pragma GCC unroll 8
        for (int q = 0; q < 8; ++q) {
            rounds(i + q, q);
#pragma GCC unroll 2
            for (int k = 0; k < 2; ++k) {
                const int j = i + q;
                V1* w = window[k];
                const V1 x = A::Add(A::sigma1(Reload(w + j - 2)),
                                    A::Add(A::Add(Reload(w + j - 7), A::sigma0(Reload(w + j - 15))), Reload(w + j - 16)));
                w[j] = x;
                SetHalf(kwn[j], k, A::Add(x, A::T(K, j)));
            }
        }
    }
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) {
        const V1 x = A::Add(Half(s[j], 0), a[j]), y = A::Add(Half(s[j], 1), b[j]);
        SetHalf(s[j], 0, x);
        SetHalf(s[j], 1, y);
    }
}

// D64Pipelined's blocks, functions of their own: inlined, its code was far
// more than the op cache holds. For the same reason the padding block's
// rounds read its W+K from a table as the others read theirs, through the
// same function: with a function of its own for the padding block (its W+K
// broadcast from the 64 words), D64Pipelined ran slower than D64TwoSets
// (doc/results/2026-11-28-amd-epyc-zen5-log.md).
//! s += 64 rounds of both sets with the W+K in kw.
template <class Two>
__attribute__((noinline)) void BlockOfTwoSets(typename Two::V* s, const typename Two::V* kw)
{
    RoundsTwoSets<Two>(s, InMemory(kw));
}
//! The same beside the schedule of the words in window, into kwn (RoundsAndNext).
template <class One, class V2>
__attribute__((noinline)) void BlockAndSchedule(V2* s, const V2* kw, typename One::V (*window)[64], V2* kwn)
{
    RoundsAndNext<One>(s, SetsInMemory(kw), window, kwn);
}

//! The padding block's W+K in every lane of both sets, laid out as a
//! block's W+K for BlockOfTwoSets and BlockAndSchedule (a Pair a round).
template <class V2>
const V2* PadKWLanes()
{
    static_assert(std::is_same_v<V2, Pair>, "two registers of 16 lanes a word");
    struct Table {
        alignas(64) uint32_t v[64][32];
    };
    alignas(64) static constexpr Table table = [] {
        Table t{};
        for (int r = 0; r < 64; ++r) {
            for (int i = 0; i < 32; ++i) t.v[r][i] = sha256::lanes::PAD64_KW.v[r];
        }
        return t;
    }();
    return reinterpret_cast<const V2*>(table.v);
}

//! The pipeline's work outside its rounds, beside the rounds of its block
//! with no schedule beside them (the second hash's, LoneBlock), whose
//! chains leave the vector unit idle part of the time: the next group's
//! inputs loaded into the schedule's window (In::Piece, 16 pieces), and the
//! previous second hash's digests stored (Out::Piece, 8 pieces). Each is cut
//! into pieces a few rounds apart that pass through memory: the two sets'
//! rounds leave no registers to hold them. Between the blocks, that work
//! waited on one block's end or held up the next block's start.
template <class In, class Out>
struct Beside {
    In* in = nullptr;
    Z (*window)[64] = nullptr;
    size_t next = 0;            // the group whose inputs to load
    bool load = false;          // whether there is one
    Out* out = nullptr;
    const Pair* done = nullptr; // 32 digests to store as group `stored`, or none
    size_t stored = 0;

    // Unused in a file without the D64 pipeline (the job kernels' file).
    [[maybe_unused]] SHA256_LANES_INLINE void Step(int r)
    {
        const int q = r & 7, n = r >> 3;
        if (q == 1 && load) {
            in->Piece(window, next, 2 * n);
            in->Piece(window, next, 2 * n + 1);
        }
        if (q == 5 && done) out->Piece(stored, done, n);
    }
};

//! The inputs of SHA256D64: group g is the 32 inputs at src + 2048 g,
//! loaded and transposed (Avx512::LoadContiguous), byte-swapped.
struct ContiguousIn {
    const unsigned char* src;
    alignas(64) Z rows[32]; // the inputs after the first transpose stage

    // Unused, as Piece, in a file without the D64 pipeline (the job kernels' file).
    [[maybe_unused]] SHA256_LANES_INLINE void Load(Z (*window)[64], size_t g)
    {
#pragma GCC unroll 1
        for (int k = 0; k < 2; ++k) Avx512::LoadContiguous(window[k], src + 64 * (32 * g + 16 * k));
    }
    // Pieces 0..7: Avx512::LoadBlocks's first stage, rows 4p..4p+3; pieces
    // 8..15: the rest, words j, 4 + j, 8 + j, 12 + j of set (p - 8) / 4.
    [[maybe_unused]] SHA256_LANES_INLINE void Piece(Z (*window)[64], size_t g, int p)
    {
        const unsigned char* in = src + 64 * 32 * g;
        if (p < 8) {
            const unsigned char* q = in + 64 * 4 * p;
            Avx512::LoadRows(rows + 4 * p, [q](int j) { return q + 64 * j; });
        } else {
            const int k = (p - 8) >> 2;
            Avx512::GatherWords(window[k], rows + 16 * k, (p - 8) & 3);
        }
    }
};

//! The digests of SHA256D64: group g's 32 at dst + 1024 g, byte-swapped and
//! transposed (Avx512::StoreContiguous).
struct ContiguousOut {
    unsigned char* dst;
    alignas(64) Z words[16]; // the digests byte-swapped and transposed in 128-bit lanes

    template <class Two>
    SHA256_LANES_INLINE void Store(size_t g, const typename Two::V* d)
    {
        Two::StoreContiguous(dst + 32 * 32 * g, d);
    }
    // Piece i of 8: Avx512::StoreContiguous of set i / 4, a quarter each.
    [[maybe_unused]] SHA256_LANES_INLINE void Piece(size_t g, const Pair* done, int i)
    {
        const int k = i >> 2, part = i & 3;
        Z* r = words + 8 * k;
        unsigned char* out = dst + 32 * 32 * g;
        if (part < 2) {
            const Pair* d = done + 4 * part;
            Avx512::SwapRows(r + 4 * part, [d, k](int j) { return Half(d[j], k); });
        } else {
            Avx512::StoreLanes(out + 32 * 16 * k, r, 2 * part - 4);
            Avx512::StoreLanes(out + 32 * 16 * k, r, 2 * part - 3);
        }
    }
};

//! s += 64 rounds of both sets with the W+K in kw, and side's work beside them.
template <class Two, class Side>
__attribute__((noinline)) void LoneBlock(typename Two::V* s, const typename Two::V* kw, Side& side)
{
    RoundsTwoSets<Two>(s, InMemory(kw), side);
}

//! SHA256D64 of 32 x `batches` inputs, group g's from in (In::Load, Piece)
//! and its digests to out (Out::Store, Piece) (One, Two: Avx512, Avx512x2):
//! as D64TwoSets, but each schedule beside rounds that do not need it, across
//! groups of 32 (RoundsAndNext). Of a group's three blocks, the padding
//! block's rounds run beside the next group's first schedule, the first
//! block's beside the previous group's second-hash schedule, and that second
//! hash's rounds with no schedule: beside them (Beside), the next group's
//! inputs are loaded and the group before's digests stored. So group g's
//! digests are written beside the second hash of group g + 1, while group
//! g + 3's inputs are read, a word of them after each word is loaded.
template <class One, class Two, class In, class Out>
SHA256_LANES_INLINE void Pipeline(In& in, Out& out, size_t batches)
{
    using V1 = typename One::V;
    using V2 = typename Two::V;
    using sha256::lanes::PAD32;
    const V2* const pad = PadKWLanes<V2>();
    if (!batches) return;
    alignas(64) V2 kw1[64], kw3[64];
    alignas(64) V1 window[2][64];
    V2 s[8], t[8];
    const auto iv = [](V2* x) {
        for (int j = 0; j < 8; ++j) x[j] = Two::Set1(sha256::constants::IV[j]);
    };
    // The words of the second hash of the digests in d: the digest, then its
    // fixed padding, written again every group: the window is shared with the
    // inputs, which Beside loads over words 0..15 after this schedule is done.
    const auto digests = [&window](const V2* d) {
#pragma GCC unroll 8
        for (int j = 0; j < 8; ++j) {
            window[0][j] = Half(d[j], 0), window[1][j] = Half(d[j], 1);
            window[0][8 + j] = window[1][8 + j] = One::Set1(PAD32[j]);
        }
    };
    // W+K of the words in window, into kw, with no rounds beside (the pipeline's ends).
    const auto schedule = [&window](V2* kw) {
#pragma GCC unroll 1
        for (int k = 0; k < 2; ++k) {
            V1 w[16];
#pragma GCC unroll 16
            for (int j = 0; j < 16; ++j) w[j] = window[k][j];
            ScheduleOneSet<One>(kw, k, w);
        }
    };
    in.Load(window, 0);
    schedule(kw1);
    // The second hashes' states, by turns: group g - 1's is hashed beside the
    // storing of group g - 2's.
    alignas(64) V2 h[2][8];
    Beside<In, Out> side;
    side.in = &in;
    side.window = window;
    side.out = &out;
#pragma GCC unroll 1
    for (size_t g = 0; g < batches; ++g) {
        iv(s);
        if (g) {
            // Block 1 beside the second hash's schedule of group g - 1 (its digests in t), then that hash,
            // beside the next group's inputs and group g - 2's digests.
            digests(t);
            BlockAndSchedule<One>(s, kw1, window, kw3);
            V2* x = h[g & 1];
            iv(x);
            side.load = g + 1 < batches;
            side.next = g + 1;
            side.done = g >= 2 ? h[(g - 1) & 1] : nullptr;
            side.stored = g - 2;
            LoneBlock<Two>(x, kw3, side);
        } else {
            BlockOfTwoSets<Two>(s, kw1);
            if (batches > 1) in.Load(window, 1);
        }
        // The padding block, beside the next group's first schedule.
        if (g + 1 < batches) {
            BlockAndSchedule<One>(s, pad, window, kw1);
        } else {
            BlockOfTwoSets<Two>(s, pad);
        }
        for (int j = 0; j < 8; ++j) t[j] = s[j];
    }
    if (batches >= 2) out.template Store<Two>(batches - 2, h[(batches - 1) & 1]);
    // The last group's second hash.
    digests(t);
    schedule(kw3);
    iv(s);
    BlockOfTwoSets<Two>(s, kw3);
    out.template Store<Two>(batches - 1, s);
}

//! SHA256D64 of 32 x `batches` inputs at in into out (out is in, or apart:
//! group g's digests are written after group g + 3's inputs are read).
template <class One, class Two>
SHA256_LANES_INLINE void D64Pipelined(unsigned char* out, const unsigned char* in, size_t batches)
{
    ContiguousIn i{in, {}};
    ContiguousOut o{out, {}};
    Pipeline<One, Two>(i, o, batches);
}

} // namespace

#endif
