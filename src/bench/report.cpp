// SPDX-License-Identifier: MIT
#include <bench/report.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace benchmark {
namespace {

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
    char buf[48];
    std::snprintf(buf, sizeof(buf), "%.*f", digits, v);
    return buf;
}

// JSON numbers with the digits that mean something (shortest repr after rounding).
double Round(double v, int digits)
{
    const double scale = std::pow(10.0, digits);
    return std::round(v * scale) / scale;
}

std::string Join(const std::vector<std::string>& v, const char* sep, const char* empty)
{
    if (v.empty()) return empty;
    std::string s;
    for (const auto& x : v) s += (s.empty() ? "" : sep) + x;
    return s;
}

// One field of a tab-separated line: no tab or newline inside.
std::string TsvField(const std::string& s)
{
    std::string o = s;
    for (char& c : o) {
        if (c == '\t' || c == '\n' || c == '\r') c = ' ';
    }
    return o;
}

// RFC 4180: every field quoted, quotes doubled.
std::string CsvField(const std::string& s)
{
    std::string o = "\"";
    for (char c : s) {
        if (c == '"') o += '"';
        o += c;
    }
    return o + "\"";
}

} // namespace

void WriteMarkdownHeader(std::FILE* f, const RunInfo& info)
{
    const Machine& m = info.machine;
    std::string cpu = "CPU: " + m.cpu;
    if (m.have_signature) {
        cpu += " (family " + std::to_string(m.family) + ", model " + std::to_string(m.model) + ", stepping " +
               std::to_string(m.stepping) + ")";
    }
    std::fprintf(f, "%s\n", cpu.c_str());
    std::fprintf(f, "CPU features: %s", Join(m.features, " ", "none").c_str());
    if (m.features != m.features_detected) {
        std::fprintf(f, " (detected: %s; the rest hidden by SHA256BENCH_HIDE_FEATURES)",
                     Join(m.features_detected, " ", "none").c_str());
    }
    std::fprintf(f, "\n");
    std::vector<std::string> flags;
    for (const auto& fl : {info.build.cppflags, info.build.cxxflags}) {
        if (!fl.empty()) flags.push_back(fl);
    }
    std::fprintf(f, "Compiler: %s (%s); flags: %s\n", info.build.compiler.c_str(), info.build.compiler_version.c_str(),
                 Join(flags, " ", "(none)").c_str());
    std::fprintf(f, "Assembler: %s\n", info.build.assembler.c_str());
    std::fprintf(f, "Commit: %s\n", info.build.commit.c_str());
    for (const auto& n : info.notes) std::fprintf(f, "%s: %s\n", n.label.c_str(), n.text.c_str());
    if (m.clock.core_hz > 0) {
        std::fprintf(f, "Clock: TSC %.3f GHz; core %.3f GHz measured with a dependent register-add loop (1 add = 1 core cycle); "
                        "cycles = time x core clock (no hardware cycle counter used)\n",
                     m.clock.tsc_hz / 1e9, m.clock.core_hz / 1e9);
    } else {
        std::fprintf(f, "Clock: no cycle counter on this architecture; cycles/byte not reported\n");
    }
    if (!m.emulated.empty()) {
        std::fprintf(f, "EMULATED CPU: %s. Timings under emulation are not measurements of any CPU; use this run "
                        "for correctness only\n", m.emulated.c_str());
    }
    if (info.threads > 1) {
        std::fprintf(f, "Threads: %d at once on CPUs %s (-threads): each row runs one slice on one thread, then the "
                        "same on %d threads over private outputs; aggregate MB/s = all threads together, efficiency = "
                        "aggregate / (%d x one thread)\n",
                     info.threads, info.cpus.c_str(), info.threads, info.threads);
    }
    if (info.place >= 0) {
        std::fprintf(f, "Placement: every row's output alone in a mapping of its own, %d bytes into its page (-place)\n",
                     info.place);
    }
    if (info.sanity_check) {
        std::fprintf(f, "Mode: -sanity-check (each benchmark runs one op and checks its result; timings are not meaningful)\n");
    } else {
        std::fprintf(f, "Mode: %d interleaved rounds per table, %llu ms per benchmark (-min-time), row order rotated each "
                        "round. median = median round; spread = every round within +-this of the median; MB/s, "
                        "cycles/byte and speed%% from the median; best cyc/B = fastest ~20 us batch of all rounds\n",
                     info.rounds, static_cast<unsigned long long>(info.min_time_ms));
    }
    std::fprintf(f, "\n");
    std::fflush(f);
}

