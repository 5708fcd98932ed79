// bench_bitcoin: argument parsing only; bench.cpp runs, sha256.cpp registers.
#include <bench/bench.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

void Usage()
{
    std::printf(
        "Usage: bench_bitcoin [options]\n"
        "\n"
        "Times every SHA-256 transform this CPU supports in interleaved rounds and prints\n"
        "one markdown speed%% table per message size (basic = 100).\n"
        "\n"
        "Options:\n"
        "  -help                 Print this message and exit\n"
        "  -list                 List the benchmarks (and why a row would not run) and exit\n"
        "  -filter=<regex>       Run only benchmarks whose name matches (default: .*), e.g. -filter='SHA256_1M/'\n"
        "  -min-time=<ms>        Time budget per benchmark in milliseconds (default: 500)\n"
        "  -rounds=<n>           Interleaved rounds per table (default: 10)\n"
        "  -output-csv=<file>    Also write the results as CSV\n"
        "  -output-json=<file>   Also write the results as JSON\n"
        "  -sanity-check         Run each benchmark once and check its digest (for make check / CI)\n"
        "\n"
        "Rows rorx and rorx_x8ms run only in builds configured with CPPFLAGS=\"-DBENCH_RORX\".\n"
        "OPENSSL_ia32cap in the environment forces OpenSSL's code path (see doc/benchmarking.md).\n");
}

bool ParseUint(const std::string& s, uint64_t& out)
{
    if (s.empty() || s[0] == '-' || s[0] == '+') return false;
    errno = 0;
    char* end = nullptr;
    out = std::strtoull(s.c_str(), &end, 10);
    return errno == 0 && end && *end == '\0';
}

} // namespace

int main(int argc, char** argv)
{
    benchmark::Options opts;
    bool list = false;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        // Accept -opt and --opt, as Bitcoin Core does.
        if (arg.rfind("--", 0) == 0) arg = arg.substr(1);
        const auto eq = arg.find('=');
        const std::string key = arg.substr(0, eq);
        const bool has_value = eq != std::string::npos;
        const std::string value = has_value ? arg.substr(eq + 1) : "";
        auto need_value = [&]() {
            if (!has_value || value.empty()) {
                std::fprintf(stderr, "Error: %s needs a value (%s=...); see -help\n", key.c_str(), key.c_str());
                std::exit(1);
            }
        };
        auto no_value = [&]() {
            if (has_value) {
                std::fprintf(stderr, "Error: %s takes no value; see -help\n", key.c_str());
                std::exit(1);
            }
        };
        uint64_t n = 0;
        if (key == "-help" || key == "-h" || key == "-?") {
            Usage();
            return 0;
        } else if (key == "-list") {
            no_value();
            list = true;
        } else if (key == "-filter") {
            need_value();
            opts.filter = value;
        } else if (key == "-min-time") {
            need_value();
            if (!ParseUint(value, n) || n == 0 || n > 3600000) {
                std::fprintf(stderr, "Error: -min-time=%s: expected milliseconds, 1..3600000\n", value.c_str());
                return 1;
            }
            opts.min_time_ms = n;
        } else if (key == "-rounds") {
            need_value();
            if (!ParseUint(value, n) || n == 0 || n > 1000) {
                std::fprintf(stderr, "Error: -rounds=%s: expected 1..1000\n", value.c_str());
                return 1;
            }
            opts.rounds = static_cast<int>(n);
        } else if (key == "-output-csv") {
            need_value();
            opts.output_csv = value;
        } else if (key == "-output-json") {
            need_value();
            opts.output_json = value;
        } else if (key == "-sanity-check") {
            no_value();
            opts.sanity_check = true;
        } else {
            std::fprintf(stderr, "Error: unknown option '%s'; see -help\n", argv[i]);
            return 1;
        }
    }
    if (list) {
        for (const auto& b : benchmark::AllBenchmarks()) {
            std::printf("%s%s%s\n", b.name.c_str(), b.not_run.empty() ? "" : "  # ", b.not_run.c_str());
        }
        return 0;
    }
    return benchmark::RunAll(opts);
}
