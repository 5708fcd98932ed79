// SPDX-License-Identifier: MIT
// bench_bitcoin's registry and runner: select -> measure -> report. A benchmark
// is one row of one table; rows of the same table run in interleaved rounds so
// a noisy machine slows them all alike and the speed% column compares like
// with like.
#ifndef SHA256BENCH_BENCH_BENCH_H
#define SHA256BENCH_BENCH_BENCH_H

#include <bench/machine.h>
#include <compat/cpuid.h>
#include <crypto/sha256_kernels.h>
#include <crypto/sha256_row.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <new>
#include <string>
#include <vector>

namespace benchmark {

struct Bench {
    std::string table;        //!< rows of one table are compared: "SHA256, 1000000-byte messages"
    std::string name;         //!< unique, matched by -filter: "SHA256_1M/rorx"
    std::string impl;         //!< row label: "rorx"
    std::string family;       //!< registry the row comes from ("transform"), or "reference"
    uint64_t bytes_per_op{0}; //!< bytes hashed by one op, for MB/s and cycles/byte
    //! What an op is made of when bytes are not the natural measure ("input":
    //! 64-byte D64 inputs; "transaction"): the table adds a cycles/<unit> column.
    //! Every row of a table names the same unit, or none does.
    std::string unit;
    uint64_t units_per_op{0}; //!< how many `unit`s one op hashes (> 0 when `unit` is set)
    //! For rows that run SHA-NI code: the sha256rnds2 one unit takes (96 for a
    //! D64 input: three blocks of 32). Times the SHA unit's issue interval that
    //! is the row's floor; the table's floor% column says how close it runs.
    double sha_rnds2_per_unit{0};
    //! For rows that run a lane kernel written on sha256_lanes.h: the vector
    //! instructions one unit takes and the longest chain of dependent ones
    //! per unit, counted from the kernel's algorithm (crypto/sha256_lanes_count.h),
    //! and its register width in bytes. The floor is the larger of ops x the
    //! width's issue interval and chain x its latency.
    double lane_ops_per_unit{0};
    double lane_chain_per_unit{0};
    int lane_register_bytes{0};
    bool baseline{false};     //!< the row speed% is relative to (speed% 100) in its table
    std::string not_run;      //!< non-empty: why the row is never executed ("build with ...")
    std::function<void()> setup;            //!< before each timed slice (e.g. select the transform)
    std::function<void(uint64_t ops)> run;  //!< the timed work
    std::function<std::string()> check;    //!< after a run: "" if the result is right, else what is wrong
    //! For -threads=N: the same work as `run` over private outputs (inputs are
    //! read-only and shared), one closure per extra thread. Rows without it are
    //! measured on one thread only.
    std::function<std::function<void(uint64_t ops)>()> make_run;
    //! Where the measured thread's output object starts (TimedLoop), for the
    //! JSON's output_page_offset; 0 where the row has none.
    uintptr_t output_address{0};
};

//! Sets b's lane_* fields from the kernel table: `calls_per_unit` calls of
//! the lane kernel `name` of `shape`, plus `second_per_unit` calls of its
//! Hash32 kernel (the second hash of SHA256DMulti; its block count where the
//! set has none). Nothing where the table counts no such kernel.
void SetLaneCount(Bench& b, const std::string& name, sha256::kernel::Shape shape, double calls_per_unit,
                  double second_per_unit = 0);

//! SHA-256 blocks of a message of `len` bytes, its padding included.
inline uint64_t ShaBlocks(uint64_t len) { return len / 64 + (len % 64 < 56 ? 1 : 2); }
//! The sha256rnds2 of a double SHA-256 of `len` bytes: 32 a block, and one block for the second hash.
inline double DoubleShaRnds2(uint64_t len) { return 32.0 * double(ShaBlocks(len) + 1); }

//! Keeps a result the compiler could otherwise drop (a run whose output nobody reads).
inline void Keep(const void* p)
{
#if defined(__GNUC__)
    __asm__ volatile("" : : "r"(p) : "memory");
#else
    static volatile const void* sink;
    sink = p;
#endif
}

//! -place: every row's output object alone in a mapping of its own, `offset`
//! bytes into its first page (0..4080, a multiple of 16); -1 (the default):
//! where the heap puts it. A small row's time can move with where its output
//! lies relative to the rest of the process (store and load addresses that
//! share low bits), and a build's other allocations decide that: an A/B driver
//! gives both sides of a pair one offset, drawn per pair, so that placement
//! weighs on pairs, not on a side (doc/ab-testing.md). Only the object: a
//! container's own buffer stays on the heap.
void SetOutputPlace(int offset);
int OutputPlace();
//! `size` bytes at OutputPlace() bytes into a fresh private mapping; nullptr if
//! mmap fails. PlacedFree unmaps what PlacedAlloc returned (the offset is set
//! once, before any row's output is made).
void* PlacedAlloc(size_t size);
void PlacedFree(void* p, size_t size);

//! A row's output: where -place says, else make_shared's.
template <class Out>
std::shared_ptr<Out> MakeOutput(Out v)
{
    static_assert(alignof(Out) <= 16, "-place offsets are multiples of 16");
    if (OutputPlace() < 0) return std::make_shared<Out>(std::move(v));
    void* p = PlacedAlloc(sizeof(Out));
    if (!p) throw std::bad_alloc();
    return std::shared_ptr<Out>(new (p) Out(std::move(v)), [](Out* o) {
        o->~Out();
        PlacedFree(o, sizeof(Out));
    });
}

//! A row's timed loop, written once: `make_out()` makes a fresh output and
//! `op(out)` does one op into it. Sets b.run (the measured thread's loop, into
//! the output returned here, which the row's check may read) and b.make_run
//! (each extra thread of -threads=N gets an output of its own; inputs are
//! read-only and shared).
template <class MakeOut, class Op>
auto TimedLoop(Bench& b, MakeOut make_out, Op op)
{
    using Out = decltype(make_out());
    auto out = MakeOutput<Out>(make_out());
    b.output_address = reinterpret_cast<uintptr_t>(out.get());
    b.run = [out, op](uint64_t ops) {
        for (uint64_t i = 0; i < ops; ++i) op(*out);
    };
    b.make_run = [make_out, op]() -> std::function<void(uint64_t)> {
        auto own = MakeOutput<Out>(make_out());
        return [own, op](uint64_t ops) {
            for (uint64_t i = 0; i < ops; ++i) op(*own);
            Keep(own.get());
        };
    };
    return out;
}

//! A fact printed above the tables ("label: text"); with a build_key it is also
//! that field of the JSON "build" object.
struct Note {
    std::string label;
    std::string text;
    std::string build_key;
};

//! One row of an implementation registry, as -list-impls and the JSON show it:
//! the registry's row, its family and whether AutoDetect picks it.
struct ImplRow : sha256::Row {
    std::string family; //!< "transform", "d64", "fixed" or "multi"
    bool selected{false}; //!< what AutoDetect picks on this CPU
};

//! One registry's rows (sha256::Implementations(), D64Implementations(), ...)
//! as -list-impls and the JSON show them; `selected` is AutoDetect's pick.
template <typename Impl>
void AddFamily(std::vector<ImplRow>& out, const char* family, const std::vector<Impl>& impls,
               const std::string& selected)
{
    for (const sha256::Row& impl : impls) {
        ImplRow row;
        static_cast<sha256::Row&>(row) = impl;
        row.family = family;
        row.selected = impl.name == selected;
        out.push_back(row);
    }
}

//! The rows of -list-impls that lead on a CPU whose SHA unit works on several
//! sha256rnds2 at once (the wide_sha column): those with an order rule on the
//! SHA-NI overlap.
bool WideSha(const sha256::Row& row);

//! What a benchmark file registers. `rows` must be cheap (it also serves
//! -list); `notes` may measure and is called only when tables are run.
struct Suite {
    const char* name;
    void (*rows)(std::vector<Bench>& out);
    void (*notes)(std::vector<Note>& out);
    void (*impls)(std::vector<ImplRow>& out);
};

struct Registrar {
    explicit Registrar(const Suite& suite);
};

//! How a row that is not run reads: "not run: <reason>", or the reason alone
//! when it already says so ("not built (needs an aarch64 host)").
inline std::string NotRunText(const std::string& reason)
{
    return reason.rfind("not ", 0) == 0 ? reason : "not run: " + reason;
}

//! Every registered benchmark, in registration order.
std::vector<Bench> AllBenchmarks();
//! Every suite's notes (may take a moment: some are measured).
std::vector<Note> AllNotes();
//! Every registry row of every suite, in registry order.
std::vector<ImplRow> AllImplementations();
//! For each probe of the CPU model that rows' order rules use: its reading
//! with its reason (cpu::Describe) and which rows lead because of it.
std::vector<Note> OrderNotes(const std::vector<ImplRow>& impls);

struct Options {
    std::string filter{".*"};
    uint64_t min_time_ms{500};
    int rounds{10};
    bool sanity_check{false};
    int threads{1};          //!< -threads: every row also runs on this many threads at once
    int place{-1};           //!< -place: each row's output this far into a page of its own (SetOutputPlace)
    std::string output_csv;
    std::string output_json;
};

//! The CPUs this process may run on (sched_getaffinity), as "0-3,6", and their count.
std::string AffinityList(int* count);

//! Selection: the rows of one table that will be shown, in registration order.
struct Selection {
    std::string table;
    std::vector<const Bench*> rows;
};

//! Rows whose name matches `filter`, grouped by table in registration order;
//! a selected table always includes its baseline row (speed% needs it).
std::vector<Selection> Select(const std::vector<Bench>& all, const std::string& filter);

//! -list: the benchmarks a run with `filter` would run (its tables' baseline rows
//! included), one a line in registration order, with why a row would not run;
//! 1 after one line on stderr when the filter is invalid or matches nothing, as
//! a run refuses it.
int ListBenchmarks(const std::string& filter);

//! One row's measurement and the figures derived from it.
struct Result {
    const Bench* bench{nullptr};
    std::string status;              //!< "ok", "not run" or "failed"
    std::string reason;              //!< empty when ok
    std::vector<double> samples_ns;  //!< ns per op, one per round
    double median_ns{0}, min_ns{0}, max_ns{0};
    double spread_pct{0};            //!< every round lies within +-spread_pct of the median
    double mb_per_s{0};
    bool have_cycles{false};         //!< cycles_per_* and best_batch_* are meaningful
    double cycles_per_op{0}, cycles_per_byte{0};
    double best_batch_cycles_per_byte{0};
    double cycles_per_unit{0};       //!< cycles_per_op / units_per_op, when the row has a unit
    bool have_floor{false};          //!< floor_pct is meaningful (a SHA-NI or lane row, its unit measured)
    double floor_pct{0};             //!< the row's floor / cycles_per_unit, in %
    //! The readings the floor multiplies, in core cycles: the lowest of the
    //! start-up one and those after each of the row's slices. The interval
    //! is the SHA unit's or the lane width's; the latency, a lane row's.
    double floor_interval{0}, floor_latency{0};
    //! Those taken after each slice, one per round (the latency's: lane rows).
    std::vector<double> floor_interval_samples, floor_latency_samples;
    //! What bounds the floor: "sha-ni" (sha_rnds2_per_unit x rnds2 interval),
    //! "throughput" (lane ops x interval) or "latency" (lane chain x latency).
    std::string floor_bound;
    //! The one-add loop's core cycles an iteration beside this row: the
    //! median of those taken after each round's slice (0: none, e.g. no TSC).
    //! SHARED_CORE_LOOP or more: the core was shared while the row ran.
    double loop_iteration{0};
    //! The readings taken after each round's slice (none where the probe is
    //! not taken again: set by its environment variable, or no TSC).
    std::vector<double> loop_iteration_samples;
    bool have_speed{false};          //!< speed_pct is meaningful (the baseline ran)
    double speed_pct{0};
    int threads{1};                  //!< with -threads=N > 1: N, and the figures below
    std::vector<double> aggregate_samples_ns; //!< per round: wall time / (N x ops per thread)
    double aggregate_mb_per_s{0};    //!< all threads together, from the median round
    double efficiency_pct{0};        //!< aggregate / (N x one thread), from the medians
    bool measured() const { return !samples_ns.empty(); }
};

//! A one-add loop iteration of this many core cycles or more (1 where this
//! thread has its core alone) means another hardware thread used the core: a
//! row measured so is not this CPU's speed for one thread, and rows whose
//! work issues most densely (the vector lanes) lose the most.
constexpr double SHARED_CORE_LOOP = 1.25;

struct TableResult {
    std::string table;
    std::vector<Result> rows;
};

//! Runs everything that matches; returns the process exit code.
int RunAll(const Options& opts);

} // namespace benchmark

#endif