void WriteMarkdownTable(std::FILE* f, const TableResult& t, const std::string& emulated)
{
    std::fprintf(f, "### %s%s\n\n", t.table.c_str(), emulated.empty() ? "" : " (EMULATED CPU: not measurements)");
    const int threads = t.rows.empty() ? 1 : t.rows.front().threads;
    // Tables whose op is a count of something (D64 inputs, transactions) add
    // cycles per one of them, the figure Bitcoin Core's reviewers compare.
    const std::string unit = t.rows.empty() ? "" : t.rows.front().bench->unit;
    // Tables with SHA-NI or lane rows add how close each runs to its floor
    // (lane rows: L where the chain bounds it, T where the issue rate does).
    bool floor = false;
    for (const Result& r : t.rows) floor |= r.have_floor;
    std::string head = "| Impl | median | spread | MB/s | cycles/byte |";
    std::string rule = "|------|-------:|-------:|-----:|------------:|";
    if (!unit.empty()) {
        head += " cycles/" + unit + " |";
        rule += std::string(unit.size() + 8, '-') + ":|";
    }
    if (floor) {
        head += " floor% |";
        rule += "-------:|";
    }
    head += " speed% | best cyc/B |";
    rule += "-------:|-----------:|";
    if (threads > 1) {
        head += " " + std::to_string(threads) + " threads: MB/s | efficiency |";
        rule += "-----:|-----:|";
    }
    std::fprintf(f, "%s\n%s\n", head.c_str(), rule.c_str());
    for (const Result& r : t.rows) {
        const char* impl = r.bench->impl.c_str();
        const std::string extra = threads <= 1 ? ""
                                  : r.aggregate_samples_ns.empty()
                                      ? " - | - |"
                                      : " " + Fixed(r.aggregate_mb_per_s, 1) + " | " + Fixed(r.efficiency_pct, 1) + "% |";
        if (!r.measured()) {
            std::fprintf(f, "| %s | - | - | - | - |%s%s %s | - |%s\n", impl, unit.empty() ? "" : " - |",
                         floor ? " - |" : "", NotRunText(r.reason).c_str(), extra.c_str());
            continue;
        }
        std::string per_unit =
            unit.empty() ? "" : " " + (r.have_cycles && r.bench->units_per_op > 0 ? Fixed(r.cycles_per_unit, 0) : "n/a") + " |";
        const std::string bound = r.floor_bound == "latency" ? " L" : r.floor_bound == "throughput" ? " T" : "";
        if (floor) per_unit += " " + (r.have_floor ? Fixed(r.floor_pct, 1) + "%" + bound : std::string("-")) + " |";
        std::fprintf(f, "| %s | %s | \xc2\xb1%s%% | %s | %s |%s %s | %s |%s%s\n", impl, FormatNs(r.median_ns).c_str(),
                     Fixed(r.spread_pct, 1).c_str(), Fixed(r.mb_per_s, 1).c_str(),
                     r.have_cycles ? Fixed(r.cycles_per_byte, 2).c_str() : "n/a", per_unit.c_str(),
                     r.have_speed ? Fixed(r.speed_pct, 1).c_str() : "n/a",
                     r.have_cycles ? Fixed(r.best_batch_cycles_per_byte, 2).c_str() : "n/a", extra.c_str(),
                     r.status == "ok" ? "" : (" WRONG RESULT: " + r.reason).c_str());
    }
    std::fprintf(f, "\n");
    // Rows measured while another hardware thread used the core.
    std::vector<const Result*> shared;
    size_t measured = 0, slices = 0, shared_slices = 0;
    for (const Result& r : t.rows) {
        if (!r.measured()) continue;
        ++measured;
        if (r.loop_iteration >= SHARED_CORE_LOOP) shared.push_back(&r);
        for (double x : r.loop_iteration_samples) ++slices, shared_slices += x >= SHARED_CORE_LOOP;
    }
    if (!shared.empty()) {
        // Every row, most rows (naming the others), or the few.
        double lo = shared.front()->loop_iteration, hi = lo;
        for (const Result* r : shared) lo = std::min(lo, r->loop_iteration), hi = std::max(hi, r->loop_iteration);
        const std::string range = Fixed(lo, 2) + (Fixed(hi, 2) != Fixed(lo, 2) ? "-" + Fixed(hi, 2) : "");
        std::string beside;
        if (shared.size() == measured) {
            beside = range + " beside every row";
        } else if (shared.size() * 2 > measured) {
            std::string but;
            for (const Result& r : t.rows) {
                if (r.measured() && r.loop_iteration < SHARED_CORE_LOOP) {
                    but += (but.empty() ? "" : ", ") + r.bench->impl + " at " + Fixed(r.loop_iteration, 2);
                }
            }
            beside = range + " beside every row but " + but;
        } else {
            for (const Result* r : shared) {
                beside += (beside.empty() ? "" : ", ") + Fixed(r->loop_iteration, 2) + " beside " + r->bench->impl;
            }
        }
        std::fprintf(f, "Shared core: a one-add loop's core cycles an iteration were %s (1 where this thread has the "
                        "core alone; %s or more: another hardware thread used the core). Those rows ran slower than "
                        "one thread runs them on this CPU, the vector lane rows most (doc/benchmarking.md, \"Shared "
                        "core\").\n\n",
                     beside.c_str(), Fixed(SHARED_CORE_LOOP, 2).c_str());
    } else if (shared_slices > 0) {
        std::fprintf(f, "Shared core after %zu of %zu slices: a one-add loop took %s or more core cycles an iteration "
                        "(1 where this thread has the core alone), in fewer than half of each row's rounds; the "
                        "spreads include those rounds (doc/benchmarking.md, \"Shared core\").\n\n",
                     shared_slices, slices, Fixed(SHARED_CORE_LOOP, 2).c_str());
    }
    std::fflush(f);
}

