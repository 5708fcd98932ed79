// SPDX-License-Identifier: MIT
// What a lane kernel asks of the vector unit, counted from its own algorithm:
// sha256_lanes.h run on a lanes class whose "vectors" hold no data, only when
// each value is ready. Every operation the algorithm asks of the instruction
// set's class is counted as the instructions that class uses for it (one for
// a primitive the class supplies itself, such as AVX-512's vprord and
// vpternlogd; the portable default's operations where it does not), times the
// registers a word takes. The longest chain of dependent operations is the
// latency side of the bench's floor (bench/bench.cpp), the count its
// throughput side.
//
// Not counted: loads, stores and the transposes and byte swaps around them,
// constants (a table word or an immediate: a load, or a memory operand of the
// add), spills and register moves, and the job kernels' refills. The count is
// what the rounds and the schedule need, the least a kernel of that algorithm
// can issue.
//
// Included by a kernel file for its own lanes classes only (as every lanes
// header, everything is file-local).
#ifndef SHA256BENCH_CRYPTO_SHA256_LANES_COUNT_H
#define SHA256BENCH_CRYPTO_SHA256_LANES_COUNT_H

#include <crypto/sha256_kernels.h>
#include <crypto/sha256_lanes.h>

#include <type_traits>
#include <utility>

namespace sha256 {
namespace lanes {
namespace {

// Whether a lanes class keeps LanesBase's default of a primitive: the
// default's form (a template over the vector type) names a function only
// where the class does not declare its own.
template <class L, class = void>
struct DefaultRotr : std::false_type {};
template <class L>
struct DefaultRotr<L, std::void_t<decltype(L::template Rotr<7, typename L::V>(std::declval<typename L::V>()))>>
    : std::true_type {};
template <class L, class = void>
struct DefaultTernary : std::false_type {};
template <class L>
struct DefaultTernary<L, std::void_t<decltype(L::template Xor3<typename L::V>(std::declval<typename L::V>(),
                                                  std::declval<typename L::V>(), std::declval<typename L::V>())),
                             decltype(L::template Ch<typename L::V>(std::declval<typename L::V>(),
                                 std::declval<typename L::V>(), std::declval<typename L::V>())),
                             decltype(L::template Maj<typename L::V>(std::declval<typename L::V>(),
                                 std::declval<typename L::V>(), std::declval<typename L::V>()))>> : std::true_type {};

// Whether a lanes class says its kernel keeps a ^ b for the next round's Maj
// (CARRIED_MAJ; the assembly of sha256_avx2.asm does, no intrinsics class does).
template <class L, class = void>
struct CarriedMaj : std::false_type {};
template <class L>
struct CarriedMaj<L, std::void_t<decltype(L::CARRIED_MAJ)>> : std::bool_constant<L::CARRIED_MAJ> {};

// A value: when it is ready, in dependent operations from the kernel's inputs,
// and which value it is (an operation's result gets a new id; inputs and
// constants 0), so that a carried term is reused only where it is the same.
struct Ready {
    double at;
    unsigned long id{0};
};

// The count so far, shared by every counting class (a kernel may use two).
// ab, a and b: the last carried Maj's a ^ b and the values it was made of.
struct Tally {
    double ops{0}, chain{0};
    unsigned long ids{0};
    Ready ab{0}, a{0}, b{0};
};
inline Tally& Counted()
{
    thread_local Tally t;
    return t;
}

// The lanes class that counts: L's width and round form, L's choice of
// primitives. REGISTER_BYTES: the widest vector register of the kernel's file.
template <class L, int REGISTER_BYTES>
struct Counting : LanesBase<Counting<L, REGISTER_BYTES>> {
    using Base = LanesBase<Counting<L, REGISTER_BYTES>>;
    using V = Ready;
    static constexpr int N = L::N;
    static constexpr bool SHORT_E_PATH = L::SHORT_E_PATH;
    //! Instructions for one operation on a word of every lane.
    static constexpr int REGISTERS = (sizeof(typename L::V) + REGISTER_BYTES - 1) / REGISTER_BYTES;

