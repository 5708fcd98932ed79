// SPDX-License-Identifier: MIT
// core-patch.sh --ab's clock probe: prints the core clock in GHz, measured
// the way the project's bench does it (src/bench/clock.cpp): a chain of
// dependent one-cycle adds runs at one add per core cycle, so adds per
// nanosecond of wall-clock time is the core clock while the chain runs.
// Register + register adds: Intel's Golden Cove and later cores fold chains
// of add-immediate at rename, several a cycle. Best of 25 runs of 8 million
// adds. x86-64 only.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>

int main()
{
#if defined(__x86_64__)
    double best = 0;
    for (int run = 0; run < 25; ++run) {
        uint64_t x = 1, n = 100000;
        const auto t0 = std::chrono::steady_clock::now();
        __asm__ volatile(
            "1:\n"
            ".rept 80\n add %0, %0\n .endr\n"
            "dec %1\n jnz 1b\n"
            : "+r"(x), "+r"(n));
        const auto t1 = std::chrono::steady_clock::now();
        const double ns = std::chrono::duration<double, std::nano>(t1 - t0).count();
        best = std::max(best, 80.0 * 100000 / ns);
    }
    std::printf("%.3f\n", best);
    return 0;
#else
    std::fprintf(stderr, "clock probe: x86-64 only\n");
    return 1;
#endif
}
