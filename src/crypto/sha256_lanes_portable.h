// SPDX-License-Identifier: MIT
// The portable lanes class for sha256_lanes.h: N 32-bit lanes of GCC/Clang
// generic vectors (lowered to whatever the target has, plain integers at
// worst), arrays elsewhere. With N = 16 it runs the AVX-512 algorithm on any
// CPU; with N = 1, the portable D64 and fixed-size kernels.
#ifndef SHA256BENCH_CRYPTO_SHA256_LANES_PORTABLE_H
#define SHA256BENCH_CRYPTO_SHA256_LANES_PORTABLE_H

#include <crypto/sha256_lanes.h>

#include <cstdint>

namespace sha256 {
namespace lanes {
namespace {

// Big-endian loads and stores of this file's own, so that no inline function
// is shared with files compiled for another instruction set.
inline uint32_t LoadBE(const unsigned char* p)
{
    return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | uint32_t(p[3]);
}
inline void StoreBE(unsigned char* p, uint32_t x)
{
    p[0] = static_cast<unsigned char>(x >> 24);
    p[1] = static_cast<unsigned char>(x >> 16);
    p[2] = static_cast<unsigned char>(x >> 8);
    p[3] = static_cast<unsigned char>(x);
}

// GCC's generic vectors take only a power-of-two byte size (vector_size(24)
// does not compile there), so any other lane count is an array, whose
// operations are loops the optimiser may still vectorise. Clang would accept
// more, but one rule for both compilers keeps every width built the same way.
template <int LANES>
constexpr bool kGenericVector =
#if defined(__GNUC__)
    LANES >= 1 && (LANES & (LANES - 1)) == 0;
#else
    false;
#endif

template <int LANES, bool VECTOR = kGenericVector<LANES>>
struct PortableVec {
    uint32_t v[LANES];
};
#if defined(__GNUC__)
template <int LANES>
struct PortableVec<LANES, true> {
    typedef uint32_t Raw __attribute__((vector_size(4 * LANES)));
    Raw v;
};
#endif

template <int LANES>
struct PortableLanes : LanesBase<PortableLanes<LANES>> {
    static_assert(LANES >= 1 && LANES <= 64, "PortableLanes: a lane count from 1 to 64");
    using V = PortableVec<LANES>;
    static constexpr int N = LANES;
    static constexpr bool VECTOR = kGenericVector<LANES>;
    // The AVX-512 class's round order, so that the lane widths test it on
    // every CPU (16 lanes on Zen 5: no difference measured); one lane keeps
    // the textbook one.
    static constexpr bool SHORT_E_PATH = LANES > 1;

    // Whole-vector operators where V is a generic vector, lane loops where it is an array.
    static SHA256_LANES_INLINE V Add(V a, V b)
    {
        if constexpr (VECTOR) a.v += b.v; else for (int i = 0; i < N; ++i) a.v[i] += b.v[i];
        return a;
    }
    static SHA256_LANES_INLINE V Xor(V a, V b)
    {
        if constexpr (VECTOR) a.v ^= b.v; else for (int i = 0; i < N; ++i) a.v[i] ^= b.v[i];
        return a;
    }
    static SHA256_LANES_INLINE V And(V a, V b)
    {
        if constexpr (VECTOR) a.v &= b.v; else for (int i = 0; i < N; ++i) a.v[i] &= b.v[i];
        return a;
    }
    static SHA256_LANES_INLINE V Or(V a, V b)
    {
        if constexpr (VECTOR) a.v |= b.v; else for (int i = 0; i < N; ++i) a.v[i] |= b.v[i];
        return a;
    }
    template <int n>
    static SHA256_LANES_INLINE V ShR(V a)
    {
        if constexpr (VECTOR) a.v >>= n; else for (int i = 0; i < N; ++i) a.v[i] >>= n;
        return a;
    }
    template <int n>
    static SHA256_LANES_INLINE V ShL(V a)
    {
        if constexpr (VECTOR) a.v <<= n; else for (int i = 0; i < N; ++i) a.v[i] <<= n;
        return a;
    }
    static SHA256_LANES_INLINE V Set1(uint32_t x) { V r; for (int i = 0; i < N; ++i) r.v[i] = x; return r; }
    static inline V LoadState(const uint32_t* p) { V r; for (int i = 0; i < N; ++i) r.v[i] = p[i]; return r; }
    static inline void StoreState(uint32_t* p, V x) { for (int i = 0; i < N; ++i) p[i] = x.v[i]; }
    static inline void LoadBlocks(V* w, const unsigned char* const* p)
    {
        for (int j = 0; j < 16; ++j) {
            for (int i = 0; i < N; ++i) w[j].v[i] = LoadBE(p[i] + 4 * j);
        }
    }
    static inline void StoreContiguous(unsigned char* out, const V* s)
    {
        for (int i = 0; i < N; ++i) {
            for (int j = 0; j < 8; ++j) StoreBE(out + 32 * i + 4 * j, s[j].v[i]);
        }
    }
};

} // namespace
} // namespace lanes
} // namespace sha256

#endif
