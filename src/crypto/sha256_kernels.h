// SPDX-License-Identifier: MIT
// The kernel table: every SHA-256 kernel of the project, by instruction set.
// The registries of all four families (transforms, SHA256D64, the fixed-size
// double SHA-256 paths, the multi-buffer hasher) name their kernels here, the
// tests check every kernel of every shape against the reference, and the bench
// lists them. A kernel set has one name everywhere: "shani_4way" is the D64 row,
// the multi-buffer row, this table's entries and the functions
// sha256::kernel::shani_4way_<shape> (C++) or sha256_shani_4way_<shape> (assembly).
//
// A kernel's name says its file: the set <isa>[_<N>way...] is in
// src/crypto/sha256_<isa>.cpp (C++, one file per compiler-flag set, named as
// Bitcoin Core names it where Core has one: x86 SHA-NI is "x86_shani") or in
// src/crypto/sha256_<isa>*.asm (assembly); every line below names its file
// (src/test/kernel_table_tests.cpp holds them to that).
//
// Adding a kernel: its function in its instruction set's file, one line in
// KERNELS below, one build line in src/Makefile.am; a family's row then names it
// (a row naming a kernel the table lacks does not compile).
#ifndef SHA256BENCH_CRYPTO_SHA256_KERNELS_H
#define SHA256BENCH_CRYPTO_SHA256_KERNELS_H

#if defined(HAVE_CONFIG_H)
#include <config/sha256bench-config.h> // ENABLE_SHA256_ASM
#endif
#include <compat/cpuid.h>
#include <crypto/sha256_jobs.h>

#include <cstddef>
#include <cstdint>

// Which kernels this build has: every translation unit that includes this
// header sees the same answer (the config header decides the assembler).
#if defined(__x86_64__) && !defined(DISABLE_OPTIMIZED_SHA256)
#define SHA256_KERNELS_X86 1
#if defined(ENABLE_SHA256_ASM)
#define SHA256_KERNELS_ASM 1
#endif
#endif
#if defined(__aarch64__) && defined(ENABLE_SHA256_ARM) && !defined(DISABLE_OPTIMIZED_SHA256)
#define SHA256_KERNELS_ARM 1
#endif

