// The avx512_16way kernels: sixteen inputs or messages at once in the 32-bit lanes of AVX-512 registers:
// vprord for the rotations, vpternlogd for Ch, Maj and the three-way xors of
// the Sigma functions. Compiled with -mavx512f -mavx512vl; called only on CPUs
// and OSes with AVX-512F/VL and the opmask/ZMM state enabled in XCR0.

// Under GCC: -O3, and neither the post-allocation scheduler (sched2), which
// interleaves neighbouring rounds, nor the reassociation of each round's adds:
// both put the same operations in a worse order than the source's (GCC 12 on
// AMD Zen 4: ~6% of D64's time; -O3 ~2% more). Debug builds keep their -O0.
#if defined(__GNUC__) && !defined(__clang__) && defined(__OPTIMIZE__)
#pragma GCC optimize("O3", "no-schedule-insns2", "no-tree-reassoc")
#endif

#include <crypto/sha256_kernels.h>

#ifdef SHA256_KERNELS_X86
#define SHA256_LANES_INLINE_BLOCKS 1
#include <crypto/sha256_lanes_avx512.h>

// Bitcoin Core's SHA256D64 16-way is this function (contrib/core-export.py).
void sha256::kernel::avx512_16way_d64(unsigned char* out, const unsigned char* in)
{
    sha256::lanes::Lanes<sha256::lanes::Avx512>::D64(out, in);
    _mm256_zeroupper();
}

// The second SHA-256 of SHA256DMulti: sixteen 32-byte digests, contiguous,
// one block each (StoreContiguous backwards, then Hash32's fixed padding words).
void sha256::kernel::avx512_16way_hash32(unsigned char* out, const unsigned char* in)
{
    using L = sha256::lanes::Avx512;
    __m512i w[16], s[8];
    const auto load2 = [in](int a, int b) {
        return _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 32 * a))),
            _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + 32 * b)), 1);
    };
#pragma GCC unroll 4
    for (int j = 0; j < 4; ++j) {
        // Digests j, 4 + j and 8 + j, 12 + j; then words 0..3 (4..7) of the
        // four, one per 128-bit lane.
        const __m512i x = load2(j, 4 + j), y = load2(8 + j, 12 + j);
        w[j] = _mm512_shuffle_i32x4(x, y, 0x88);
        w[4 + j] = _mm512_shuffle_i32x4(x, y, 0xdd);
    }
    // In 128-bit lane q, word j of digests 4q..4q+3: word j of all sixteen in order.
    L::Transpose4(w[0], w[1], w[2], w[3]);
    L::Transpose4(w[4], w[5], w[6], w[7]);
#pragma GCC unroll 8
    for (int j = 0; j < 8; ++j) w[j] = L::ByteSwap(w[j]);
    sha256::lanes::Lanes<L>::Hash32(s, w);
    L::StoreContiguous(out, s);
    _mm256_zeroupper();
}

void sha256::kernel::avx512_16way_lanes(uint32_t* st, const unsigned char* const* blocks)
{
    sha256::lanes::Lanes<sha256::lanes::Avx512>::Transform(st, blocks);
    _mm256_zeroupper();
}
#endif
