// SPDX-License-Identifier: MIT
// Internals of the transform family shared by sha256.cpp and the tests; not part of the public API.
#ifndef SHA256BENCH_CRYPTO_SHA256_INTERNAL_H
#define SHA256BENCH_CRYPTO_SHA256_INTERNAL_H

#include <crypto/sha256.h>
#include <crypto/sha256_constants.h>
#include <crypto/sha256_jobs.h>
#include <crypto/sha256_registry.h>

#include <cstddef>
#include <vector>

namespace sha256 {

//! Initial hash value (FIPS 180-4, 5.3.3).
using constants::IV;

//! job <- the message of len bytes at p, its digest to out (then = nullptr).
void FillJob(sha256_jobs::Job& job, const unsigned char* p, size_t len, unsigned char* out);

//! An idle lane's count of blocks: it never reaches 0.
constexpr size_t IDLE_JOB_BLOCKS = ~size_t{0} >> 1;

//! job <- an idle lane's job: the 64 bytes at `block` over and over, never
//! finished (IDLE_JOB_BLOCKS), no digest.
void IdleJob(sha256_jobs::Job& job, const unsigned char* block);

namespace detail {

/** The largest max_path_blocks of any transform in the kernel table: block counts up to this plus a
 *  margin reach every code path of every transform (SelfTest and the tests use it). */
size_t MaxPathBlocks();

/** Blocks past MaxPathBlocks() that tests cover: every remainder of an eight-block group, three times. */
constexpr size_t PATH_MARGIN_BLOCKS = 24;

/** The order in which SHA256Multi/SHA256DMulti hand count messages of these
 *  sizes to lanes or streams (indices into sizes). */
std::vector<size_t> FeedOrder(const size_t* sizes, size_t count);
} // namespace detail

/** The order rules of a row of interleaved SHA-NI streams, in D64 and in the
 *  multi-buffer hasher alike: a stream is one dependent chain of sha256rnds2,
 *  so where the SHA unit works on about as many at once as the row has
 *  streams (3), the row leads every row (the vector rows included); from
 *  `shani_rows_from` on it leads the other SHA-NI rows only; below, the listed
 *  order stands (fewer streams do as well, with less work). The lower threshold
 *  is the family's: it is where more streams stop costing more than they give,
 *  which depends on what else a row does per input (D64's five staggered
 *  streams carry the message schedule and W+K ahead of the rounds; the
 *  multi-buffer rows carry their scheduler). The thresholds are decisions from
 *  the measured runs of doc/results/ (doc/d64.md, doc/multi.md). */
template <class Entry>
constexpr Entry StreamsLeading(Entry e, int place, double shani_rows_from)
{
    return registry::Leading(e, {cpu::Probe::ShaniOverlap, 3.0, 0, place},
                             {cpu::Probe::ShaniOverlap, shani_rows_from, cpu::SHANI, place});
}

} // namespace sha256

#endif