namespace sha256 {

//! The portable transform, a kernel of this table; also the public API's
//! sha256::TransformBasic (crypto/sha256.h declares it there).
void TransformBasic(uint32_t* s, const unsigned char* chunk, size_t blocks);

namespace kernel {

//! The shapes a kernel comes in. Each says what one call does.
enum class Shape {
    Transform, //!< TransformFn: `blocks` consecutive blocks into one state
    D64,       //!< HashFn: SHA256(SHA256(in[64i..64i+63])) to out[32i..] for i < ways
    D64Batch,  //!< BatchFn: the same for i < ways x batches, in one call (pipelined across batches)
    Hash32,    //!< HashFn: SHA256(in[32i..32i+31]) to out[32i..] for i < ways (a txid's second hash)
    Double32,  //!< HashFn, ways 1: SHA256(SHA256(in[0..32]))
    Double80,  //!< HashFn, ways 1: SHA256(SHA256(in[0..80])) (a block header)
    Lanes,     //!< LanesFn: lane i compresses the block at blocks[i] into a word-sliced state
    Jobs,      //!< JobsFn: `ways` streams or lanes run jobs until one is idle and none is left
    Merkle,    //!< MerkleFn: the levels of a Merkle tree, in place, while a level has 64 hashes or more
};

//! `blocks` consecutive 64-byte blocks at `chunk` (any alignment) into state `s`
//! (the type of sha256::TransformFn, crypto/sha256.h).
using TransformFn = void (*)(uint32_t* s, const unsigned char* chunk, size_t blocks);
//! Every HashFn reads any alignment and may write over its own input (out == in).
using HashFn = void (*)(unsigned char* out, const unsigned char* in);
//! Reads any alignment; out may equal in; batches may be 0.
using BatchFn = void (*)(unsigned char* out, const unsigned char* in, size_t batches);
//! st[j * ways + i] = word j of lane i, kept in this layout between calls.
using LanesFn = void (*)(uint32_t* st, const unsigned char* const* blocks);
//! Returns the jobs taken (all njobs); a busy lane keeps its state in `lane`.
using JobsFn = size_t (*)(sha256_jobs::Lane* lane, const sha256_jobs::Job* job, size_t njobs);
//! The levels of a Merkle tree over the n 32-byte hashes at `hashes` (any
//! alignment), hashed in place while a level has 64 or more; returns the
//! count m of the level left, in hashes[0..m) (n when n < 64). Sets, never
//! clears, *mutated where a level it hashed had identical hashes at an even
//! index and the next (ComputeMerkleRoot's rule).
using MerkleFn = size_t (*)(unsigned char* hashes, size_t n, bool* mutated);
//! What one call of a lane kernel asks of the vector unit (crypto/sha256_lanes_count.h):
//! vector instructions, the longest chain of dependent ones, and the inputs,
//! digests or blocks it works on (D64, Hash32; Lanes and Jobs: one block a lane).
struct OpCount {
    double ops{0};
    double chain{0};
    int ways{0};
    int register_bytes{0}; //!< the vector registers the instructions work on
    bool carried_maj{false}; //!< Maj in three operations, a ^ b kept for the next round
};
//! A kernel set's OpCount for one shape (zero for a shape it does not count).
using CountFn = OpCount (*)(Shape shape);

//! How a kernel is built, which says why a build may lack it.
enum class Source {
    Portable, //!< C++ for every CPU: always built
    X86,      //!< x86-64 C++ (intrinsics), its own -m flags
    Asm,      //!< x86-64 assembly: needs yasm or nasm
    Arm,      //!< aarch64 C++ (intrinsics), its own -march flags
};

//! Whether this build compiles the kernels of a source (the macros above).
constexpr bool SourceBuilt(Source s)
{
#ifdef SHA256_KERNELS_X86
    constexpr bool x86 = true;
#else
    constexpr bool x86 = false;
#endif
#ifdef SHA256_KERNELS_ASM
    constexpr bool assembly = true;
#else
    constexpr bool assembly = false;
#endif
#ifdef SHA256_KERNELS_ARM
    constexpr bool arm = true;
#else
    constexpr bool arm = false;
#endif
    return s == Source::Portable || (s == Source::X86 && x86) || (s == Source::Asm && assembly) || (s == Source::Arm && arm);
}

//! One kernel: a set's function of one shape. Exactly the member of its shape
//! is set, and it is nullptr where this build lacks the kernel.
struct Kernel {
    const char* name; //!< the kernel set, e.g. "shani_4way"
    const char* file; //!< where its function is, in src/crypto: "sha256_x86_shani.cpp"
    Shape shape;
    int ways;         //!< inputs, lanes or streams one call works on
    uint32_t needs;   //!< cpu::Feature mask
    Source source;
    TransformFn transform;
    HashFn hash; //!< D64, Hash32, Double32, Double80
    BatchFn batch;
    LanesFn lanes;
    JobsFn jobs;
    size_t max_path_blocks; //!< Transform: block count from which its last code path runs (1: one path)
    //! A lane kernel written on sha256_lanes.h: its operations counted from
    //! that algorithm (nullptr elsewhere: assembly, SHA-NI, one-way code).
    CountFn count{nullptr};
    MerkleFn merkle{nullptr};

