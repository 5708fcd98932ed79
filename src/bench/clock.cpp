#include <bench/clock.h>

#include <algorithm>
#include <chrono>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define BENCH_HAVE_TSC 1
#endif

namespace benchmark {

uint64_t NowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

bool HaveTicks()
{
#ifdef BENCH_HAVE_TSC
    return true;
#else
    return false;
#endif
}

uint64_t Ticks()
{
#ifdef BENCH_HAVE_TSC
    return __rdtsc();
#else
    return 0;
#endif
}

namespace {
#ifdef BENCH_HAVE_TSC
// 1000 iterations x 64 dependent adds: 64000 core cycles (plus loop, which runs in parallel).
uint64_t AddChainTicks()
{
    uint64_t x = 0;
    const uint64_t t0 = __rdtsc();
    for (int i = 0; i < 1000; ++i) {
        __asm__ volatile(".rept 64\n\tadd $1, %0\n\t.endr" : "+r"(x));
    }
    const uint64_t t1 = __rdtsc();
    return t1 - t0;
}
#endif
} // namespace

ClockCalibration Calibrate()
{
    ClockCalibration c;
#ifdef BENCH_HAVE_TSC
    // TSC rate against the wall clock over ~50 ms.
    const uint64_t n0 = NowNs(), t0 = Ticks();
    while (NowNs() - n0 < 50000000) {}
    const uint64_t n1 = NowNs(), t1 = Ticks();
    c.tsc_hz = double(t1 - t0) * 1e9 / double(n1 - n0);
    // Best of many short runs: the fastest run is the one not interrupted,
    // after the core has ramped up its clock.
    uint64_t best = ~uint64_t(0);
    const uint64_t until = NowNs() + 30000000;
    while (NowNs() < until) best = std::min(best, AddChainTicks());
    c.core_hz = 64000.0 / double(best) * c.tsc_hz;
#endif
    return c;
}

} // namespace benchmark
