// SPDX-License-Identifier: MIT
// What the project knows of the CPU beyond its feature bits (compat/cpuid.h):
// every measured property of this CPU that an order of preference or the
// bench depends on (a probe), and whether the CPU is emulated (so its timings
// are no measurements). Every reading is taken here, once, through one helper,
// and carries its reason: measured, set by its environment variable, or absent
// (no such unit on this CPU or in this build).
//
// Adding a probe: one line in Probe below, one entry in cpu_model.cpp's table
// (name, environment variable, how it is measured); a registry row may then
// lead where its reading is high enough (crypto/sha256_registry.h, Lead), and
// the bench reports it with no change of its own.
#ifndef SHA256BENCH_COMPAT_CPU_MODEL_H
#define SHA256BENCH_COMPAT_CPU_MODEL_H

#include <cstdint>
#include <string>

namespace cpu {

//! Every measured property of this CPU.
enum class Probe : int {
    ShaniOverlap,   //!< how many sha256rnds2 the SHA unit works on at once
    Avx512AddDepth, //!< how many 512-bit vpaddd the vector unit works on at once
    TscGhz,         //!< TSC ticks per nanosecond
    CoreGhz,        //!< core cycles per nanosecond (the clock the bench's cycle figures use)
    Rnds2Latency,   //!< core cycles of a sha256rnds2 that waits on the previous one
    Rnds2Interval,  //!< core cycles between independent sha256rnds2 (the SHA unit's issue interval)
    // The lane kernels' vector operations, by register width (16, 32, 64
    // bytes): core cycles of one in a dependent chain of a round's kinds
    // (shift or rotate, logic, add), and between independent ones in a round's
    // mix of them (the bench's lane floor, bench/bench.cpp).
    Vec16Latency,
    Vec16Interval,
    Vec32Latency,
    Vec32Interval,
    Vec64Latency,
    Vec64Interval,
    //! Core cycles an iteration of a loop of one add: 1 where this thread has
    //! its core alone; more where another hardware thread shares the core's
    //! front end (the bench's "Shared core" line, bench/report.cpp).
    LoopIteration,
#ifdef SHA256_TEST_EXTRA_ROW
    TestProbe, //!< test-only (ci/extra-row.sh): reads 0 unless SHA256BENCH_TEST_PROBE sets it
#endif
    Count
};
constexpr int PROBE_COUNT = static_cast<int>(Probe::Count);

//! What a probe is, whatever this CPU reads.
struct ProbeInfo {
    const char* name;   //!< how reports label it: "SHA-NI overlap"
    const char* unit;   //!< what its value counts: "sha256rnds2 at once"
    const char* method; //!< how it is measured: "latency / issue interval"
    const char* env;    //!< the environment variable that replaces the measurement, or nullptr
    const char* absent; //!< why a CPU or build may have no reading: "no SHA-NI on this CPU or in this build"
};
const ProbeInfo& Info(Probe p);

//! Where a reading came from.
enum class Source {
    Measured,    //!< the probe ran (whatever it measured, 0 included)
    Environment, //!< the probe's environment variable set it
    Absent,      //!< the CPU (or its hidden features) or this build lacks the unit: the value is 0
};

struct Reading {
    double value{0};
    Source source{Source::Absent};
};

//! The probe's reading: its environment variable's value where that is set (a
//! plain decimal from 0 to 64; anything else stops the program with one line
//! on stderr), else measured once, on first use, else absent. Safe to call
//! from several threads.
Reading Read(Probe p);

//! A timed probe (the sha256rnds2 and vector operation latencies and
//! intervals) measured again now, as the fastest of `runs` runs, in its
//! reading's unit; 0 where the reading was not measured (absent, or set by its
//! environment variable) or the probe is not timed work. Read() stays the
//! first reading, so orders of preference never change within a process; the
//! bench's floors take it again beside each row (bench/bench.cpp).
double Remeasure(Probe p, int runs);

//! A reading with its reason, as reports print it: "4.00 sha256rnds2 at once
//! (latency / issue interval, set by SHA256BENCH_SHANI_OVERLAP)", or "none (no
//! SHA-NI on this CPU or in this build)".
std::string Describe(Probe p);

//! Core cycles of the fastest of `runs` calls of `work` (the TSC, scaled by
//! the CoreGhz reading); 0 without a TSC. For measurements of code shapes that
//! are no property of the CPU (the bench's SHA-NI block mixes).
double BestCoreCycles(void (*work)(), int runs);

namespace detail {
//! The x86 measurements behind ShaniOverlap and Avx512AddDepth
//! (compat/cpu_probes.cpp); Bitcoin Core's dispatch asks the same two
//! questions with this code (contrib/core-export.py).
double MeasureShaniOverlap();
double MeasureAvx512AddDepth();
} // namespace detail

//! What the emulation verdict is drawn from: what the process sees of the
//! CPU, and what the kernel says of the machine.
struct EmulationFacts {
    std::string arch;       //!< the binary's: "x86_64", "aarch64", ...
    std::string cpuinfo;    //!< the kernel's /proc/cpuinfo ("" where unreadable)
    uint32_t cpuid{0};      //!< the features CPUID reports (DetectedFeatures())
    std::string hypervisor; //!< CPUID leaf 0x40000000's vendor (HypervisorVendor())
};

//! Why these facts show an emulated CPU, or "". Only evidence that an emulator
//! gives and a virtual machine does not counts:
//! - qemu's software CPU names itself in the hypervisor leaf ("TCGTCGTCGTCG");
//! - a user-mode emulator shows the process its own CPU model while the kernel
//!   describes the host's: the kernel lists a feature CPUID denies (a kernel
//!   only ever clears CPUID's features), or an aarch64 binary reads an x86
//!   kernel's /proc/cpuinfo.
//! A brand string is no evidence: hypervisors rename CPUs, and some VMs show
//! the process one brand and the kernel another.
std::string EmulationEvidence(const EmulationFacts& facts);

//! The binary's architecture: "x86_64", "aarch64", "i386" or "unknown".
const char* Arch();

//! This machine's facts: /proc/cpuinfo (or the file SHA256BENCH_CPUINFO names,
//! for tests), CPUID, the hypervisor leaf.
EmulationFacts ThisMachine();

//! Why this process runs on an emulated CPU, or "" (read once):
//! SHA256BENCH_EMULATED=<why> says so (scripts that run under an emulator this
//! file cannot see), SHA256BENCH_EMULATED=0 says it does not (a verdict to
//! override), otherwise EmulationEvidence(ThisMachine()).
std::string Emulation();

} // namespace cpu

#endif
