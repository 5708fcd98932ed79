// SPDX-License-Identifier: MIT
// SHA256Multi / SHA256DMulti: many independent messages of any lengths at
// once, one message per lane of an N-lane compression kernel (the D64 files'
// TransformAvx512x16 and friends), scheduled like a job manager: a lane whose
// message ends takes the next message at once, so lanes do not wait for the
// longest message of a group. Built without -m flags: kernels are reached only
// through the registry below, after the CPU check.
#include <crypto/common.h>
#include <crypto/sha256.h>
#include <crypto/sha256_internal.h>
#include <crypto/sha256d64.h>

#include <compat/cpuid.h>

#include <atomic>
#include <cassert>
#include <cstdio>
#include <cstring>
#include <functional>

namespace sha256 {
namespace {

using SlicedFn = void (*)(uint32_t* st, const unsigned char* const* blocks);
using d64::BlockCursor;

struct MultiEntry {
    const char* name;
    int lanes;
    uint32_t needs;
    SlicedFn sliced;   // word-sliced N-lane kernel, or
    d64::JobsFn streams; // N SHA-NI streams (the job kernel), or neither: the 1-way row
    const char* technique;
    bool assembly = false; // built only with an assembler
    int wide_rank = 0;     // 0, or its place (from 1) among the rows that lead on a CPU
                           // with a wide SHA unit (sha256.h, PreferenceOrder)
};

constexpr uint32_t SHANI_NEEDS = cpu::SHANI | cpu::SSE41 | cpu::SSSE3;

// Eight AVX2 lanes: the assembly kernel where there is an assembler (from g++
// the intrinsics spill: ~157 cycles a block per lane on Zen 4 against ~123),
// else the lane template's.
#ifdef SHA256_D64_ASM
#define AVX2_8LANE_KERNEL sha256_avx2_x8_transform
#define AVX2_8LANE_TECHNIQUE "AVX2, one message per 32-bit lane of 8 (assembly)"
#else
#define AVX2_8LANE_KERNEL SHA256_D64_FN(d64::TransformAvx2x8)
#define AVX2_8LANE_TECHNIQUE "AVX2, one message per 32-bit lane of 8 (intrinsics: a build without an assembler)"
#endif

// Order is AutoDetectMulti's preference, fastest first, from bench_bitcoin's
// "txids of a block" table (doc/multi.md), as measured on Intel Sapphire
// Rapids; on a CPU with a wide SHA unit (AMD Zen 4) the wide_sha rows come
// first (PreferenceOrder). The last row, the 1-way loop, runs everywhere.
constexpr MultiEntry MULTI_REGISTRY[] = {
    {"avx512_16lane", 16, cpu::AVX512F | cpu::AVX512VL, SHA256_D64_FN(d64::TransformAvx512x16), nullptr,
     "AVX-512, one message per 32-bit lane of 16 (the D64 lane kernel)"},
    {"shani_2stream", 2, SHANI_NEEDS, nullptr, SHA256_D64_ASM_FN(sha256_shani_x2_jobs),
     "SHA-NI, two messages as two interleaved streams (assembly)", true, 2},
    // The 1-way loop twice: with SHA-NI (the transform AutoDetect then picks,
    // ~2.5 cycles/byte with CSHA256's overhead) it beats 8 AVX2 lanes (~3.7)
    // and 4 SSE4.1 lanes; without SHA-NI it is slower than both.
    {"oneway_shani", 1, SHANI_NEEDS, nullptr, nullptr,
     "CSHA256 per message with the selected transform, preferred when the CPU has SHA-NI"},
    {"shani_4stream", 4, SHANI_NEEDS, nullptr, SHA256_D64_ASM_FN(sha256_shani_x4_jobs),
     "SHA-NI, four messages as four interleaved streams (assembly)", true, 1},
    {"avx2_8lane", 8, cpu::AVX2, AVX2_8LANE_KERNEL, nullptr, AVX2_8LANE_TECHNIQUE},
    {"sse41_4lane", 4, cpu::SSE41 | cpu::SSSE3, SHA256_D64_FN(d64::TransformSse41x4), nullptr,
     "SSE4.1, one message per 32-bit lane of 4"},
    {"oneway", 1, 0, nullptr, nullptr, "CSHA256 per message with the selected transform (as Bitcoin Core)"},
    // After the 1-way loop, so never picked: it is here to run the lane
    // scheduler with a 16-lane kernel (the AVX-512 algorithm) on every machine.
    {"portable_16lane", 16, 0, d64::TransformPortable16, nullptr,
     "16 lanes of GCC/Clang generic vectors (tests the 16-lane scheduling everywhere)"},
};
constexpr int MULTI_ROWS = sizeof(MULTI_REGISTRY) / sizeof(MULTI_REGISTRY[0]);
constexpr int FindOneWay()
{
    for (int i = 0; i < MULTI_ROWS; ++i) {
        if (MULTI_REGISTRY[i].lanes == 1 && MULTI_REGISTRY[i].needs == 0) return i;
    }
    return -1;
}
constexpr int ONEWAY_ROW = FindOneWay();
static_assert(ONEWAY_ROW >= 0, "the 1-way row finishes what the lanes do not");
constexpr int MAX_LANES = 16; // the widest row (SelfTestMulti hands out more messages than this)
constexpr size_t PREFETCH_AHEAD = 8; // messages; ~3 steps of 16 lanes at 400 bytes each (measured: 4..16 alike)

// A kernel row is built where its kernel is; the 1-way rows always are.
constexpr bool Built(const MultiEntry& e) { return e.sliced || e.streams || e.lanes == 1; }
bool Runnable(const MultiEntry& e) { return detail::Runnable(e.needs, Built(e)); }

std::atomic<int> g_multi{ONEWAY_ROW};

// The last partial block of a message of len bytes at p and its padding, to
// pad (one or two blocks, returned); the 64 bytes before pad are scratch.
// Branch-free for messages of 64 bytes or more, the usual case: loops over the
// tail's bytes cost a mispredicted exit or two per message (SHA256DMulti, four
// SHA-NI streams, 3000 messages of 200-600 bytes on Zen 4: 2-3% of the time).
int FillPad(unsigned char* pad, const unsigned char* p, size_t len)
{
    const size_t rem = len % 64;
    const int blocks = rem < 56 ? 1 : 2;
    // Two halves: g++ 12 stores 64 bytes as four vector stores, but 128 with
    // rep stos, which takes longer to start.
    std::memset(pad, 0, 64);
    std::memset(pad + 64, 0, 64);
    if (len >= 64) {
        // The message's last 64 bytes, placed so that its last rem bytes land
        // at pad[0..rem); the others fall before pad.
        std::memcpy(pad + rem - 64, p + len - 64, 64);
    } else {
        for (size_t k = 0; k < rem; ++k) pad[k] = p[k];
    }
    pad[rem] = 0x80;
    WriteBE64(pad + 64 * blocks - 8, static_cast<uint64_t>(len) << 3);
    return blocks;
}

// One lane's message: whole blocks read in place, then the last partial block
// and the padding (one or two blocks) from a small buffer of its own, one run
// of blocks through a BlockCursor. The scheduler counts each lane's blocks to
// the end of its message (left).
struct Job {
    size_t msg;
    size_t whole;   // whole blocks of the message
    int pad_blocks; // 1 or 2
    // The padding at Pad() = area + 64; the 64 bytes before it are FillPad's.
    alignas(16) unsigned char area[64 + 128];
    unsigned char* Pad() { return area + 64; }
    const unsigned char* Pad() const { return area + 64; }

