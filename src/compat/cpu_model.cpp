// SPDX-License-Identifier: MIT
#include <compat/cpu_model.h>

#include <compat/cpuid.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace cpu {
namespace {

//! The kernel's name of each feature bit, as /proc/cpuinfo lists it
//! ("flags" on x86, "Features" on aarch64).
const struct {
    Feature f;
    const char* kernel_name;
    bool x86;
} KERNEL_NAMES[] = {
    {SSSE3, "ssse3", true}, {SSE41, "sse4_1", true}, {AVX, "avx", true}, {AVX2, "avx2", true},
    {BMI2, "bmi2", true}, {SHANI, "sha_ni", true}, {AVX512F, "avx512f", true}, {AVX512VL, "avx512vl", true},
    {ASIMD, "asimd", false}, {SHA2, "sha2", false},
};

//! The words of the first line of `cpuinfo` whose key is `key`, and whether there is one.
bool KernelLine(const std::string& cpuinfo, const std::string& key, std::string& words)
{
    std::istringstream in(cpuinfo);
    for (std::string line; std::getline(in, line);) {
        const auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string k = line.substr(0, colon);
        k.erase(k.find_last_not_of(" \t") + 1);
        if (k == key) {
            words = " " + line.substr(colon + 1) + " ";
            for (char& c : words) c = c == '\t' ? ' ' : c;
            return true;
        }
    }
    return false;
}

} // namespace

std::string EmulationEvidence(const EmulationFacts& facts)
{
    const bool x86 = facts.arch == "x86_64" || facts.arch == "i386";
    if (x86 && facts.hypervisor == "TCGTCGTCGTCG") {
        return "CPUID's hypervisor leaf is qemu's software CPU (TCG), e.g. qemu-x86_64 -cpu MODEL";
    }
    std::string words;
    const bool x86_kernel = KernelLine(facts.cpuinfo, "flags", words) || KernelLine(facts.cpuinfo, "vendor_id", words);
    const bool arm_kernel = KernelLine(facts.cpuinfo, "Features", words) || KernelLine(facts.cpuinfo, "CPU implementer", words);
    if (facts.arch == "aarch64" && x86_kernel) {
        return "an aarch64 binary on a host whose /proc/cpuinfo is x86 (user-mode emulation, e.g. qemu-aarch64)";
    }
    if (x86 && arm_kernel && !x86_kernel) {
        return "an x86 binary on a host whose /proc/cpuinfo is aarch64 (user-mode emulation, e.g. qemu-x86_64)";
    }
    if (!(x86 || facts.arch == "aarch64") || !KernelLine(facts.cpuinfo, x86 ? "flags" : "Features", words)) return "";
    std::string denied;
    for (const auto& n : KERNEL_NAMES) {
        if (n.x86 != x86 || (facts.cpuid & n.f)) continue;
        if (words.find(std::string(" ") + n.kernel_name + " ") != std::string::npos) denied += std::string(" ") + n.kernel_name;
    }
    if (denied.empty()) return "";
    return "the kernel lists" + denied + " but CPUID denies " + (denied.find(' ', 1) == std::string::npos ? "it" : "them") +
           " (a user-mode emulator's CPU model, e.g. qemu-" + (x86 ? "x86_64" : "aarch64") + " -cpu MODEL)";
}

EmulationFacts ThisMachine()
{
    EmulationFacts facts;
#if defined(__x86_64__)
    facts.arch = "x86_64";
#elif defined(__aarch64__)
    facts.arch = "aarch64";
#elif defined(__i386__)
    facts.arch = "i386";
#else
    facts.arch = "unknown";
#endif
    const char* path = std::getenv("SHA256BENCH_CPUINFO");
    std::ifstream in(path && *path ? path : "/proc/cpuinfo");
    std::ostringstream text;
    text << in.rdbuf();
    facts.cpuinfo = text.str();
    facts.cpuid = DetectedFeatures();
    facts.hypervisor = HypervisorVendor();
    return facts;
}

std::string Emulation()
{
    static const std::string why = [] {
        const char* e = std::getenv("SHA256BENCH_EMULATED");
        if (e && std::string(e) == "0") return std::string();
        if (e && *e) return "SHA256BENCH_EMULATED=" + std::string(e);
        return EmulationEvidence(ThisMachine());
    }();
    return why;
}

} // namespace cpu
