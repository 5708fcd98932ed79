// SPDX-License-Identifier: MIT
// Timing for the bench: wall-clock nanoseconds, the TSC, and a calibration of
// core cycles per TSC tick (VMs rarely expose hardware cycle counters, and the
// TSC runs at a fixed rate that is not the core clock).
#ifndef SHA256BENCH_BENCH_CLOCK_H
#define SHA256BENCH_BENCH_CLOCK_H

#include <cstdint>

namespace benchmark {

uint64_t NowNs();

//! Time-stamp counter, or 0 where there is none.
uint64_t Ticks();
bool HaveTicks();

struct ClockCalibration {
    double tsc_hz{0};              //!< TSC ticks per second
    double core_hz{0};             //!< core cycles per second while running a dependent add chain
    double core_per_tick() const { return tsc_hz > 0 ? core_hz / tsc_hz : 0; }
};

//! Measures the TSC against the wall clock and the core clock against the TSC:
//! a chain of dependent 1-cycle adds runs at exactly one add per core cycle.
//! (Batch sizing of a benchmark is a different thing: bench.cpp's SizeBatches.)
ClockCalibration MeasureClock();

//! One line on how MeasureClock() got its figures, for the JSON.
const char* ClockMethod();

//! Dependent latency of sha256rnds2 in core cycles: a chain of them timed
//! against a chain of as many dependent adds. Only call on a CPU with SHA-NI;
//! returns 0 where it cannot be measured (not x86).
double Sha256Rnds2Latency();

} // namespace benchmark

#endif