    void Start(size_t i, const unsigned char* p, size_t len)
    {
        msg = i;
        whole = len / 64;
        pad_blocks = FillPad(Pad(), p, len);
    }
    BlockCursor Cursor(const unsigned char* p) const
    {
        if (whole == 0) return {Pad(), nullptr, nullptr};
        return {p, p + 64 * whole, Pad()};
    }
    size_t Blocks() const { return whole + static_cast<size_t>(pad_blocks); }
};

// SHA-256 of 32 bytes, in place.
void HashInPlace32(unsigned char* digest)
{
    CSHA256().Write(digest, 32).Finalize(digest);
}

// A harmless block for idle lanes (their results are never read); the idle
// cursor returns to it after every block.
alignas(64) const unsigned char IDLE_BLOCK[64] = {};
constexpr BlockCursor IDLE_CURSOR{IDLE_BLOCK, IDLE_BLOCK + 64, IDLE_BLOCK};

void WriteDigest(unsigned char* out, const uint32_t* s)
{
    for (int j = 0; j < 8; ++j) WriteBE32(out + 4 * j, s[j]);
}

// A word-sliced kernel's state, st[j*N + lane]. N is a template argument so
// the per-lane copies compile to straight stores.
template <int N>
struct Lanes {
    const MultiEntry& e;
    uint32_t st[8 * N];

