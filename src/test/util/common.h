// SPDX-License-Identifier: MIT
// Helpers shared by the test files: the transforms to run, reproducible
// random bytes, guard-page buffers, hashing through a chosen transform.
#ifndef SHA256BENCH_TEST_UTIL_COMMON_H
#define SHA256BENCH_TEST_UTIL_COMMON_H

#include <compat/cpu_model.h>
#include <crypto/sha256.h>
#include <crypto/sha256_kernels.h>
#include <test/checkasm/checkasm.h>

#include <map>
#include <set>

#include <array>
#include <functional>
#include <cstdint>
#include <string>
#include <vector>

namespace test {

using Digest = std::array<unsigned char, CSHA256::OUTPUT_SIZE>;

//! The kernels of the kernel table of one shape that this build has and this
//! CPU runs (checkasm-style: tests iterate the table, never a list of their
//! own). Each one it leaves out is logged once per call as "not run: <name>: why".
std::vector<const sha256::kernel::Kernel*> RunnableKernels(sha256::kernel::Shape shape);

//! Checks a reading of the CPU model that an order rule uses: set by its
//! environment variable where that is set; else measured where a row that
//! needs the unit runs (`runs`), within [lo, hi]; else absent and 0.
void CheckReading(cpu::Probe probe, bool runs, double lo, double hi);

//! What an ABI-checked call of kernel k says is wrong, "" when nothing: every
//! violation the trampoline reports, but for the AVX-512 state compiled code
//! may leave. From intrinsics the compiler keeps state in zmm16-31 and may use
//! opmask registers (it does in sanitizer builds); nothing short of XRSTOR
//! resets either, and neither costs a transition penalty, only a larger
//! context-switch save. Assembly kernels must leave neither.
std::string AbiFailures(const checkasm::Result& r, const sha256::kernel::Kernel& k);

//! One call of kernel k's function `fn` (any shape: its own signature)
//! through the ABI trampoline (a direct call where there is none); the
//! failures as AbiFailures says them.
template <class R, class... P>
std::string CallKernel(const sha256::kernel::Kernel& k, R (*fn)(P...), typename checkasm::Param<P>::type... args)
{
    return AbiFailures(checkasm::Call(fn, args...), k);
}

//! Empty when this build has kernel k and the CPU runs it, else why not.
std::string KernelWhyNot(const sha256::kernel::Kernel& k);

//! The rows of a registry listing (sha256::D64Implementations(), ...) that this CPU supports.
template <class Row>
std::vector<Row> Supported(const std::vector<Row>& rows)
{
    std::vector<Row> out;
    for (const auto& row : rows) {
        if (row.supported) out.push_back(row);
    }
    return out;
}

//! "name: why; ..." for the rows of a listing this CPU cannot run, or "none".
template <class Row>
std::string NotRun(const std::vector<Row>& rows)
{
    std::string out;
    for (const auto& row : rows) {
        if (!row.supported) out += (out.empty() ? "" : "; ") + row.name + ": " + row.why_not;
    }
    return out.empty() ? "none" : out;
}

//! What every family's rows must be (one registry template makes them all):
//! unique names, ways >= 1, supported exactly when why_not is empty, only built
//! rows supported, needs spelled from needs_mask; and a 1-way row that needs
//! nothing and runs, the family's last resort. Logs each row.
void CheckRows(const std::vector<const sha256::Row*>& rows);
template <class R>
void CheckRows(const std::vector<R>& rows)
{
    std::vector<const sha256::Row*> base;
    for (const auto& r : rows) base.push_back(&r);
    CheckRows(base);
}

//! Selects row `name` of a family for the scope (by its Set/Current functions), restoring the previous one after.
class ScopedRow
{
public:
    ScopedRow(bool (*set)(const std::string&), std::string (*current)(), const std::string& name);
    ~ScopedRow();
    ScopedRow(const ScopedRow&) = delete;
    ScopedRow& operator=(const ScopedRow&) = delete;

private:
    bool (*set)(const std::string&);
    std::string previous;
};

//! Selects a D64 row for the scope, restoring the previous one afterwards.
struct ScopedD64 : ScopedRow {
    explicit ScopedD64(const std::string& name)
        : ScopedRow(sha256::SetD64Implementation, sha256::CurrentD64Implementation, name) {}
};

//! Runs body in a child process (its stderr silenced) and says whether it
//! ended by abort(): how tests watch a checked precondition (an assert) fire.
bool AbortsInChild(const std::function<void()>& body);

//! Transforms built and supported on this CPU. The first call logs which were skipped and why.
const std::vector<sha256::Implementation>& RunnableTransforms();

//! Records that the current Boost test case ran transform `name`.
void NoteRun(const std::string& name);

//! The loop of a per-transform test: body(impl) for every runnable transform,
//! each run recorded under the current Boost test case (see NoteRun).
template <typename Body>
void ForEachTransform(Body&& body)
{
    for (const auto& impl : RunnableTransforms()) {
        body(impl);
        NoteRun(impl.name);
    }
}

//! For every test case of `suite` that has run so far and recorded a run,
//! checks that it ran every runnable transform (and, built with
//! -DSHA256_TEST_EXTRA_ROW, the extra row basic_alias); says how many it saw.
//! A suite ends with a case that calls this.
void CheckEveryTransformRan(const std::string& suite);

//! Name of the portable transform: the registry's last row, which needs no CPU feature.
std::string PortableTransform();

//! "rorx (CPU lacks avx2 bmi2); ..." or "none".
std::string SkippedTransforms();

//! Deterministic pseudo-random generator (splitmix64), so failures print a seed that reproduces them.
class Rng
{
public:
    explicit Rng(uint64_t seed) : state(seed) {}
    uint64_t Next();
    uint64_t Below(uint64_t n) { return Next() % n; }
    void Fill(unsigned char* p, size_t n);
    std::vector<unsigned char> Bytes(size_t n);

private:
    uint64_t state;
};

//! Makes `name` the transform CSHA256 uses for the scope; restores the previous one after.
class ScopedTransform
{
public:
    explicit ScopedTransform(const std::string& name);
    ~ScopedTransform();
    ScopedTransform(const ScopedTransform&) = delete;
    ScopedTransform& operator=(const ScopedTransform&) = delete;

private:
    std::string previous;
};

//! SHA-256 of data with the current transform, in one Write.
Digest Hash(const unsigned char* data, size_t len);

//! SHA256(SHA256(data)) the slow way, CSHA256 twice with the current
//! transform: what every double SHA-256 path and kernel is held to.
Digest DoubleSha256(const unsigned char* data, size_t len);

//! One level of a Merkle tree the slow way, over the level.size() / 32 hashes
//! in level: Core's rule for mutated trees (identical hashes at an even index
//! and the next set `mutated`; it is never cleared), an odd count's last hash
//! doubled, and each pair hashed by DoubleSha256. The oracle of the Merkle
//! kernel and ComputeMerkleRoot tests.
std::vector<unsigned char> NaiveMerkleLevel(std::vector<unsigned char> level, bool& mutated);

//! How many of the n digests at out[32*i..] differ from want[i].
int CountWrong(const unsigned char* out, const std::vector<Digest>& want, size_t n);

//! Read/write pages with PROT_NONE pages on both sides; the usable bytes sit
//! flush against the trailing guard page, or against the leading one.
class GuardedBuffer
{
public:
    enum class Flush { End, Begin };
    explicit GuardedBuffer(size_t usable_bytes, Flush flush = Flush::End);
    ~GuardedBuffer();
    GuardedBuffer(const GuardedBuffer&) = delete;
    GuardedBuffer& operator=(const GuardedBuffer&) = delete;
    unsigned char* begin() const { return usable; }
    unsigned char* end() const { return usable + size; }

private:
    unsigned char* base{nullptr};
    size_t mapped{0};
    unsigned char* usable{nullptr};
    size_t size{0};
};

std::string Hex(const unsigned char* p, size_t n);
std::vector<unsigned char> ParseHex(const std::string& hex);

} // namespace test

#endif
