// SPDX-License-Identifier: MIT
#include <bench/machine.h>

#include <bench/build_commit.h>

#include <compat/cpu_model.h>
#include <compat/cpuid.h>
#include <config/sha256bench-config.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#ifndef SHA256_BUILD_CXX
#define SHA256_BUILD_CXX "unknown"
#endif
#ifndef SHA256_BUILD_CXXFLAGS
#define SHA256_BUILD_CXXFLAGS "unknown"
#endif
#ifndef SHA256_BUILD_CPPFLAGS
#define SHA256_BUILD_CPPFLAGS "unknown"
#endif
#ifndef SHA256_BUILD_ASM
#define SHA256_BUILD_ASM "unknown"
#endif

namespace benchmark {

std::vector<std::string> SplitFeatures(const std::string& names)
{
    std::vector<std::string> out;
    std::istringstream in(names);
    for (std::string w; in >> w;) {
        if (w != "none") out.push_back(w);
    }
    return out;
}

std::string Printable(const std::string& s)
{
    std::string o;
    for (unsigned char c : s) {
        if (c >= 0x20 && c < 0x7f && c != '\\') {
            o += static_cast<char>(c);
        } else {
            char buf[8];
            std::snprintf(buf, sizeof(buf), "\\x%02x", c);
            o += buf;
        }
    }
    return o;
}

Machine DescribeMachine(const ClockCalibration& clock)
{
    Machine m;
    m.arch = cpu::Arch();
    m.cpu = Printable(cpu::Brand());
#if defined(__x86_64__) || defined(__i386__)
    // The display family/model/stepping of CPUID leaf 1 (Intel SDM vol. 2A,
    // CPUID EAX=01h): a report fact only; dispatch reads compat/cpuid.h.
    unsigned a = 0, b = 0, c = 0, d = 0;
    if (__get_cpuid(1, &a, &b, &c, &d)) {
        const unsigned base_family = (a >> 8) & 0xf, base_model = (a >> 4) & 0xf;
        m.family = base_family == 0xf ? base_family + ((a >> 20) & 0xff) : base_family;
        m.model = base_family == 0x6 || base_family == 0xf ? base_model + (((a >> 16) & 0xf) << 4) : base_model;
        m.stepping = a & 0xf;
        m.have_signature = true;
    }
#endif
    m.features = SplitFeatures(cpu::FeatureNames(cpu::Features()));
    m.features_detected = SplitFeatures(cpu::FeatureNames(cpu::DetectedFeatures()));
    m.clock = clock;
    m.clock_method = ClockMethod();
    m.emulated = Printable(cpu::Emulation());
    return m;
}

Build DescribeBuild()
{
    Build b;
    b.compiler = SHA256_BUILD_CXX;
#ifdef __VERSION__
    b.compiler_version = __VERSION__;
#else
    b.compiler_version = "unknown";
#endif
    b.cxxflags = SHA256_BUILD_CXXFLAGS;
    b.cppflags = SHA256_BUILD_CPPFLAGS;
    b.assembler = SHA256_BUILD_ASM;
    b.commit = SHA256_BUILD_COMMIT;
    return b;
}

} // namespace benchmark
