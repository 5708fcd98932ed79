// SPDX-License-Identifier: MIT
// SHA-256 (FIPS 180-4) over a switchable block transform.
#ifndef SHA256BENCH_CRYPTO_SHA256_H
#define SHA256BENCH_CRYPTO_SHA256_H

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

/** One row of the transform registry, as the tests, the bench and `bench_bitcoin -list` see it. */
struct Implementation {
    std::string name;      //!< e.g. "rorx"
    std::string needs;     //!< CPU features it needs, e.g. "avx2 bmi2" ("none" for none)
    uint32_t needs_mask;   //!< the same as a cpu::Feature mask
    std::string technique; //!< one line on how it works
    bool built;            //!< compiled into this binary
    bool supported;        //!< built and this CPU has what it needs
    std::string why_not;   //!< empty when supported, otherwise the reason
    TransformFn fn;        //!< nullptr when not built
    size_t max_path_blocks; //!< block count from which its last code path is taken (1: one path)
};

/** Every transform known to the project, fastest-first (the order AutoDetect prefers). */
std::vector<Implementation> Implementations();

/** Select a transform by name. False (and no change) for an unknown name or one this CPU cannot run. */
bool SetImplementation(const std::string& name);

/** Select the fastest supported transform that passes SelfTest(); return its name. */
std::string AutoDetect();

/** Name of the transform Transform currently points to. */
std::string CurrentImplementation();

/** Check a transform on fixed, misaligned inputs with known digests. */
bool SelfTest(TransformFn fn);

/** The portable transform (always built). */
void TransformBasic(uint32_t* s, const unsigned char* chunk, size_t blocks);

} // namespace sha256

#endif
