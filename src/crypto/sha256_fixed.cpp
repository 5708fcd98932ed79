// SPDX-License-Identifier: MIT
// The double SHA-256 of one 32-, 64- or 80-byte input (a hash of a hash, a
// Merkle node, a block header) and its registry: one row per kernel set with
// all three sizes, the padding precomputed and no CSHA256 object.
#include <crypto/sha256.h>
#include <crypto/sha256_kernels.h>
#include <crypto/sha256_registry.h>

#include <cstring>

namespace sha256 {
namespace {

using kernel::Shape;

struct FixedRow {
    registry::Base base;
    kernel::HashFn d32, d64, d80;
};

// The row of a kernel set's Double32, D64 (1-way: Double64) and Double80 kernels.
constexpr FixedRow FromDoubleKernels(const char* name, const char* technique)
{
    const kernel::Kernel& k32 = kernel::Get(name, Shape::Double32);
    const kernel::Kernel& k64 = kernel::Get(name, Shape::D64);
    const kernel::Kernel& k80 = kernel::Get(name, Shape::Double80);
    registry::Base b = registry::From(k64, technique);
    b.needs = k32.needs | k64.needs | k80.needs;
    b.built = k32.Built() && k64.Built() && k80.Built();
    if (k64.ways != 1) kernel::NotInTheKernelTable(); // a fixed path hashes one input
    return {b, k32.hash, k64.hash, k80.hash};
}

constexpr FixedRow ROWS[] = {
    FromDoubleKernels("shani", "SHA-NI, padding schedules precomputed, no CSHA256 object"),
    FromDoubleKernels("basic", "portable C++, padding schedules precomputed, no CSHA256 object"),
};
constexpr int ROW_COUNT = sizeof(ROWS) / sizeof(ROWS[0]);
constexpr int BASIC = registry::PortableRow(ROWS);
static_assert(BASIC == ROW_COUNT - 1, "the portable row is the last");

registry::Registry<FixedRow, ROW_COUNT> g_registry{ROWS, "fixed-size path", BASIC};

// The fixed paths against the portable ones on one input each.
bool SelfTestFixed(const FixedRow& e)
{
    unsigned char in[80 + 7], want[32], got[32];
    for (int i = 0; i < 87; ++i) in[i] = static_cast<unsigned char>(i * 37 + 11);
    const struct {
        kernel::HashFn got, want;
    } pairs[] = {{e.d32, kernel::basic_double32}, {e.d64, kernel::basic_d64}, {e.d80, kernel::basic_double80}};
    for (const auto& p : pairs) {
        p.want(want, in + 7);
        p.got(got, in + 7);
        if (std::memcmp(want, got, 32) != 0) return false;
    }
    return true;
}

} // namespace

std::vector<FixedImplementation> FixedImplementations()
{
    return g_registry.List<FixedImplementation>([](FixedImplementation& impl, const FixedRow& e) {
        impl.double32 = e.d32;
        impl.double64 = e.d64;
        impl.double80 = e.d80;
    });
}

bool SetFixedImplementation(const std::string& name) { return g_registry.Set(name); }

std::string CurrentFixedImplementation() { return g_registry.Current().base.name; }

std::string AutoDetectFixed() { return g_registry.AutoDetect(SelfTestFixed, BASIC); }

void Double32(unsigned char out[32], const unsigned char in[32]) { g_registry.Current().d32(out, in); }
void Double64(unsigned char out[32], const unsigned char in[64]) { g_registry.Current().d64(out, in); }
void Double80(unsigned char out[32], const unsigned char in[80]) { g_registry.Current().d80(out, in); }

} // namespace sha256
