// SPDX-License-Identifier: MIT
// core-patch.sh --ab's clock probe: prints the core clock in GHz, measured
// the way the project's bench does it (src/bench/clock.cpp): a chain of
// dependent one-cycle adds runs at one add per core cycle, so adds per
// nanosecond of wall-clock time is the core clock while the chain runs.
// Register + register adds: Intel's Golden Cove and later cores fold chains
// of add-immediate at rename, several a cycle. Best of 25 runs of 8 million
// adds. x86-64 only.
//
// With --loop it prints instead the core cycles an iteration of a loop of
// one add and its branch (the bench's "one-add loop", src/compat/cpu_model.cpp):
// one on a core this process has alone, more while another hardware thread
// shares the core's front end (doc/benchmarking.md, "Shared core"). Fastest
// of 5 runs of 64000 iterations, in the clock above.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>

int main(int argc, char** argv)
{
#if defined(__x86_64__)
    const bool loop = argc == 2 && std::strcmp(argv[1], "--loop") == 0;
    if (argc > 2 || (argc == 2 && !loop)) {
        std::fprintf(stderr, "usage: clock [--loop]\n");
        return 2;
    }
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
    if (!loop) {
        std::printf("%.3f\n", best);
        return 0;
    }
    double fastest = 0;
    for (int run = 0; run < 5; ++run) {
        uint64_t x = 1, n = 64000;
        const auto t0 = std::chrono::steady_clock::now();
        __asm__ volatile("1:\n add %0, %0\n dec %1\n jnz 1b\n" : "+r"(x), "+r"(n));
        const auto t1 = std::chrono::steady_clock::now();
        const double ns = std::chrono::duration<double, std::nano>(t1 - t0).count();
        fastest = run == 0 ? ns : std::min(fastest, ns);
    }
    std::printf("%.3f\n", fastest * best / 64000);
    return 0;
#else
    (void)argc;
    (void)argv;
    std::fprintf(stderr, "clock probe: x86-64 only\n");
    return 1;
#endif
}
