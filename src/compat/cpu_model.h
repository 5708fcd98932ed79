// SPDX-License-Identifier: MIT
// What the project knows of the CPU beyond its feature bits: whether it is
// emulated (so its timings are no measurements). Every such reading is taken
// here, once, with its reason.
#ifndef SHA256BENCH_COMPAT_CPU_MODEL_H
#define SHA256BENCH_COMPAT_CPU_MODEL_H

#include <cstdint>
#include <string>

namespace cpu {

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
