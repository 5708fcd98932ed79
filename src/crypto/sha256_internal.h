// SPDX-License-Identifier: MIT
// Internals of the transform family shared by sha256.cpp and the tests; not part of the public API.
#ifndef SHA256BENCH_CRYPTO_SHA256_INTERNAL_H
#define SHA256BENCH_CRYPTO_SHA256_INTERNAL_H

#include <crypto/sha256.h>
#include <crypto/sha256_constants.h>
#include <crypto/sha256_jobs.h>

#include <cstddef>
#include <vector>

namespace sha256 {

//! Initial hash value (FIPS 180-4, 5.3.3).
using constants::IV;

//! job <- the message of len bytes at p, its digest to out (then = nullptr).
void FillJob(sha256_jobs::Job& job, const unsigned char* p, size_t len, unsigned char* out);

namespace detail {
struct Candidate {
    const char* name;
    TransformFn fn;
};
/** Index of the first candidate that passes SelfTest (reporting each failure on stderr), or -1. */
int FirstPassing(const std::vector<Candidate>& candidates);

/** The largest max_path_blocks of any transform in the kernel table: block counts up to this plus a
 *  margin reach every code path of every transform (SelfTest and the tests use it). */
size_t MaxPathBlocks();

/** Blocks past MaxPathBlocks() that tests cover: every remainder of an eight-block group, three times. */
constexpr size_t PATH_MARGIN_BLOCKS = 24;

/** sha256rnds2's latency over the interval at which independent ones issue
 *  (~10 microseconds of timing; sha256d64_shani.cpp). Only on SHA-NI CPUs. */
double MeasureShaniOverlap();

/** A 512-bit vpaddd's latency over the interval at which independent ones
 *  issue (sha256multi_avx512.cpp). Only on CPUs with AVX512_NEEDS. */
double MeasureAvx512AddDepth();
} // namespace detail

} // namespace sha256

#endif