    // Not inlined: a kernel run on counting classes inlines to one function of
    // thousands of operations, whose variable tracking under -g made this
    // header the slowest part of the build. The count runs once per kernel.
    __attribute__((noinline)) static V Op(double after)
    {
        Counted().ops += REGISTERS;
        if (after + 1 > Counted().chain) Counted().chain = after + 1;
        return {after + 1, ++Counted().ids};
    }
    static double Max(V a, V b) { return a.at > b.at ? a.at : b.at; }
    static double Max(V a, V b, V c) { return Max(a, b) > c.at ? Max(a, b) : c.at; }

    static V Add(V a, V b) { return Op(Max(a, b)); }
    static V Xor(V a, V b) { return Op(Max(a, b)); }
    static V And(V a, V b) { return Op(Max(a, b)); }
    static V Or(V a, V b) { return Op(Max(a, b)); }
    template <int n>
    static V ShR(V a) { return Op(a.at); }
    template <int n>
    static V ShL(V a) { return Op(a.at); }
    static V Set1(uint32_t) { return {0}; }
    static V Table(const uint32_t*, int) { return {0}; }
    template <int n>
    static V Rotr(V a)
    {
        if constexpr (DefaultRotr<L>::value) return Base::template Rotr<n>(a);
        return Op(a.at);
    }
    static V Xor3(V a, V b, V c)
    {
        if constexpr (DefaultTernary<L>::value) return Base::Xor3(a, b, c);
        return Op(Max(a, b, c));
    }
    static V Ch(V e, V f, V g)
    {
        if constexpr (DefaultTernary<L>::value) return Base::Ch(e, f, g);
        return Op(Max(e, f, g));
    }
    static V Maj(V a, V b, V c)
    {
        if constexpr (CarriedMaj<L>::value) {
            // b ^ ((a ^ b) & (b ^ c)): b ^ c is the last round's a ^ b when
            // this round's b and c are that round's a and b (the names rotate);
            // at a block's first round it is computed.
            Tally& t = Counted();
            const bool carried = t.ab.id != 0 && b.id == t.a.id && c.id == t.b.id;
            const V bc = carried ? t.ab : Xor(b, c);
            const V ab = Xor(a, b);
            t.ab = ab;
            t.a = a;
            t.b = b;
            return Xor(b, And(ab, bc));
        }
        if constexpr (DefaultTernary<L>::value) return Base::Maj(a, b, c);
        return Op(Max(a, b, c));
    }
    static void LoadBlocks(V* w, const unsigned char* const*)
    {
        for (int i = 0; i < 16; ++i) w[i] = {0};
    }
    static void StoreContiguous(unsigned char*, const V*) {}
};

//! The operations and longest chain of run(in), a kernel's code on counting
//! classes, for `ways` inputs; `in` is never read (the counting classes load nothing).
template <class Run>
kernel::OpCount CountRun(Run run, int ways, int register_bytes, bool carried_maj = false)
{
    static const unsigned char in[64 * 64] = {};
    unsigned char out[32 * 64];
    Counted() = {};
    run(out, in);
    return {Counted().ops, Counted().chain, ways, register_bytes, carried_maj};
}

//! A call's operations and longest chain: D64 of N inputs, Hash32 of N
//! digests, or one block of N lanes (Lanes and Jobs kernels).
template <class L, int REGISTER_BYTES>
kernel::OpCount Count(kernel::Shape shape)
{
    using C = Counting<L, REGISTER_BYTES>;
    using A = Lanes<C>;
    if (shape == kernel::Shape::D64) {
        return CountRun([](unsigned char* out, const unsigned char* in) { A::D64(out, in); }, L::N, REGISTER_BYTES,
                        CarriedMaj<L>::value);
    }
    Counted() = {};
    Ready s[8], w[16];
    for (Ready& x : s) x = {0};
    for (Ready& x : w) x = {0};
    if (shape == kernel::Shape::Hash32) {
        A::Hash32(s, w);
    } else if (shape == kernel::Shape::Lanes || shape == kernel::Shape::Jobs) {
        A::Compress(s, w);
    } else {
        return {};
    }
    return {Counted().ops, Counted().chain, L::N, REGISTER_BYTES, CarriedMaj<L>::value};
}

} // namespace
} // namespace lanes
} // namespace sha256

#endif
