#include <bench/bench.h>

#include <bench/clock.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>

namespace benchmark {
namespace {

std::vector<std::pair<std::string, Generator>>& Generators()
{
    static std::vector<std::pair<std::string, Generator>> g;
    return g;
}

// Each round's slice is timed as a series of short batches (~20 us): the
// slice's average feeds avg/min/max, MB/s and speed%; the fastest batch over
// all rounds is the undisturbed speed, which cycles/byte reports (a 50 ms
// slice on a VM always includes timer interrupts and steal time).
constexpr double BATCH_NS = 20000;

struct Row {
    explicit Row(const Bench* b) : bench(b) {}
    const Bench* bench;
    std::vector<double> ns_per_op; // one sample per round
    double best_ticks_per_op{0};
    uint64_t batch_ops{1};
    uint64_t batches_per_slice{1};
    std::string failure;
};

double Mean(const std::vector<double>& v)
{
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? 0 : s / v.size();
}

std::string FormatNs(double ns)
{
    char buf[32];
    if (ns >= 1e6) std::snprintf(buf, sizeof(buf), "%.3f ms", ns / 1e6);
    else if (ns >= 1e3) std::snprintf(buf, sizeof(buf), "%.2f us", ns / 1e3);
    else std::snprintf(buf, sizeof(buf), "%.1f ns", ns);
    return buf;
}

std::string Fixed(double v, int digits)
{
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.*f", digits, v);
    return buf;
}

std::string JsonEscape(const std::string& s)
{
    std::string o;
    for (char c : s) {
        if (c == '"' || c == '\\') o += '\\';
        if (static_cast<unsigned char>(c) < 0x20) { o += ' '; continue; }
        o += c;
    }
    return o;
}

// Sizes a row's batches (~BATCH_NS each) and slices (~slice_ns each).
void Calibrate(Row& r, double slice_ns)
{
    const Bench& b = *r.bench;
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
    r.batch_ops = std::max<uint64_t>(1, uint64_t(BATCH_NS / per_op));
    r.batches_per_slice = std::max<uint64_t>(1, uint64_t(slice_ns / (per_op * r.batch_ops)));
}

} // namespace

Registrar::Registrar(const char* name, Generator g) { Generators().emplace_back(name, g); }

std::vector<Bench> AllBenchmarks()
{
    std::vector<Bench> all;
    for (const auto& [name, gen] : Generators()) gen(all);
    return all;
}

std::vector<std::string>& HeaderLines()
{
    static std::vector<std::string> lines;
    return lines;
}

int RunAll(const Options& opts)
{
    std::regex filter;
    try {
        filter = std::regex(opts.filter);
    } catch (const std::regex_error& e) {
        std::fprintf(stderr, "Error: -filter=%s is not a valid regular expression (%s)\n", opts.filter.c_str(), e.what());
        return 1;
    }
    const std::vector<Bench> all = AllBenchmarks();

    // Group the selected rows by table, keeping registration order.
    std::vector<std::string> tables;
    std::map<std::string, std::vector<Row>> rows;
    for (const auto& b : all) {
        if (!std::regex_search(b.name, filter)) continue;
        if (!rows.count(b.table)) tables.push_back(b.table);
        rows[b.table].emplace_back(&b);
    }
    // speed% needs the baseline: a selected table always runs its 100% row.
    for (const auto& b : all) {
        if (!b.baseline || !rows.count(b.table)) continue;
        auto& trows = rows[b.table];
        if (std::none_of(trows.begin(), trows.end(), [&](const Row& r) { return r.bench == &b; })) {
            trows.insert(trows.begin(), Row(&b));
        }
    }
    if (tables.empty()) {
        std::fprintf(stderr, "Error: -filter=%s matches no benchmark (see -list)\n", opts.filter.c_str());
        return 1;
    }

    const ClockCalibration clk = Calibrate();
    const bool cycles = clk.core_hz > 0;
    const int rounds = opts.sanity_check ? 1 : opts.rounds;
    const double slice_ns = opts.sanity_check ? 0 : double(opts.min_time_ms) * 1e6 / rounds;

    for (const auto& line : HeaderLines()) std::printf("%s\n", line.c_str());
    if (cycles) {
        std::printf("Clock: TSC %.3f GHz; core %.3f GHz measured with a dependent-add loop (1 add = 1 core cycle); "
                    "cycles/byte = TSC ticks x %.4f core cycles per tick, from the fastest ~20 us batch "
                    "(no hardware cycle counter used)\n",
                    clk.tsc_hz / 1e9, clk.core_hz / 1e9, clk.core_per_tick());
    } else {
        std::printf("Clock: no cycle counter on this architecture; cycles/byte not reported\n");
    }
    if (opts.sanity_check) {
        std::printf("Mode: -sanity-check (each benchmark runs one op and checks its result; timings are not meaningful)\n");
    } else {
        std::printf("Mode: %d interleaved rounds per table, %llu ms per benchmark (-min-time), row order rotated each round\n",
                    rounds, (unsigned long long)opts.min_time_ms);
    }
    std::printf("\n");
    std::fflush(stdout);

    int failures = 0;
    std::ostringstream csv, json;
    csv << "table,name,impl,status,rounds,avg_ns,min_ns,max_ns,mb_per_s,cycles_per_byte,speed_pct\n";
    json << "{\n  \"header\": [";
    for (size_t i = 0; i < HeaderLines().size(); ++i) json << (i ? ", " : "") << "\"" << JsonEscape(HeaderLines()[i]) << "\"";
    json << "],\n  \"tsc_ghz\": " << Fixed(clk.tsc_hz / 1e9, 4) << ",\n  \"core_ghz\": " << Fixed(clk.core_hz / 1e9, 4)
         << ",\n  \"rounds\": " << rounds << ",\n  \"min_time_ms\": " << opts.min_time_ms << ",\n  \"results\": [";
    bool first_json = true;

    for (const auto& table : tables) {
        auto& trows = rows[table];
        std::vector<Row*> live;
        for (auto& r : trows) {
            if (r.bench->not_run.empty()) live.push_back(&r);
        }
        if (!opts.sanity_check) {
            for (Row* r : live) Calibrate(*r, slice_ns);
        }
        for (int round = 0; round < rounds; ++round) {
            std::fprintf(stderr, "[%s] round %d/%d ...\n", table.c_str(), round + 1, rounds);
            // Rotate the order so no row always runs first (after a cold cache) or last.
            for (size_t k = 0; k < live.size(); ++k) {
                Row* r = live[(k + round) % live.size()];
                if (r->bench->setup) r->bench->setup();
                const uint64_t n0 = NowNs();
                for (uint64_t i = 0; i < r->batches_per_slice; ++i) {
                    const uint64_t t0 = Ticks();
                    r->bench->run(r->batch_ops);
                    const double per_op = double(Ticks() - t0) / r->batch_ops;
                    if (r->best_ticks_per_op == 0 || per_op < r->best_ticks_per_op) r->best_ticks_per_op = per_op;
                }
                r->ns_per_op.push_back(double(NowNs() - n0) / (r->batches_per_slice * r->batch_ops));
            }
        }
        for (Row* r : live) {
            if (r->bench->check) r->failure = r->bench->check();
            if (!r->failure.empty()) ++failures;
        }

        double base_ns = 0;
        for (const auto& r : trows) {
            if (r.bench->baseline && r.bench->not_run.empty()) base_ns = Mean(r.ns_per_op);
        }
        std::printf("### %s\n\n", table.c_str());
        std::printf("| Impl | avg | min | max | MB/s | cycles/byte | speed%% |\n");
        std::printf("|------|----:|----:|----:|-----:|------------:|-------:|\n");
        for (const auto& r : trows) {
            const Bench& b = *r.bench;
            std::string status = "ok";
            if (!b.not_run.empty()) {
                std::printf("| %s | - | - | - | - | - | %s |\n", b.impl.c_str(), b.not_run.c_str());
                status = "not run: " + b.not_run;
            } else {
                const double avg = Mean(r.ns_per_op);
                const double mn = *std::min_element(r.ns_per_op.begin(), r.ns_per_op.end());
                const double mx = *std::max_element(r.ns_per_op.begin(), r.ns_per_op.end());
                const double mbs = b.bytes_per_op / avg * 1e3;
                const double cpb = cycles ? r.best_ticks_per_op * clk.core_per_tick() / b.bytes_per_op : 0;
                const double speed = base_ns > 0 ? base_ns / avg * 100 : 0;
                std::printf("| %s | %s | %s | %s | %s | %s | %s |%s\n", b.impl.c_str(), FormatNs(avg).c_str(),
                            FormatNs(mn).c_str(), FormatNs(mx).c_str(), Fixed(mbs, 1).c_str(),
                            cycles ? Fixed(cpb, 2).c_str() : "n/a", base_ns > 0 ? Fixed(speed, 1).c_str() : "n/a",
                            r.failure.empty() ? "" : (" WRONG RESULT: " + r.failure).c_str());
                if (!r.failure.empty()) status = "wrong result: " + r.failure;
                csv << '"' << table << "\"," << b.name << ',' << b.impl << ",\"" << status << "\"," << rounds << ','
                    << Fixed(avg, 3) << ',' << Fixed(mn, 3) << ',' << Fixed(mx, 3) << ',' << Fixed(mbs, 3) << ','
                    << (cycles ? Fixed(cpb, 4) : "") << ',' << (base_ns > 0 ? Fixed(speed, 2) : "") << '\n';
                json << (first_json ? "\n" : ",\n") << "    {\"table\": \"" << JsonEscape(table) << "\", \"name\": \""
                     << JsonEscape(b.name) << "\", \"impl\": \"" << JsonEscape(b.impl) << "\", \"status\": \""
                     << JsonEscape(status) << "\", \"bytes_per_op\": " << b.bytes_per_op << ", \"avg_ns\": "
                     << Fixed(avg, 3) << ", \"min_ns\": " << Fixed(mn, 3) << ", \"max_ns\": " << Fixed(mx, 3)
                     << ", \"mb_per_s\": " << Fixed(mbs, 3) << ", \"cycles_per_byte\": "
                     << (cycles ? Fixed(cpb, 4) : "null") << ", \"speed_pct\": "
                     << (base_ns > 0 ? Fixed(speed, 2) : "null") << "}";
                first_json = false;
                continue;
            }
            csv << '"' << table << "\"," << b.name << ',' << b.impl << ",\"" << status << "\",0,,,,,,\n";
            json << (first_json ? "\n" : ",\n") << "    {\"table\": \"" << JsonEscape(table) << "\", \"name\": \""
                 << JsonEscape(b.name) << "\", \"impl\": \"" << JsonEscape(b.impl) << "\", \"status\": \""
                 << JsonEscape(status) << "\"}";
            first_json = false;
        }
        std::printf("\n");
        std::fflush(stdout);
    }
    json << "\n  ]\n}\n";

    for (const auto& [path, text] : {std::make_pair(opts.output_csv, csv.str()), std::make_pair(opts.output_json, json.str())}) {
        if (path.empty()) continue;
        std::ofstream f(path);
        f << text;
        if (!f) {
            std::fprintf(stderr, "Error: cannot write %s\n", path.c_str());
            return 1;
        }
        std::fprintf(stderr, "Wrote %s\n", path.c_str());
    }
    if (failures) {
        std::fprintf(stderr, "Error: %d benchmark(s) produced a wrong result\n", failures);
        return 1;
    }
    return 0;
}

} // namespace benchmark
