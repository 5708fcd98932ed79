// SPDX-License-Identifier: MIT
#include <bench/bench.h>

#include <bench/clock.h>
#include <bench/machine.h>
#include <bench/output.h>
#include <bench/report.h>
#include <compat/cpu_model.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <map>
#include <memory>
#include <mutex>
#include <regex>
#include <set>
#include <thread>

#include <sched.h>
#include <sys/mman.h>
#include <unistd.h>

namespace benchmark {
namespace {

std::vector<Suite>& Suites()
{
    static std::vector<Suite> s;
    return s;
}

// Each round's slice is timed as a series of short batches (~20 us). The
// slice's time per op is the round's sample; the median sample feeds every
// column but one. The fastest batch over all rounds is the undisturbed speed
// (a 50 ms slice on a VM always includes timer interrupts and steal time),
// reported in its own column, "best cyc/B".
constexpr double BATCH_NS = 20000;

struct Timing {
    std::vector<double> ns_per_op; // one sample per round
    std::vector<double> aggregate_ns_per_op; // -threads=N: one sample per round
    double best_ticks_per_op{0};
    uint64_t batch_ops{1};
    uint64_t batches_per_slice{1};
    // A row with a floor: its readings after each slice, one per round.
    std::vector<double> floor_interval, floor_latency;
    // Every row: the one-add loop after each slice, one per round.
    std::vector<double> loop_iteration;
};

// A row's floor multiplies its counted operations by probe readings: the SHA
// unit's issue interval (a SHA-NI row), or its register width's interval and
// latency (a lane row). None where the row has no count, or the CPU model no
// reading, for them.
struct FloorProbes {
    bool sha{false}, lane{false};
    cpu::Probe interval{}, latency{};
};

FloorProbes FloorOf(const Bench& b, const ClockCalibration& clk)
{
    FloorProbes f;
    if (b.units_per_op == 0) return f;
    const int w = ClockCalibration::VecIndex(b.lane_register_bytes);
    if (b.sha_rnds2_per_unit > 0 && clk.rnds2_interval > 0) {
        f.sha = true;
        f.interval = cpu::Probe::Rnds2Interval;
    } else if (b.lane_ops_per_unit > 0 && w >= 0 && clk.vec_interval[w] > 0 && clk.vec_latency[w] > 0) {
        f.lane = true;
        f.interval = ClockCalibration::VecIntervalProbe(w);
        f.latency = ClockCalibration::VecLatencyProbe(w);
    }
    return f;
}

// A row's floor uses the lowest reading of each probe: the start-up one and
// the fastest of FLOOR_RUNS runs after each of its slices (~1 ms). An issue
// interval or a latency is the unit's; a higher reading is a moment when the
// core ran slow (its clock, the other vCPU, the host). Taken once at start-up,
// such a moment put every row of a run past its floor, which no kernel can
// be; the lowest of several can only put a row further from its floor than it
// is, by what the clock varies within the run.
constexpr int FLOOR_RUNS = 20;

// Whether the core was shared while a row ran: the one-add loop, the fastest
// of LOOP_RUNS runs (~0.1 ms) right after each of its slices. A second
// hardware thread busy on the core slows the loop for as long as it runs;
// the fastest of a few runs still shows it, a moment's pause of that thread
// does not hide it.
constexpr int LOOP_RUNS = 5;

// Sizes a row's batches (~BATCH_NS each) and slices (~slice_ns each).
void SizeBatches(const Bench& b, Timing& t, double slice_ns)
{
    uint64_t ops = 1;
    double per_op = 0;
    while (true) {
        if (b.setup) b.setup();
        const uint64_t t0 = NowNs();
        b.run(ops);
        const double dt = double(NowNs() - t0);
        if (dt >= 2e6 || ops >= (uint64_t(1) << 40)) {
            per_op = std::max(dt / ops, 0.1);
            break;
        }
        ops *= dt < 1e5 ? 8 : 2;
    }
    t.batch_ops = std::max<uint64_t>(1, uint64_t(BATCH_NS / per_op));
    t.batches_per_slice = std::max<uint64_t>(1, uint64_t(slice_ns / (per_op * t.batch_ops)));
}

double Median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// One slice on `threads` threads at once: the calling thread runs b.run, the
// others private closures from b.make_run (made before the start, so no thread
// allocates while another is timed). All start together; the sample is the
// wall time from the start to the last thread's end over all ops done.
double ThreadedSlice(const Bench& b, const Timing& t, int threads)
{
    const uint64_t ops = t.batches_per_slice * t.batch_ops;
    std::vector<std::function<void(uint64_t)>> runs;
    for (int i = 1; i < threads; ++i) runs.push_back(b.make_run());
    std::atomic<int> ready{0};
    std::atomic<bool> go{false};
    std::vector<uint64_t> end(threads, 0);
    std::vector<std::thread> pool;
    for (int i = 1; i < threads; ++i) {
        pool.emplace_back([&, i] {
            ready.fetch_add(1);
            while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
            runs[i - 1](ops);
            end[i] = NowNs();
        });
    }
    while (ready.load() < threads - 1) std::this_thread::yield();
    const uint64_t start = NowNs();
    go.store(true, std::memory_order_release);
    b.run(ops);
    end[0] = NowNs();
    for (auto& th : pool) th.join();
    const uint64_t last = *std::max_element(end.begin(), end.end());
    return double(last - start) / (double(ops) * threads);
}

// Measure: the live rows of one table in interleaved rounds, then each row's
// result check. Timings are indexed like `rows`. With -threads=N each row's
// turn in a round is a one-thread slice, then the same on N threads.
std::vector<Timing> MeasureTable(const Selection& sel, const Options& opts, int rounds, const ClockCalibration& clk)
{
    std::vector<Timing> timing(sel.rows.size());
    std::vector<size_t> live;
    for (size_t i = 0; i < sel.rows.size(); ++i) {
        if (sel.rows[i]->not_run.empty()) live.push_back(i);
    }
    if (!opts.sanity_check) {
        const double slice_ns = double(opts.min_time_ms) * 1e6 / rounds;
        for (size_t i : live) SizeBatches(*sel.rows[i], timing[i], slice_ns);
    }
    for (int round = 0; round < rounds; ++round) {
        std::fprintf(stderr, "[%s] round %d/%d ...\n", sel.table.c_str(), round + 1, rounds);
        // Rotate the order so no row always runs first (after a cold cache) or last.
        for (size_t k = 0; k < live.size(); ++k) {
            const size_t i = live[(k + round) % live.size()];
            const Bench& b = *sel.rows[i];
            Timing& t = timing[i];
            if (b.setup) b.setup();
            const uint64_t n0 = NowNs();
            for (uint64_t n = 0; n < t.batches_per_slice; ++n) {
                const uint64_t t0 = Ticks();
                b.run(t.batch_ops);
                const double per_op = double(Ticks() - t0) / t.batch_ops;
                if (t.best_ticks_per_op == 0 || per_op < t.best_ticks_per_op) t.best_ticks_per_op = per_op;
            }
            t.ns_per_op.push_back(double(NowNs() - n0) / (t.batches_per_slice * t.batch_ops));
            const FloorProbes f = FloorOf(b, clk);
            if (f.sha || f.lane) t.floor_interval.push_back(cpu::Remeasure(f.interval, FLOOR_RUNS));
            if (f.lane) t.floor_latency.push_back(cpu::Remeasure(f.latency, FLOOR_RUNS));
            t.loop_iteration.push_back(cpu::Remeasure(cpu::Probe::LoopIteration, LOOP_RUNS));
            if (opts.threads > 1 && b.make_run) t.aggregate_ns_per_op.push_back(ThreadedSlice(b, t, opts.threads));
        }
    }
    return timing;
}

// Every derived figure from the median of rounds (except the labelled best batch).
TableResult Derive(const Selection& sel, std::vector<Timing> timing, const ClockCalibration& clk, int threads)
{
    TableResult out;
    out.table = sel.table;
    const double core_per_ns = clk.core_hz / 1e9;
    for (size_t i = 0; i < sel.rows.size(); ++i) {
        const Bench& b = *sel.rows[i];
        Result r;
        r.bench = &b;
        if (!b.not_run.empty()) {
            r.status = "not run";
            r.reason = b.not_run;
            out.rows.push_back(std::move(r));
            continue;
        }
        const std::string wrong = b.check ? b.check() : "";
        r.status = wrong.empty() ? "ok" : "failed";
        r.reason = wrong;
        r.samples_ns = std::move(timing[i].ns_per_op);
        r.median_ns = Median(r.samples_ns);
        r.min_ns = *std::min_element(r.samples_ns.begin(), r.samples_ns.end());
        r.max_ns = *std::max_element(r.samples_ns.begin(), r.samples_ns.end());
        r.spread_pct = r.median_ns > 0 ? std::max(r.max_ns - r.median_ns, r.median_ns - r.min_ns) / r.median_ns * 100 : 0;
        r.mb_per_s = r.median_ns > 0 ? double(b.bytes_per_op) / r.median_ns * 1e3 : 0;
        if (clk.core_hz > 0 && b.bytes_per_op > 0) {
            r.have_cycles = true;
            r.cycles_per_op = r.median_ns * core_per_ns;
            r.cycles_per_byte = r.cycles_per_op / double(b.bytes_per_op);
            r.best_batch_cycles_per_byte = timing[i].best_ticks_per_op * clk.core_per_tick() / double(b.bytes_per_op);
            if (b.units_per_op > 0) r.cycles_per_unit = r.cycles_per_op / double(b.units_per_op);
            // floor%: the row's counts x its lowest readings, over its cycles.
            const FloorProbes f = FloorOf(b, clk);
            Timing& t = timing[i];
            const auto lowest = [](double start, const std::vector<double>& again) {
                double low = start;
                for (double x : again) low = x > 0 ? std::min(low, x) : low;
                return low;
            };
            if ((f.sha || f.lane) && r.cycles_per_unit > 0) {
                const int w = ClockCalibration::VecIndex(b.lane_register_bytes);
                r.floor_interval = lowest(f.sha ? clk.rnds2_interval : clk.vec_interval[w], t.floor_interval);
                r.floor_latency = f.lane ? lowest(clk.vec_latency[w], t.floor_latency) : 0;
                r.floor_interval_samples = std::move(t.floor_interval);
                r.floor_latency_samples = std::move(t.floor_latency);
                const double issue = (f.sha ? b.sha_rnds2_per_unit : b.lane_ops_per_unit) * r.floor_interval;
                const double chain = b.lane_chain_per_unit * r.floor_latency;
                r.have_floor = true;
                r.floor_pct = std::max(issue, chain) / r.cycles_per_unit * 100;
                r.floor_bound = f.sha ? "sha-ni" : issue >= chain ? "throughput" : "latency";
            }
        }
        // The loop's median over the row's rounds; the start-up reading where
        // it was not taken again (0: set by its environment variable, or absent).
        for (double x : timing[i].loop_iteration) {
            if (x > 0) r.loop_iteration_samples.push_back(x);
        }
        r.loop_iteration = r.loop_iteration_samples.empty() ? cpu::Read(cpu::Probe::LoopIteration).value
                                                            : Median(r.loop_iteration_samples);
        r.threads = threads;
        if (threads > 1 && !timing[i].aggregate_ns_per_op.empty()) {
            r.aggregate_samples_ns = std::move(timing[i].aggregate_ns_per_op);
            const double agg = Median(r.aggregate_samples_ns);
            r.aggregate_mb_per_s = agg > 0 ? double(b.bytes_per_op) / agg * 1e3 : 0;
            r.efficiency_pct = agg > 0 ? r.median_ns / (threads * agg) * 100 : 0;
        }
        out.rows.push_back(std::move(r));
    }
    double base_ns = 0;
    for (const Result& r : out.rows) {
        if (r.bench->baseline && r.status == "ok") base_ns = r.median_ns;
    }
    for (Result& r : out.rows) {
        if (base_ns > 0 && r.measured() && r.median_ns > 0) {
            r.have_speed = true;
            r.speed_pct = base_ns / r.median_ns * 100;
        }
    }
    return out;
}

} // namespace

namespace {
int g_output_place = -1; // -place (Options::place)
size_t PlacedLength(size_t size)
{
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    return (static_cast<size_t>(g_output_place) + size + page - 1) / page * page;
}
} // namespace

void SetOutputPlace(int offset) { g_output_place = offset; }
int OutputPlace() { return g_output_place; }

void* PlacedAlloc(size_t size)
{
    void* m = mmap(nullptr, PlacedLength(size), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return m == MAP_FAILED ? nullptr : static_cast<unsigned char*>(m) + g_output_place;
}

void PlacedFree(void* p, size_t size)
{
    munmap(static_cast<unsigned char*>(p) - g_output_place, PlacedLength(size));
}

std::string AffinityList(int* count)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    std::string out;
    int n = 0;
    if (sched_getaffinity(0, sizeof(set), &set) != 0) {
        const unsigned hw = std::thread::hardware_concurrency();
        if (count) *count = hw ? static_cast<int>(hw) : 1;
        return "unknown";
    }
    for (int c = 0; c < CPU_SETSIZE; ++c) {
        if (!CPU_ISSET(c, &set)) continue;
        int e = c;
        while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, &set)) ++e;
        out += (out.empty() ? "" : ",") + std::to_string(c) + (e > c ? "-" + std::to_string(e) : "");
        n += e - c + 1;
        c = e;
    }
    if (count) *count = n;
    return out;
}

