// SPDX-License-Identifier: MIT
// Registry internals shared by sha256.cpp and the tests; not part of the public API.
#ifndef SHA256BENCH_CRYPTO_SHA256_INTERNAL_H
#define SHA256BENCH_CRYPTO_SHA256_INTERNAL_H

#include <compat/cpuid.h>
#include <crypto/sha256.h>
#include <crypto/sha256_constants.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sha256 {

//! Initial hash value (FIPS 180-4, 5.3.3).
using constants::IV;

namespace detail {
/** Why a row needing `needs` is not in this binary: the host architecture,
 *  DISABLE_OPTIMIZED_SHA256, or (assembly rows) no assembler. */
std::string NotBuiltReason(uint32_t needs, bool assembly);

/** A built row runs when the CPU has every feature it needs (after hiding). */
inline bool Runnable(uint32_t needs, bool built) { return built && (cpu::Features() & needs) == needs; }

/** The fields every registry's public row shares, filled the same way for
 *  each family (transform, D64, fixed-size): name, needs, technique, built,
 *  supported and why_not. */
template <class Row>
void Describe(Row& row, const char* name, uint32_t needs, const char* technique, bool built, bool assembly)
{
    row.name = name;
    row.needs = cpu::FeatureNames(needs);
    row.needs_mask = needs;
    row.technique = technique;
    row.built = built;
    row.supported = Runnable(needs, built);
    row.why_not = !built ? NotBuiltReason(needs, assembly)
                  : !row.supported ? "CPU lacks " + cpu::FeatureNames(needs & ~cpu::Features())
                                   : std::string();
}

/** Row numbers of a registry (an array of rows with `wide_rank`: 0, or the
 *  row's place among the wide_sha rows from 1) in this CPU's order of
 *  preference: as listed, except that when ShaniOverlap() is at least
 *  WIDE_SHA_OVERLAP the wide_sha rows move to the front, by rank. */
template <class Row, size_t N>
std::vector<int> PreferenceOrder(const Row (&rows)[N])
{
    std::vector<int> order;
    if (ShaniOverlap() >= WIDE_SHA_OVERLAP) {
        for (int rank = 1; rank <= static_cast<int>(N); ++rank) {
            for (size_t i = 0; i < N; ++i) {
                if (rows[i].wide_rank == rank) order.push_back(static_cast<int>(i));
            }
        }
    }
    for (size_t i = 0; i < N; ++i) {
        if (std::find(order.begin(), order.end(), static_cast<int>(i)) == order.end()) {
            order.push_back(static_cast<int>(i));
        }
    }
    return order;
}

struct Candidate {
    const char* name;
    TransformFn fn;
};
/** Index of the first candidate that passes SelfTest (reporting each failure on stderr), or -1. */
int FirstPassing(const std::vector<Candidate>& candidates);

/** The largest max_path_blocks of any registry row: block counts up to this plus a
 *  margin reach every code path of every transform (SelfTest and the tests use it). */
size_t MaxPathBlocks();

/** Blocks past MaxPathBlocks() that tests cover: every remainder of an eight-block group, three times. */
constexpr size_t PATH_MARGIN_BLOCKS = 24;
} // namespace detail

} // namespace sha256

#endif
