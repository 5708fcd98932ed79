// bench_bitcoin's registry and runner. A benchmark is one row of one table;
// rows of the same table run in interleaved rounds so a noisy machine slows
// them all alike and the speed% column compares like with like.
#ifndef SHA256BENCH_BENCH_BENCH_H
#define SHA256BENCH_BENCH_BENCH_H

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace benchmark {

struct Bench {
    std::string table;        //!< rows of one table are compared: "SHA256 1000000 bytes"
    std::string name;         //!< unique, matched by -filter: "SHA256_1M/rorx"
    std::string impl;         //!< row label: "rorx"
    uint64_t bytes_per_op{0}; //!< bytes hashed by one op, for MB/s and cycles/byte
    bool baseline{false};     //!< the 100% row of its table
    std::string not_run;      //!< non-empty: shown as a row with this reason, never executed
    std::function<void()> setup;            //!< before each timed slice (e.g. select the transform)
    std::function<void(uint64_t ops)> run;  //!< the timed work
    std::function<std::string()> check;    //!< after a run: "" if the result is right, else what is wrong
};

using Generator = void (*)(std::vector<Bench>&);

struct Registrar {
    Registrar(const char* name, Generator g);
};

//! Every registered benchmark, in registration order.
std::vector<Bench> AllBenchmarks();

//! Lines printed above the tables (build and machine facts); the SHA-256 file adds its own.
std::vector<std::string>& HeaderLines();

struct Options {
    std::string filter{".*"};
    uint64_t min_time_ms{500};
    int rounds{10};
    bool sanity_check{false};
    std::string output_csv;
    std::string output_json;
};

//! Runs everything that matches; returns the process exit code.
int RunAll(const Options& opts);

} // namespace benchmark

#define BENCHMARK(gen)                                   \
    static void gen(std::vector<benchmark::Bench>& out); \
    static const benchmark::Registrar registrar_##gen(#gen, gen); \
    static void gen(std::vector<benchmark::Bench>& out)

#endif
