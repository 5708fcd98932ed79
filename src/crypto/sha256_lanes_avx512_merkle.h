// SPDX-License-Identifier: MIT
// The levels of a Merkle tree on 32 lanes in two AVX-512 registers a word
// (Pipeline of sha256_lanes_avx512_x2.h), with each level's digests kept in
// lane order between levels: a group of 32 digests is eight words of 32
// lanes (word j of digest 32g + i at 256g + 32j + i, as 32-bit words), which
// the next level reads with no transpose and no byte swap. Only for files
// compiled with -mavx512f -mavx512bw -mavx512vl.
#ifndef SHA256BENCH_CRYPTO_SHA256_LANES_AVX512_MERKLE_H
#define SHA256BENCH_CRYPTO_SHA256_LANES_AVX512_MERKLE_H

#include <crypto/sha256_lanes_avx512_x2.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace {

//! Whether a lane of `equal` (16 lanes, lane 0 being input `first`) is a pair: an input below `pairs`.
SHA256_LANES_INLINE bool AnyPair(__mmask16 equal, size_t first, size_t pairs)
{
    if (first >= pairs) return false;
    const size_t n = pairs - first;
    return (equal & (n >= 16 ? 0xffffu : (1u << n) - 1)) != 0;
}

//! A level's inputs from the level below in lane order: input i of group g
//! is digests 2i and 2i + 1, in lane groups 2g and 2g + 1, split into even
//! and odd lanes by vpermt2d. Beside it, Core's rule for mutated trees:
//! a pair of identical digests among the level's first `pairs` inputs; where
//! the level below has an odd count, input `pairs` is its last digest twice.
struct LanesIn {
    const uint32_t* src;
    size_t pairs;
    bool odd;
    bool mutated = false;
    __mmask16 equal[2] = {0, 0}; // the lanes of set k whose words so far are equal

    // Word j of set k of group g.
    SHA256_LANES_INLINE void Word(Z (*window)[64], size_t g, int j, int k)
    {
        const uint32_t* p = src + 256 * (2 * g + k) + 32 * j;
        const Z lo = _mm512_loadu_si512(p), hi = _mm512_loadu_si512(p + 16);
        const Z even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
        const Z e = _mm512_permutex2var_epi32(lo, even, hi);
        Z o = _mm512_permutex2var_epi32(lo, _mm512_add_epi32(even, _mm512_set1_epi32(1)), hi);
        const size_t first = 32 * g + 16 * k; // the input in lane 0 of set k
        if (odd && pairs >= first && pairs < first + 16) {
            o = _mm512_mask_mov_epi32(o, static_cast<__mmask16>(1u << (pairs - first)), e);
        }
        window[k][j] = e;
        window[k][8 + j] = o;
        const __mmask16 m = _mm512_cmpeq_epi32_mask(e, o);
        equal[k] = j ? static_cast<__mmask16>(equal[k] & m) : m;
        if (j == 7 && AnyPair(equal[k], first, pairs)) mutated = true;
    }
    SHA256_LANES_INLINE void Load(Z (*window)[64], size_t g)
    {
        for (int k = 0; k < 2; ++k) {
            for (int j = 0; j < 8; ++j) Word(window, g, j, k);
        }
    }
    // Piece p of 16: word p / 2 of set p % 2.
    SHA256_LANES_INLINE void Piece(Z (*window)[64], size_t g, int p) { Word(window, g, p >> 1, p & 1); }
};

//! Level 1's inputs, the hashes themselves (ContiguousIn), and beside them
//! Core's rule for mutated trees, tested on the transposed words: input i's
//! two hashes are words 0..7 and 8..15 of its lane. Only inputs below `pairs`
//! count (the rest: the odd last hash doubled, or the last group's zeros).
struct PairsIn {
    ContiguousIn in;
    size_t pairs;
    bool mutated = false;
    __mmask16 equal[2] = {0, 0}; // the lanes of set k whose words so far are equal

    // Words j, 4 + j, 8 + j and 12 + j of set k of group g are in the window.
    SHA256_LANES_INLINE void Test(Z (*window)[64], size_t g, int k, int j)
    {
        const __mmask16 m = _mm512_mask_cmpeq_epi32_mask(_mm512_cmpeq_epi32_mask(window[k][j], window[k][8 + j]),
                                                         window[k][4 + j], window[k][12 + j]);
        equal[k] = j ? static_cast<__mmask16>(equal[k] & m) : m;
        if (j == 3 && AnyPair(equal[k], 32 * g + 16 * k, pairs)) mutated = true;
    }
    SHA256_LANES_INLINE void Load(Z (*window)[64], size_t g)
    {
        in.Load(window, g);
        for (int k = 0; k < 2; ++k) {
            for (int j = 0; j < 4; ++j) Test(window, g, k, j);
        }
    }
    // ContiguousIn's pieces; pieces 8..15 write words j, 4 + j, 8 + j, 12 + j of set (p - 8) / 4.
    SHA256_LANES_INLINE void Piece(Z (*window)[64], size_t g, int p)
    {
        in.Piece(window, g, p);
        if (p >= 8) Test(window, g, (p - 8) >> 2, (p - 8) & 3);
    }
};

