// SPDX-License-Identifier: MIT
// SHA-256 (FIPS 180-4) over a switchable block transform.
#ifndef SHA256BENCH_CRYPTO_SHA256_H
#define SHA256BENCH_CRYPTO_SHA256_H

#include <crypto/sha256_row.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace sha256 {
/** Compress `blocks` consecutive 64-byte blocks at `chunk` (any alignment) into state `s`. */
using TransformFn = void (*)(uint32_t* s, const unsigned char* chunk, size_t blocks);
} // namespace sha256

/** A hasher for SHA-256. */
class CSHA256
{
public:
    static constexpr size_t OUTPUT_SIZE = 32;

    CSHA256();
    CSHA256& Write(const unsigned char* data, size_t len);
    void Finalize(unsigned char hash[OUTPUT_SIZE]);
    CSHA256& Reset();

private:
    uint32_t s[8];
    unsigned char buf[64];
    uint64_t bytes{0};

    void WriteWith(sha256::TransformFn transform, const unsigned char* data, size_t len);
};

namespace sha256 {


/** A TransformFn that may be switched while other threads call it. It reads
 *  like the plain function pointer Bitcoin Core-style code expects
 *  (`Transform(s, chunk, n)`, `Transform == fn`, `Transform = fn`); every use
 *  is one atomic load or store. Loads are relaxed: the pointer publishes no
 *  data (every transform is code that exists before main), and on x86-64 and
 *  aarch64 a relaxed load is a plain load. */
class AtomicTransformFn
{
public:
    constexpr explicit AtomicTransformFn(TransformFn fn) noexcept : m_fn{fn} {}
    AtomicTransformFn(const AtomicTransformFn&) = delete;
    AtomicTransformFn& operator=(const AtomicTransformFn&) = delete;

    void operator()(uint32_t* s, const unsigned char* chunk, size_t blocks) const
    {
        load()(s, chunk, blocks);
    }
    TransformFn load() const noexcept { return m_fn.load(std::memory_order_relaxed); }
    void store(TransformFn fn) noexcept { m_fn.store(fn); }
    AtomicTransformFn& operator=(TransformFn fn) noexcept
    {
        store(fn);
        return *this;
    }
    friend bool operator==(const AtomicTransformFn& a, TransformFn fn) noexcept { return a.load() == fn; }
    friend bool operator!=(const AtomicTransformFn& a, TransformFn fn) noexcept { return a.load() != fn; }

private:
    std::atomic<TransformFn> m_fn;
};

/** The transform CSHA256 uses. Set it with SetImplementation() or AutoDetect().
 *
 * Switching is safe while other threads hash: the pointer is atomic, and each
 * CSHA256::Write() / Finalize() call loads it once, so one call never mixes two
 * transforms (all of them compute the same function, so a hash whose calls see
 * different transforms is still correct). */
extern AtomicTransformFn Transform;

/** One row of the transform registry. */
struct Implementation : Row {
    TransformFn fn{nullptr};   //!< nullptr when not built
    size_t max_path_blocks{1}; //!< block count from which its last code path is taken (1: one path)
};

/** Every transform known to the project, fastest-first (the order AutoDetect prefers). */
std::vector<Implementation> Implementations();

/** Select a transform by name. False (and no change) for an unknown name or one this CPU cannot run. */
bool SetImplementation(const std::string& name);

/** Select the fastest supported transform that passes SelfTest(); return its name. */
std::string AutoDetect();

/** Name of the transform Transform currently points to. */
std::string CurrentImplementation();

/** Check a transform on fixed, misaligned inputs with known digests. False for
 *  nullptr (the fn of a row not built), as SelfTestD64 and SelfTestMulti answer
 *  false for a row not built. */
bool SelfTest(TransformFn fn);

/** The portable transform (always built). */
void TransformBasic(uint32_t* s, const unsigned char* chunk, size_t blocks);

} // namespace sha256

/** Bitcoin's double SHA-256 of `blocks` independent 64-byte inputs (Merkle tree
 *  nodes): output[32*i..32*i+31] = SHA256(SHA256(input[64*i..64*i+63])). Any
 *  alignment. output is input (hashing a Merkle level in place), or the two do
 *  not overlap at all: a partial overlap is a caller's bug (checked by assert in
 *  builds without NDEBUG), since rows that hash one input at a time would
 *  overwrite inputs they have yet to read. */
void SHA256D64(unsigned char* output, const unsigned char* input, size_t blocks);

/** The levels of a Merkle tree over the n 32-byte hashes at `hashes` (any
 *  alignment), hashed in place with SHA256D64 while a level has 64 hashes or
 *  more, where a row of SHA256D64's plan has a kernel for it (the first such,
 *  the row it starts with where that row has one); a level of
 *  odd length has its last hash doubled, as ComputeMerkleRoot does. Returns
 *  the count m of the level left, in hashes[0..m): n where it hashed nothing.
 *  Sets *mutated (never clears it) where a level it hashed held two identical
 *  hashes at an even index and the next. */