namespace {

std::string UtcNow()
{
    const std::time_t now = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&now, &tm);
    char buf[32];
    std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

} // namespace

Registrar::Registrar(const Suite& suite) { Suites().push_back(suite); }

std::vector<Bench> AllBenchmarks()
{
    std::vector<Bench> all;
    for (const auto& s : Suites()) {
        if (s.rows) s.rows(all);
    }
    return all;
}

std::vector<Note> AllNotes()
{
    std::vector<Note> notes;
    for (const auto& s : Suites()) {
        if (s.notes) s.notes(notes);
    }
    return notes;
}

namespace {
// "3", "1.7": a threshold as its row declares it.
std::string Threshold(double t)
{
    char s[32];
    std::snprintf(s, sizeof(s), "%g", t);
    return s;
}
} // namespace

std::vector<Note> OrderNotes(const std::vector<ImplRow>& impls)
{
    std::vector<Note> notes;
    for (int i = 0; i < cpu::PROBE_COUNT; ++i) {
        const auto probe = static_cast<cpu::Probe>(i);
        // The thresholds rows declare on this probe, and what they do now.
        std::set<double> thresholds;
        std::vector<std::pair<std::string, std::string>> moves; // "in <family>: rows", target
        for (const ImplRow& row : impls) {
            for (const sha256::Lead& l : row.leads) {
                if (l.probe == probe) thresholds.insert(l.at_least);
            }
            const sha256::Lead* rule = sha256::Placing(row.leads);
            if (!rule || rule->probe != probe) continue;
            const std::string target = rule->ahead_of ? "the " + cpu::FeatureNames(rule->ahead_of) + " rows" : "every row";
            const std::string where = row.family + "\t" + target;
            auto it = std::find_if(moves.begin(), moves.end(), [&](const auto& m) { return m.first == where; });
            if (it == moves.end()) {
                moves.emplace_back(where, row.name);
            } else {
                it->second += ", " + row.name;
            }
        }
        if (thresholds.empty()) continue;
        const double value = cpu::Read(probe).value;
        std::string text = cpu::Describe(probe) + "; ";
        if (cpu::Read(probe).source != cpu::Source::Absent) {
            auto above = thresholds.upper_bound(value);
            if (above == thresholds.begin()) {
                text += "below " + Threshold(*above);
            } else {
                text += "at least " + Threshold(*std::prev(above));
                if (above != thresholds.end()) text += ", below " + Threshold(*above);
            }
            text += ", so ";
        }
        if (moves.empty()) text += "the listed orders";
        for (size_t m = 0; m < moves.size(); ++m) {
            const size_t tab = moves[m].first.find('\t');
            const bool one = moves[m].second.find(',') == std::string::npos;
            text += (m ? "; " : "") + moves[m].first.substr(0, tab) + ": " + moves[m].second + (one ? " leads " : " lead ") +
                    moves[m].first.substr(tab + 1);
        }
        notes.push_back({cpu::Info(probe).name, text, ""});
    }
    return notes;
}