    //! From the source, not the pointer: under GCC's -fsanitize=null the
    //! address of a function is no constant that compares unequal to nullptr.
    //! The tests check that the two agree for every kernel.
    constexpr bool Built() const { return SourceBuilt(source); }
};

constexpr Kernel MakeTransform(const char* name, const char* file, uint32_t needs, Source src, TransformFn fn,
                               size_t max_path = 1)
{
    return {name, file, Shape::Transform, 1, needs, src, fn, nullptr, nullptr, nullptr, nullptr, max_path};
}
constexpr Kernel MakeHash(const char* name, const char* file, Shape shape, int ways, uint32_t needs, Source src, HashFn fn,
                          CountFn count = nullptr)
{
    return {name, file, shape, ways, needs, src, nullptr, fn, nullptr, nullptr, nullptr, 1, count};
}
constexpr Kernel MakeBatch(const char* name, const char* file, int ways, uint32_t needs, Source src, BatchFn fn)
{
    return {name, file, Shape::D64Batch, ways, needs, src, nullptr, nullptr, fn, nullptr, nullptr, 1};
}
constexpr Kernel MakeMerkle(const char* name, const char* file, int ways, uint32_t needs, Source src, MerkleFn fn)
{
    return {name, file, Shape::Merkle, ways, needs, src, nullptr, nullptr, nullptr, nullptr, nullptr, 1, nullptr, fn};
}
constexpr Kernel MakeLanes(const char* name, const char* file, int ways, uint32_t needs, Source src, LanesFn fn,
                           CountFn count = nullptr)
{
    return {name, file, Shape::Lanes, ways, needs, src, nullptr, nullptr, nullptr, fn, nullptr, 1, count};
}
constexpr Kernel MakeJobs(const char* name, const char* file, int ways, uint32_t needs, Source src, JobsFn fn,
                          CountFn count = nullptr)
{
    return {name, file, Shape::Jobs, ways, needs, src, nullptr, nullptr, nullptr, nullptr, fn, 1, count};
}

// The C++ kernels (one file per instruction set, crypto/sha256_<isa>.cpp).
// Those files, compiled with their own -m flags, include this header for these
// declarations only: nothing inline here may be called from them, or the
// linker could keep a copy built for a CPU that has their features.
void basic_d64(unsigned char* out, const unsigned char* in);
void basic_double32(unsigned char* out, const unsigned char* in);
void basic_double80(unsigned char* out, const unsigned char* in);
void portable_16way_d64(unsigned char* out, const unsigned char* in);
void portable_16way_lanes(uint32_t* st, const unsigned char* const* blocks);
void portable_16way_hash32(unsigned char* out, const unsigned char* in);
OpCount portable_16way_count(Shape shape);
void sse41_4way_d64(unsigned char* out, const unsigned char* in);
void sse41_4way_lanes(uint32_t* st, const unsigned char* const* blocks);
OpCount sse41_4way_count(Shape shape);
void avx2_8way_intrinsics_d64(unsigned char* out, const unsigned char* in);
void avx2_8way_intrinsics_lanes(uint32_t* st, const unsigned char* const* blocks);
OpCount avx2_8way_intrinsics_count(Shape shape);
OpCount avx2_8way_asm_count(Shape shape); //!< sha256_avx2.asm's plan (counted in sha256_avx2.cpp)
void avx512_16way_d64(unsigned char* out, const unsigned char* in);
void avx512_16way_hash32(unsigned char* out, const unsigned char* in);
size_t avx512_16way_jobs(sha256_jobs::Lane* lane, const sha256_jobs::Job* job, size_t njobs);
void avx512_32way_d64(unsigned char* out, const unsigned char* in);
void avx512_32way_d64_batch(unsigned char* out, const unsigned char* in, size_t batches);
void avx512_32way_hash32(unsigned char* out, const unsigned char* in);
size_t avx512_32way_jobs(sha256_jobs::Lane* lane, const sha256_jobs::Job* job, size_t njobs);
size_t avx512_32way_merkle(unsigned char* hashes, size_t n, bool* mutated);
OpCount avx512_16way_count(Shape shape);
OpCount avx512_32way_count(Shape shape);
void avx512_48way_d64(unsigned char* out, const unsigned char* in);
void avx512_48way_d64_batch(unsigned char* out, const unsigned char* in, size_t batches);
OpCount avx512_48way_count(Shape shape);
void shani_d64(unsigned char* out, const unsigned char* in);
void shani_double32(unsigned char* out, const unsigned char* in);
void shani_double80(unsigned char* out, const unsigned char* in);
void shani_2way_d64(unsigned char* out, const unsigned char* in);
void shani_3way_d64(unsigned char* out, const unsigned char* in);
void shani_4way_d64(unsigned char* out, const unsigned char* in);
void shani_5way_d64(unsigned char* out, const unsigned char* in);
void shani_5way_d64_batch(unsigned char* out, const unsigned char* in, size_t batches);
size_t shani_2way_intrinsics_jobs(sha256_jobs::Lane* lane, const sha256_jobs::Job* job, size_t njobs);
size_t shani_4way_intrinsics_jobs(sha256_jobs::Lane* lane, const sha256_jobs::Job* job, size_t njobs);
#ifdef SHA256_TEST_EXTRA_ROW
void portable_6way_d64(unsigned char* out, const unsigned char* in);
void portable_6way_lanes(uint32_t* st, const unsigned char* const* blocks);
OpCount portable_6way_count(Shape shape);
#endif
} // namespace kernel
} // namespace sha256

