// SPDX-License-Identifier: MIT
// The SHA-256 benchmarks: every row of the transform registry (plus OpenSSL as
// a reference) at six sizes. One table per size; the registry's portable row
// is the baseline row. No transform is named here: rows, the baseline and the
// -DBENCH_RORX gate all follow from the registry's fields.
#include <bench/bench.h>

#include <bench/clock.h>
#include <bench/machine.h>
#include <compat/cpuid.h>
#include <config/sha256bench-config.h>
#include <crypto/sha256.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#ifdef HAVE_OPENSSL_REFERENCE
#include <openssl/crypto.h>
#include <openssl/evp.h>
#endif

namespace {

struct Size {
    const char* table;
    const char* tag;
    size_t bytes;
    bool double_sha; // SHA256(SHA256(x)): Bitcoin's hash of a hash, a Merkle node, a block header
};

const Size SIZES[] = {
    {"SHA256, 1000000-byte messages", "1M", 1000000, false},
    {"SHA256, 1024-byte messages", "1K", 1024, false},
    {"SHA256, 64-byte messages", "64B", 64, false},
    {"SHA256D (double SHA-256) of 32 bytes", "D32B", 32, true},
    {"SHA256D (double SHA-256) of 64 bytes", "D64B", 64, true},
    {"SHA256D (double SHA-256) of 80 bytes (block header)", "D80B", 80, true},
};

const unsigned char* Input()
{
    static const std::unique_ptr<unsigned char[]> data = [] {
        std::unique_ptr<unsigned char[]> d(new unsigned char[1000000]);
        uint32_t x = 1;
        for (size_t i = 0; i < 1000000; ++i) {
            x = x * 1664525 + 1013904223;
            d[i] = static_cast<unsigned char>(x >> 24);
        }
        return d;
    }();
    return data.get();
}

using Digest = std::array<unsigned char, 32>;
std::string AsString(const Digest& d) { return std::string(reinterpret_cast<const char*>(d.data()), d.size()); }

void HashOnce(const Size& sz, unsigned char out[32])
{
    CSHA256().Write(Input(), sz.bytes).Finalize(out);
    if (sz.double_sha) CSHA256().Write(out, 32).Finalize(out);
}

// The baseline: the registry's last row that needs no CPU feature (the
// portable transform; the registry lists it last, as AutoDetect's fallback).
const sha256::Implementation* Baseline(const std::vector<sha256::Implementation>& impls)
{
    const sha256::Implementation* base = nullptr;
    for (const auto& impl : impls) {
        if (impl.needs_mask == 0 && impl.built) base = &impl;
    }
    return base;
}

// The 32 raw digest bytes of the size's input, computed with `impl`.
std::string ExpectedDigest(const Size& sz, const std::string& impl)
{
    const std::string prev = sha256::CurrentImplementation();
    sha256::SetImplementation(impl);
    unsigned char d[32];
    HashOnce(sz, d);
    sha256::SetImplementation(prev);
    return std::string(reinterpret_cast<char*>(d), 32);
}

#ifdef HAVE_OPENSSL_REFERENCE
// The code path OpenSSL's x86-64 SHA-256 takes for a capability vector: read
// back from OpenSSL_version(OPENSSL_CPU_INFO), i.e. after OPENSSL_ia32cap was applied.
std::string OpenSslPath()
{
    const char* info = OpenSSL_version(OPENSSL_CPU_INFO);
    const char* p = info ? std::strstr(info, "OPENSSL_ia32cap=") : nullptr;
    if (!p) return "unknown (no OPENSSL_CPU_INFO)";
    unsigned long long w0 = 0, w1 = 0;
    if (std::sscanf(p, "OPENSSL_ia32cap=%llx:%llx", &w0, &w1) != 2) return "unknown";
    const uint32_t leaf7_ebx = uint32_t(w1);
    const uint32_t leaf1_ecx = uint32_t(w0 >> 32);
    const uint32_t leaf1_edx = uint32_t(w0);
    if (leaf7_ebx & (1u << 29)) return "sha-ni";
    if ((leaf7_ebx & 0x128) == 0x128) return "avx2+bmi";
    // OpenSSL takes its AVX path only on CPUs it flags as Intel (bit 30 of word 0).
    if ((leaf1_ecx & (1u << 28)) && (leaf1_ecx & (1u << 9)) && (leaf1_edx & (1u << 30))) return "avx";
    if (leaf1_ecx & (1u << 9)) return "ssse3";
    return "scalar";
}

void OpenSslOnce(EVP_MD_CTX* ctx, const EVP_MD* md, const Size& sz, unsigned char out[32])
{
    unsigned int n = 0;
    EVP_DigestInit_ex(ctx, md, nullptr);
    EVP_DigestUpdate(ctx, Input(), sz.bytes);
    EVP_DigestFinal_ex(ctx, out, &n);
    if (sz.double_sha) {
        EVP_DigestInit_ex(ctx, md, nullptr);
        EVP_DigestUpdate(ctx, out, 32);
        EVP_DigestFinal_ex(ctx, out, &n);
    }
}
#endif

// The "OpenSSL reference" line (also the JSON build.openssl field).
std::string OpenSslDescription()
{
#ifdef HAVE_OPENSSL_REFERENCE
    const char* cap = std::getenv("OPENSSL_ia32cap");
    std::string s = OpenSSL_version(OPENSSL_VERSION);
    s += ", path " + OpenSslPath();
    // The environment may hold anything (non-UTF-8 too): shown escaped.
    s += cap ? " (OPENSSL_ia32cap=\"" + benchmark::Printable(cap) + "\")" : std::string(" (OPENSSL_ia32cap unset: OpenSSL's own choice)");
    return s;
#else
    return "absent (configure did not find libcrypto: apt-get install libssl-dev, or --with-openssl-reference=yes)";
#endif
}

bool BenchRorx()
{
#ifdef BENCH_RORX
    return true;
#else
    return false;
#endif
}

// Rows built around the rorx instruction (they need BMI2) run only in
// -DBENCH_RORX builds, as in the original experiment.
bool GatedByBenchRorx(const sha256::Implementation& impl) { return (impl.needs_mask & cpu::BMI2) != 0; }

const char* const RORX_REASON = "build with CPPFLAGS=-DBENCH_RORX";

// A double SHA-256 table also gives cycles per hash: the SHA-NI latency floor
// (doc/d64.md) is counted per hash, not per byte.
// needs: the row's CPU features (a SHA-NI row gets its sha256rnds2 per hash).
void SetUnit(benchmark::Bench& b, const Size& sz, uint32_t needs)
{
    if (sz.double_sha) {
        b.unit = "hash";
        b.units_per_op = 1;
        if (needs & cpu::SHANI) b.sha_rnds2_per_unit = benchmark::DoubleShaRnds2(sz.bytes);
    }
}

void Rows(std::vector<benchmark::Bench>& out)
{
    const auto impls = sha256::Implementations();
    const sha256::Implementation* base = Baseline(impls);
    const std::string selected = sha256::CurrentImplementation();
    for (const Size& sz : SIZES) {
        const std::string expected = ExpectedDigest(sz, base ? base->name : selected);
        const std::string base_name = base ? base->name : "the selected transform";
        // Reverse registry order: the portable baseline leads each table, the fastest ends it.
        for (auto it = impls.rbegin(); it != impls.rend(); ++it) {
            const sha256::Implementation& impl = *it;
            benchmark::Bench b;
            b.table = sz.table;
            b.name = std::string("SHA256_") + sz.tag + "/" + impl.name;
            b.impl = impl.name;
            b.family = "transform";
            b.bytes_per_op = sz.bytes;
            SetUnit(b, sz, impl.needs_mask);
            b.baseline = &impl == base;
            if (!impl.supported) {
                b.not_run = impl.why_not;
            } else if (GatedByBenchRorx(impl) && !BenchRorx()) {
                b.not_run = RORX_REASON;
            }
            const std::string name = impl.name;
            b.setup = [name] { sha256::SetImplementation(name); };
            const auto result = benchmark::TimedLoop(b, [] { return Digest{}; }, [sz](Digest& d) { HashOnce(sz, d.data()); });
            b.check = [sz, result, expected, name, base_name]() -> std::string {
                if (!sha256::SetImplementation(name)) return "cannot select " + name;
                Digest d;
                HashOnce(sz, d.data());
                if (AsString(d) != expected) return "digest differs from " + base_name;
                if (AsString(*result) != expected) return "timed run's digest differs from " + base_name;
                return "";
            };
            out.push_back(std::move(b));
        }
        benchmark::Bench ref;
        ref.table = sz.table;
        ref.name = std::string("SHA256_") + sz.tag + "/openssl";
        ref.impl = "openssl";
        ref.family = "reference";
        ref.bytes_per_op = sz.bytes;
        SetUnit(ref, sz, 0); // OpenSSL's path is its own choice
#ifdef HAVE_OPENSSL_REFERENCE
        // Each thread's output has a context of its own.
        struct OpenSslOut {
            std::shared_ptr<EVP_MD_CTX> ctx;
            Digest d;
        };
        const auto result = benchmark::TimedLoop(
            ref, [] { return OpenSslOut{std::shared_ptr<EVP_MD_CTX>(EVP_MD_CTX_new(), EVP_MD_CTX_free), {}}; },
            [sz](OpenSslOut& o) { OpenSslOnce(o.ctx.get(), EVP_sha256(), sz, o.d.data()); });
        ref.check = [result, expected, base_name]() -> std::string {
            return AsString(result->d) == expected ? "" : "OpenSSL's digest differs from " + base_name;
        };
#else
        ref.not_run = "configure found no libcrypto (apt-get install libssl-dev)";
#endif
        out.push_back(std::move(ref));
    }
    // Leave the process on the transform it had (AutoDetect's choice).
    sha256::SetImplementation(selected);
}

// Measured or slow facts: called only when tables are run, never by -list.
void Notes(std::vector<benchmark::Note>& out)
{
    out.push_back({"Selected transform (AutoDetect)", sha256::AutoDetect(), ""});
    out.push_back({"OpenSSL reference", OpenSslDescription(), "openssl"});
    if (!BenchRorx()) {
        std::string gated;
        for (const auto& impl : sha256::Implementations()) {
            if (GatedByBenchRorx(impl)) gated += (gated.empty() ? "" : ", ") + impl.name;
        }
        if (!gated.empty()) {
            out.push_back({"RORX rows", gated + " are not run: configure with CPPFLAGS=\"-DBENCH_RORX\" to enable them", ""});
        }
    }
}

void Impls(std::vector<benchmark::ImplRow>& out)
{
    const std::string prev = sha256::CurrentImplementation();
    benchmark::AddFamily(out, "transform", sha256::Implementations(), sha256::AutoDetect());
    sha256::SetImplementation(prev);
}

const benchmark::Registrar registrar({"SHA256", Rows, Notes, Impls});

} // namespace
