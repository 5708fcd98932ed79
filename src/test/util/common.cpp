// SPDX-License-Identifier: MIT
#include <test/util/common.h>

#include <crypto/sha256_registry.h>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <stdexcept>
#include <csignal>
#include <cstring>
#include <cstdlib>
#include <cstdio>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

namespace test {

void CheckReading(cpu::Probe probe, bool runs, double lo, double hi)
{
    const cpu::ProbeInfo& info = cpu::Info(probe);
    const cpu::Reading r = cpu::Read(probe);
    BOOST_TEST_CONTEXT(info.name << ": " << cpu::Describe(probe))
    {
        if (std::getenv(info.env)) {
            BOOST_CHECK(r.source == cpu::Source::Environment);
        } else if (runs) {
            BOOST_CHECK(r.source == cpu::Source::Measured);
            BOOST_CHECK(r.value >= lo && r.value <= hi);
        } else {
            BOOST_CHECK(r.source == cpu::Source::Absent);
            BOOST_CHECK_EQUAL(r.value, 0.0);
        }
    }
}

std::string AbiFailures(const checkasm::Result& r, const sha256::kernel::Kernel& k)
{
    const bool compiled = k.source != sha256::kernel::Source::Asm;
    std::string why;
    for (const auto& f : r.failures) {
        if (compiled && (f == "zmm16-31 left in use" || f == "opmask registers left in use")) continue;
        why += f + "; ";
    }
    return why;
}

std::string KernelWhyNot(const sha256::kernel::Kernel& k)
{
    if (!k.Built()) return sha256::registry::NotBuiltReason(k.needs, k.source);
    const uint32_t missing = k.needs & ~cpu::Features();
    return missing ? "CPU lacks " + cpu::FeatureNames(missing) : "";
}

std::vector<const sha256::kernel::Kernel*> RunnableKernels(sha256::kernel::Shape shape)
{
    std::vector<const sha256::kernel::Kernel*> out;
    for (const auto& k : sha256::kernel::KERNELS) {
        if (k.shape != shape) continue;
        const std::string why = KernelWhyNot(k);
        if (why.empty()) {
            out.push_back(&k);
        } else {
            BOOST_TEST_MESSAGE("  not run: " << k.name << ": " << why);
        }
    }
    return out;
}

const std::vector<sha256::Implementation>& RunnableTransforms()
{
    static const std::vector<sha256::Implementation> runnable = [] {
        std::vector<sha256::Implementation> out;
        for (const auto& impl : sha256::Implementations()) {
            if (impl.supported) out.push_back(impl);
        }
        return out;
    }();
    return runnable;
}

namespace {
// "suite/case" -> transforms it ran.
std::map<std::string, std::set<std::string>>& Runs()
{
    static std::map<std::string, std::set<std::string>> runs;
    return runs;
}
} // namespace

void NoteRun(const std::string& name)
{
    const auto& tc = boost::unit_test::framework::current_test_case();
    const auto& suite = boost::unit_test::framework::get<boost::unit_test::test_suite>(tc.p_parent_id);
    Runs()[suite.p_name.get() + "/" + tc.p_name.get()].insert(name);
}

void CheckEveryTransformRan(const std::string& suite)
{
    std::set<std::string> want;
    for (const auto& impl : RunnableTransforms()) want.insert(impl.name);
    size_t tests = 0;
    for (const auto& [test, ran] : Runs()) {
        if (test.compare(0, suite.size() + 1, suite + "/") != 0) continue;
        ++tests;
        for (const auto& name : want) BOOST_CHECK_MESSAGE(ran.count(name), test << " did not run " << name);
        BOOST_CHECK_MESSAGE(ran.size() == want.size(), test << " ran " << ran.size() << " transforms, not " << want.size());
#ifdef SHA256_TEST_EXTRA_ROW
        BOOST_CHECK_MESSAGE(ran.count("basic_alias"), test << " did not run the SHA256_TEST_EXTRA_ROW row basic_alias");
#endif
    }
    if (tests == 0) {
        BOOST_TEST_MESSAGE("  not run: no per-transform test of " << suite << " ran before this check (filtered run?)");
    } else {
        BOOST_TEST_MESSAGE("  " << tests << " per-transform tests of " << suite << " each ran all " << want.size()
                                << " runnable transforms");
    }
}

std::string SkippedTransforms()
{
    // "a, b: reason; c: other reason", grouping transforms that share a reason.
    std::vector<std::pair<std::string, std::string>> groups; // reason, names
    for (const auto& impl : sha256::Implementations()) {
        if (impl.supported) continue;
        auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == impl.why_not; });
        if (it == groups.end()) {
            groups.emplace_back(impl.why_not, impl.name);
        } else {
            it->second += ", " + impl.name;
        }
    }
    std::string out;
    for (const auto& [reason, names] : groups) out += (out.empty() ? "" : "; ") + names + ": " + reason;
    return out.empty() ? "none" : out;
}

