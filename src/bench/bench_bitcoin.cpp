// SPDX-License-Identifier: MIT
// bench_bitcoin: argument parsing only; bench.cpp runs, sha256.cpp registers.
#include <bench/bench.h>
#include <bench/report.h>

#include <csignal>
#include <cstdio>
#include <set>
#include <string>

namespace {

void Usage()
{
    std::printf(
        "Usage: bench_bitcoin [options]\n"
        "\n"
        "Times every SHA-256 transform this CPU supports in interleaved rounds and prints\n"
        "one markdown table per message size; speed%% is relative to the portable transform (= 100).\n"
        "\n"
        "Options:\n"
        "  -help                 Print this message and exit\n"
        "  -list                 List the benchmarks (and why a row would not run) and exit; with -filter,\n"
        "                        those a run would run (an invalid filter or one matching nothing fails)\n"
        "  -list-impls           List every registry row, tab-separated: family, name, needs, built,\n"
        "                        supported, selected, why_not, technique, ways, wide_sha; and exit\n"
        "  -filter=<regex>       Run only benchmarks whose name matches (default: .*), e.g. -filter='SHA256_1M/'\n"
        "  -min-time=<ms>        Time budget per benchmark in milliseconds, 1..3600000 (default: 500)\n"
        "  -rounds=<n>           Interleaved rounds per table, 1..1000 (default: 10)\n"
        "  -output-csv=<file>    Also write the results as CSV\n"
        "  -output-json=<file>   Also write the results as JSON (schema in doc/benchmarking.md)\n"
        "  -sanity-check         Run each benchmark once and check its digest (for make check / CI)\n"
        "  -threads=<n>|all      Also run every row on n threads at once (all: one per CPU this process\n"
        "                        may run on; at most 4 per CPU), each over private data: the table adds\n"
        "                        the threads' aggregate MB/s and the efficiency against n x one thread\n"
        "  -place=<bytes>        Put every row's output alone in a mapping of its own, this many bytes into\n"
        "                        its page (0..4080, a multiple of 16); for A/B runs, which give both sides\n"
        "                        one offset per pair (contrib/bench-compare.sh)\n"
        "\n"
        "Each option may be given once. Numbers are plain decimal digits. Output files are\n"
        "written whole or not at all (temporary file renamed into place).\n"
        "Rows whose transform needs BMI2 (the rorx instruction) run only in builds configured\n"
        "with CPPFLAGS=\"-DBENCH_RORX\".\n"
        "OPENSSL_ia32cap in the environment forces OpenSSL's code path (see doc/benchmarking.md).\n");
}

// Plain decimal digits only (no sign, space, exponent or hex), within [lo, hi].
bool ParseDecimal(const std::string& s, uint64_t lo, uint64_t hi, uint64_t& out)
{
    if (s.empty() || s.size() > 19) return false;
    uint64_t v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + uint64_t(c - '0');
    }
    if (v < lo || v > hi) return false;
    out = v;
    return true;
}

} // namespace

int main(int argc, char** argv)
{
    // A file-size limit must make a write fail (EFBIG, reported and cleaned
    // up), not kill the process with a half-written temporary left behind.
    std::signal(SIGXFSZ, SIG_IGN);

    benchmark::Options opts;
    bool list = false, list_impls = false, help = false;
    std::set<std::string> seen;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        // Accept -opt and --opt, as Bitcoin Core does.
        if (arg.rfind("--", 0) == 0) arg = arg.substr(1);
        const auto eq = arg.find('=');
        std::string key = arg.substr(0, eq);
        const bool has_value = eq != std::string::npos;
        const std::string value = has_value ? arg.substr(eq + 1) : "";
        if (key == "-h" || key == "-?") key = "-help";
        static const std::set<std::string> KNOWN = {"-help", "-list", "-list-impls", "-filter", "-min-time",
                                                     "-rounds", "-output-csv", "-output-json", "-sanity-check",
                                                     "-threads", "-place"};
        if (!KNOWN.count(key)) {
            std::fprintf(stderr, "Error: unknown option '%s'; see -help\n", argv[i]);
            return 1;
        }
        if (!seen.insert(key).second) {
            std::fprintf(stderr, "Error: %s given more than once; give each option once\n", key.c_str());
            return 1;
        }
        const bool flag = key == "-help" || key == "-list" || key == "-list-impls" || key == "-sanity-check";
        if (flag && has_value) {
            std::fprintf(stderr, "Error: %s takes no value (got '%s'); see -help\n", key.c_str(), argv[i]);
            return 1;
        }
        if (!flag && (!has_value || value.empty())) {
            std::fprintf(stderr, "Error: %s needs a value (%s=...); see -help\n", key.c_str(), key.c_str());
            return 1;
        }
        uint64_t n = 0;
        if (key == "-help") {
            help = true;
        } else if (key == "-list") {
            list = true;
        } else if (key == "-list-impls") {
            list_impls = true;
        } else if (key == "-sanity-check") {
            opts.sanity_check = true;
        } else if (key == "-filter") {
            opts.filter = value;
        } else if (key == "-min-time") {
            if (!ParseDecimal(value, 1, 3600000, n)) {
                std::fprintf(stderr, "Error: -min-time=%s: expected milliseconds as plain decimal digits, 1..3600000\n",
                             value.c_str());
                return 1;
            }
            opts.min_time_ms = n;
        } else if (key == "-rounds") {
            if (!ParseDecimal(value, 1, 1000, n)) {
                std::fprintf(stderr, "Error: -rounds=%s: expected plain decimal digits, 1..1000\n", value.c_str());
                return 1;
            }
            opts.rounds = static_cast<int>(n);
        } else if (key == "-threads") {
            int cpus = 1;
            const std::string list = benchmark::AffinityList(&cpus);
            const uint64_t most = 4 * static_cast<uint64_t>(cpus);
            if (value == "all") {
                n = static_cast<uint64_t>(cpus);
            } else if (!ParseDecimal(value, 1, most, n)) {
                std::fprintf(stderr, "Error: -threads=%s: expected 'all' or plain decimal digits, 1..%llu (4 per CPU this "
                                     "process may run on: %d, CPUs %s)\n",
                             value.c_str(), static_cast<unsigned long long>(most), cpus, list.c_str());
                return 1;
            }
            opts.threads = static_cast<int>(n);
        } else if (key == "-place") {
            if (!ParseDecimal(value, 0, 4080, n) || n % 16 != 0) {
                std::fprintf(stderr, "Error: -place=%s: expected bytes into a page as plain decimal digits, 0..4080, a "
                                     "multiple of 16\n",
                             value.c_str());
                return 1;
            }
            opts.place = static_cast<int>(n);
        } else if (key == "-output-csv") {
            opts.output_csv = value;
        } else if (key == "-output-json") {
            opts.output_json = value;
        }
    }
    if (help) {
        Usage();
        return 0;
    }
    if (list && list_impls) {
        std::fprintf(stderr, "Error: -list and -list-impls: give one of them\n");
        return 1;
    }
    if (list) return benchmark::ListBenchmarks(opts.filter);
    if (list_impls) {
        std::fputs(benchmark::ImplListText(benchmark::AllImplementations()).c_str(), stdout);
        return std::fflush(stdout) == 0 ? 0 : 1;
    }
    return benchmark::RunAll(opts);
}