std::vector<ImplRow> AllImplementations()
{
    std::vector<ImplRow> rows;
    for (const auto& s : Suites()) {
        if (s.impls) s.impls(rows);
    }
    return rows;
}

std::vector<Selection> Select(const std::vector<Bench>& all, const std::string& filter)
{
    const std::regex re(filter); // throws std::regex_error; RunAll reports it
    std::vector<Selection> tables;
    std::map<std::string, size_t> index;
    for (const auto& b : all) {
        if (!std::regex_search(b.name, re)) continue;
        if (!index.count(b.table)) {
            index[b.table] = tables.size();
            tables.push_back({b.table, {}});
        }
        tables[index[b.table]].rows.push_back(&b);
    }
    // speed% needs the baseline: a selected table always shows its baseline row, first.
    for (const auto& b : all) {
        if (!b.baseline || !index.count(b.table)) continue;
        auto& rows = tables[index[b.table]].rows;
        if (std::find(rows.begin(), rows.end(), &b) == rows.end()) rows.insert(rows.begin(), &b);
    }
    return tables;
}

namespace {

// "<subject> 1.2 a block <where>" for a cost one timing minus another. A
// difference that cannot be below zero (the first timing holds the second's
// work, or a cheaper form of it) and reads below is the two timings' noise,
// and says so with its size instead of printing a negative cost.
std::string CostBeside(double cost, const char* subject, const char* where)
{
    char text[200];
    if (cost >= -0.05) { // prints as 0.0 or more
        std::snprintf(text, sizeof(text), "%s %.1f a block %s", subject, std::max(cost, 0.0), where);
    } else {
        std::snprintf(text, sizeof(text), "%s nothing measurable %s (%.1f less is the two timings' noise)", subject,
                      where, -cost);
    }
    return text;
}

// std::regex backtracks: a pattern such as (.*.*)*X ran for over 40 s over the
// benchmark names, with nothing printed. A real filter takes milliseconds, so
// past this the run stops and says why (nothing is open or measured yet).
constexpr int FILTER_SECONDS = 3;

// Runs Select() under that limit; returns "" or the error.
std::string SelectBounded(const std::vector<Bench>& all, const std::string& filter, std::vector<Selection>& out)
{
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    std::thread watchdog([&] {
        std::unique_lock<std::mutex> lock(m);
        if (cv.wait_for(lock, std::chrono::seconds(FILTER_SECONDS), [&] { return done; })) return;
        std::fprintf(stderr, "Error: -filter=%s: still matching the %zu benchmark names after %d s (a pattern that "
                             "can match the same text in very many ways, such as (.*)*X, backtracks for a very long "
                             "time); simplify it\n",
                     Printable(filter).c_str(), all.size(), FILTER_SECONDS);
        std::fflush(stderr);
        std::_Exit(1);
    });
    struct Stop { // also when Select throws something other than regex_error
        std::mutex& m;
        std::condition_variable& cv;
        bool& done;
        std::thread& t;
        ~Stop()
        {
            {
                std::lock_guard<std::mutex> lock(m);
                done = true;
            }
            cv.notify_one();
            t.join();
        }
    } stop{m, cv, done, watchdog};
    try {
        out = Select(all, filter);
    } catch (const std::regex_error& e) {
        return "-filter=" + Printable(filter) + " is not a valid regular expression (" + e.what() + ")";
    }
    return "";
}

} // namespace