//! A level's digests in lane order: group g's eight words of 32 lanes at dst + 256 g.
struct LanesOut {
    uint32_t* dst;

    SHA256_LANES_INLINE void Word(size_t g, const Pair* d, int j)
    {
        uint32_t* p = dst + 256 * g + 32 * j;
        _mm512_storeu_si512(p, d[j].lo);
        _mm512_storeu_si512(p + 16, d[j].hi);
    }
    template <class Two>
    SHA256_LANES_INLINE void Store(size_t g, const Pair* d)
    {
        for (int j = 0; j < 8; ++j) Word(g, d, j);
    }
    // Piece i of 8: word i.
    SHA256_LANES_INLINE void Piece(size_t g, const Pair* d, int i) { Word(g, d, i); }
};

//! The levels of a Merkle tree over the n 32-byte hashes at `hashes`, in
//! place, while a level has 64 hashes or more; returns the count m of the
//! level left, written to hashes[0..m) (n when n < 64). *mutated is set
//! where a level hashed had identical hashes at an even index and the next.
//!
//! In place: the pipeline stores a group's digests beside the block that
//! loads the inputs of the group three after it, a word after that word is
//! loaded. So level 1's group g (1 KiB) goes over its inputs (2 KiB at
//! 2 KiB g) read already, and a later level's group g over lane groups 2g and
//! 2g + 1 of the level below, read already. A level's last group may read
//! lanes past the level below's last digest, whose digests are never used,
//! but not past the 32n bytes: below a level of m >= 64 digests it reads
//! 2 ceil(ceil(m / 2) / 32) KiB, at most 32m + 2016 bytes, and the n >= 2m - 1
//! hashes hold 64m - 32, no fewer.
inline size_t MerkleLevels(unsigned char* hashes, size_t n, bool* mutated)
{
    if (n < 64) return n;
    uint32_t* const lanes = reinterpret_cast<uint32_t*>(hashes);
    // Level 1: the pairs of hashes, 32 at a time; the last group's (fewer
    // than 32, or with the odd last hash doubled) from a copy.
    const size_t full = n / 64, left = n - 64 * full;
    {
        PairsIn in{{hashes, {}}, n / 2};
        LanesOut out{lanes};
        Pipeline<Avx512, Avx512x2>(in, out, full);
        if (in.mutated) *mutated = true;
    }
    if (left) {
        // The hashes past the last pair (and the doubled odd one) are zeros:
        // their lanes' digests are never used, but are not left undefined.
        const size_t used = 32 * (left + (n & 1));
        alignas(64) unsigned char last[64 * 32];
        std::memcpy(last, hashes + 64 * 32 * full, 32 * left);
        if (n & 1) std::memcpy(last + 32 * left, hashes + 32 * (n - 1), 32);
        std::memset(last + used, 0, sizeof(last) - used);
        PairsIn tail{{last, {}}, n / 2 - 32 * full};
        LanesOut tail_out{lanes + 256 * full};
        Pipeline<Avx512, Avx512x2>(tail, tail_out, 1);
        if (tail.mutated) *mutated = true;
    }
    n = (n + 1) / 2;
    while (n >= 64) {
        const size_t next = (n + 1) / 2;
        LanesIn in{lanes, n / 2, (n & 1) != 0};
        LanesOut out{lanes};
        Pipeline<Avx512, Avx512x2>(in, out, (next + 31) / 32);
        if (in.mutated) *mutated = true;
        n = next;
    }
    // The level left (fewer than 64 hashes), back to bytes.
    alignas(64) uint32_t words[2 * 256];
    std::memcpy(words, lanes, sizeof(words));
    for (size_t i = 0; i < n; ++i) {
        for (int j = 0; j < 8; ++j) {
            const uint32_t w = words[256 * (i / 32) + 32 * j + i % 32];
            unsigned char* o = hashes + 32 * i + 4 * j;
            o[0] = static_cast<unsigned char>(w >> 24);
            o[1] = static_cast<unsigned char>(w >> 16);
            o[2] = static_cast<unsigned char>(w >> 8);
            o[3] = static_cast<unsigned char>(w);
        }
    }
    return n;
}

} // namespace

#endif
