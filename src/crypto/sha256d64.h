// Internal: the kernels behind SHA256D64, the fixed-size double SHA-256 fast
// paths, and the N-lane transforms they are built from. Each x86 kernel lives
// in a file compiled with its own -m flags (crypto/sha256d64_<isa>.cpp) and is
// only called after the registry in crypto/sha256d64.cpp has checked the CPU.
#ifndef SHA256BENCH_CRYPTO_SHA256D64_H
#define SHA256BENCH_CRYPTO_SHA256D64_H

#include <cstddef>
#include <cstdint>

#if defined(__x86_64__) && !defined(DISABLE_OPTIMIZED_SHA256)
#define SHA256_D64_X86 1
#endif

namespace sha256 {
namespace d64 {
//! Where a stream or lane reads its blocks: from `at` on, 64 bytes apart; on
//! reaching `end` it goes on at `then`. A message's whole blocks (in place) and
//! its last partial block with the padding (a buffer of the scheduler's) so
//! make one run, and a lane's kernel call need not stop between them.
//! `end` = nullptr: plain consecutive blocks.
struct BlockCursor {
    const unsigned char* at;
    const unsigned char* end;
    const unsigned char* then;
};

//! One message for the SHA-NI job kernels (sha256_shani_x2/x4_jobs): its
//! whole blocks in place, [at, end) (both nullptr: none), then its last
//! partial block and padding, pad[0..64*(blocks-whole)), which the kernel
//! copies into the lane (then = nullptr; a lane that should never end instead
//! gives then = at and end = at + 64: it repeats one block); its digest to
//! out. pad = area + 64; the 64 bytes before it are scratch for whoever fills it.
struct StreamJob {
    unsigned char area[64 + 128];
    const unsigned char* at;
    const unsigned char* end;
    const unsigned char* then;
    size_t blocks;
    unsigned char* out;
};
//! One stream between job-kernel calls: its state as sha256rnds2 holds it
//! (abef = f e b a, cdgh = h g d c, dword 0 first), its cursor (then = its own
//! copy of the job's padding, pad), the blocks left (0: idle) and its digest's
//! place.
struct alignas(16) StreamLane {
    uint32_t abef[4];
    uint32_t cdgh[4];
    BlockCursor c;
    size_t left;
    unsigned char* out;
    alignas(16) unsigned char pad[128];
};
// The offsets sha256_shani_streams.asm reads (L_* and J_* there).
static_assert(offsetof(StreamJob, at) == 192 && offsetof(StreamJob, end) == 200 &&
                  offsetof(StreamJob, then) == 208 && offsetof(StreamJob, blocks) == 216 &&
                  offsetof(StreamJob, out) == 224 && sizeof(StreamJob) == 232,
              "StreamJob as the job kernels read it");
static_assert(offsetof(StreamLane, cdgh) == 16 && offsetof(StreamLane, c) == 32 && offsetof(StreamLane, left) == 56 &&
                  offsetof(StreamLane, out) == 64 && offsetof(StreamLane, pad) == 80 && sizeof(StreamLane) == 208,
              "StreamLane as the job kernels read it");
} // namespace d64
} // namespace sha256

// The SHA-NI kernels of three and four streams are assembly (sha256_shani_streams.asm),
// in builds with an assembler; only files of the crypto library see ENABLE_SHA256_ASM.
#if defined(SHA256_D64_X86) && defined(ENABLE_SHA256_ASM)
#define SHA256_D64_ASM 1
extern "C" {
void sha256d64_shani_x3(unsigned char* out, const unsigned char* in);
void sha256d64_shani_x4(unsigned char* out, const unsigned char* in);
void sha256_shani_x2_hash32(unsigned char* out, const unsigned char* in);
void sha256_shani_x4_hash32(unsigned char* out, const unsigned char* in);
size_t sha256_shani_x2_jobs(sha256::d64::StreamLane* lane, const sha256::d64::StreamJob* job, size_t njobs);
size_t sha256_shani_x4_jobs(sha256::d64::StreamLane* lane, const sha256::d64::StreamJob* job, size_t njobs);
// The 8-lane AVX2 kernels (sha256_avx2_lanes.asm), with the contracts of
// TransformAvx2x8 and Avx2x8: g++ spills the intrinsics' working set.
void sha256_avx2_x8_transform(uint32_t* st, const unsigned char* const* blocks);
void sha256d64_avx2_x8(unsigned char* out, const unsigned char* in);
}
#endif