namespace {
// The selection of `filter`, or false after saying on stderr why there is none
// (an invalid or runaway regex, or one that matches nothing): -list and a run
// refuse the same filters with the same words.
bool SelectOrSay(const std::vector<Bench>& all, const std::string& filter, std::vector<Selection>& selection)
{
    const std::string error = SelectBounded(all, filter, selection);
    if (!error.empty()) {
        std::fprintf(stderr, "Error: %s\n", error.c_str());
        return false;
    }
    if (selection.empty()) {
        std::fprintf(stderr, "Error: -filter=%s matches no benchmark (see -list)\n", Printable(filter).c_str());
        return false;
    }
    return true;
}
} // namespace

int ListBenchmarks(const std::string& filter)
{
    const std::vector<Bench> all = AllBenchmarks();
    std::vector<Selection> selection;
    if (!SelectOrSay(all, filter, selection)) return 1;
    std::set<const Bench*> selected;
    for (const auto& table : selection) selected.insert(table.rows.begin(), table.rows.end());
    for (const auto& b : all) { // registration order, as without -filter
        if (!selected.count(&b)) continue;
        std::printf("%s%s%s\n", b.name.c_str(), b.not_run.empty() ? "" : "  # ",
                    b.not_run.empty() ? "" : NotRunText(b.not_run).c_str());
    }
    return std::fflush(stdout) == 0 ? 0 : 1;
}