// The assembly kernels (crypto/sha256_*.asm) and the aarch64 ones (crypto/sha256_arm_shani.cpp, sha256_neon.cpp).
extern "C" {
void sha256_sse4_transform(uint32_t* s, const unsigned char* chunk, size_t blocks);
void sha256_avx_transform(uint32_t* s, const unsigned char* chunk, size_t blocks);
void sha256_rorx_transform(uint32_t* s, const unsigned char* chunk, size_t blocks);
void sha256_rorx_x8ms_transform(uint32_t* s, const unsigned char* chunk, size_t blocks);
void sha256_shani_transform(uint32_t* s, const unsigned char* chunk, size_t blocks);
void sha256_shani_2way_hash32(unsigned char* out, const unsigned char* in);
size_t sha256_shani_2way_jobs(sha256_jobs::Lane* lane, const sha256_jobs::Job* job, size_t njobs);
void sha256_shani_4way_hash32(unsigned char* out, const unsigned char* in);
size_t sha256_shani_4way_jobs(sha256_jobs::Lane* lane, const sha256_jobs::Job* job, size_t njobs);
void sha256_avx2_8way_d64(unsigned char* out, const unsigned char* in);
void sha256_avx2_8way_lanes(uint32_t* st, const unsigned char* const* blocks);
}
void sha256_arm_shani_transform(uint32_t* s, const unsigned char* chunk, size_t blocks);
void sha256_arm_shani_2way_d64(unsigned char* out, const unsigned char* in);
void sha256_neon_4way_d64(unsigned char* out, const unsigned char* in);

// A kernel where this build has it, else nullptr (listed as "not built").
#ifdef SHA256_KERNELS_X86
#define SHA256_X86(fn) fn
#else
#define SHA256_X86(fn) nullptr
#endif
#ifdef SHA256_KERNELS_ASM
#define SHA256_ASM(fn) fn
#else
#define SHA256_ASM(fn) nullptr
#endif
#ifdef SHA256_KERNELS_ARM
#define SHA256_ARM(fn) fn
#else
#define SHA256_ARM(fn) nullptr
#endif