// A registry row's kernel where this build has it, else nullptr ("not built"):
// SHA256_D64_FN for the C++ x86-64 kernels, SHA256_D64_ASM_FN for the assembly.
#ifdef SHA256_D64_X86
#define SHA256_D64_FN(fn) fn
#else
#define SHA256_D64_FN(fn) nullptr
#endif
#ifdef SHA256_D64_ASM
#define SHA256_D64_ASM_FN(fn) fn
#else
#define SHA256_D64_ASM_FN(fn) nullptr
#endif

namespace sha256 {
namespace d64 {

// D64 kernels: out[32*i..] = SHA256(SHA256(in[64*i..64*i+63])) for i < ways;
// any alignment; out may equal in.
void Basic1(unsigned char* out, const unsigned char* in);      // portable, 1 way
void Portable16(unsigned char* out, const unsigned char* in);  // portable lanes, 16 ways
#ifdef SHA256_D64_X86
void Sse41x4(unsigned char* out, const unsigned char* in);
void Avx2x8(unsigned char* out, const unsigned char* in);
void Avx512x16(unsigned char* out, const unsigned char* in);
void Shani1(unsigned char* out, const unsigned char* in);
void Shani2(unsigned char* out, const unsigned char* in);
#endif

// Fixed-size double SHA-256 of one input (32, 64 or 80 bytes).
void Double32Basic(unsigned char* out, const unsigned char* in);
void Double80Basic(unsigned char* out, const unsigned char* in);
#ifdef SHA256_D64_X86
void Double32Shani(unsigned char* out, const unsigned char* in);
void Double80Shani(unsigned char* out, const unsigned char* in);
#endif

// N-lane transforms, for hashing N independent messages at once: lane i
// compresses the 64-byte block at blocks[i] (any alignment) into a
// word-sliced state, st[j * N + i] = word j of lane i. A caller that refills
// lanes as messages end keeps the state in this layout between calls.
void TransformPortable16(uint32_t* st, const unsigned char* const* blocks);
#ifdef SHA256_D64_X86
void TransformSse41x4(uint32_t* st, const unsigned char* const* blocks);
void TransformAvx2x8(uint32_t* st, const unsigned char* const* blocks);
void TransformAvx512x16(uint32_t* st, const unsigned char* const* blocks);
// sha256rnds2's latency over the interval at which independent ones issue
// (~10 microseconds of timing; sha256d64_shani.cpp). Only on SHA-NI CPUs.
double MeasureShaniOverlap();
#endif

//! SHA-NI job kernels (sha256_shani_x2/x4_jobs, StreamJob above): the
//! streams run their lanes' messages, an idle lane taking the next job, until
//! a lane is idle and no job is left; returns the jobs taken (njobs). Or
//! nullptr where this build has none.
using JobsFn = size_t (*)(StreamLane* lane, const StreamJob* job, size_t njobs);
JobsFn ShaniJobs(int streams);
//! job <- the message of len bytes at p, its digest to out (then = nullptr).
void FillJob(StreamJob& job, const unsigned char* p, size_t len, unsigned char* out);
//! SHA-NI streams, one 32-byte message each (the second hash of a txid):
//! out[32*i..] = SHA256(in[32*i..32*i+31]) for i < streams (2 or 4); any
//! alignment; out may equal in. nullptr where this build has none.
using KernelFn = void (*)(unsigned char* out, const unsigned char* in);
KernelFn ShaniHash32(int streams);

//! TransformAvx2x8 in assembly (sha256_avx2_lanes.asm; the multi-buffer
//! hasher's avx2_8lane kernel), or nullptr in a build without an assembler.
using LanesFn = void (*)(uint32_t* st, const unsigned char* const* blocks);
LanesFn TransformAvx2x8Asm();
//! Avx2x8 in assembly (the avx2_8way row's kernel where the build has it), or nullptr.
KernelFn Avx2x8Asm();

} // namespace d64
} // namespace sha256

#endif