int RunAll(const Options& opts)
{
    // Select (the rows' outputs are made now: where -place says).
    SetOutputPlace(opts.place);
    const std::vector<Bench> all = AllBenchmarks();
    std::vector<Selection> selection;
    if (!SelectOrSay(all, opts.filter, selection)) return 1;

    // Output files are reserved before anything is measured: a bad path fails now.
    if (!opts.output_csv.empty() && !opts.output_json.empty() && SameFile(opts.output_csv, opts.output_json)) {
        std::fprintf(stderr, "Error: -output-csv and -output-json name the same file (%s)\n", opts.output_csv.c_str());
        return 1;
    }
    struct Output {
        std::string option, path;
        std::unique_ptr<OutputFile> file;
    };
    std::vector<Output> outputs;
    if (!opts.output_csv.empty()) outputs.push_back({"-output-csv", opts.output_csv, std::make_unique<OutputFile>()});
    if (!opts.output_json.empty()) outputs.push_back({"-output-json", opts.output_json, std::make_unique<OutputFile>()});
    for (auto& o : outputs) {
        const std::string err = o.file->Open(o.option, o.path);
        if (!err.empty()) {
            std::fprintf(stderr, "Error: %s\n", err.c_str());
            return 1;
        }
    }

    RunInfo info;
    info.sanity_check = opts.sanity_check;
    info.date = UtcNow();
    info.filter = opts.filter;
    info.min_time_ms = opts.min_time_ms;
    info.rounds = opts.sanity_check ? 1 : opts.rounds;
    info.threads = opts.threads;
    info.place = opts.place;
    info.cpus = AffinityList(nullptr);
    info.machine = DescribeMachine(MeasureClock());
    info.build = DescribeBuild();
    info.impls = AllImplementations();
    info.notes = AllNotes();
    // Why the orders of preference are what they are on this CPU: each
    // reading the rows' order rules use, and what those rules do with it.
    for (Note& n : OrderNotes(info.impls)) info.notes.push_back(std::move(n));
    {
        // The lane rows' floor: per register width, what the vector unit
        // takes for a dependent operation and for one of a round's mix.
        const ClockCalibration& c = info.machine.clock;
        std::string widths, missing;
        for (int w = 0; w < 3; ++w) {
            const int bits = 128 << w;
            char part[160];
            if (c.vec_latency[w] > 0 && c.vec_interval[w] > 0) {
                std::snprintf(part, sizeof(part), "%s%d-bit: %.2f cycles a dependent operation, one every %.3f in a round's mix",
                              widths.empty() ? "" : "; ", bits, c.vec_latency[w], c.vec_interval[w]);
                widths += part;
            } else {
                missing += (missing.empty() ? "" : ", ") + std::to_string(bits) + "-bit";
            }
        }
        if (widths.empty()) {
            info.notes.push_back({"Lane floor", "not measured on this CPU (no x86-64 TSC): lane rows have no floor%", ""});
        } else {
            info.notes.push_back({"Lane floor",
                                  widths + ". A lane row's floor is the larger of its counted vector operations x the "
                                           "interval (T: the issue rate bounds it) and its longest chain of dependent ones "
                                           "x the latency (L: the chain does); floor% = that / its cycles, each reading the lowest of this one "
                                           "and those taken after each of the row's slices" +
                                      (missing.empty() ? std::string() : "; not measured here: " + missing + " (rows of that width have no floor)"),
                                  ""});
        }
    }
    if (info.machine.clock.rnds2_latency > 0) {
        // One message is a chain: 64 rounds = 32 dependent sha256rnds2 per block.
        const ClockCalibration& c = info.machine.clock;
        char line[400];
        std::snprintf(line, sizeof(line),
                      "sha256rnds2 latency %.2f core cycles -> 32 x %.2f / 64 = %.3f cycles/byte for one message; "
                      "the SHA unit takes one every %.2f cycles (12 independent chains), so a row's floor is its "
                      "sha256rnds2 x %.2f, or the lowest reading taken after each of its slices (floor%% = that / "
                      "its cycles)",
                      c.rnds2_latency, c.rnds2_latency, 32 * c.rnds2_latency / 64, c.rnds2_interval, c.rnds2_interval);
        info.notes.push_back({"SHA-NI floor", line, ""});
        if (c.block_mix > 0) {
            // The mix holds the rounds, so it cannot take less than they do.
            const std::string verdict = CostBeside(c.block_mix - 32 * c.rnds2_interval, "so the schedule costs",
                                                   "beside them");
            std::snprintf(line, sizeof(line),
                          "a block that needs its message schedule is 32 sha256rnds2, 12 sha256msg1, 12 sha256msg2, "
                          "28 paddd and 32 shuffles in a SHA-NI stream kernel; as independent work they take %.1f "
                          "cycles, the rounds alone %.1f, %s",
                          c.block_mix, 32 * c.rnds2_interval, verdict.c_str());
            info.notes.push_back({"SHA-NI block mix", line, ""});
        }
        if (c.stream_block > 0 && c.stream_block_msg2_add > 0) {
            // An add is no slower than sha256msg2 in its place (both one
            // operation on the same registers).
            const std::string verdict = CostBeside(c.stream_block - c.stream_block_msg2_add, "sha256msg2 costs",
                                                   "beyond an add there");
            std::snprintf(line, sizeof(line),
                          "four streams running that block with a stream kernel's dependencies (each stream's "
                          "rounds and schedule chained) take %.1f cycles a block, %.1f with every sha256msg2 an add "
                          "on the same registers: %s",
                          c.stream_block, c.stream_block_msg2_add, verdict.c_str());
            info.notes.push_back({"SHA-NI stream block", line, ""});
        }
    }
    WriteMarkdownHeader(stdout, info);

    // Measure, printing each table as it completes.
    std::vector<TableResult> results;
    int failures = 0;
    std::string failed; // which rows, and why: the error line names them
    for (const auto& sel : selection) {
        results.push_back(Derive(sel, MeasureTable(sel, opts, info.rounds, info.machine.clock), info.machine.clock,
                                 opts.threads));
        for (const Result& r : results.back().rows) {
            if (r.status != "failed") continue;
            ++failures;
            failed += (failed.empty() ? ": " : "; ") + r.bench->name + " (" + r.reason + ")";
        }
        WriteMarkdownTable(stdout, results.back(), info.machine.emulated);
    }

    // Report to files: every file written and closed before any is renamed into place.
    for (auto& o : outputs) {
        const std::string text = o.option == "-output-csv" ? CsvText(results) : JsonText(info, results);
        const std::string err = o.file->Write(text);
        if (!err.empty()) {
            std::fprintf(stderr, "Error: %s\n", err.c_str());
            return 1;
        }
    }
    for (auto& o : outputs) {
        const std::string err = o.file->Commit();
        if (!err.empty()) {
            std::fprintf(stderr, "Error: %s\n", err.c_str());
            return 1;
        }
        std::fprintf(stderr, "Wrote %s\n", o.path.c_str());
    }
    if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
        std::fprintf(stderr, "Error: writing the tables to standard output failed\n");
        return 1;
    }
    if (failures) {
        std::fprintf(stderr, "Error: %d benchmark(s) produced a wrong result%s\n", failures, failed.c_str());
        return 1;
    }
    return 0;
}

