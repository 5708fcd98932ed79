// SPDX-License-Identifier: MIT
// The interface of the job kernels: each of N streams or lanes hashes one
// message and, where it ends, stores the digest and takes the next job itself,
// the states staying in registers from message to message. The scheduler only
// fills jobs. Assembly kernels read these structures by offset.
#ifndef SHA256BENCH_CRYPTO_SHA256_JOBS_H
#define SHA256BENCH_CRYPTO_SHA256_JOBS_H

#include <cstddef>
#include <cstdint>

namespace sha256_jobs {

//! Where a stream reads its blocks: from `at` on, 64 bytes apart; on reaching
//! `end` it goes on at `then`. A message's whole blocks (in place) and its last
//! partial block with the padding (a small buffer) so make one run of blocks.
//! `end` = nullptr: plain consecutive blocks.
struct Cursor {
    const unsigned char* at;
    const unsigned char* end;
    const unsigned char* then;
};

//! One message: its whole blocks in place, [at, end) (both nullptr: none),
//! then its last partial block and padding, pad[0..64*(blocks-whole)), which
//! the kernel copies into the lane (then = nullptr; a lane that should never
//! end instead gives then = at and end = at + 64: it repeats one block); its
//! digest to out. pad = area + 64; the 64 bytes before it are scratch for
//! whoever fills it.
struct Job {
    unsigned char area[64 + 128];
    const unsigned char* at;
    const unsigned char* end;
    const unsigned char* then;
    size_t blocks;
    unsigned char* out;
};

//! One stream between calls: its state as sha256rnds2 holds it (abef = f e b a,
//! cdgh = h g d c, dword 0 first; vector lanes convert at entry and exit), its
//! cursor (then = its own copy of the job's padding, pad), the blocks left
//! (0: idle) and its digest's place.
struct alignas(16) Lane {
    uint32_t abef[4];
    uint32_t cdgh[4];
    Cursor c;
    size_t left;
    unsigned char* out;
    alignas(16) unsigned char pad[128];
};

#if defined(__x86_64__)
// The offsets the x86-64 assembly kernels read.
static_assert(offsetof(Job, at) == 192 && offsetof(Job, end) == 200 && offsetof(Job, then) == 208 &&
                  offsetof(Job, blocks) == 216 && offsetof(Job, out) == 224 && sizeof(Job) == 232,
              "Job as the job kernels read it");
static_assert(offsetof(Lane, cdgh) == 16 && offsetof(Lane, c) == 32 && offsetof(Lane, left) == 56 &&
                  offsetof(Lane, out) == 64 && offsetof(Lane, pad) == 80 && sizeof(Lane) == 208,
              "Lane as the job kernels read it");
#endif

} // namespace sha256_jobs

#endif
