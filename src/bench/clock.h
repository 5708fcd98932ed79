// SPDX-License-Identifier: MIT
// Timing for the bench: wall-clock nanoseconds, the TSC, and a calibration of
// core cycles per TSC tick (VMs rarely expose hardware cycle counters, and the
// TSC runs at a fixed rate that is not the core clock).
#ifndef SHA256BENCH_BENCH_CLOCK_H
#define SHA256BENCH_BENCH_CLOCK_H

#include <compat/cpu_model.h>

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
    //! The SHA unit, in core cycles (0: no SHA-NI, or not x86): the latency of
    //! a sha256rnds2 that waits on the previous one, and the interval at which
    //! it takes independent ones (12 chains, more than any unit overlaps).
    double rnds2_latency{0};
    double rnds2_interval{0};
    //! Core cycles for the instructions a SHA-NI stream kernel issues for a
    //! block that needs its message schedule, with no chain between them:
    //! what a kernel of that shape cannot beat, whatever its streams.
    double block_mix{0};
    //! Core cycles a block of one stream when four SHA-NI streams run a
    //! scheduled block with a stream kernel's dependencies (each stream's
    //! rounds and its schedule chained), and the same with each sha256msg2
    //! replaced by an add on the same registers: the difference is what
    //! sha256msg2 costs in such a kernel.
    double stream_block{0};
    double stream_block_msg2_add{0};
    //! The lane kernels' vector operations by register width (index 0, 1, 2:
    //! 16, 32, 64 bytes), in core cycles (0: not measured on this CPU): one
    //! in a dependent chain, and the interval of a round's mix of them.
    double vec_latency[3]{};
    double vec_interval[3]{};
    //! Index of a register width in vec_latency/vec_interval, or -1.
    static int VecIndex(int register_bytes) { return register_bytes == 16 ? 0 : register_bytes == 32 ? 1 : register_bytes == 64 ? 2 : -1; }
    //! The CPU model's probes behind vec_latency[w] and vec_interval[w].
    static cpu::Probe VecLatencyProbe(int w);
    static cpu::Probe VecIntervalProbe(int w);
};

//! Measures the TSC against the wall clock and the core clock against the TSC:
//! a chain of dependent 1-cycle adds runs at exactly one add per core cycle.
//! On a CPU with SHA-NI, also the SHA unit's latency and issue interval, and
//! the cycles of a scheduled block's instruction mix.
//! (Batch sizing of a benchmark is a different thing: bench.cpp's SizeBatches.)
ClockCalibration MeasureClock();

//! One line on how MeasureClock() got its figures, for the JSON.
const char* ClockMethod();

} // namespace benchmark

#endif