void SetLaneCount(Bench& b, const std::string& name, sha256::kernel::Shape shape, double calls_per_unit,
                  double second_per_unit)
{
    using sha256::kernel::Shape;
    const auto count = [&name](Shape s) {
        const size_t i = sha256::kernel::Lookup(name.c_str(), s);
        const sha256::kernel::Kernel* k = i < sha256::kernel::KERNEL_COUNT ? &sha256::kernel::KERNELS[i] : nullptr;
        // Only where the CPU runs the kernel: the count is compiled with its file's flags.
        const bool runs = k && k->Built() && k->count && (cpu::Features() & k->needs) == k->needs;
        return runs ? k->count(s) : sha256::kernel::OpCount{};
    };
    const sha256::kernel::OpCount first = count(shape);
    if (first.ops <= 0) return;
    sha256::kernel::OpCount second = count(Shape::Hash32);
    if (second.ops <= 0) second = count(Shape::Jobs);
    if (second.ops <= 0) second = count(Shape::Lanes);
    if (second_per_unit > 0 && second.ops <= 0) return;
    // A call's chain is its own: calls run one after another.
    b.lane_ops_per_unit = calls_per_unit * first.ops + second_per_unit * second.ops;
    b.lane_chain_per_unit = calls_per_unit * first.chain + second_per_unit * second.chain;
    b.lane_register_bytes = first.register_bytes;
}

} // namespace benchmark