std::string CsvText(const std::vector<TableResult>& tables)
{
    std::string s = "table,name,impl,family,baseline,status,reason,bytes_per_op,rounds,median_ns,min_ns,max_ns,"
                    "spread_pct,mb_per_s,cycles_per_op,cycles_per_byte,speed_pct,best_batch_cycles_per_byte,samples_ns,"
                    "threads,aggregate_mb_per_s,efficiency_pct,unit,units_per_op,cycles_per_unit,sha_rnds2_per_unit,"
                    "floor_pct,lane_ops_per_unit,lane_chain_per_unit,lane_register_bytes,floor_bound\n";
    for (const auto& t : tables) {
        for (const Result& r : t.rows) {
            const Bench& b = *r.bench;
            s += CsvField(t.table) + "," + CsvField(b.name) + "," + CsvField(b.impl) + "," + CsvField(b.family) + "," +
                 (b.baseline ? "true" : "false") + "," + CsvField(r.status) + "," + CsvField(r.reason) + "," +
                 std::to_string(b.bytes_per_op) + ",";
            // The row's unit (empty when it has none), then cycles per unit when measured.
            const std::string unit = CsvField(b.unit) + "," + (b.unit.empty() ? "" : std::to_string(b.units_per_op)) + ",";
            const std::string rnds2 = b.sha_rnds2_per_unit > 0 ? Fixed(b.sha_rnds2_per_unit, 3) : "";
            const std::string lane = b.lane_ops_per_unit > 0 ? Fixed(b.lane_ops_per_unit, 3) + "," +
                                                                   Fixed(b.lane_chain_per_unit, 3) + "," +
                                                                   std::to_string(b.lane_register_bytes)
                                                             : ",,";
            if (!r.measured()) {
                s += "0,,,,,,,,,,,,,," + unit + "," + rnds2 + ",," + lane + ",\n";
                continue;
            }
            std::string samples;
            for (double x : r.samples_ns) samples += (samples.empty() ? "" : " ") + Fixed(x, 3);
            s += std::to_string(r.samples_ns.size()) + "," + Fixed(r.median_ns, 3) + "," + Fixed(r.min_ns, 3) + "," +
                 Fixed(r.max_ns, 3) + "," + Fixed(r.spread_pct, 2) + "," + Fixed(r.mb_per_s, 3) + "," +
                 (r.have_cycles ? Fixed(r.cycles_per_op, 1) : "") + "," +
                 (r.have_cycles ? Fixed(r.cycles_per_byte, 4) : "") + "," +
                 (r.have_speed ? Fixed(r.speed_pct, 2) : "") + "," +
                 (r.have_cycles ? Fixed(r.best_batch_cycles_per_byte, 4) : "") + "," + CsvField(samples) + ",";
            // -threads=N: the same three figures as the JSON rows, empty on one thread.
            if (r.threads > 1 && !r.aggregate_samples_ns.empty()) {
                s += std::to_string(r.threads) + "," + Fixed(r.aggregate_mb_per_s, 3) + "," + Fixed(r.efficiency_pct, 2) + ",";
            } else {
                s += ",,,";
            }
            s += unit + (r.have_cycles && b.units_per_op > 0 ? Fixed(r.cycles_per_unit, 1) : "") + "," + rnds2 + "," +
                 (r.have_floor ? Fixed(r.floor_pct, 2) : "") + "," + lane + "," + r.floor_bound + "\n";
        }
    }
    return s;
}