    explicit Lanes(const MultiEntry& entry) : e(entry) {}
    uint32_t& At(int lane, int j) { return st[j * N + lane]; }
    void Set(int lane, const uint32_t* s)
    {
        for (int j = 0; j < 8; ++j) At(lane, j) = s[j];
    }
    void Get(int lane, uint32_t* s)
    {
        for (int j = 0; j < 8; ++j) s[j] = At(lane, j);
    }
    // k blocks per lane from its cursor, which is left after them.
    void Compress(BlockCursor* c, size_t k)
    {
        for (size_t j = 0; j < k; ++j) {
            const unsigned char* at[N];
            for (int i = 0; i < N; ++i) {
                at[i] = c[i].at;
                c[i].at += 64;
                if (c[i].at == c[i].end) c[i].at = c[i].then;
            }
            e.sliced(st, at);
        }
    }
};

void OneWay(unsigned char* out, const unsigned char* const* inputs, const size_t* sizes, size_t count)
{
    for (size_t i = 0; i < count; ++i) CSHA256().Write(inputs[i], sizes[i]).Finalize(out + 32 * i);
}

// The order messages go to the lanes: long ones (BIG bytes or more) first, so
// that no long message is left running alone at the end, then the rest, each
// group in input order. Two scans, no sort.
class Feed
{
public:
    static constexpr size_t BIG = 4096;
    Feed(const size_t* sizes, size_t count) : sizes(sizes), count(count) {}
    bool Next(size_t& i)
    {
        for (; big < count; ++big) {
            if (sizes[big] >= BIG) {
                i = big++;
                return true;
            }
        }
        for (; small < count; ++small) {
            if (sizes[small] < BIG) {
                i = small++;
                return true;
            }
        }
        return false;
    }

private:
    const size_t* sizes;
    size_t count;
    size_t big{0}, small{0};
};

// A message handed out now has bytes that are usually in no cache yet:
// fetch the first block and the tail of the message PREFETCH_AHEAD places
// after m in input order (Feed's order, but for the long ones) meanwhile.
void PrefetchAhead(const unsigned char* const* inputs, const size_t* sizes, size_t count, size_t m)
{
    const size_t ahead = m + PREFETCH_AHEAD;
    if (ahead < count && sizes[ahead]) {
        __builtin_prefetch(inputs[ahead]);
        __builtin_prefetch(inputs[ahead] + 63);
        __builtin_prefetch(inputs[ahead] + sizes[ahead] - 1);
    }
}

// Messages go to the lanes in Feed's order; when a message ends its lane takes
// the next one. Once no message is left to hand out and fewer than half the lanes are
// busy, a wide call costs more than the busy lanes' blocks through the 1-way
// transform (measured with AVX-512 lanes and a SHA-NI transform: 7 busy lanes
// of 16 cost about as much either way), so those finish 1-way.
template <int n>
void ScheduleN(const MultiEntry& e, unsigned char* out, const unsigned char* const* inputs, const size_t* sizes,
               size_t count)
{
    if (count * 2 < static_cast<size_t>(n)) return OneWay(out, inputs, sizes, count);
    constexpr size_t IDLE = ~size_t{0} >> 1; // an idle lane's count never reaches 0
    Lanes<n> lanes(e);
    Job jobs[n];
    BlockCursor cur[n];
    size_t left[n]; // blocks to the end of the lane's message, or IDLE
    Feed feed(sizes, count);
    bool more = true;
    size_t m;
    int nbusy = 0;
    auto take = [&](int i) {
        jobs[i].Start(m, inputs[m], sizes[m]);
        lanes.Set(i, constants::IV);
        cur[i] = jobs[i].Cursor(inputs[m]);
        left[i] = jobs[i].Blocks();
        PrefetchAhead(inputs, sizes, count, m);
    };
    auto idle = [&](int i) {
        cur[i] = IDLE_CURSOR;
        left[i] = IDLE;
    };
    for (int i = 0; i < n; ++i) {
        if (more && (more = feed.Next(m))) {
            take(i);
            ++nbusy;
        } else {
            idle(i);
        }
    }
    uint32_t s[8];
    while (nbusy > 0) {
        if (!more && nbusy * 2 < n) {
            for (int i = 0; i < n; ++i) {
                if (left[i] == IDLE) continue;
                const Job& job = jobs[i];
                lanes.Get(i, s);
                const size_t pad = static_cast<size_t>(job.pad_blocks);
                if (left[i] > pad) {
                    Transform(s, cur[i].at, left[i] - pad); // the rest of the whole blocks
                    Transform(s, job.Pad(), pad);
                } else {
                    Transform(s, cur[i].at, left[i]); // inside pad
                }
                WriteDigest(out + 32 * job.msg, s);
            }
            return;
        }
        // Every busy lane up to the nearest end of a message (idle lanes have none).
        size_t k = IDLE;
        for (int i = 0; i < n; ++i) k = left[i] < k ? left[i] : k;
        lanes.Compress(cur, k);
        for (int i = 0; i < n; ++i) {
            if (left[i] == IDLE || (left[i] -= k) != 0) continue;
            lanes.Get(i, s);
            WriteDigest(out + 32 * jobs[i].msg, s);
            if (more && (more = feed.Next(m))) {
                take(i);
            } else {
                idle(i);
                --nbusy;
            }
        }
    }
}

// The SHA-NI rows: the job kernel hands out the messages itself, so the
// streams keep their states in registers from message to message; this loop
// only fills StreamJobs, CHUNK at a time (in Feed's order). Once no message is
// left and fewer than half the lanes are busy, those finish 1-way; until then
// idle lanes repeat a constant block.
template <int n>
void ScheduleJobs(d64::JobsFn run, unsigned char* out, const unsigned char* const* inputs, const size_t* sizes,
                  size_t count)
{
    if (count * 2 < static_cast<size_t>(n)) return OneWay(out, inputs, sizes, count);
    constexpr size_t CHUNK = 16;
    constexpr size_t IDLE = ~size_t{0} >> 1; // an idle lane's count never reaches 0
    d64::StreamLane lane[n];
    for (auto& l : lane) l.left = 0;
    d64::StreamJob job[CHUNK];
    Feed feed(sizes, count);
    size_t m;
    bool more = true;
    while (more) {
        size_t k = 0;
        for (; k < CHUNK && (more = feed.Next(m)); ++k) {
            d64::FillJob(job[k], inputs[m], sizes[m], out + 32 * m);
            PrefetchAhead(inputs, sizes, count, m);
        }
        if (k) run(lane, job, k);
    }
    d64::StreamJob idle[n];
    for (auto& j : idle) {
        std::memset(j.area, 0, sizeof(j.area));
        j.at = j.then = IDLE_BLOCK;
        j.end = IDLE_BLOCK + 64;
        j.blocks = IDLE;
        j.out = nullptr;
    }
    for (;;) {
        int busy = 0, unused = 0;
        for (const auto& l : lane) {
            busy += l.left != 0 && l.left < IDLE / 2;
            unused += l.left == 0;
        }
        if (busy * 2 < n) break;
        run(lane, idle, static_cast<size_t>(unused));
    }
    for (const auto& l : lane) {
        if (l.left == 0 || l.left >= IDLE / 2) continue;
        // sha256rnds2's order (abef = f e b a, cdgh = h g d c) -> a..h.
        uint32_t s[8] = {l.abef[3], l.abef[2], l.cdgh[3], l.cdgh[2], l.abef[1], l.abef[0], l.cdgh[1], l.cdgh[0]};
        size_t left = l.left;
        const unsigned char* at = l.c.at;
        const std::less<const unsigned char*> before;
        if (before(at, l.pad) || before(l.pad + sizeof(l.pad), at)) { // still in the message's whole blocks
            const size_t whole = static_cast<size_t>(l.c.end - at) / 64;
            Transform(s, at, whole);
            left -= whole;
            at = l.c.then;
        }
        Transform(s, at, left);
        WriteDigest(l.out, s);
    }
}

void Schedule(const MultiEntry& e, unsigned char* out, const unsigned char* const* inputs, const size_t* sizes,
              size_t count)
{
    if (e.sliced && e.lanes == 16) return ScheduleN<16>(e, out, inputs, sizes, count);
    if (e.sliced && e.lanes == 8) return ScheduleN<8>(e, out, inputs, sizes, count);
    if (e.sliced && e.lanes == 4) return ScheduleN<4>(e, out, inputs, sizes, count);
    if (e.streams && e.lanes == 2) return ScheduleJobs<2>(e.streams, out, inputs, sizes, count);
    if (e.streams && e.lanes == 4) return ScheduleJobs<4>(e.streams, out, inputs, sizes, count);
    OneWay(out, inputs, sizes, count); // no kernel of that shape: the registry and this list disagree
}

void Run(int row, unsigned char* out, const unsigned char* const* inputs, const size_t* sizes, size_t count)
{
    const MultiEntry& e = MULTI_REGISTRY[row];
    if (e.lanes == 1) return OneWay(out, inputs, sizes, count);
    Schedule(e, out, inputs, sizes, count);
}

// The second SHA-256 of DMulti: each 32-byte digest, in place. Every message
// is one block (the digest, then fixed padding), so lanes need no scheduling:
// n digests at a time go straight to the kernel; the last few go 1-way.
template <int n>
void SecondHashN(const MultiEntry& e, unsigned char* out, size_t count)
{
    Lanes<n> lanes(e);
    unsigned char blocks[n][64];
    BlockCursor cur[n];
    for (int i = 0; i < n; ++i) {
        std::memset(blocks[i] + 32, 0, 32);
        blocks[i][32] = 0x80;
        blocks[i][62] = 0x01; // bit length 256, big-endian
    }
    uint32_t s[8];
    size_t done = 0;
    for (; done + n <= count; done += n) {
        for (int i = 0; i < n; ++i) {
            std::memcpy(blocks[i], out + 32 * (done + i), 32);
            lanes.Set(i, constants::IV);
            cur[i] = {blocks[i], nullptr, nullptr};
        }
        lanes.Compress(cur, 1);
        for (int i = 0; i < n; ++i) {
            lanes.Get(i, s);
            WriteDigest(out + 32 * (done + i), s);
        }
    }
    for (; done < count; ++done) HashInPlace32(out + 32 * done);
}

void SecondHash(int row, unsigned char* out, size_t count)
{
    const MultiEntry& e = MULTI_REGISTRY[row];
    if (e.sliced && e.lanes == 16) return SecondHashN<16>(e, out, count);
    if (e.sliced && e.lanes == 8) return SecondHashN<8>(e, out, count);
    if (e.sliced && e.lanes == 4) return SecondHashN<4>(e, out, count);
    size_t done = 0;
    // The SHA-NI rows: the streams' own kernel for one 32-byte message each,
    // with no states to convert and no block to copy (through the stream
    // transform that came before the job kernels, SHA256DMulti of 3000
    // messages of 200-600 bytes took 4-6% longer with four streams, ~3% with
    // two; Zen 4).
    if (const d64::KernelFn hash32 = e.streams ? d64::ShaniHash32(e.lanes) : nullptr) {
        const size_t n = static_cast<size_t>(e.lanes);
        for (; done + n <= count; done += n) hash32(out + 32 * done, out + 32 * done);
    }
    for (; done < count; ++done) HashInPlace32(out + 32 * done);
}

#ifndef NDEBUG
bool Overlaps(const unsigned char* out, size_t count, const unsigned char* const* inputs, const size_t* sizes)
{
    const unsigned char* out_end = out + 32 * count;
    for (size_t i = 0; i < count; ++i) {
        if (sizes[i] && inputs[i] < out_end && out < inputs[i] + sizes[i]) return true;
    }
    return false;
}
#endif

int FindMulti(const std::string& name)
{
    for (int i = 0; i < MULTI_ROWS; ++i) {
        if (name == MULTI_REGISTRY[i].name) return i;
    }
    return -1;
}

} // namespace

void d64::FillJob(StreamJob& job, const unsigned char* p, size_t len, unsigned char* out)
{
    const size_t whole = len / 64;
    job.blocks = whole + static_cast<size_t>(FillPad(job.area + 64, p, len));
    job.at = whole ? p : nullptr;
    job.end = whole ? p + 64 * whole : nullptr;
    job.then = nullptr;
    job.out = out;
}

std::vector<MultiImplementation> MultiImplementations()
{
    std::vector<MultiImplementation> out;
    for (int i : detail::PreferenceOrder(MULTI_REGISTRY)) {
        const MultiEntry& e = MULTI_REGISTRY[i];
        MultiImplementation impl;
        detail::Describe(impl, e.name, e.needs, e.technique, Built(e), e.assembly);
        impl.lanes = e.lanes;
        impl.wide_sha = e.wide_rank > 0;
        out.push_back(impl);
    }
    return out;
}

bool SetMultiImplementation(const std::string& name)
{
    const int i = FindMulti(name);
    if (i < 0 || !Runnable(MULTI_REGISTRY[i])) return false;
    g_multi.store(i, std::memory_order_relaxed);
    return true;
}

std::string CurrentMultiImplementation() { return MULTI_REGISTRY[g_multi.load(std::memory_order_relaxed)].name; }

bool SelfTestMulti(const std::string& name)
{
    const int row = FindMulti(name);
    if (row < 0 || !Runnable(MULTI_REGISTRY[row])) return false;
    // Every padding case (0, 55, 56, 63, 64, 119, 120 bytes...), messages
    // ending at different blocks, more messages than lanes, misaligned.
    static const size_t LENS[] = {0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 200, 300, 1000};
    constexpr size_t COUNT = 2 * MAX_LANES + 5;
    static unsigned char data[1000 + 7];
    for (size_t i = 0; i < sizeof(data); ++i) data[i] = static_cast<unsigned char>(i * 131 + 7);
    const unsigned char* in[COUNT];
    size_t len[COUNT];
    for (size_t i = 0; i < COUNT; ++i) {
        len[i] = LENS[(i * 7) % (sizeof(LENS) / sizeof(LENS[0]))];
        in[i] = data + 1 + i % 7;
    }
    unsigned char got[32 * COUNT], want[32 * COUNT];
    OneWay(want, in, len, COUNT);
    Run(row, got, in, len, COUNT);
    if (std::memcmp(got, want, sizeof(got)) != 0) return false;
    for (size_t i = 0; i < COUNT; ++i) HashInPlace32(want + 32 * i);
    SecondHash(row, got, COUNT);
    return std::memcmp(got, want, sizeof(got)) == 0;
}

std::string AutoDetectMulti()
{
    for (int i : detail::PreferenceOrder(MULTI_REGISTRY)) {
        const MultiEntry& e = MULTI_REGISTRY[i];
        if (!Runnable(e)) continue;
        if (SelfTestMulti(e.name)) {
            g_multi.store(i, std::memory_order_relaxed);
            return e.name;
        }
        std::fprintf(stderr, "sha256: multi-buffer implementation '%s' failed its self-test and will not be used\n",
                     e.name);
    }
    g_multi.store(ONEWAY_ROW, std::memory_order_relaxed);
    return MULTI_REGISTRY[ONEWAY_ROW].name;
}

} // namespace sha256

void SHA256Multi(unsigned char* out, const unsigned char* const* inputs, const size_t* sizes, size_t count)
{
    assert(!sha256::Overlaps(out, count, inputs, sizes) && "SHA256Multi: out overlaps an input");
    sha256::Run(sha256::g_multi.load(std::memory_order_relaxed), out, inputs, sizes, count);
}

void SHA256DMulti(unsigned char* out, const unsigned char* const* inputs, const size_t* sizes, size_t count)
{
    assert(!sha256::Overlaps(out, count, inputs, sizes) && "SHA256DMulti: out overlaps an input");
    const int row = sha256::g_multi.load(std::memory_order_relaxed);
    sha256::Run(row, out, inputs, sizes, count);
    sha256::SecondHash(row, out, count);
}