uint64_t Rng::Next()
{
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

void Rng::Fill(unsigned char* p, size_t n)
{
    for (size_t i = 0; i < n; ++i) p[i] = static_cast<unsigned char>(Next() >> 56);
}

std::vector<unsigned char> Rng::Bytes(size_t n)
{
    std::vector<unsigned char> v(n);
    Fill(v.data(), n);
    return v;
}

std::string PortableTransform() { return sha256::Implementations().back().name; }

void CheckRows(const std::vector<const sha256::Row*>& rows)
{
    BOOST_REQUIRE(!rows.empty());
    std::set<std::string> names;
    bool last_resort = false;
    for (const sha256::Row* r : rows) {
        BOOST_CHECK_MESSAGE(names.insert(r->name).second, "duplicate row " << r->name);
        BOOST_CHECK_GE(r->ways, 1);
        BOOST_CHECK_MESSAGE(r->supported == r->why_not.empty(), r->name << ": why_not='" << r->why_not << "'");
        BOOST_CHECK(!r->supported || r->built);
        BOOST_CHECK_EQUAL(r->needs, cpu::FeatureNames(r->needs_mask));
        last_resort |= r->ways == 1 && r->needs_mask == 0 && r->supported;
        BOOST_TEST_MESSAGE("  " << r->name << " (" << r->ways << " ways): needs " << r->needs << ", "
                                << (r->supported ? "supported" : r->why_not));
    }
    BOOST_CHECK_MESSAGE(last_resort, "no 1-way row that needs nothing and runs");
}

bool AbortsInChild(const std::function<void()>& body)
{
    std::fflush(nullptr);
    const pid_t pid = fork();
    BOOST_REQUIRE(pid >= 0);
    if (pid == 0) {
        // The child's assert message would clutter the log; Boost.Test's own
        // handler would report the abort as a failure of this test, from the child.
        if (std::freopen("/dev/null", "w", stderr) == nullptr) _exit(3);
        std::signal(SIGABRT, SIG_DFL);
        body();
        _exit(0);
    }
    int status = 0;
    BOOST_REQUIRE_EQUAL(waitpid(pid, &status, 0), pid);
    return WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT;
}

ScopedRow::ScopedRow(bool (*set)(const std::string&), std::string (*current)(), const std::string& name)
    : set(set), previous(current())
{
    BOOST_REQUIRE_MESSAGE(set(name), "cannot select row " << name);
}

ScopedRow::~ScopedRow() { set(previous); }

ScopedTransform::ScopedTransform(const std::string& name) : previous(sha256::CurrentImplementation())
{
    if (!sha256::SetImplementation(name)) throw std::runtime_error("cannot select transform " + name);
}

ScopedTransform::~ScopedTransform() { sha256::SetImplementation(previous); }

Digest Hash(const unsigned char* data, size_t len)
{
    Digest out;
    CSHA256().Write(data, len).Finalize(out.data());
    return out;
}

int CountWrong(const unsigned char* out, const std::vector<Digest>& want, size_t n)
{
    int bad = 0;
    for (size_t i = 0; i < n; ++i) bad += std::memcmp(out + 32 * i, want[i].data(), 32) != 0;
    return bad;
}

Digest DoubleSha256(const unsigned char* data, size_t len)
{
    Digest first, second;
    CSHA256().Write(data, len).Finalize(first.data());
    CSHA256().Write(first.data(), 32).Finalize(second.data());
    return second;
}

std::vector<unsigned char> NaiveMerkleLevel(std::vector<unsigned char> level, bool& mutated)
{
    const size_t n = level.size() / 32;
    for (size_t i = 0; i + 1 < n; i += 2) {
        if (std::memcmp(&level[32 * i], &level[32 * (i + 1)], 32) == 0) mutated = true;
    }
    if (n & 1) level.insert(level.end(), level.end() - 32, level.end());
    std::vector<unsigned char> next;
    for (size_t i = 0; 64 * i < level.size(); ++i) {
        const Digest d = DoubleSha256(&level[64 * i], 64);
        next.insert(next.end(), d.begin(), d.end());
    }
    return next;
}

GuardedBuffer::GuardedBuffer(size_t usable_bytes, Flush flush) : size(usable_bytes)
{
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    const size_t body = (usable_bytes + page - 1) / page * page;
    mapped = body + 2 * page;
    void* p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::runtime_error("mmap failed");
    base = static_cast<unsigned char*>(p);
    if (mprotect(base, page, PROT_NONE) != 0 || mprotect(base + page + body, page, PROT_NONE) != 0) {
        throw std::runtime_error("mprotect failed");
    }
    usable = flush == Flush::End ? base + page + body - usable_bytes : base + page;
}

GuardedBuffer::~GuardedBuffer() { munmap(base, mapped); }

std::string Hex(const unsigned char* p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (size_t i = 0; i < n; ++i) {
        s += digits[p[i] >> 4];
        s += digits[p[i] & 15];
    }
    return s;
}

std::vector<unsigned char> ParseHex(const std::string& hex)
{
    if (hex.size() % 2) throw std::runtime_error("odd-length hex string");
    auto nibble = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        throw std::runtime_error(std::string("bad hex digit '") + c + "'");
    };
    std::vector<unsigned char> out(hex.size() / 2);
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<unsigned char>(nibble(hex[2 * i]) << 4 | nibble(hex[2 * i + 1]));
    return out;
}

} // namespace test
