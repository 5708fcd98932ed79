// SPDX-License-Identifier: MIT
// What the registries of every family share: the public description of a row
// and why a build lacks one.
#include <crypto/sha256_registry.h>

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
    out.leads.clear();
    for (const Lead& l : b.lead) {
        if (l.place > 0) out.leads.push_back(l);
    }
    out.uses_transform = b.uses_transform;
}

} // namespace registry

} // namespace sha256
