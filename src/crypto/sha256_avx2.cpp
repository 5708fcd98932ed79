// The AVX2 8-lane kernels from intrinsics: eight inputs or messages at once in
// the 32-bit lanes of AVX2 registers (the avx2_8way rows run them in builds
// without an assembler; sha256_kernels.h says why). Compiled with -mavx2;
// called only on CPUs (and OSes) that have it.
#include <crypto/sha256_kernels.h>

#ifdef SHA256_KERNELS_X86
#define SHA256_LANES_INLINE_BLOCKS 1
#include <crypto/sha256_lanes.h>
#include <crypto/sha256_lanes_count.h>

#include <immintrin.h>

namespace sha256 {
namespace lanes {
namespace {

struct Avx2 : LanesBase<Avx2> {
    using V = __m256i;
    static constexpr int N = 8;
    static inline V Add(V a, V b) { return _mm256_add_epi32(a, b); }
    static inline V Xor(V a, V b) { return _mm256_xor_si256(a, b); }
    static inline V And(V a, V b) { return _mm256_and_si256(a, b); }
    static inline V Or(V a, V b) { return _mm256_or_si256(a, b); }
    template <int n>
    static inline V ShR(V a) { return _mm256_srli_epi32(a, n); }
    template <int n>
    static inline V ShL(V a) { return _mm256_slli_epi32(a, n); }
    static inline V Set1(uint32_t x) { return _mm256_set1_epi32(static_cast<int>(x)); }
    // Broadcast loads (LanesBase::TableLoad): from an immediate GCC's mov,
    // vmovd and vpbroadcastd are two vector uops a round, the broadcast on the
    // two pipes the shifts need; a broadcast load from memory takes none of
    // them (the 8-lane transform and D64 measured faster: doc/results/2026-11-27-lab-notes.md).
    static inline V Table(const uint32_t* table, int i) { return TableLoad(table, i); }
    static inline V LoadState(const uint32_t* p) { return _mm256_loadu_si256(reinterpret_cast<const V*>(p)); }
    static inline void StoreState(uint32_t* p, V x) { _mm256_storeu_si256(reinterpret_cast<V*>(p), x); }

    static inline V ByteSwap(V x)
    {
        const V m = _mm256_setr_epi8(3, 2, 1, 0, 7, 6, 5, 4, 11, 10, 9, 8, 15, 14, 13, 12, 3, 2, 1, 0, 7, 6, 5, 4, 11,
            10, 9, 8, 15, 14, 13, 12);
        return _mm256_shuffle_epi8(x, m);
    }
    // r[i] holds eight words of lane i; afterwards r[j] holds word j of every lane.
    static inline void Transpose(V* r)
    {
        V t[8], u[8];
        for (int i = 0; i < 8; i += 2) {
            t[i] = _mm256_unpacklo_epi32(r[i], r[i + 1]);
            t[i + 1] = _mm256_unpackhi_epi32(r[i], r[i + 1]);
        }
        // Within each 128-bit half, rows 0..3 (and 4..7) are now transposed 4x4 blocks.
        for (int g = 0; g < 8; g += 4) {
            u[g + 0] = _mm256_unpacklo_epi64(t[g], t[g + 2]);
            u[g + 1] = _mm256_unpackhi_epi64(t[g], t[g + 2]);
            u[g + 2] = _mm256_unpacklo_epi64(t[g + 1], t[g + 3]);
            u[g + 3] = _mm256_unpackhi_epi64(t[g + 1], t[g + 3]);
        }
        for (int j = 0; j < 4; ++j) {
            r[j] = _mm256_permute2x128_si256(u[j], u[j + 4], 0x20);
            r[j + 4] = _mm256_permute2x128_si256(u[j], u[j + 4], 0x31);
        }
    }
    static inline void LoadBlocks(V* w, const unsigned char* const* p)
    {
        for (int h = 0; h < 2; ++h) {
            V r[8];
            for (int i = 0; i < 8; ++i) r[i] = ByteSwap(_mm256_loadu_si256(reinterpret_cast<const V*>(p[i] + 32 * h)));
            Transpose(r);
            for (int j = 0; j < 8; ++j) w[8 * h + j] = r[j];
        }
    }
    static inline void StoreContiguous(unsigned char* out, const V* s)
    {
        V r[8];
        for (int j = 0; j < 8; ++j) r[j] = s[j];
        Transpose(r);
        for (int i = 0; i < 8; ++i) _mm256_storeu_si256(reinterpret_cast<V*>(out + 32 * i), ByteSwap(r[i]));
    }
};

// The plan of sha256_avx2.asm, for its count only: the algorithm and the
// primitives of Avx2 (AVX2 has no rotate and no ternary logic), with Maj as
// b ^ ((a ^ b) & (b ^ c)), b ^ c the last round's a ^ b (three operations a
// round, not four). The assembly folds the constant words of the padding and
// of the second hash's block as the template does, so this counts the vector
// operations the file executes (doc/benchmarking.md).
struct Avx2Asm : Avx2 {
    static constexpr bool CARRIED_MAJ = true;
};

} // namespace
} // namespace lanes

void kernel::avx2_8way_intrinsics_d64(unsigned char* out, const unsigned char* in)
{
    lanes::Lanes<lanes::Avx2>::D64(out, in);
    _mm256_zeroupper();
}
void kernel::avx2_8way_intrinsics_lanes(uint32_t* st, const unsigned char* const* blocks)
{
    lanes::Lanes<lanes::Avx2>::Transform(st, blocks);
    _mm256_zeroupper();
}
kernel::OpCount kernel::avx2_8way_intrinsics_count(Shape shape) { return lanes::Count<lanes::Avx2, 32>(shape); }
kernel::OpCount kernel::avx2_8way_asm_count(Shape shape) { return lanes::Count<lanes::Avx2Asm, 32>(shape); }

} // namespace sha256
#endif