size_t SHA256D64Levels(unsigned char* hashes, size_t n, bool* mutated);

namespace sha256 {

/** A D64 kernel: the double SHA-256 of exactly `ways` consecutive 64-byte inputs
 *  into `ways` consecutive 32-byte digests (out may equal in). */
using D64Fn = void (*)(unsigned char* out, const unsigned char* in);

/** One row of the D64 registry: a kernel of `ways` inputs. */
struct D64Implementation : Row {
    D64Fn fn{nullptr}; //!< nullptr when not built
    //! Where the row has one: `batches` x `ways` inputs in one call (SHA256D64
    //! hands it every whole group of `ways` at once); else nullptr.
    void (*batch)(unsigned char* out, const unsigned char* in, size_t batches){nullptr};
    //! Where the row has one: the levels of a Merkle tree in one call (SHA256D64Levels); else nullptr.
    size_t (*merkle)(unsigned char* hashes, size_t n, bool* mutated){nullptr};
};

/** Every D64 implementation, in AutoDetectD64's order of preference on this CPU:
 *  the registry's order, with the rows whose order rules (Row::leads) this
 *  CPU's readings meet moved ahead. */
std::vector<D64Implementation> D64Implementations();

/** Make SHA256D64 start with `name` (then narrower supported rows, then a 1-way
 *  row). False (and no change) for an unknown name or one this CPU cannot run. */
bool SetD64Implementation(const std::string& name);

/** Name of the row SHA256D64 starts with. */
std::string CurrentD64Implementation();

/** Select the first supported D64 row that passes SelfTestD64, and the fastest
 *  fixed-size double SHA-256 paths (AutoDetectFixed); return the D64 row's name.
 *  AutoDetect() calls it. */
std::string AutoDetectD64();

/** Check a D64 kernel of `ways` ways on known answers and misaligned, in-place inputs.
 *  False for nullptr (the fn of a row not built) or `ways` outside 1..64. */
bool SelfTestD64(D64Fn fn, int ways);

/** Double SHA-256 of one fixed-size input: a hash of a hash (32 bytes), a
 *  Merkle node (64) or a block header (80), with the padding precomputed. */
void Double32(unsigned char out[32], const unsigned char in[32]);
void Double64(unsigned char out[32], const unsigned char in[64]);
void Double80(unsigned char out[32], const unsigned char in[80]);

/** The fixed-size paths' own small registry ("shani", "basic"), in order of preference. */
using DoubleFn = void (*)(unsigned char* out, const unsigned char* in);
struct FixedImplementation : Row {
    DoubleFn double32{nullptr}, double64{nullptr}, double80{nullptr}; //!< nullptr when not built
};
std::vector<FixedImplementation> FixedImplementations();
bool SetFixedImplementation(const std::string& name);
std::string CurrentFixedImplementation();
/** Select the first supported fixed-size row that agrees with the portable one; return its name. */
std::string AutoDetectFixed();

/** One row of the multi-buffer registry (SHA256Multi): a kernel of `ways`
 *  lanes or streams that hashes one message in each, or a 1-way loop. */
struct MultiImplementation : Row {
};
/** Every multi-buffer row, in AutoDetectMulti's order of preference on this CPU
 *  (the registry's, with the rows whose order rules this CPU's readings meet
 *  moved ahead, as for D64). */
std::vector<MultiImplementation> MultiImplementations();
/** False (and no change) for an unknown name or one this CPU cannot run. */
bool SetMultiImplementation(const std::string& name);
std::string CurrentMultiImplementation();
/** Check a row against the portable transform on every padding case, more messages than lanes, misaligned.
 *  False for an unknown name or a row this binary or CPU cannot run. */
bool SelfTestMulti(const std::string& name);
/** Select the first supported row that passes SelfTestMulti; AutoDetect() calls it. */
std::string AutoDetectMulti();

} // namespace sha256

/** SHA-256 of `count` independent messages: out[32*i..32*i+31] =
 *  SHA256(inputs[i][0..sizes[i])). Any sizes (0 included, inputs[i] may then be
 *  null) and alignments; inputs may alias each other. `out` must not overlap any
 *  input (checked by assert in builds without NDEBUG). Messages go to the lanes
 *  of the selected multi-buffer row; a lane whose message ends takes the next. */
void SHA256Multi(unsigned char* out, const unsigned char* const* inputs, const size_t* sizes, size_t count);

/** The same with double SHA-256: Bitcoin's txid (or wtxid) of each serialized transaction. */
void SHA256DMulti(unsigned char* out, const unsigned char* const* inputs, const size_t* sizes, size_t count);

#endif
