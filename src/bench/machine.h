// SPDX-License-Identifier: MIT
// Facts about the machine and the build that every report carries.
#ifndef SHA256BENCH_BENCH_MACHINE_H
#define SHA256BENCH_BENCH_MACHINE_H

#include <bench/clock.h>

#include <string>
#include <vector>

namespace benchmark {

struct Machine {
    std::string arch;                       //!< "x86_64", "aarch64", ...
    std::string cpu;                        //!< brand string
    bool have_signature{false};             //!< family/model/stepping known (x86 CPUID leaf 1)
    unsigned family{0}, model{0}, stepping{0};
    std::vector<std::string> features;          //!< what dispatch uses (after SHA256BENCH_HIDE_FEATURES)
    std::vector<std::string> features_detected; //!< what the CPU reports
    ClockCalibration clock;
    std::string clock_method;
    std::string emulated; //!< why the CPU is emulated (timings are not measurements), or "" (cpu::Emulation())
};

struct Build {
    std::string compiler, compiler_version, cxxflags, cppflags, assembler, commit;
};

Machine DescribeMachine(const ClockCalibration& clock);

Build DescribeBuild();

//! "ssse3 sse4.1" -> {"ssse3", "sse4.1"}; "none" -> {}.
std::vector<std::string> SplitFeatures(const std::string& names);

//! Printable ASCII as is; any other byte (control, non-UTF-8, ...) as \xNN, so
//! text from the environment reaches the table and the JSON intact and valid.
std::string Printable(const std::string& s);

} // namespace benchmark

#endif
