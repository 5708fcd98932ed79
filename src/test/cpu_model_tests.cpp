// SPDX-License-Identifier: MIT
// The CPU model's readings from injected facts: both sides of every verdict,
// whatever the host is.
#include <compat/cpu_model.h>
#include <compat/cpuid.h>

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdlib>
#include <string>

namespace {

// /proc/cpuinfo as an x86 kernel writes it (one processor; the fields the
// verdict reads and some it must ignore).
std::string X86Cpuinfo(const std::string& model_name, const std::string& flags)
{
    return "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 26\nmodel\t\t: 2\nmodel name\t: " + model_name +
           "\nstepping\t: 1\nflags\t\t: fpu vme de pse tsc msr " + flags + " hypervisor lahf_lm\nbogomips\t: 5192.00\n\n";
}

const char* const ZEN5_FLAGS = "ssse3 fma cx16 sse4_1 sse4_2 avx bmi1 avx2 bmi2 avx512f avx512dq sha_ni avx512bw avx512vl";
const uint32_t ZEN5_CPUID = cpu::SSSE3 | cpu::SSE41 | cpu::AVX | cpu::AVX2 | cpu::BMI2 | cpu::SHANI | cpu::AVX512F | cpu::AVX512BW | cpu::AVX512VL;
// What qemu-x86_64 -cpu Haswell reports: no SHA-NI, no AVX-512.
const uint32_t HASWELL_CPUID = cpu::SSSE3 | cpu::SSE41 | cpu::AVX | cpu::AVX2 | cpu::BMI2;

cpu::EmulationFacts X86(const std::string& model_name, const std::string& flags, uint32_t cpuid, const std::string& hv)
{
    return {"x86_64", X86Cpuinfo(model_name, flags), cpuid, hv};
}

} // namespace

BOOST_AUTO_TEST_SUITE(cpu_model_tests)

BOOST_AUTO_TEST_CASE(a_renamed_cpu_is_not_emulated)
{
    // A VM whose CPUID brand is not the kernel's model name (seen: "Oxide
    // Virtual Turin-like Processor" against "AMD EPYC"), same features: real.
    BOOST_CHECK_EQUAL(cpu::EmulationEvidence(X86("AMD EPYC", ZEN5_FLAGS, ZEN5_CPUID, "KVMKVMKVM")), "");
    BOOST_CHECK_EQUAL(cpu::EmulationEvidence(X86("Oxide Virtual Turin-like Processor", ZEN5_FLAGS, ZEN5_CPUID, "KVMKVMKVM")), "");
    // Bare metal (no hypervisor leaf), another hypervisor's leaf.
    BOOST_CHECK_EQUAL(cpu::EmulationEvidence(X86("AMD EPYC 9555", ZEN5_FLAGS, ZEN5_CPUID, "")), "");
    BOOST_CHECK_EQUAL(cpu::EmulationEvidence(X86("Intel(R) Xeon(R)", ZEN5_FLAGS, ZEN5_CPUID, "Microsoft Hv")), "");
    // A kernel that hides a feature CPUID reports (clearcpuid=, a disabled
    // AVX-512): the direction a real machine takes.
    BOOST_CHECK_EQUAL(cpu::EmulationEvidence(X86("AMD EPYC", "ssse3 sse4_1 avx avx2 bmi2", ZEN5_CPUID, "KVMKVMKVM")), "");
    // No /proc/cpuinfo at all: no evidence, no verdict.
    BOOST_CHECK_EQUAL(cpu::EmulationEvidence({"x86_64", "", ZEN5_CPUID, "KVMKVMKVM"}), "");
    // A native aarch64 machine.
    BOOST_CHECK_EQUAL(cpu::EmulationEvidence({"aarch64", "processor\t: 0\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32\nCPU implementer\t: 0x41\n",
                                              cpu::ASIMD | cpu::SHA2, ""}),
                      "");
}

BOOST_AUTO_TEST_CASE(qemu_is_emulated)
{
    // qemu-x86_64 -cpu Haswell on a Zen 5 host: TCG's leaf, and the kernel's
    // sha_ni and AVX-512 denied.
    const std::string tcg = cpu::EmulationEvidence(X86("AMD EPYC", ZEN5_FLAGS, HASWELL_CPUID, "TCGTCGTCGTCG"));
    BOOST_CHECK_MESSAGE(tcg.find("TCG") != std::string::npos, tcg);
    // An emulator without that leaf: the features alone, named.
    const std::string denied = cpu::EmulationEvidence(X86("AMD EPYC", ZEN5_FLAGS, HASWELL_CPUID, ""));
    BOOST_CHECK_MESSAGE(denied.find("the kernel lists sha_ni avx512f avx512bw avx512vl but CPUID denies them") == 0, denied);
    const std::string one = cpu::EmulationEvidence(X86("AMD EPYC", ZEN5_FLAGS, ZEN5_CPUID & ~cpu::SHANI, ""));
    BOOST_CHECK_MESSAGE(one.find("the kernel lists sha_ni but CPUID denies it") == 0, one);
    // A flag name that only contains a known one is not it ("avx512fp16" is not "avx512f").
    BOOST_CHECK_EQUAL(cpu::EmulationEvidence(X86("x", "ssse3 avx512fp16 sha_ni_x", cpu::SSSE3, "")), "");
    // qemu-aarch64 on an x86 host, qemu-x86_64 on an aarch64 host.
    const std::string arm = cpu::EmulationEvidence({"aarch64", X86Cpuinfo("AMD EPYC", ZEN5_FLAGS), cpu::ASIMD | cpu::SHA2, ""});
    BOOST_CHECK_MESSAGE(arm.find("an aarch64 binary on a host whose /proc/cpuinfo is x86") == 0, arm);
    const std::string x86 = cpu::EmulationEvidence({"x86_64", "processor\t: 0\nFeatures\t: fp asimd sha2\nCPU implementer\t: 0x41\n", cpu::SSSE3, ""});
    BOOST_CHECK_MESSAGE(x86.find("an x86 binary on a host whose /proc/cpuinfo is aarch64") == 0, x86);
    // qemu-aarch64 -cpu cortex-a53 without sha2 on an aarch64 host with it.
    const std::string a53 = cpu::EmulationEvidence({"aarch64", "Features\t: fp asimd sha2\n", cpu::ASIMD, ""});
    BOOST_CHECK_MESSAGE(a53.find("the kernel lists sha2 but CPUID denies it") == 0, a53);
}

