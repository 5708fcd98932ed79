// SPDX-License-Identifier: MIT
// core_check: Bitcoin Core with sha256bench's patch series, checked through
// Core's own API only (SHA256AutoDetect, SHA256D64, SHA256DMulti, CSHA256, ComputeMerkleRoot)
// against this project's oracles: the textbook SHA-256 of
// src/test/util/reference.h, the NIST CAVP files (src/test/util/nist.cpp) and
// the mainnet blocks of src/test/util/mainnet_blocks.h.
//
// Compiled with Core's include paths (its src/ and its build's src/) and
// linked against the patched libbitcoin_consensus.a and libbitcoin_crypto.a;
// the project's code it uses comes in through headers of standard types only.
// Run by ci/core-series.sh natively and under qemu-x86_64 CPU models.
//
//   core_check --built=LIST [--nist-dir=DIR] [--quick] [--no-xinuse]
//
// LIST: the x86 kernels Core's CMake compiled in, a comma-separated subset of
// sse41,avx2,avx512,shani (its HAVE_* results); with this program's own CPUID
// and XCR0 reading it gives the name SHA256AutoDetect must return for every
// implementation mask. One line per check, "PASS ..." or "FAIL ...", then
// "core_check: N passed, M failed". Exit 0 only with no failure.

#include <consensus/merkle.h>
#include <crypto/sha256.h>
#include <uint256.h>

#include "../../../src/test/util/mainnet_blocks.h"
#include "../../../src/test/util/nist.h"
#include "core_check_project.h"

