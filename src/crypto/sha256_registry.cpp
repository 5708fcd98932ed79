// SPDX-License-Identifier: MIT
// What the registries of every family share: the public description of a row,
// why a build lacks one, and the SHA unit's overlap that orders the D64 and
// multi-buffer rows.
#include <crypto/sha256_internal.h>
#include <crypto/sha256_registry.h>

#include <cstdio>
#include <cstdlib>

namespace sha256 {
namespace registry {

std::string NotBuiltReason(uint32_t needs, kernel::Source source)
{
#if defined(DISABLE_OPTIMIZED_SHA256)
    (void)needs;
    (void)source;
    return "not built (DISABLE_OPTIMIZED_SHA256)";
#else
    (void)needs;
    switch (source) {
    case kernel::Source::Arm:
#if defined(__aarch64__)
        return "not built (the build did not define ENABLE_SHA256_ARM)";
#else
        return "not built (needs an aarch64 host)";
#endif
    case kernel::Source::Asm:
    case kernel::Source::X86:
#if !defined(__x86_64__)
        return "not built (needs an x86-64 host)";
#else
        return source == kernel::Source::Asm ? "not built (no assembler: configure found no yasm/nasm or --with-asm=no)"
                                             : "not built (this build left it out)";
#endif
    case kernel::Source::Portable:
        break;
    }
    return "not built (this build left it out)";
#endif
}

void Describe(Row& out, const Base& b)
{
    out.name = b.name;
    out.needs = cpu::FeatureNames(b.needs);
    out.needs_mask = b.needs;
    out.technique = b.technique;
    out.built = b.built;
    out.supported = Runnable(b);
    out.why_not = !out.built       ? NotBuiltReason(b.needs, b.source)
                  : !out.supported ? "CPU lacks " + cpu::FeatureNames(b.needs & ~cpu::Features())
                                   : std::string();
    out.ways = b.ways;
    out.wide_sha = b.wide_rank > 0;
    out.uses_transform = b.uses_transform;
}

} // namespace registry

namespace {
// A measurement's replacement from the environment variable `name`, if set:
// a plain decimal ("4", "1.4").
double FromEnvironment(const char* name, const char* env)
{
    char* end = nullptr;
    const double v = std::strtod(env, &end);
    bool plain = *env != 0;
    for (const char* c = env; *c; ++c) plain &= (*c >= '0' && *c <= '9') || *c == '.';
    if (!plain || end == env || *end != 0 || !(v >= 0 && v <= 64)) {
        std::fprintf(stderr, "%s: '%s' is not a decimal number from 0 to 64\n", name, env);
        std::exit(2);
    }
    return v;
}

struct Probe {
    double value;
    ProbeSource source;
};

Probe MeasureOverlap()
{
    if (const char* env = std::getenv("SHA256BENCH_SHANI_OVERLAP")) {
        return {FromEnvironment("SHA256BENCH_SHANI_OVERLAP", env), ProbeSource::Environment};
    }
#ifdef SHA256_KERNELS_X86
    if ((cpu::Features() & kernel::SHANI_NEEDS) == kernel::SHANI_NEEDS) {
        return {detail::MeasureShaniOverlap(), ProbeSource::Measured};
    }
#endif
    return {0.0, ProbeSource::Absent};
}

Probe MeasureAddDepth()
{
    if (const char* env = std::getenv("SHA256BENCH_AVX512_ADD_DEPTH")) {
        return {FromEnvironment("SHA256BENCH_AVX512_ADD_DEPTH", env), ProbeSource::Environment};
    }
#ifdef SHA256_KERNELS_X86
    if ((cpu::Features() & kernel::AVX512_NEEDS) == kernel::AVX512_NEEDS) {
        return {detail::MeasureAvx512AddDepth(), ProbeSource::Measured};
    }
#endif
    return {0.0, ProbeSource::Absent};
}

// Each measured once, on first use; the value and where it came from together.
const Probe& Overlap()
{
    static const Probe overlap = MeasureOverlap();
    return overlap;
}
const Probe& AddDepth()
{
    static const Probe depth = MeasureAddDepth();
    return depth;
}
} // namespace

double ShaniOverlap() { return Overlap().value; }
ProbeSource ShaniOverlapSource() { return Overlap().source; }
double Avx512AddDepth() { return AddDepth().value; }
ProbeSource Avx512AddDepthSource() { return AddDepth().source; }

} // namespace sha256
