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

// The job kernel of the multi-buffer hasher (the interface of
// sha256::streams, as the SHA-NI job kernels): sixteen messages in the lanes,
// and where one ends its digest goes out and the lane takes the next job in
// the same call, the states staying in registers. Per block, the cursors and
// counts step as vectors; only the lanes whose message ended go through
// scalar code. With a kernel call per block from the C++ lane scheduler
// (states through memory, a loop over the lanes per block and per message),
// 15% of the time went to the scheduler; this kernel makes the txids of a
// block 3.6% faster (bench-compare, 20 pairs; Zen 5).
size_t sha256::kernel::avx512_16way_jobs(sha256::streams::Lane* lane, const sha256::streams::Job* job, size_t njobs)
{
    using L = sha256::lanes::Avx512;
    using V = __m512i;
    constexpr int N = 16;
    const sha256::streams::Job* const last = job + njobs;
    const sha256::streams::Job* next = job;
    // Each lane's cursor and count, as arrays (8 lanes a register).
    alignas(64) const unsigned char* at[N];
    alignas(64) const unsigned char* end[N];
    alignas(64) const unsigned char* then[N];
    alignas(64) uint64_t left[N];
    alignas(64) uint32_t st[8 * N];
    for (int i = 0; i < N; ++i) {
        const sha256::streams::Lane& l = lane[i];
        at[i] = l.c.at;
        end[i] = l.c.end;
        then[i] = l.c.then;
        left[i] = l.left;
        // sha256rnds2's order (abef = f e b a, cdgh = h g d c) -> a..h.
        const uint32_t w[8] = {l.abef[3], l.abef[2], l.cdgh[3], l.cdgh[2], l.abef[1], l.abef[0], l.cdgh[1], l.cdgh[0]};
        for (int j = 0; j < 8; ++j) st[j * N + i] = w[j];
    }
    V s[8];
    for (int j = 0; j < 8; ++j) s[j] = _mm512_load_si512(st + j * N);
    const V byte64 = _mm512_set1_epi64(64), one = _mm512_set1_epi64(1), zero = _mm512_setzero_si512();
    for (;;) {
        // Lanes without a message take the next jobs; stop where one is left without.
        uint32_t idle = _mm512_cmpeq_epi64_mask(_mm512_load_si512(left), zero) |
                        uint32_t{_mm512_cmpeq_epi64_mask(_mm512_load_si512(left + 8), zero)} << 8;
        if (idle) {
            uint32_t fresh = 0;
            for (; idle && next != last; idle &= idle - 1, ++next) {
                const int i = __builtin_ctz(idle);
                sha256::streams::Lane& l = lane[i];
                _mm512_storeu_si512(l.pad, _mm512_loadu_si512(next->area + 64));
                _mm512_storeu_si512(l.pad + 64, _mm512_loadu_si512(next->area + 128));
                at[i] = next->at ? next->at : l.pad; // no whole block: the padding first
                then[i] = next->then ? next->then : l.pad; // a job that repeats its block
                end[i] = next->end;
                left[i] = next->blocks;
                l.out = next->out;
                fresh |= 1u << i;
            }
            for (int j = 0; j < 8; ++j) s[j] = _mm512_mask_mov_epi32(s[j], static_cast<__mmask16>(fresh), L::Set1(sha256::lanes::IV[j]));
            if (idle) break;
        }
        V w[16];
        L::LoadBlocks(w, at);
        sha256::lanes::Lanes<L>::Compress(s, w);
        uint32_t ended = 0;
        for (int h = 0; h < 2; ++h) {
            V a = _mm512_add_epi64(_mm512_load_si512(at + 8 * h), byte64);
            a = _mm512_mask_mov_epi64(a, _mm512_cmpeq_epi64_mask(a, _mm512_load_si512(end + 8 * h)), _mm512_load_si512(then + 8 * h));
            _mm512_store_si512(at + 8 * h, a);
            const V n = _mm512_sub_epi64(_mm512_load_si512(left + 8 * h), one);
            _mm512_store_si512(left + 8 * h, n);
            ended |= uint32_t{_mm512_cmpeq_epi64_mask(n, zero)} << (8 * h);
        }
        for (; ended; ended &= ended - 1) {
            // Lane i's eight words, big-endian, to its digest's place.
            const int i = __builtin_ctz(ended);
            const V lanei = _mm512_set1_epi32(i);
            __m256i d = _mm256_setzero_si256();
            for (int j = 0; j < 8; ++j) d = _mm256_mask_mov_epi32(d, static_cast<__mmask8>(1u << j), _mm512_castsi512_si256(_mm512_permutexvar_epi32(lanei, s[j])));
            d = _mm512_castsi512_si256(L::ByteSwap(_mm512_castsi256_si512(d)));
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(lane[i].out), d);
        }
    }
    for (int j = 0; j < 8; ++j) _mm512_store_si512(st + j * N, s[j]);
    for (int i = 0; i < N; ++i) {
        sha256::streams::Lane& l = lane[i];
        const uint32_t* w = st + i;
        l.abef[0] = w[5 * N], l.abef[1] = w[4 * N], l.abef[2] = w[1 * N], l.abef[3] = w[0];
        l.cdgh[0] = w[7 * N], l.cdgh[1] = w[6 * N], l.cdgh[2] = w[3 * N], l.cdgh[3] = w[2 * N];
        l.c.at = at[i];
        l.c.end = end[i];
        l.c.then = then[i];
        l.left = left[i];
    }
    _mm256_zeroupper();
    return static_cast<size_t>(next - job);
}
#endif
