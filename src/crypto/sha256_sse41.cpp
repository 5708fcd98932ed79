// The sse41_4way kernels: four inputs or messages at once in the 32-bit lanes
// of SSE registers. Compiled with -msse4.1; called only on CPUs that have it.
#include <crypto/sha256_kernels.h>

#ifdef SHA256_KERNELS_X86
#include <crypto/sha256_lanes.h>
#include <crypto/sha256_lanes_count.h>

#include <immintrin.h>

namespace sha256 {
namespace lanes {
namespace {

struct Sse41 : LanesBase<Sse41> {
    using V = __m128i;
    static constexpr int N = 4;
    static inline V Add(V a, V b) { return _mm_add_epi32(a, b); }
    static inline V Xor(V a, V b) { return _mm_xor_si128(a, b); }
    static inline V And(V a, V b) { return _mm_and_si128(a, b); }
    static inline V Or(V a, V b) { return _mm_or_si128(a, b); }
    template <int n>
    static inline V ShR(V a) { return _mm_srli_epi32(a, n); }
    template <int n>
    static inline V ShL(V a) { return _mm_slli_epi32(a, n); }
    static inline V Set1(uint32_t x) { return _mm_set1_epi32(static_cast<int>(x)); }
    static inline V LoadState(const uint32_t* p) { return _mm_loadu_si128(reinterpret_cast<const V*>(p)); }
    static inline void StoreState(uint32_t* p, V x) { _mm_storeu_si128(reinterpret_cast<V*>(p), x); }

    static inline V ByteSwap(V x)
    {
        return _mm_shuffle_epi8(x, _mm_set_epi8(12, 13, 14, 15, 8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3));
    }
    // r[i] holds four words of lane i; afterwards r[j] holds word j of every lane.
    static inline void Transpose(V& r0, V& r1, V& r2, V& r3)
    {
        const V t0 = _mm_unpacklo_epi32(r0, r1), t1 = _mm_unpacklo_epi32(r2, r3);
        const V t2 = _mm_unpackhi_epi32(r0, r1), t3 = _mm_unpackhi_epi32(r2, r3);
        r0 = _mm_unpacklo_epi64(t0, t1);
        r1 = _mm_unpackhi_epi64(t0, t1);
        r2 = _mm_unpacklo_epi64(t2, t3);
        r3 = _mm_unpackhi_epi64(t2, t3);
    }
    static inline void LoadBlocks(V* w, const unsigned char* const* p)
    {
        for (int q = 0; q < 4; ++q) {
            V r[4];
            for (int i = 0; i < 4; ++i) r[i] = ByteSwap(_mm_loadu_si128(reinterpret_cast<const V*>(p[i] + 16 * q)));
            Transpose(r[0], r[1], r[2], r[3]);
            for (int i = 0; i < 4; ++i) w[4 * q + i] = r[i];
        }
    }
    static inline void StoreContiguous(unsigned char* out, const V* s)
    {
        for (int q = 0; q < 2; ++q) {
            V r[4] = {s[4 * q], s[4 * q + 1], s[4 * q + 2], s[4 * q + 3]};
            Transpose(r[0], r[1], r[2], r[3]);
            for (int i = 0; i < 4; ++i) _mm_storeu_si128(reinterpret_cast<V*>(out + 32 * i + 16 * q), ByteSwap(r[i]));
        }
    }
};

} // namespace
} // namespace lanes

void kernel::sse41_4way_d64(unsigned char* out, const unsigned char* in) { lanes::Lanes<lanes::Sse41>::D64(out, in); }
void kernel::sse41_4way_lanes(uint32_t* st, const unsigned char* const* blocks)
{
    lanes::Lanes<lanes::Sse41>::Transform(st, blocks);
}
kernel::OpCount kernel::sse41_4way_count(Shape shape) { return lanes::Count<lanes::Sse41, 16>(shape); }

} // namespace sha256
#endif