// Patched Core's probe of the SHA unit (src/crypto/sha256_x86_shani_4way.cpp);
// weak: a Core built without SHA-NI has none.
namespace sha256d64_x86_shani {
__attribute__((weak)) double MeasureOverlap();
}
// And of the vector unit (src/crypto/sha256_avx512_multi.cpp); weak likewise.
namespace sha256_avx512_multi {
__attribute__((weak)) double MeasureAddDepth();
}

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace {

int g_passed = 0;
int g_failed = 0;

void Report(bool ok, const std::string& what, const std::string& why = "")
{
    if (ok) {
        ++g_passed;
        std::printf("PASS %s\n", what.c_str());
    } else {
        ++g_failed;
        std::printf("FAIL %s%s%s\n", what.c_str(), why.empty() ? "" : ": ", why.c_str());
    }
    std::fflush(stdout);
}

std::string Hex(const unsigned char* p, size_t n)
{
    static const char* digits = "0123456789abcdef";
    std::string s;
    for (size_t i = 0; i < n; ++i) {
        s += digits[p[i] >> 4];
        s += digits[p[i] & 15];
    }
    return s;
}

// splitmix64: reproducible data without Core's or the project's RNG.
struct Rng {
    uint64_t state;
    uint64_t Next()
    {
        uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    void Fill(unsigned char* p, size_t n)
    {
        for (size_t i = 0; i < n; ++i) p[i] = static_cast<unsigned char>(Next() >> 56);
    }
};

// What this CPU and OS offer, read here (not through Core).
struct Cpu {
    bool sse41{false}, xsave{false}, avx{false}, avx2{false}, shani{false}, avx512fbwvl{false};
    uint32_t xcr0{0};
};

Cpu ReadCpu()
{
    Cpu c;
#if defined(__x86_64__) || defined(__i386__)
    unsigned a, b, cx, d;
    if (__get_cpuid(1, &a, &b, &cx, &d)) {
        c.sse41 = (cx >> 19) & 1;
        c.xsave = (cx >> 27) & 1;
        c.avx = (cx >> 28) & 1;
    }
    if (__get_cpuid_max(0, nullptr) >= 7) {
        __cpuid_count(7, 0, a, b, cx, d);
        c.avx2 = (b >> 5) & 1;
        c.shani = (b >> 29) & 1;
        c.avx512fbwvl = ((b >> 16) & 1) && ((b >> 30) & 1) && ((b >> 31) & 1);
    }
    if (c.xsave && c.avx) {
        uint32_t lo, hi;
        __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
        c.xcr0 = lo;
    }
#endif
    return c;
}

struct Built {
    bool sse41{false}, avx2{false}, avx512{false}, shani{false};
};

// The name the patched SHA256AutoDetect must return for `use` on this CPU,
// given how many sha256rnds2 the SHA unit overlaps (`band`: 2 where enough for
// four streams, 1 where more than one, else 0): SHA-NI (1 and 2 ways; 4 and 5
// in band 2, and 5 in band 1 where AVX-512's lanes do not run) replaces SSE4
// and AVX2 where the CPU has it, and AVX-512 16 ways in band 2; otherwise SSE4 (1
// way), SSE4.1 (4 ways), AVX2 (8 ways), AVX-512 (16 ways), each where the
// CPU, the OS's XCR0 and the build allow it.
// Where AVX-512 runs SHA256D64 and 512-bit adds are `deep`, its 32 lanes
// take batches of 32 first (",avx512(32way)" after the 16 ways).
// SHA256DMulti's lanes (AVX-512, 32 of them where 512-bit adds are `deep`,
// else 16) follow the CPU, not SHA256D64's choice, and are named last, then
// the SHA-NI streams that end what the lanes leave behind, where both exist.
std::string Expected(const Cpu& cpu, const Built& built, unsigned use, int band, bool deep)
{
    using namespace sha256_implementation;
    const bool sse4 = (use & USE_SSE4) && cpu.sse41;
    const bool ymm = cpu.xsave && cpu.avx && (cpu.xcr0 & 0x06) == 0x06;
    const bool zmm = cpu.xsave && cpu.avx && (cpu.xcr0 & 0xe6) == 0xe6;
    const bool avx512 = (use & USE_AVX512) && cpu.avx512fbwvl && zmm && built.avx512;
    const bool shani = sse4 && (use & USE_SHANI) && cpu.shani && built.sse41 && built.shani;
    std::string multi = !(sse4 && avx512) ? "" : deep ? ",avx512(32way multi)" : ",avx512(16way multi)";
    const std::string d64_avx512 = !avx512 ? "" : deep ? ",avx512(16way),avx512(32way)" : ",avx512(16way)";
    if (!multi.empty() && shani) multi += ",x86_shani(multi tail)";
    if (shani) {
        if (band == 2) return "x86_shani(1way,2way,4way,5way)" + multi;
        if (band == 1 && !avx512) return "x86_shani(1way,2way,5way)" + multi;
        return "x86_shani(1way,2way)" + d64_avx512 + multi;
    }
    if (!sse4) return "standard";
    std::string s = "sse4(1way)";
    if (built.sse41) s += ",sse41(4way)";
    if ((use & USE_AVX2) && cpu.avx2 && ymm && built.avx2) s += ",avx2(8way)";
    return s + d64_avx512 + multi;
}

struct Mode {
    const char* name;
    sha256_implementation::UseImplementation use;
};

const Mode MODES[] = {
    {"STANDARD", sha256_implementation::STANDARD},
    {"USE_SSE4", sha256_implementation::USE_SSE4},
    {"USE_SSE4_AND_AVX2", sha256_implementation::USE_SSE4_AND_AVX2},
    {"USE_SSE4_AND_SHANI", sha256_implementation::USE_SSE4_AND_SHANI},
    {"USE_SSE4_AND_AVX512", sha256_implementation::USE_SSE4_AND_AVX512},
    {"USE_ALL", sha256_implementation::USE_ALL},
};

std::array<unsigned char, 32> RefD64(const unsigned char* in64)
{
    const auto first = project::ReferenceSha256(in64, 64);
    return project::ReferenceSha256(first.data(), 32);
}

// SHA256D64 for 0..70 inputs (every tail after every width's loop) and for
// three to five batches of 32 with and without a tail (where the 32-way
// batches run each batch's schedules beside another's rounds), aligned,
// misaligned and in place, with guard bytes around the output.
void CheckD64(const std::string& label, Rng& rng, bool quick)
{
    const size_t max_n = 70;
    std::vector<size_t> counts;
    for (size_t n = 0; n <= max_n; ++n) {
        if (!quick || n <= 20 || n == 31 || n == 32 || n == 33 || n == 47 || n == max_n) counts.push_back(n);
    }
    for (const size_t n : {95, 96, 97, 128, 131, 160, 181}) {
        if (!quick || n == 97 || n == 131) counts.push_back(n);
    }
    std::string why;
    size_t cases = 0;
    struct Layout {
        size_t in_off, out_off;
        bool in_place;
    };
    const Layout layouts[] = {{0, 0, false}, {1, 3, false}, {5, 0, false}, {0, 0, true}, {7, 7, true}};
    for (const size_t n : counts) {
        if (!why.empty()) break;
        std::vector<unsigned char> msg(64 * n);
        rng.Fill(msg.data(), msg.size());
        if (n == 16) std::fill(msg.begin(), msg.end(), 0xff);
        std::vector<unsigned char> expect(32 * n);
        for (size_t i = 0; i < n; ++i) {
            const auto d = RefD64(msg.data() + 64 * i);
            std::copy(d.begin(), d.end(), expect.begin() + 32 * i);
        }
        for (const Layout& l : layouts) {
            const size_t guard = 16;
            std::vector<unsigned char> inbuf(64 * n + 2 * guard + 8), outbuf(32 * n + 2 * guard + 8, 0xa5);
            unsigned char* in = inbuf.data() + guard + l.in_off;
            std::copy(msg.begin(), msg.end(), in);
            unsigned char* out = l.in_place ? in : outbuf.data() + guard + l.out_off;
            std::vector<unsigned char> before = l.in_place ? inbuf : outbuf;
            SHA256D64(out, in, n);
            ++cases;
            const std::vector<unsigned char>& after = l.in_place ? inbuf : outbuf;
            const size_t off = static_cast<size_t>(out - after.data());
            if (!std::equal(expect.begin(), expect.end(), out)) {
                size_t bad = 0;
                while (bad < n && std::equal(expect.begin() + 32 * bad, expect.begin() + 32 * bad + 32, out + 32 * bad)) ++bad;
                why = "input " + std::to_string(bad) + " of " + std::to_string(n) + " (in +" + std::to_string(l.in_off) + ", out +" + std::to_string(l.out_off) +
                      (l.in_place ? ", in place" : "") + "): wrong hash";
                break;
            }
            // SHA256D64 writes its 32 * n output bytes and nothing else.
            for (size_t i = 0; i < after.size(); ++i) {
                if (i >= off && i < off + 32 * n) continue;
                if (after[i] != before[i]) {
                    why = std::to_string(n) + " inputs: byte " + std::to_string(i) + " outside the output was written";
                    break;
                }
            }
            if (!why.empty()) break;
        }
    }
    Report(why.empty(), label + ": SHA256D64 vs the project's reference, " + std::to_string(cases) +
                            " cases (0.." + std::to_string(max_n) + " and 95..181 inputs; aligned, misaligned, in place)", why);
}

void CheckNist(const std::string& label, const std::string& dir, bool quick)
{
    for (const char* file : {"SHA256ShortMsg.rsp", "SHA256LongMsg.rsp"}) {
        std::string why;
        size_t n = 0;
        try {
            const auto vectors = nist::ReadMsgFile(dir + "/" + file);
            for (const auto& v : vectors) {
                if (quick && n >= 8 && std::string(file) == "SHA256LongMsg.rsp") break;
                unsigned char d[32];
                const size_t len = v.len_bits / 8;
                CSHA256().Write(v.msg.data(), len).Finalize(d);
                unsigned char d2[32];
                CSHA256().Write(v.msg.data(), len / 3).Write(v.msg.data() + len / 3, len - len / 3).Finalize(d2);
                if (!std::equal(d, d + 32, v.md.begin()) || !std::equal(d2, d2 + 32, v.md.begin())) {
                    why = "Len = " + std::to_string(v.len_bits) + " (line " + std::to_string(v.line) + "): " + Hex(d, 32);
                    break;
                }
                ++n;
            }
        } catch (const std::exception& e) {
            why = e.what();
        }
        Report(why.empty(), label + ": CSHA256 vs NIST " + file + " (" + std::to_string(n) + " records, one and two writes)", why);
    }
    std::string why;
    size_t n = 0;
    try {
        const auto monte = nist::ReadMonteFile(dir + "/SHA256Monte.rsp");
        std::vector<unsigned char> seed = monte.seed;
        for (const auto& checkpoint : monte.checkpoints) {
            if (quick && n >= 10) break;
            unsigned char md[3][32];
            for (auto& m : md) std::copy(seed.begin(), seed.end(), m);
            for (int i = 0; i < 1000; ++i) {
                unsigned char next[32];
                CSHA256().Write(md[0], 32).Write(md[1], 32).Write(md[2], 32).Finalize(next);
                std::memmove(md[0], md[1], 64);
                std::copy(next, next + 32, md[2]);
            }
            if (!std::equal(md[2], md[2] + 32, checkpoint.begin())) {
                why = "COUNT = " + std::to_string(n) + ": " + Hex(md[2], 32);
                break;
            }
            seed.assign(md[2], md[2] + 32);
            ++n;
        }
    } catch (const std::exception& e) {
        why = e.what();
    }
    Report(why.empty(), label + ": CSHA256 vs NIST SHA256Monte.rsp (" + std::to_string(n) + " checkpoints)", why);
}

// A 64-digit hex hash as Bitcoin displays it (last byte first). Not Core's
// uint256::FromHex, which needs libbitcoin_util; the data is the project's and trusted.
uint256 U(const std::string& hex)
{
    uint256 v;
    auto nibble = [](char c) { return c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10; };
    for (size_t i = 0; i < 32 && hex.size() == 64; ++i) {
        v.data()[31 - i] = static_cast<unsigned char>(nibble(hex[2 * i]) << 4 | nibble(hex[2 * i + 1]));
    }
    return v;
}

// SHA256(SHA256(a || b)) with the project's reference: shares no code with Core.
uint256 RefPair(const uint256& a, const uint256& b)
{
    unsigned char buf[64];
    std::memcpy(buf, a.data(), 32);
    std::memcpy(buf + 32, b.data(), 32);
    const auto d = RefD64(buf);
    uint256 out;
    std::memcpy(out.data(), d.data(), 32);
    return out;
}

// SHA256DMulti for 0..70 messages (fewer and more than any lane count) of
// lengths around every padding case and long ones among them, misaligned,
// with guard bytes around the output.
void CheckDMulti(const std::string& label, Rng& rng, bool quick)
{
    static const size_t LENS[] = {0, 1, 31, 32, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 200, 500, 1000, 5000};
    std::string why;
    for (size_t n = 0; n <= 70 && why.empty(); ++n) {
        if (quick && n > 20 && n != 31 && n != 32 && n != 33 && n != 64 && n != 70) continue;
        std::vector<std::vector<unsigned char>> msgs(n);
        std::vector<const unsigned char*> in(n);
        std::vector<size_t> len(n);
        std::vector<unsigned char> expect(32 * n);
        for (size_t i = 0; i < n; ++i) {
            msgs[i].resize(LENS[rng.Next() % (sizeof(LENS) / sizeof(LENS[0]))] + 3);
            rng.Fill(msgs[i].data(), msgs[i].size());
            in[i] = msgs[i].data() + 1 + i % 3;
            len[i] = msgs[i].size() - 3;
            const auto first = project::ReferenceSha256(in[i], len[i]);
            const auto d = project::ReferenceSha256(first.data(), 32);
            std::copy(d.begin(), d.end(), expect.begin() + 32 * i);
        }
        const size_t guard = 16;
        std::vector<unsigned char> outbuf(32 * n + 2 * guard + 1, 0xa5);
        SHA256DMulti(outbuf.data() + guard + 1, in.data(), len.data(), n);
        if (!std::equal(expect.begin(), expect.end(), outbuf.begin() + guard + 1)) {
            why = std::to_string(n) + " messages: a digest differs from the reference";
        } else if (std::any_of(outbuf.begin(), outbuf.begin() + guard + 1, [](unsigned char c) { return c != 0xa5; }) ||
                   std::any_of(outbuf.end() - guard, outbuf.end(), [](unsigned char c) { return c != 0xa5; })) {
            why = std::to_string(n) + " messages: a guard byte was written";
        }
    }
    Report(why.empty(), label + ": SHA256DMulti of 0..70 messages of 0..5000 bytes vs the project's reference", why);
}

void CheckMerkle(const std::string& label, Rng& rng)
{
    std::string why;
    for (const auto& b : test::MainnetBlocks()) {
        std::vector<uint256> txids;
        for (const auto& t : b.txids) txids.push_back(U(t));
        bool mutated = true;
        const uint256 root = ComputeMerkleRoot(txids, &mutated);
        if (root.GetHex() != b.merkle_root || mutated) {
            why = "block " + std::to_string(b.height) + ": root " + root.GetHex() + (mutated ? " (mutated)" : "");
            break;
        }
    }
    Report(why.empty(), label + ": ComputeMerkleRoot of mainnet blocks 0, 170 and 100000 (src/test/util/mainnet_blocks.h)", why);
    why.clear();
    for (size_t n = 1; n <= 70 && why.empty(); ++n) {
        std::vector<uint256> level(n);
        for (auto& h : level) rng.Fill(h.data(), 32);
        const uint256 got = ComputeMerkleRoot(level);
        while (level.size() > 1) {
            if (level.size() & 1) level.push_back(level.back());
            std::vector<uint256> next;
            for (size_t i = 0; i < level.size(); i += 2) next.push_back(RefPair(level[i], level[i + 1]));
            level = next;
        }
        if (got != level[0]) why = std::to_string(n) + " leaves: " + got.GetHex() + ", reference " + level[0].GetHex();
    }
    Report(why.empty(), label + ": ComputeMerkleRoot of 1..70 random leaves vs the project's reference", why);
}

// XGETBV with ECX=1 (XINUSE): which register states are in use. Where the CPU
// has it, after SHA256D64 the upper YMM (bit 2) and upper ZMM0-15 (bit 6)
// states must be clean: a vector path that returns without VZEROUPPER slows
// every legacy-SSE instruction after it (the SHA-NI and SSE4 paths among them).
bool HaveXInUse(const Cpu& cpu)
{
#if defined(__x86_64__) || defined(__i386__)
    if (!cpu.xsave) return false;
    unsigned a, b, c, d;
    if (__get_cpuid_max(0, nullptr) < 0xd) return false;
    __cpuid_count(0xd, 1, a, b, c, d);
    return (a >> 2) & 1;
#else
    (void)cpu;
    return false;
#endif
}

void CheckUpperClean(const std::string& label, const Cpu& cpu)
{
#if defined(__x86_64__) || defined(__i386__)
    std::vector<unsigned char> buf(64 * 1024);
    std::string why;
    // Start clean, so that only this implementation's paths are judged.
    if (cpu.avx) __asm__ volatile("vzeroupper");
    for (const size_t n : {size_t{1024}, size_t{31}, size_t{1}}) {
        SHA256D64(buf.data(), buf.data(), n);
        uint32_t lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(1));
        if (lo & 0x44) {
            why = "after " + std::to_string(n) + " inputs XINUSE = 0x" + Hex(reinterpret_cast<unsigned char*>(&lo), 1) +
                  " (upper YMM/ZMM state left in use: a missing VZEROUPPER)";
            break;
        }
    }
    std::vector<const unsigned char*> in(40, buf.data());
    std::vector<size_t> len(40, 300);
    for (const size_t n : {size_t{40}, size_t{1}}) {
        if (!why.empty()) break;
        SHA256DMulti(buf.data() + 32 * 1024, in.data(), len.data(), n);
        uint32_t lo, hi;
        __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(1));
        if (lo & 0x44) {
            why = "after SHA256DMulti of " + std::to_string(n) + " messages XINUSE = 0x" +
                  Hex(reinterpret_cast<unsigned char*>(&lo), 1) + " (upper YMM/ZMM state left in use)";
        }
    }
    Report(why.empty(), label + ": SHA256D64 and SHA256DMulti return with the upper vector state clean (XGETBV(1))", why);
#else
    (void)label;
    (void)cpu;
#endif
}

} // namespace