BOOST_AUTO_TEST_CASE(this_machine_agrees_with_the_environment)
{
    // Under src/test/run-qemu.sh SHA256_EXPECT_EMULATED=1; natively the
    // machine's own facts must show no emulation unless the runner says so.
    // Under valgrind (ci/test-all.sh: SHA256_EXPECT_EMULATED=cpuid-may-deny)
    // CPUID is valgrind's own, which denies what it cannot translate (SHA-NI
    // and AVX-512 where the kernel lists them) and passes the rest: whether it
    // is called emulated depends on the host, but only that evidence may say so.
    const char* expect = std::getenv("SHA256_EXPECT_EMULATED");
    if (expect && std::string(expect) == "1") {
        BOOST_CHECK_MESSAGE(!cpu::Emulation().empty(), "qemu's CPU was not recognised as emulated");
    } else if (expect && std::string(expect) == "cpuid-may-deny") {
        BOOST_CHECK_MESSAGE(cpu::Emulation().empty() || cpu::Emulation().find("but CPUID denies") != std::string::npos,
                            "called emulated on other evidence than a feature CPUID denies: " << cpu::Emulation());
    } else if (!std::getenv("SHA256BENCH_EMULATED")) {
        BOOST_CHECK_MESSAGE(cpu::Emulation().empty(), "this machine was called emulated: " << cpu::Emulation());
    }
    BOOST_TEST_MESSAGE("  emulation: " << (cpu::Emulation().empty() ? "none" : cpu::Emulation())
                                       << "; hypervisor leaf: '" << cpu::HypervisorVendor() << "'");
}

// Every reading carries its reason: absent readings are 0 and say why, a
// reading its environment variable sets says which variable, a measured one
// says so; and each probe is read once (the same value every time).
BOOST_AUTO_TEST_CASE(readings_carry_their_reasons)
{
    for (int i = 0; i < cpu::PROBE_COUNT; ++i) {
        const auto p = static_cast<cpu::Probe>(i);
        const cpu::ProbeInfo& info = cpu::Info(p);
        const cpu::Reading r = cpu::Read(p);
        const std::string d = cpu::Describe(p);
        BOOST_TEST_CONTEXT(info.name << ": " << d)
        {
            BOOST_CHECK_EQUAL(cpu::Read(p).value, r.value);
            const bool from_env = info.env && std::getenv(info.env);
            BOOST_CHECK(from_env == (r.source == cpu::Source::Environment));
            switch (r.source) {
            case cpu::Source::Absent:
                BOOST_CHECK_EQUAL(r.value, 0.0);
                BOOST_CHECK_EQUAL(d, std::string("none (") + info.absent + ")");
                break;
            case cpu::Source::Environment:
                BOOST_CHECK(d.find(std::string(", set by ") + info.env + ")") != std::string::npos);
                break;
            case cpu::Source::Measured:
                BOOST_CHECK(d.find(", measured)") != std::string::npos);
                BOOST_CHECK(d.find(info.unit) != std::string::npos);
                break;
            }
            // Taken again (the bench's floors): only what was measured, and
            // never changing the first reading.
            const double again = cpu::Remeasure(p, 3);
            BOOST_CHECK(again >= 0 && std::isfinite(again));
            if (r.source != cpu::Source::Measured) BOOST_CHECK_EQUAL(again, 0.0);
            BOOST_CHECK_EQUAL(cpu::Read(p).value, r.value);
        }
        BOOST_TEST_MESSAGE("  " << info.name << ": " << d);
    }
    // Every reading a floor multiplies can be taken again where it was measured.
    for (const cpu::Probe p : {cpu::Probe::Rnds2Interval, cpu::Probe::Vec16Latency, cpu::Probe::Vec16Interval,
                               cpu::Probe::Vec32Latency, cpu::Probe::Vec32Interval, cpu::Probe::Vec64Latency,
                               cpu::Probe::Vec64Interval}) {
        BOOST_TEST_CONTEXT(cpu::Info(p).name)
        {
            if (cpu::Read(p).source == cpu::Source::Measured) BOOST_CHECK_GT(cpu::Remeasure(p, 3), 0.0);
        }
    }
    // The one-add loop's iteration is its add, which waits on the last one: at
    // least a core cycle, however the core is shared (an emulator's timings
    // are none).
    if (cpu::Read(cpu::Probe::LoopIteration).source == cpu::Source::Measured && cpu::Emulation().empty()) {
        BOOST_CHECK_GE(cpu::Read(cpu::Probe::LoopIteration).value, 0.9);
        BOOST_CHECK_GE(cpu::Remeasure(cpu::Probe::LoopIteration, 5), 0.9);
    }
    // A unit the CPU lacks (or this process was told to hide) reads as absent.
    if (!(cpu::Features() & cpu::SHANI) && !std::getenv("SHA256BENCH_SHANI_OVERLAP")) {
        BOOST_CHECK(cpu::Read(cpu::Probe::ShaniOverlap).source == cpu::Source::Absent);
    }
}

BOOST_AUTO_TEST_SUITE_END()