std::string JsonText(const RunInfo& info, const std::vector<TableResult>& tables)
{
    using Json = nlohmann::ordered_json;
    const Machine& m = info.machine;
    Json j;
    j["schema"] = "sha256bench-results";
    j["version"] = 1;
    j["mode"] = info.sanity_check ? "sanity-check" : "measured";
    j["date"] = info.date;
    j["commit"] = info.build.commit;

    Json machine;
    machine["arch"] = m.arch;
    machine["cpu"] = m.cpu;
    machine["family"] = m.have_signature ? Json(m.family) : Json(nullptr);
    machine["model"] = m.have_signature ? Json(m.model) : Json(nullptr);
    machine["stepping"] = m.have_signature ? Json(m.stepping) : Json(nullptr);
    machine["features"] = m.features;
    machine["features_detected"] = m.features_detected;
    machine["core_ghz"] = m.clock.core_hz > 0 ? Json(Round(m.clock.core_hz / 1e9, 4)) : Json(nullptr);
    machine["sha256rnds2_latency_cycles"] = m.clock.rnds2_latency > 0 ? Json(Round(m.clock.rnds2_latency, 3)) : Json(nullptr);
    machine["sha256rnds2_interval_cycles"] =
        m.clock.rnds2_interval > 0 ? Json(Round(m.clock.rnds2_interval, 3)) : Json(nullptr);
    machine["sha_block_mix_cycles"] = m.clock.block_mix > 0 ? Json(Round(m.clock.block_mix, 2)) : Json(nullptr);
    machine["sha_stream_block_cycles"] = m.clock.stream_block > 0 ? Json(Round(m.clock.stream_block, 2)) : Json(nullptr);
    machine["sha_stream_block_msg2_add_cycles"] =
        m.clock.stream_block_msg2_add > 0 ? Json(Round(m.clock.stream_block_msg2_add, 2)) : Json(nullptr);
    // The lane kernels' vector operations, keyed by register width in bits.
    Json vec_latency, vec_interval;
    for (int w = 0; w < 3; ++w) {
        const std::string bits = std::to_string(128 << w);
        vec_latency[bits] = m.clock.vec_latency[w] > 0 ? Json(Round(m.clock.vec_latency[w], 3)) : Json(nullptr);
        vec_interval[bits] = m.clock.vec_interval[w] > 0 ? Json(Round(m.clock.vec_interval[w], 4)) : Json(nullptr);
    }
    machine["vector_op_latency_cycles"] = vec_latency;
    machine["vector_op_interval_cycles"] = vec_interval;
    const double loop = cpu::Read(cpu::Probe::LoopIteration).value;
    machine["loop_iteration_cycles"] = loop > 0 ? Json(Round(loop, 3)) : Json(nullptr);
    machine["tsc_ghz"] = m.clock.tsc_hz > 0 ? Json(Round(m.clock.tsc_hz / 1e9, 4)) : Json(nullptr);
    machine["clock_method"] = m.clock_method;
    machine["emulated"] = m.emulated.empty() ? Json(nullptr) : Json(m.emulated);
    j["machine"] = machine;

    Json build;
    build["compiler"] = info.build.compiler;
    build["compiler_version"] = info.build.compiler_version;
    build["cxxflags"] = info.build.cxxflags;
    build["cppflags"] = info.build.cppflags;
    build["assembler"] = info.build.assembler;
    Json notes = Json::array();
    for (const auto& n : info.notes) {
        if (!n.build_key.empty()) build[n.build_key] = n.text;
        notes.push_back(n.label + ": " + n.text);
    }
    j["build"] = build;
    j["notes"] = notes;

    Json options;
    options["filter"] = info.filter;
    options["min_time_ms"] = info.min_time_ms;
    options["rounds"] = info.rounds;
    options["threads"] = info.threads;
    options["place"] = info.place >= 0 ? Json(info.place) : Json(nullptr);
    j["options"] = options;

    Json impls = Json::array();
    for (const auto& i : info.impls) {
        impls.push_back({{"family", i.family}, {"name", i.name}, {"needs", SplitFeatures(i.needs)}, {"built", i.built},
                         {"supported", i.supported}, {"selected", i.selected}, {"why_not", i.why_not},
                         {"technique", i.technique}, {"ways", i.ways}, {"wide_sha", WideSha(i)},
                         {"uses_transform", i.uses_transform}});
    }
    j["implementations"] = impls;

    Json results = Json::array();
    for (const auto& t : tables) {
        for (const Result& r : t.rows) {
            const Bench& b = *r.bench;
            Json row;
            row["table"] = t.table;
            row["name"] = b.name;
            row["impl"] = b.impl;
            row["family"] = b.family;
            row["baseline"] = b.baseline;
            row["status"] = r.status;
            row["reason"] = r.reason;
            row["bytes_per_op"] = b.bytes_per_op;
            if (!b.unit.empty()) {
                row["unit"] = b.unit;
                row["units_per_op"] = b.units_per_op;
            }
            if (b.sha_rnds2_per_unit > 0) row["sha_rnds2_per_unit"] = Round(b.sha_rnds2_per_unit, 3);
            if (b.lane_ops_per_unit > 0) {
                row["lane_ops_per_unit"] = Round(b.lane_ops_per_unit, 3);
                row["lane_chain_per_unit"] = Round(b.lane_chain_per_unit, 3);
                row["lane_register_bytes"] = b.lane_register_bytes;
            }
            if (r.measured()) {
                Json samples = Json::array();
                for (double x : r.samples_ns) samples.push_back(Round(x, 3));
                row["samples_ns"] = samples;
                row["median_ns"] = Round(r.median_ns, 3);
                row["min_ns"] = Round(r.min_ns, 3);
                row["max_ns"] = Round(r.max_ns, 3);
                row["spread_pct"] = Round(r.spread_pct, 3);
                row["mb_per_s"] = Round(r.mb_per_s, 3);
                row["cycles_per_byte"] = r.have_cycles ? Json(Round(r.cycles_per_byte, 4)) : Json(nullptr);
                row["cycles_per_op"] = r.have_cycles ? Json(Round(r.cycles_per_op, 1)) : Json(nullptr);
                if (!b.unit.empty()) {
                    row["cycles_per_unit"] =
                        r.have_cycles && b.units_per_op > 0 ? Json(Round(r.cycles_per_unit, 1)) : Json(nullptr);
                }
                if (b.sha_rnds2_per_unit > 0 || b.lane_ops_per_unit > 0) {
                    row["floor_pct"] = r.have_floor ? Json(Round(r.floor_pct, 2)) : Json(nullptr);
                    row["floor_bound"] = r.have_floor ? Json(r.floor_bound) : Json(nullptr);
                    // The readings it multiplies: the lowest of the machine's and
                    // those taken after each round's slice, listed beside them.
                    const auto readings = [](const std::vector<double>& v) {
                        Json a = Json::array();
                        for (double x : v) a.push_back(Round(x, 4));
                        return a;
                    };
                    if (r.have_floor) {
                        row["floor_interval_cycles"] = Round(r.floor_interval, 4);
                        row["floor_interval_samples"] = readings(r.floor_interval_samples);
                    }
                    if (r.have_floor && r.floor_latency > 0) {
                        row["floor_latency_cycles"] = Round(r.floor_latency, 4);
                        row["floor_latency_samples"] = readings(r.floor_latency_samples);
                    }
                }
                row["output_page_offset"] =
                    r.bench->output_address ? Json(int(r.bench->output_address % 4096)) : Json(nullptr);
                row["loop_iteration_cycles"] = r.loop_iteration > 0 ? Json(Round(r.loop_iteration, 3)) : Json(nullptr);
                Json loops = Json::array();
                for (double x : r.loop_iteration_samples) loops.push_back(Round(x, 3));
                row["loop_iteration_samples"] = loops;
                row["speed_pct"] = r.have_speed ? Json(Round(r.speed_pct, 3)) : Json(nullptr);
                row["best_batch_cycles_per_byte"] =
                    r.have_cycles ? Json(Round(r.best_batch_cycles_per_byte, 4)) : Json(nullptr);
                if (r.threads > 1 && !r.aggregate_samples_ns.empty()) {
                    Json agg = Json::array();
                    for (double x : r.aggregate_samples_ns) agg.push_back(Round(x, 3));
                    row["threads"] = r.threads;
                    row["aggregate_samples_ns"] = agg;
                    row["aggregate_mb_per_s"] = Round(r.aggregate_mb_per_s, 3);
                    row["efficiency_pct"] = Round(r.efficiency_pct, 2);
                }
            }
            results.push_back(row);
        }
    }
    j["results"] = results;
    // Invalid UTF-8 (none is expected: Printable() escapes environment text) becomes U+FFFD, never a broken file.
    return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

bool WideSha(const sha256::Row& row)
{
    for (const sha256::Lead& l : row.leads) {
        if (l.probe == cpu::Probe::ShaniOverlap) return true;
    }
    return false;
}

std::string ImplListText(const std::vector<ImplRow>& impls)
{
    std::string s;
    for (const auto& i : impls) {
        s += TsvField(i.family) + "\t" + TsvField(i.name) + "\t" + TsvField(Join(SplitFeatures(i.needs), ",", "none")) + "\t" +
             (i.built ? "yes" : "no") + "\t" + (i.supported ? "yes" : "no") + "\t" + (i.selected ? "yes" : "no") +
             "\t" + (i.why_not.empty() ? "-" : TsvField(i.why_not)) + "\t" + TsvField(i.technique) + "\t" +
             std::to_string(i.ways) + "\t" + (WideSha(i) ? "yes" : "no") + "\n";
    }
    return s;
}

} // namespace benchmark