int main(int argc, char** argv)
{
    Built built;
    bool have_built = false, quick = false, xinuse = true;
    std::string nist_dir;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a.rfind("--built=", 0) == 0) {
            have_built = true;
            std::string list = a.substr(8) + ",";
            for (size_t p; (p = list.find(',')) != std::string::npos; list.erase(0, p + 1)) {
                const std::string k = list.substr(0, p);
                if (k == "sse41") built.sse41 = true;
                else if (k == "avx2") built.avx2 = true;
                else if (k == "avx512") built.avx512 = true;
                else if (k == "shani") built.shani = true;
                else if (!k.empty()) {
                    std::fprintf(stderr, "core_check: --built: unknown kernel '%s' (expected sse41, avx2, avx512, shani)\n", k.c_str());
                    return 2;
                }
            }
        } else if (a.rfind("--nist-dir=", 0) == 0) {
            nist_dir = a.substr(11);
        } else if (a == "--no-xinuse") {
            xinuse = false; // qemu-user does not implement XGETBV with ECX=1
        } else if (a == "--quick") {
            quick = true;
        } else {
            std::fprintf(stderr, "core_check: unknown argument '%s' (usage: core_check --built=LIST [--nist-dir=DIR] [--quick] [--no-xinuse])\n", a.c_str());
            return 2;
        }
    }
    if (!have_built) {
        std::fprintf(stderr, "core_check: --built=LIST is required (the HAVE_* kernels of Core's CMake)\n");
        return 2;
    }
    if (nist_dir.empty()) nist_dir = nist::VectorsDir();

    const Cpu cpu = ReadCpu();
    std::printf("core_check: CPU sse4.1=%d avx=%d avx2=%d sha-ni=%d avx512f+bw+vl=%d xcr0=0x%x\n", cpu.sse41, cpu.avx, cpu.avx2,
                cpu.shani, cpu.avx512fbwvl, unsigned(cpu.xcr0));
    // The patched dispatch measures the SHA unit; a CPU close to a threshold
    // (3: four streams; 1.2: five streams without AVX-512's lanes) may measure
    // either side of it from one call to the next: accept both.
    const double overlap = cpu.shani && built.shani && built.sse41 && sha256d64_x86_shani::MeasureOverlap
                               ? sha256d64_x86_shani::MeasureOverlap() : 0;
    const bool wide = overlap >= 3.0, near = overlap > 2.6 && overlap < 3.4;
    const int band = wide ? 2 : overlap >= 1.2 ? 1 : 0;
    const bool near_low = overlap > 1.1 && overlap < 1.3;
    std::vector<int> bands{band};
    if (near) bands.push_back(wide ? 1 : 2);
    if (near_low) bands.push_back(band == 1 ? 0 : 1);
    std::printf("core_check: SHA unit overlap %.2f sha256rnds2 (four SHA-NI streams %s; five without AVX-512's lanes %s)\n",
                overlap, near ? "either way: close to 3" : wide ? "expected" : "not expected",
                near_low ? "either way: close to 1.2" : band >= 1 ? "expected" : "not expected");
    const double depth = cpu.avx512fbwvl && (cpu.xcr0 & 0xe6) == 0xe6 && built.avx512 && sha256_avx512_multi::MeasureAddDepth
                             ? sha256_avx512_multi::MeasureAddDepth() : 0;
    const bool deep = depth >= 4.0, near_deep = depth > 3.4 && depth < 4.6;
    std::printf("core_check: 512-bit add depth %.2f (32 lanes for SHA256DMulti %s)\n", depth,
                near_deep ? "either way: close to 4" : deep ? "expected" : "not expected");
    Rng rng{0x5eed2025u};
    for (const Mode& m : MODES) {
        const std::string got = SHA256AutoDetect(m.use);
        const std::string want = Expected(cpu, built, m.use, band, deep);
        bool ok = false;
        for (const int b : bands) {
            for (const bool d : {deep, !deep}) {
                if (d == deep || near_deep) ok |= got == Expected(cpu, built, m.use, b, d);
            }
        }
        const std::string label = std::string(m.name) + " [" + got + "]";
        Report(ok, std::string("SHA256AutoDetect(") + m.name + ") = '" + got + "'", "expected '" + want + "'");
        CheckD64(label, rng, quick);
        if (xinuse && HaveXInUse(cpu)) CheckUpperClean(label, cpu);
        if (nist_dir.empty()) {
            Report(false, label + ": NIST vectors", nist::MissingVectorsHelp(nist_dir));
        } else {
            CheckNist(label, nist_dir, quick);
        }
        CheckMerkle(label, rng);
        CheckDMulti(label, rng, quick);
    }
    // The patched default must name the new paths where this CPU has them.
    const std::string def = SHA256AutoDetect();
    if (cpu.shani && built.shani && built.sse41 && wide && !near) {
        Report(def.find("4way,5way)") != std::string::npos && def.rfind("x86_shani", 0) == 0,
               "default names SHA-NI 4-way and 5-way: '" + def + "'");
    }
    if (cpu.shani && built.shani && built.sse41 && band == 1 && !near && !near_low) {
        const std::string forced = SHA256AutoDetect(sha256_implementation::USE_SSE4_AND_SHANI);
        Report(forced == "x86_shani(1way,2way,5way)", "USE_SSE4_AND_SHANI names SHA-NI 5-way where the unit overlaps more than one sha256rnds2: '" + forced + "'");
    }
    if (cpu.avx512fbwvl && (cpu.xcr0 & 0xe6) == 0xe6 && cpu.sse41 && built.avx512) {
        const std::string forced = SHA256AutoDetect(sha256_implementation::USE_SSE4_AND_AVX512);
        Report(forced.find("avx512(16way)") != std::string::npos, "USE_SSE4_AND_AVX512 names AVX-512 16-way: '" + forced + "'");
    }
    SHA256AutoDetect();
    std::printf("core_check: %d passed, %d failed\n", g_passed, g_failed);
    return g_failed ? 1 : 0;
}