namespace sha256 {
namespace kernel {

constexpr uint32_t SSE41_NEEDS = cpu::SSE41 | cpu::SSSE3;
constexpr uint32_t SHANI_NEEDS = cpu::SHANI | cpu::SSE41 | cpu::SSSE3;
constexpr uint32_t AVX512_NEEDS = cpu::AVX512F | cpu::AVX512BW | cpu::AVX512VL;

using S = Shape;
using Src = Source;

// The AVX2 8-lane kernels are assembly where the build has an assembler (from
// the intrinsics g++ spills the working set, which runs slower: doc/d64.md),
// the intrinsics otherwise; with an assembler the intrinsics stay in the table
// under their own name, so they are tested everywhere. The assembly's count
// is its own plan's (sha256_avx2.cpp, Avx2Asm).
#ifdef SHA256_KERNELS_ASM
#define SHA256_AVX2_8WAY(asm_fn, cpp_fn) Src::Asm, asm_fn
#define SHA256_AVX2_8WAY_FILE "sha256_avx2.asm"
#define SHA256_AVX2_8WAY_COUNT SHA256_X86(avx2_8way_asm_count)
#else
#define SHA256_AVX2_8WAY(asm_fn, cpp_fn) Src::X86, SHA256_X86(cpp_fn)
#define SHA256_AVX2_8WAY_FILE "sha256_avx2.cpp"
#define SHA256_AVX2_8WAY_COUNT SHA256_X86(avx2_8way_intrinsics_count)
#endif

// Every kernel, by instruction set, each line naming its file. The order here
// is for readers; each family's registry has its own order of preference.
inline constexpr Kernel KERNELS[] = {
    // Portable C++: every CPU, the last resort of each family. portable_16way
    // runs the AVX-512 algorithm (same template, same width) everywhere.
    MakeTransform("basic", "sha256_basic.cpp", 0, Src::Portable, TransformBasic),
    MakeHash("basic", "sha256_basic.cpp", S::D64, 1, 0, Src::Portable, basic_d64),
    MakeHash("basic", "sha256_basic.cpp", S::Double32, 1, 0, Src::Portable, basic_double32),
    MakeHash("basic", "sha256_basic.cpp", S::Double80, 1, 0, Src::Portable, basic_double80),
    MakeHash("portable_16way", "sha256_portable.cpp", S::D64, 16, 0, Src::Portable, portable_16way_d64, portable_16way_count),
    MakeLanes("portable_16way", "sha256_portable.cpp", 16, 0, Src::Portable, portable_16way_lanes, portable_16way_count),
    MakeHash("portable_16way", "sha256_portable.cpp", S::Hash32, 16, 0, Src::Portable, portable_16way_hash32, portable_16way_count),
#ifdef SHA256_TEST_EXTRA_ROW
    // Test-only (ci/extra-row.sh): a new width as one more instantiation of the
    // lane template, proving that rows of every family follow this table.
    MakeHash("portable_6way", "sha256_portable.cpp", S::D64, 6, 0, Src::Portable, portable_6way_d64, portable_6way_count),
    MakeLanes("portable_6way", "sha256_portable.cpp", 6, 0, Src::Portable, portable_6way_lanes, portable_6way_count),
    MakeTransform("basic_alias", "sha256_basic.cpp", 0, Src::Portable, TransformBasic),
#endif

    // x86-64 SSSE3 / SSE4.1
    MakeTransform("sse4", "sha256_sse4.asm", cpu::SSSE3, Src::Asm, SHA256_ASM(sha256_sse4_transform)),
    MakeHash("sse41_4way", "sha256_sse41.cpp", S::D64, 4, SSE41_NEEDS, Src::X86, SHA256_X86(sse41_4way_d64), SHA256_X86(sse41_4way_count)),
    MakeLanes("sse41_4way", "sha256_sse41.cpp", 4, SSE41_NEEDS, Src::X86, SHA256_X86(sse41_4way_lanes), SHA256_X86(sse41_4way_count)),

    // x86-64 AVX
    MakeTransform("avx", "sha256_avx.asm", cpu::AVX, Src::Asm, SHA256_ASM(sha256_avx_transform)),

    // x86-64 AVX2 (+BMI2)
    MakeTransform("rorx", "sha256_rorx.asm", cpu::AVX2 | cpu::BMI2, Src::Asm, SHA256_ASM(sha256_rorx_transform), 2),
    MakeTransform("rorx_x8ms", "sha256_rorx_x8ms.asm", cpu::AVX2 | cpu::BMI2, Src::Asm, SHA256_ASM(sha256_rorx_x8ms_transform), 48),
    MakeHash("avx2_8way", SHA256_AVX2_8WAY_FILE, S::D64, 8, cpu::AVX2, SHA256_AVX2_8WAY(sha256_avx2_8way_d64, avx2_8way_intrinsics_d64), SHA256_AVX2_8WAY_COUNT),
    MakeLanes("avx2_8way", SHA256_AVX2_8WAY_FILE, 8, cpu::AVX2, SHA256_AVX2_8WAY(sha256_avx2_8way_lanes, avx2_8way_intrinsics_lanes), SHA256_AVX2_8WAY_COUNT),
#ifdef SHA256_KERNELS_ASM
    MakeHash("avx2_8way_intrinsics", "sha256_avx2.cpp", S::D64, 8, cpu::AVX2, Src::X86, SHA256_X86(avx2_8way_intrinsics_d64), SHA256_X86(avx2_8way_intrinsics_count)),
    MakeLanes("avx2_8way_intrinsics", "sha256_avx2.cpp", 8, cpu::AVX2, Src::X86, SHA256_X86(avx2_8way_intrinsics_lanes), SHA256_X86(avx2_8way_intrinsics_count)),
#endif

    // x86-64 AVX-512F/VL
    MakeHash("avx512_16way", "sha256_avx512.cpp", S::D64, 16, AVX512_NEEDS, Src::X86, SHA256_X86(avx512_16way_d64), SHA256_X86(avx512_16way_count)),
    MakeHash("avx512_16way", "sha256_avx512.cpp", S::Hash32, 16, AVX512_NEEDS, Src::X86, SHA256_X86(avx512_16way_hash32), SHA256_X86(avx512_16way_count)),
    MakeJobs("avx512_16way", "sha256_avx512.cpp", 16, AVX512_NEEDS, Src::X86, SHA256_X86(avx512_16way_jobs), SHA256_X86(avx512_16way_count)),
    MakeHash("avx512_32way", "sha256_avx512.cpp", S::D64, 32, AVX512_NEEDS, Src::X86, SHA256_X86(avx512_32way_d64), SHA256_X86(avx512_32way_count)),
    MakeBatch("avx512_32way", "sha256_avx512.cpp", 32, AVX512_NEEDS, Src::X86, SHA256_X86(avx512_32way_d64_batch)),
    MakeMerkle("avx512_32way", "sha256_avx512.cpp", 32, AVX512_NEEDS, Src::X86, SHA256_X86(avx512_32way_merkle)),
    MakeHash("avx512_32way", "sha256_avx512.cpp", S::Hash32, 32, AVX512_NEEDS, Src::X86, SHA256_X86(avx512_32way_hash32), SHA256_X86(avx512_32way_count)),
    MakeJobs("avx512_32way", "sha256_avx512.cpp", 32, AVX512_NEEDS, Src::X86, SHA256_X86(avx512_32way_jobs), SHA256_X86(avx512_32way_count)),
    MakeHash("avx512_48way", "sha256_avx512.cpp", S::D64, 48, AVX512_NEEDS, Src::X86, SHA256_X86(avx512_48way_d64), SHA256_X86(avx512_48way_count)),
    MakeBatch("avx512_48way", "sha256_avx512.cpp", 48, AVX512_NEEDS, Src::X86, SHA256_X86(avx512_48way_d64_batch)),

    // x86-64 SHA extensions
    MakeTransform("shani", "sha256_x86_shani.asm", SHANI_NEEDS, Src::Asm, SHA256_ASM(sha256_shani_transform)),
    MakeHash("shani", "sha256_x86_shani.cpp", S::D64, 1, SHANI_NEEDS, Src::X86, SHA256_X86(shani_d64)),
    MakeHash("shani", "sha256_x86_shani.cpp", S::Double32, 1, SHANI_NEEDS, Src::X86, SHA256_X86(shani_double32)),
    MakeHash("shani", "sha256_x86_shani.cpp", S::Double80, 1, SHANI_NEEDS, Src::X86, SHA256_X86(shani_double80)),
    MakeHash("shani_2way", "sha256_x86_shani.cpp", S::D64, 2, SHANI_NEEDS, Src::X86, SHA256_X86(shani_2way_d64)),
    MakeHash("shani_2way", "sha256_x86_shani_multi.asm", S::Hash32, 2, SHANI_NEEDS, Src::Asm, SHA256_ASM(sha256_shani_2way_hash32)),
    MakeJobs("shani_2way", "sha256_x86_shani_multi.asm", 2, SHANI_NEEDS, Src::Asm, SHA256_ASM(sha256_shani_2way_jobs)),
    MakeHash("shani_3way", "sha256_x86_shani.cpp", S::D64, 3, SHANI_NEEDS, Src::X86, SHA256_X86(shani_3way_d64)),
    MakeHash("shani_4way", "sha256_x86_shani.cpp", S::D64, 4, SHANI_NEEDS, Src::X86, SHA256_X86(shani_4way_d64)),
    MakeHash("shani_5way", "sha256_x86_shani.cpp", S::D64, 5, SHANI_NEEDS, Src::X86, SHA256_X86(shani_5way_d64)),
    MakeBatch("shani_5way", "sha256_x86_shani.cpp", 5, SHANI_NEEDS, Src::X86, SHA256_X86(shani_5way_d64_batch)),
    MakeHash("shani_4way", "sha256_x86_shani_multi.asm", S::Hash32, 4, SHANI_NEEDS, Src::Asm, SHA256_ASM(sha256_shani_4way_hash32)),
    MakeJobs("shani_4way", "sha256_x86_shani_multi.asm", 4, SHANI_NEEDS, Src::Asm, SHA256_ASM(sha256_shani_4way_jobs)),
    // The job kernels' C++ twins (what Bitcoin Core gets: contrib/core-export.py).
    MakeJobs("shani_2way_intrinsics", "sha256_x86_shani.cpp", 2, SHANI_NEEDS, Src::X86, SHA256_X86(shani_2way_intrinsics_jobs)),
    MakeJobs("shani_4way_intrinsics", "sha256_x86_shani.cpp", 4, SHANI_NEEDS, Src::X86, SHA256_X86(shani_4way_intrinsics_jobs)),

    // aarch64
    MakeTransform("arm_shani", "sha256_arm_shani.cpp", cpu::SHA2 | cpu::ASIMD, Src::Arm, SHA256_ARM(sha256_arm_shani_transform)),
    MakeHash("arm_shani_2way", "sha256_arm_shani.cpp", S::D64, 2, cpu::SHA2 | cpu::ASIMD, Src::Arm, SHA256_ARM(sha256_arm_shani_2way_d64)),
    MakeHash("neon_4way", "sha256_neon.cpp", S::D64, 4, cpu::ASIMD, Src::Arm, SHA256_ARM(sha256_neon_4way_d64)),
};
constexpr size_t KERNEL_COUNT = sizeof(KERNELS) / sizeof(KERNELS[0]);

constexpr bool SameName(const char* a, const char* b)
{
    while (*a && *a == *b) ++a, ++b;
    return *a == *b;
}

//! Reached only when a registry row names a kernel the table lacks: calling a
//! non-constexpr function there makes that row's constant initializer fail to compile.
void NotInTheKernelTable();

//! The index of kernel `name` of shape `shape`, or KERNEL_COUNT.
constexpr size_t Lookup(const char* name, Shape shape)
{
    for (size_t i = 0; i < KERNEL_COUNT; ++i) {
        if (KERNELS[i].shape == shape && SameName(KERNELS[i].name, name)) return i;
    }
    return KERNEL_COUNT;
}

//! The index of kernel `name` of shape `shape`; used in constant expressions,
//! where a missing kernel is a compile error.
constexpr size_t Find(const char* name, Shape shape)
{
    const size_t i = Lookup(name, shape);
    if (i == KERNEL_COUNT) NotInTheKernelTable();
    return i;
}
constexpr const Kernel& Get(const char* name, Shape shape) { return KERNELS[Find(name, shape)]; }

} // namespace kernel
} // namespace sha256

#endif
