// SPDX-License-Identifier: MIT
#include <compat/cpu_model.h>

#include <compat/cpuid.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <sstream>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#define CPU_MODEL_HAVE_TSC 1
#endif

namespace cpu {
namespace {

// ---- The clock: the TSC against the wall clock, the core against the TSC ----
#ifdef CPU_MODEL_HAVE_TSC
uint64_t NowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Fewest TSC ticks of `work` over `runs` runs: the run not interrupted, after
// the core has ramped up its clock.
uint64_t BestTicks(void (*work)(), int runs)
{
    uint64_t best = ~uint64_t(0);
    for (int i = 0; i < runs; ++i) {
        const uint64_t t0 = __rdtsc();
        work();
        const uint64_t dt = __rdtsc() - t0;
        if (dt < best) best = dt;
    }
    return best;
}

// 64000 dependent adds: as many core cycles, one each (the loop runs alongside).
// Register + register: some cores fold chains of add-immediate at rename,
// several a cycle, which would read as a core clock several times too fast.
void AddChain()
{
    uint64_t x = 1;
    for (int i = 0; i < 1000; ++i) __asm__ volatile(".rept 64\n\tadd %0, %0\n\t.endr" : "+r"(x));
}

// 64000 iterations of one add and the loop's branch. A core that runs this
// thread alone takes an iteration a cycle (the add chain bounds it); a busy
// second hardware thread on the same core takes front-end cycles from it,
// while the add chain above, 64 adds a branch, barely notices. So this reads
// whether the core was shared, not how fast it is.
void OneAddLoop()
{
    uint64_t x = 1, n = 64000;
    __asm__ volatile("1:\n\tadd %0, %0\n\tdec %1\n\tjnz 1b" : "+r"(x), "+r"(n));
}

// 64000 sha256rnds2 on `chains` chains, each round taking its own chain's
// last result (xmm0 and xmm13 are read-only): one chain is the rounds of one
// message; twelve are more than any SHA unit works on at once, so they issue
// at the unit's interval.
#define CPU_MODEL_RNDS2(R) "sha256rnds2 %%xmm0, %%xmm13, %%xmm" #R "\n\t"
void Rnds2Chain()
{
    for (int i = 0; i < 1000; ++i) {
        __asm__ volatile(".rept 32\n\tsha256rnds2 %%xmm0, %%xmm2, %%xmm1\n\tsha256rnds2 %%xmm0, %%xmm1, %%xmm2\n\t.endr"
                         ::: "xmm0", "xmm1", "xmm2");
    }
}
void Rnds2Spread()
{
    for (int i = 0; i < 1000; ++i) {
        __asm__ volatile(".rept 5\n\t" CPU_MODEL_RNDS2(1) CPU_MODEL_RNDS2(2) CPU_MODEL_RNDS2(3) CPU_MODEL_RNDS2(4)
                         CPU_MODEL_RNDS2(5) CPU_MODEL_RNDS2(6) CPU_MODEL_RNDS2(7) CPU_MODEL_RNDS2(8) CPU_MODEL_RNDS2(9)
                         CPU_MODEL_RNDS2(10) CPU_MODEL_RNDS2(11) CPU_MODEL_RNDS2(12) ".endr\n\t"
                         CPU_MODEL_RNDS2(1) CPU_MODEL_RNDS2(2) CPU_MODEL_RNDS2(3) CPU_MODEL_RNDS2(4)
                         ::: "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",
                           "xmm12");
    }
}
#undef CPU_MODEL_RNDS2

// The lane kernels' operations: 64000 a call in a chain, 65000 (55000) in a
// mix. A chain: each operation takes
// the last one's result, in the order of a round's path from e to the next e
// (rotate or shift, logic, add, add). A mix: thirteen (eleven) registers each
// its own chain of one kind, in a lane round's and schedule step's
// proportions: 512-bit vprord : vpternlogd : vpaddd 5 : 3 : 5 (AVX-512 has
// both); below that shifts : logic : adds 4 : 5 : 2 (a rotation is two
// shifts and an or, a three-way xor two xors). Register 0 is only read.
#define CPU_MODEL_LOOP(body) for (int i = 0; i < 1000; ++i) __asm__ volatile(body ::: "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13")
void Vec64Chain()
{
    CPU_MODEL_LOOP(".rept 16\n\tvprord $7, %%zmm1, %%zmm1\n\tvpternlogd $0x96, %%zmm0, %%zmm0, %%zmm1\n\t"
                   "vpaddd %%zmm0, %%zmm1, %%zmm1\n\tvpaddd %%zmm0, %%zmm1, %%zmm1\n\t.endr");
    __asm__ volatile("vzeroupper");
}
void Vec64Mix()
{
    CPU_MODEL_LOOP(".rept 5\n\t"
                   "vprord $7, %%zmm1, %%zmm1\n\tvprord $7, %%zmm2, %%zmm2\n\tvprord $7, %%zmm3, %%zmm3\n\t"
                   "vprord $7, %%zmm4, %%zmm4\n\tvprord $7, %%zmm5, %%zmm5\n\t"
                   "vpternlogd $0x96, %%zmm0, %%zmm0, %%zmm6\n\tvpternlogd $0x96, %%zmm0, %%zmm0, %%zmm7\n\t"
                   "vpternlogd $0x96, %%zmm0, %%zmm0, %%zmm8\n\t"
                   "vpaddd %%zmm0, %%zmm9, %%zmm9\n\tvpaddd %%zmm0, %%zmm10, %%zmm10\n\tvpaddd %%zmm0, %%zmm11, %%zmm11\n\t"
                   "vpaddd %%zmm0, %%zmm12, %%zmm12\n\tvpaddd %%zmm0, %%zmm13, %%zmm13\n\t.endr");
    __asm__ volatile("vzeroupper");
}
// 256- and 128-bit: the same shapes with AVX2's and SSE2's operations.
void Vec32Chain()
{
    CPU_MODEL_LOOP(".rept 16\n\t"
                   "vpsrld $7, %%ymm1, %%ymm1\n\t"
                   "vpor %%ymm0, %%ymm1, %%ymm1\n\t"
                   "vpxor %%ymm0, %%ymm1, %%ymm1\n\t"
                   "vpaddd %%ymm0, %%ymm1, %%ymm1\n\t"
                   ".endr");
    __asm__ volatile("vzeroupper");
}
void Vec32Mix()
{
    CPU_MODEL_LOOP(".rept 5\n\t"
                   "vpsrld $7, %%ymm1, %%ymm1\n\t"
                   "vpsrld $7, %%ymm2, %%ymm2\n\t"
                   "vpsrld $7, %%ymm3, %%ymm3\n\t"
                   "vpsrld $7, %%ymm4, %%ymm4\n\t"
                   "vpxor %%ymm0, %%ymm5, %%ymm5\n\t"
                   "vpor %%ymm0, %%ymm6, %%ymm6\n\t"
                   "vpxor %%ymm0, %%ymm7, %%ymm7\n\t"
                   "vpor %%ymm0, %%ymm8, %%ymm8\n\t"
                   "vpxor %%ymm0, %%ymm9, %%ymm9\n\t"
                   "vpaddd %%ymm0, %%ymm10, %%ymm10\n\t"
                   "vpaddd %%ymm0, %%ymm11, %%ymm11\n\t"
                   ".endr");
    __asm__ volatile("vzeroupper");
}
void Vec16Chain()
{
    CPU_MODEL_LOOP(".rept 16\n\t"
                   "psrld $7, %%xmm1\n\t"
                   "por %%xmm0, %%xmm1\n\t"
                   "pxor %%xmm0, %%xmm1\n\t"
                   "paddd %%xmm0, %%xmm1\n\t"
                   ".endr");
}
void Vec16Mix()
{
    CPU_MODEL_LOOP(".rept 5\n\t"
                   "psrld $7, %%xmm1\n\t"
                   "psrld $7, %%xmm2\n\t"
                   "psrld $7, %%xmm3\n\t"
                   "psrld $7, %%xmm4\n\t"
                   "pxor %%xmm0, %%xmm5\n\t"
                   "por %%xmm0, %%xmm6\n\t"
                   "pxor %%xmm0, %%xmm7\n\t"
                   "por %%xmm0, %%xmm8\n\t"
                   "pxor %%xmm0, %%xmm9\n\t"
                   "paddd %%xmm0, %%xmm10\n\t"
                   "paddd %%xmm0, %%xmm11\n\t"
                   ".endr");
}

// TSC ticks per nanosecond, over 50 ms of the wall clock.
double MeasureTscGhz()
{
    const uint64_t n0 = NowNs(), t0 = __rdtsc();
    while (NowNs() - n0 < 50000000) {}
    const uint64_t n1 = NowNs(), t1 = __rdtsc();
    return double(t1 - t0) / double(n1 - n0);
}
double MeasureCoreGhz() { return 64000.0 / double(BestTicks(AddChain, 1000)) * Read(Probe::TscGhz).value; }
#endif

#ifdef SHA256_TEST_EXTRA_ROW
double MeasureTestProbe() { return 0.0; }
#endif

// ---- Every probe: what it is, what it needs, how it is measured ----
struct ProbeDef {
    ProbeInfo info;
    uint32_t needs;     //!< cpu::Feature mask the unit needs (0: every CPU)
    double (*measure)(); //!< nullptr: this build cannot measure it (or `work` does)
    //! A timed probe: its reading is the core cycles of the fastest run of
    //! `work` over `ops`, so it can be taken again (Remeasure).
    void (*work)(){nullptr};
    double ops{0};
};

#if defined(__x86_64__) && !defined(DISABLE_OPTIMIZED_SHA256)
#define CPU_MODEL_UNITS(fn) fn
#else
#define CPU_MODEL_UNITS(fn) nullptr
#endif
#ifdef CPU_MODEL_HAVE_TSC
#define CPU_MODEL_TSC(fn) fn
#else
#define CPU_MODEL_TSC(fn) nullptr
#endif
#if defined(CPU_MODEL_HAVE_TSC) && defined(__x86_64__)
#define CPU_MODEL_VEC(fn) fn
#else
#define CPU_MODEL_VEC(fn) nullptr
#endif

// In Probe's order.
const ProbeDef PROBES[] = {
    {{"SHA-NI overlap", "sha256rnds2 at once", "latency / issue interval", "SHA256BENCH_SHANI_OVERLAP",
      "no SHA-NI on this CPU or in this build"},
     SHANI | SSE41 | SSSE3, CPU_MODEL_UNITS(detail::MeasureShaniOverlap)},
    {{"AVX-512 add depth", "512-bit adds at once", "latency / issue interval", "SHA256BENCH_AVX512_ADD_DEPTH",
      "no AVX-512 on this CPU or in this build"},
     AVX512F | AVX512VL, CPU_MODEL_UNITS(detail::MeasureAvx512AddDepth)},
    {{"TSC", "GHz", "TSC ticks over 50 ms of steady_clock", nullptr, "no TSC on this architecture"}, 0,
     CPU_MODEL_TSC(MeasureTscGhz)},
    {{"core clock", "GHz", "a chain of dependent register adds, 1 core cycle each, timed with the TSC", nullptr,
      "no TSC on this architecture"},
     0, CPU_MODEL_TSC(MeasureCoreGhz)},
    {{"sha256rnds2 latency", "core cycles", "a chain of 64000 dependent sha256rnds2", nullptr,
      "no SHA-NI on this CPU, or no TSC"},
     SHANI, nullptr, CPU_MODEL_TSC(Rnds2Chain), 64000},
    {{"sha256rnds2 interval", "core cycles", "12 independent chains of sha256rnds2", nullptr,
      "no SHA-NI on this CPU, or no TSC"},
     SHANI, nullptr, CPU_MODEL_TSC(Rnds2Spread), 64000},
    {{"128-bit op latency", "core cycles", "a chain of psrld, por, pxor, paddd", nullptr, "not x86-64, or no TSC"}, 0,
     nullptr, CPU_MODEL_VEC(Vec16Chain), 64000},
    {{"128-bit op interval", "core cycles", "psrld, por/pxor, paddd 4:5:2 on 11 independent registers", nullptr,
      "not x86-64, or no TSC"},
     0, nullptr, CPU_MODEL_VEC(Vec16Mix), 55000},
    {{"256-bit op latency", "core cycles", "a chain of vpsrld, vpor, vpxor, vpaddd", nullptr,
      "no AVX2 on this CPU, or no TSC"},
     AVX2, nullptr, CPU_MODEL_VEC(Vec32Chain), 64000},
    {{"256-bit op interval", "core cycles", "vpsrld, vpor/vpxor, vpaddd 4:5:2 on 11 independent registers", nullptr,
      "no AVX2 on this CPU, or no TSC"},
     AVX2, nullptr, CPU_MODEL_VEC(Vec32Mix), 55000},
    {{"512-bit op latency", "core cycles", "a chain of vprord, vpternlogd, vpaddd, vpaddd", nullptr,
      "no AVX-512 on this CPU, or no TSC"},
     AVX512F | AVX512VL, nullptr, CPU_MODEL_VEC(Vec64Chain), 64000},
    {{"512-bit op interval", "core cycles", "vprord, vpternlogd, vpaddd 5:3:5 on 13 independent registers", nullptr,
      "no AVX-512 on this CPU, or no TSC"},
     AVX512F | AVX512VL, nullptr, CPU_MODEL_VEC(Vec64Mix), 65000},
    {{"one-add loop", "core cycles an iteration", "64000 iterations of add, dec, jnz; 1 on a core this thread has alone",
      "SHA256BENCH_LOOP_ITERATION", "not x86-64, or no TSC"},
     0, nullptr, CPU_MODEL_VEC(OneAddLoop), 64000},
#ifdef SHA256_TEST_EXTRA_ROW
    {{"test probe", "units", "a constant 0 (SHA256_TEST_EXTRA_ROW)", "SHA256BENCH_TEST_PROBE", "never absent"}, 0,
     MeasureTestProbe},
#endif
};
static_assert(sizeof(PROBES) / sizeof(PROBES[0]) == PROBE_COUNT, "one entry per Probe");

const ProbeDef& Def(Probe p) { return PROBES[static_cast<int>(p)]; }

// An environment variable's replacement of a measurement: a plain decimal
// ("4", "1.4") from 0 to 64; anything else stops the program.
double FromEnvironment(const char* name, const char* env)
{
    char* end = nullptr;
    const double v = std::strtod(env, &end);
    bool plain = *env != 0;
    for (const char* c = env; *c; ++c) plain &= (*c >= '0' && *c <= '9') || *c == '.';
    if (!plain || end == env || *end != 0 || !(v >= 0 && v <= 64)) {
        std::fprintf(stderr, "%s: '%s' is not a decimal number from 0 to 64\n", name, env);
        std::exit(2);
    }
    return v;
}

// A timed probe's reading: its work's fastest of `runs` runs, per operation.
double Timed(const ProbeDef& d, int runs) { return BestCoreCycles(d.work, runs) / d.ops; }

// The one probe helper: environment, else measurement, else absent.
Reading Take(const ProbeDef& d)
{
    if (d.info.env) {
        if (const char* env = std::getenv(d.info.env)) return {FromEnvironment(d.info.env, env), Source::Environment};
    }
    if ((Features() & d.needs) != d.needs) return {0.0, Source::Absent};
    if (d.measure) return {d.measure(), Source::Measured};
    if (d.work) return {Timed(d, 200), Source::Measured};
    return {0.0, Source::Absent};
}

//! The kernel's name of each feature bit, as /proc/cpuinfo lists it
//! ("flags" on x86, "Features" on aarch64).
const struct {
    Feature f;
    const char* kernel_name;
    bool x86;
} KERNEL_NAMES[] = {
    {SSSE3, "ssse3", true}, {SSE41, "sse4_1", true}, {AVX, "avx", true}, {AVX2, "avx2", true},
    {BMI2, "bmi2", true}, {SHANI, "sha_ni", true}, {AVX512F, "avx512f", true}, {AVX512BW, "avx512bw", true},
    {AVX512VL, "avx512vl", true},
    {ASIMD, "asimd", false}, {SHA2, "sha2", false},
};

//! The words of the first line of `cpuinfo` whose key is `key`, and whether there is one.
bool KernelLine(const std::string& cpuinfo, const std::string& key, std::string& words)
{
    std::istringstream in(cpuinfo);
    for (std::string line; std::getline(in, line);) {
        const auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        std::string k = line.substr(0, colon);
        k.erase(k.find_last_not_of(" \t") + 1);
        if (k == key) {
            words = " " + line.substr(colon + 1) + " ";
            for (char& c : words) c = c == '\t' ? ' ' : c;
            return true;
        }
    }
    return false;
}

} // namespace

const ProbeInfo& Info(Probe p) { return Def(p).info; }

Reading Read(Probe p)
{
    // Each probe measured once, on first use, whichever thread asks first.
    static std::once_flag once[PROBE_COUNT];
    static Reading cache[PROBE_COUNT];
    const int i = static_cast<int>(p);
    std::call_once(once[i], [i] { cache[i] = Take(PROBES[i]); });
    return cache[i];
}

double Remeasure(Probe p, int runs)
{
    const ProbeDef& d = Def(p);
    if (!d.work || Read(p).source != Source::Measured) return 0;
    return Timed(d, runs);
}

std::string Describe(Probe p)
{
    const ProbeInfo& info = Info(p);
    const Reading r = Read(p);
    if (r.source == Source::Absent) return std::string("none (") + info.absent + ")";
    char value[32];
    std::snprintf(value, sizeof(value), "%.2f", r.value);
    const std::string from = r.source == Source::Environment ? std::string("set by ") + info.env : "measured";
    return std::string(value) + " " + info.unit + " (" + info.method + ", " + from + ")";
}

double BestCoreCycles(void (*work)(), int runs)
{
#ifdef CPU_MODEL_HAVE_TSC
    const double core_per_tick = Read(Probe::CoreGhz).value / Read(Probe::TscGhz).value;
    return double(BestTicks(work, runs)) * core_per_tick;
#else
    (void)work;
    (void)runs;
    return 0;
#endif
}

std::string EmulationEvidence(const EmulationFacts& facts)
{
    const bool x86 = facts.arch == "x86_64" || facts.arch == "i386";
    if (x86 && facts.hypervisor == "TCGTCGTCGTCG") {
        return "CPUID's hypervisor leaf is qemu's software CPU (TCG), e.g. qemu-x86_64 -cpu MODEL";
    }
    std::string words;
    const bool x86_kernel = KernelLine(facts.cpuinfo, "flags", words) || KernelLine(facts.cpuinfo, "vendor_id", words);
    const bool arm_kernel = KernelLine(facts.cpuinfo, "Features", words) || KernelLine(facts.cpuinfo, "CPU implementer", words);
    if (facts.arch == "aarch64" && x86_kernel) {
        return "an aarch64 binary on a host whose /proc/cpuinfo is x86 (user-mode emulation, e.g. qemu-aarch64)";
    }
    if (x86 && arm_kernel && !x86_kernel) {
        return "an x86 binary on a host whose /proc/cpuinfo is aarch64 (user-mode emulation, e.g. qemu-x86_64)";
    }
    if (!(x86 || facts.arch == "aarch64") || !KernelLine(facts.cpuinfo, x86 ? "flags" : "Features", words)) return "";
    std::string denied;
    for (const auto& n : KERNEL_NAMES) {
        if (n.x86 != x86 || (facts.cpuid & n.f)) continue;
        if (words.find(std::string(" ") + n.kernel_name + " ") != std::string::npos) denied += std::string(" ") + n.kernel_name;
    }
    if (denied.empty()) return "";
    return "the kernel lists" + denied + " but CPUID denies " + (denied.find(' ', 1) == std::string::npos ? "it" : "them") +
           " (a user-mode emulator's CPU model, e.g. qemu-" + (x86 ? "x86_64" : "aarch64") + " -cpu MODEL)";
}

const char* Arch()
{
#if defined(__x86_64__)
    return "x86_64";
#elif defined(__aarch64__)
    return "aarch64";
#elif defined(__i386__)
    return "i386";
#else
    return "unknown";
#endif
}

EmulationFacts ThisMachine()
{
    EmulationFacts facts;
    facts.arch = Arch();
    const char* path = std::getenv("SHA256BENCH_CPUINFO");
    std::ifstream in(path && *path ? path : "/proc/cpuinfo");
    std::ostringstream text;
    text << in.rdbuf();
    facts.cpuinfo = text.str();
    facts.cpuid = DetectedFeatures();
    facts.hypervisor = HypervisorVendor();
    return facts;
}

std::string Emulation()
{
    static const std::string why = [] {
        const char* e = std::getenv("SHA256BENCH_EMULATED");
        if (e && std::string(e) == "0") return std::string();
        if (e && *e) return "SHA256BENCH_EMULATED=" + std::string(e);
        return EmulationEvidence(ThisMachine());
    }();
    return why;
}

} // namespace cpu
