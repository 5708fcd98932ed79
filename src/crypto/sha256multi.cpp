// SPDX-License-Identifier: MIT
// SHA256Multi / SHA256DMulti: many independent messages of any lengths at
// once, one message per lane or stream of a kernel of the kernel table
// (crypto/sha256_kernels.h), scheduled like a job manager: a lane whose
// message ends takes the next message at once, so lanes do not wait for the
// longest message of a group. Built without -m flags: kernels are reached only
// through the registry below, after the CPU check.
#include <crypto/common.h>
#include <crypto/sha256.h>
#include <crypto/sha256_internal.h>
#include <crypto/sha256_kernels.h>
#include <crypto/sha256_registry.h>

#include <compat/cpuid.h>

#include <algorithm>
#include <cassert>
#include <cstring>
#include <functional>
#include <vector>

namespace sha256 {
namespace {

using kernel::Shape;
using sha256_jobs::Cursor;

constexpr size_t PREFETCH_AHEAD = 8; // messages; ~3 steps of 16 lanes at 400 bytes each (measured: 4..16 alike)

// The last partial block of a message of len bytes at p and its padding, to
// pad (one or two blocks, returned); the 64 bytes before pad are scratch.
// No loop over the tail's bytes for messages of 64 bytes or more, the usual
// case: such loops cost a mispredicted exit or two per message. Inlined, and
// clearing only the blocks the padding takes, rather than a call that clears
// both: measurably faster for the txids of a block (doc/results/2026-11-27-lab-notes.md).
inline __attribute__((always_inline)) int FillPad(unsigned char* pad, const unsigned char* p, size_t len)
{
    const size_t rem = len % 64;
    const int blocks = rem < 56 ? 1 : 2;
    // A second block for 8 tails in 64. No kernel hashes past the padding (the
    // job kernel copies all 128 bytes into its lane, but its count stops
    // there). A block at a time: g++ 12 stores 64 bytes as four vector stores,
    // but 128 with rep stos.
    std::memset(pad, 0, 64);
    if (blocks == 2) std::memset(pad + 64, 0, 64);
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

// Where a lane reads a job's blocks: its whole blocks in place, then its last
// partial block and padding from the job's own buffer, as one run of blocks
// (the job kernels keep this cursor in the lane themselves).
Cursor RunOf(const sha256_jobs::Job& job)
{
    if (!job.at) return {job.area + 64, nullptr, nullptr};
    return {job.at, job.end, job.area + 64};
}

// The padding blocks of a job (1 or 2): its blocks after the whole ones.
size_t PadBlocks(const sha256_jobs::Job& job)
{
    return job.blocks - (job.at ? static_cast<size_t>(job.end - job.at) / 64 : 0);
}

// SHA-256 of 32 bytes, in place.
void HashInPlace32(unsigned char* digest)
{
    CSHA256().Write(digest, 32).Finalize(digest);
}

void WriteDigest(unsigned char* out, const uint32_t* s)
{
    for (int j = 0; j < 8; ++j) WriteBE32(out + 4 * j, s[j]);
}

// SHA-256 of one message with transform t: its whole blocks in place, then its
// padded tail.
void HashWith(TransformFn t, unsigned char* out, const unsigned char* p, size_t len)
{
    alignas(16) unsigned char area[64 + 128];
    uint32_t s[8];
    std::memcpy(s, constants::IV, sizeof(s));
    if (len >= 64) t(s, p, len / 64);
    t(s, area + 64, static_cast<size_t>(FillPad(area + 64, p, len)));
    WriteDigest(out, s);
}

// A harmless block for idle lanes (their results are never read); the idle
// cursor returns to it after every block.
alignas(64) const unsigned char IDLE_BLOCK[64] = {};
constexpr Cursor IDLE_CURSOR{IDLE_BLOCK, IDLE_BLOCK + 64, IDLE_BLOCK};

// A word-sliced kernel's state, st[j*N + lane]. N is a template argument so
// the per-lane copies compile to straight stores.
template <int N>
struct Lanes {
    kernel::LanesFn kernel;
    uint32_t st[8 * N];

    explicit Lanes(kernel::LanesFn fn) : kernel(fn) {}
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
    void Compress(Cursor* c, size_t k)
    {
        for (size_t j = 0; j < k; ++j) {
            const unsigned char* at[N];
            for (int i = 0; i < N; ++i) {
                at[i] = c[i].at;
                c[i].at += 64;
                if (c[i].at == c[i].end) c[i].at = c[i].then;
            }
            kernel(st, at);
        }
    }
};

void OneWay(unsigned char* out, const unsigned char* const* inputs, const size_t* sizes, size_t count)
{
    for (size_t i = 0; i < count; ++i) CSHA256().Write(inputs[i], sizes[i]).Finalize(out + 32 * i);
}

// The order messages go to the lanes: long ones (BIG bytes or more) first,
// longest first, so that no long message is left running alone at the end
// while the other lanes idle or it finishes one block at a time (handed out
// in input order, a long one that came late did), then the rest in input
// order. The long ones are few where messages are transactions: their
// indices are sorted; the rest are taken by a scan.
class Feed
{
public:
    static constexpr size_t BIG = 4096;
    Feed(const size_t* sizes, size_t count) : sizes(sizes), count(count)
    {
        for (size_t i = 0; i < count; ++i) {
            if (sizes[i] >= BIG) big.push_back(i);
        }
        std::stable_sort(big.begin(), big.end(), [sizes](size_t a, size_t b) { return sizes[a] > sizes[b]; });
    }
    bool Next(size_t& i)
    {
        if (next_big < big.size()) {
            i = big[next_big++];
            return true;
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
    std::vector<size_t> big;
    size_t next_big{0}, small{0};
};

// A message handed out now has bytes that are usually in no cache yet:
// fetch the first block and the tail of the message PREFETCH_AHEAD places
// after m in input order (Feed's order, but for the long ones) meanwhile.
// Always inlined: GCC judges a function that only prefetches to have no
// effect and drops calls to it (g++ 12 -O2 left no prefetch in this file).
inline __attribute__((always_inline)) void PrefetchAhead(const unsigned char* const* inputs, const size_t* sizes, size_t count, size_t m)
{
    const size_t ahead = m + PREFETCH_AHEAD;
    if (ahead < count && sizes[ahead]) {
        __builtin_prefetch(inputs[ahead]);
        __builtin_prefetch(inputs[ahead] + 63);
        __builtin_prefetch(inputs[ahead] + sizes[ahead] - 1);
    }
}

struct MultiRow;
//! The SHA-256 of every message (SHA256Multi), and of every 32-byte digest at out, in place (DMulti's second).
using FirstFn = void (*)(const MultiRow& e, unsigned char* out, const unsigned char* const* inputs,
                         const size_t* sizes, size_t count);
using SecondFn = void (*)(const MultiRow& e, unsigned char* out, size_t count);

// A row: the two passes of SHA256DMulti, instantiated for its kernels' width
// when the row is made, and the kernels they call.
struct MultiRow {
    registry::Base base;
    FirstFn first;
    SecondFn second;
    kernel::LanesFn lanes;
    kernel::JobsFn jobs;
    kernel::HashFn hash32;
    TransformFn transform; // a 1-way row's own transform (nullptr: the selected one)
};

// Messages go to the lanes in Feed's order; when a message ends its lane takes
// the next one. Once no message is left to hand out and fewer than half the lanes are
// busy, a wide call costs more than the busy lanes' blocks through the 1-way
// transform (measured with AVX-512 lanes and a SHA-NI transform: 7 busy lanes
// of 16 cost about as much either way), so those finish 1-way.
template <int n>
void ScheduleLanes(const MultiRow& e, unsigned char* out, const unsigned char* const* inputs, const size_t* sizes,
                   size_t count)
{
    if (count * 2 < static_cast<size_t>(n)) return OneWay(out, inputs, sizes, count);
    constexpr size_t IDLE = IDLE_JOB_BLOCKS; // an idle lane's count never reaches 0
    Lanes<n> lanes(e.lanes);
    sha256_jobs::Job jobs[n];
    Cursor cur[n];
    size_t left[n]; // blocks to the end of the lane's message, or IDLE
    Feed feed(sizes, count);
    bool more = true;
    size_t m;
    int nbusy = 0;
    auto take = [&](int i) {
        FillJob(jobs[i], inputs[m], sizes[m], out + 32 * m);
        lanes.Set(i, constants::IV);
        cur[i] = RunOf(jobs[i]);
        left[i] = jobs[i].blocks;
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
                const sha256_jobs::Job& job = jobs[i];
                lanes.Get(i, s);
                const size_t pad = PadBlocks(job);
                if (left[i] > pad) {
                    Transform(s, cur[i].at, left[i] - pad); // the rest of the whole blocks
                    Transform(s, job.area + 64, pad);
                } else {
                    Transform(s, cur[i].at, left[i]); // inside pad
                }
                WriteDigest(job.out, s);
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
            WriteDigest(jobs[i].out, s);
            if (more && (more = feed.Next(m))) {
                take(i);
            } else {
                idle(i);
                --nbusy;
            }
        }
    }
}

// The second SHA-256 of DMulti on a Lanes kernel, for a set without a Hash32
// kernel: each 32-byte digest, in place. Every message is one block (the
// digest, then fixed padding), so lanes need no scheduling: n digests at a
// time go straight to the kernel; the last few go 1-way.
template <int n>
void SecondHashLanes(const MultiRow& e, unsigned char* out, size_t count)
{
    Lanes<n> lanes(e.lanes);
    unsigned char blocks[n][64];
    Cursor cur[n];
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

// The rows of a job kernel (SHA-NI streams, AVX-512 lanes): the kernel hands
// out the messages itself, so the streams or lanes keep their states in
// registers from message to message; this loop only fills Jobs, CHUNK at a
// time (in Feed's order). Once no message is left and fewer than half the
// lanes are busy, those finish 1-way; until then idle lanes repeat a constant
// block. Four jobs a lane, at least 16, a call: fewer calls made
// avx512_16way's txids of a block faster (bench-compare; doc/results/2026-11-27-lab-notes.md).
template <int n>
void ScheduleStreams(const MultiRow& e, unsigned char* out, const unsigned char* const* inputs, const size_t* sizes,
                     size_t count)
{
    if (count * 2 < static_cast<size_t>(n)) return OneWay(out, inputs, sizes, count);
    constexpr size_t CHUNK = n > 4 ? 4 * n : 16;
    constexpr size_t IDLE = IDLE_JOB_BLOCKS;
    sha256_jobs::Lane lane[n];
    for (auto& l : lane) l.left = 0;
    sha256_jobs::Job job[CHUNK];
    Feed feed(sizes, count);
    size_t m;
    bool more = true;
    while (more) {
        size_t k = 0;
        for (; k < CHUNK && (more = feed.Next(m)); ++k) {
            FillJob(job[k], inputs[m], sizes[m], out + 32 * m);
            PrefetchAhead(inputs, sizes, count, m);
        }
        if (k) e.jobs(lane, job, k);
    }
    sha256_jobs::Job idle[n];
    for (auto& j : idle) IdleJob(j, IDLE_BLOCK);
    for (;;) {
        int busy = 0, unused = 0;
        for (const auto& l : lane) {
            busy += l.left != 0 && l.left < IDLE / 2;
            unused += l.left == 0;
        }
        if (busy * 2 < n) break;
        e.jobs(lane, idle, static_cast<size_t>(unused));
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

// The second SHA-256 with the set's Hash32 kernel: n contiguous digests a
// call, with no states to convert and no block to copy. On SHA-NI streams a
// per-block stream kernel that needs both made the txids of a block slower
// (doc/results/2026-11-27-lab-notes.md); for AVX-512 lanes see LanesRow.
template <int n>
void SecondHashKernel(const MultiRow& e, unsigned char* out, size_t count)
{
    size_t done = 0;
    for (; done + n <= count; done += n) e.hash32(out + 32 * done, out + 32 * done);
    for (; done < count; ++done) HashInPlace32(out + 32 * done);
}

// A 1-way row with its own transform.
void OneWayOwn(const MultiRow& e, unsigned char* out, const unsigned char* const* inputs, const size_t* sizes,
               size_t count)
{
    for (size_t i = 0; i < count; ++i) HashWith(e.transform, out + 32 * i, inputs[i], sizes[i]);
}
void SecondOneWayOwn(const MultiRow& e, unsigned char* out, size_t count)
{
    for (size_t i = 0; i < count; ++i) HashWith(e.transform, out + 32 * i, out + 32 * i, 32);
}

// The 1-way row with the selected transform: Bitcoin Core's loop.
void OneWaySelected(const MultiRow&, unsigned char* out, const unsigned char* const* inputs, const size_t* sizes,
                    size_t count)
{
    OneWay(out, inputs, sizes, count);
}
void SecondOneWaySelected(const MultiRow&, unsigned char* out, size_t count)
{
    for (size_t i = 0; i < count; ++i) HashInPlace32(out + 32 * i);
}

// Rows from kernels of the table, K = kernel::Find(name, shape): the
// schedulers are instantiated for the kernel's width here, so a row runs its
// own kernels or does not compile.
// A lanes row takes its set's Hash32 kernel for the second hash where the
// table has one (portable_16way): the digests go to it as they lie, with the
// padding's fixed words folded into the schedule, rather than lane by lane
// into blocks and states (the faster of the two with AVX-512 lanes:
// doc/results/2026-11-27-lab-notes.md).
template <size_t K>
constexpr MultiRow LanesRow(const char* technique)
{
    constexpr const kernel::Kernel& k = kernel::KERNELS[K];
    static_assert(k.shape == Shape::Lanes, "a lanes row needs a Lanes kernel");
    constexpr size_t H = kernel::Lookup(k.name, Shape::Hash32);
    if constexpr (H == kernel::KERNEL_COUNT) {
        return {registry::From(k, technique), &ScheduleLanes<k.ways>, &SecondHashLanes<k.ways>, k.lanes,
                nullptr, nullptr, nullptr};
    } else {
        constexpr const kernel::Kernel& hash32 = kernel::KERNELS[H];
        static_assert(hash32.ways == k.ways && hash32.needs == k.needs && hash32.source == k.source,
                      "a lanes row's Hash32 kernel has its Lanes kernel's width, needs and source");
        return {registry::From(k, technique), &ScheduleLanes<k.ways>, &SecondHashKernel<k.ways>, k.lanes,
                nullptr, hash32.hash, nullptr};
    }
}

template <size_t K>
constexpr MultiRow StreamsRow(const char* technique)
{
    constexpr const kernel::Kernel& jobs = kernel::KERNELS[K];
    constexpr const kernel::Kernel& hash32 = kernel::Get(jobs.name, Shape::Hash32);
    static_assert(jobs.shape == Shape::Jobs && hash32.ways == jobs.ways, "a streams row needs Jobs and Hash32 kernels of one width");
    registry::Base b = registry::From(jobs, technique);
    b.needs |= hash32.needs;
    b.built = jobs.Built() && hash32.Built();
    return {b, &ScheduleStreams<jobs.ways>, &SecondHashKernel<jobs.ways>, nullptr, jobs.jobs, hash32.hash, nullptr};
}

template <size_t K>
constexpr MultiRow OneWayRow(const char* technique)
{
    constexpr const kernel::Kernel& k = kernel::KERNELS[K];
    static_assert(k.shape == Shape::Transform, "a 1-way row needs a Transform kernel");
    return {registry::From(k, technique), &OneWayOwn, &SecondOneWayOwn, nullptr, nullptr, nullptr,
            k.transform};
}

constexpr MultiRow SelectedTransformRow(const char* name, const char* technique)
{
    return {{name, 0, true, kernel::Source::Portable, 1, technique, true, {}}, &OneWaySelected, &SecondOneWaySelected,
            nullptr, nullptr, nullptr, nullptr};
}

using kernel::Find;

#ifdef SHA256_KERNELS_ASM
#define AVX2_8WAY_TECHNIQUE "AVX2, one message per 32-bit lane of 8 (assembly)"
#else
#define AVX2_8WAY_TECHNIQUE "AVX2, one message per 32-bit lane of 8 (intrinsics: a build without an assembler)"
#endif

// Order is AutoDetectMulti's preference, fastest first, from bench_bitcoin's
// "txids of a block" table (doc/multi.md). The SHA-NI stream rows carry the
// streams' order rules, as for D64 (StreamsLeading), ahead of the other SHA-NI
// rows from an overlap of 1.7: below it (the Intel Xeons measured) four streams
// and their scheduler cost more than they give, and two lead only as listed
// (doc/results/, doc/multi.md). The 1-way loop with the
// SHA-NI transform beats the AVX2 and SSE4.1 lanes; "oneway", Bitcoin Core's
// loop, runs everywhere.
constexpr double STREAMS_LEAD_SHANI_ROWS = 1.7;
constexpr MultiRow ROWS[] = {
    StreamsRow<Find("avx512_16way", Shape::Jobs)>("AVX-512, one message per 32-bit lane of 16, a job kernel (the D64 lane algorithm)"),
    // Two registers of lanes a word fill the gaps of each other's chain of
    // dependent operations where the vector unit works on several 512-bit adds
    // at once: then ahead of the AVX-512 rows with one (a decision from the
    // measured runs of doc/results/, doc/multi.md).
    registry::Leading(StreamsRow<Find("avx512_32way", Shape::Jobs)>("AVX-512, one message per 32-bit lane of 32 in two registers a word, a job kernel"),
                      {cpu::Probe::Avx512AddDepth, 4.0, kernel::AVX512_NEEDS, 1}),
    StreamsLeading(StreamsRow<Find("shani_2way", Shape::Jobs)>("SHA-NI, two messages as two interleaved streams (assembly)"), 2, STREAMS_LEAD_SHANI_ROWS),
    OneWayRow<Find("shani", Shape::Transform)>("SHA-NI transform, one message at a time"),
    StreamsLeading(StreamsRow<Find("shani_4way", Shape::Jobs)>("SHA-NI, four messages as four interleaved streams (assembly)"), 1, STREAMS_LEAD_SHANI_ROWS),
    LanesRow<Find("avx2_8way", Shape::Lanes)>(AVX2_8WAY_TECHNIQUE),
    LanesRow<Find("sse41_4way", Shape::Lanes)>("SSE4.1, one message per 32-bit lane of 4"),
    SelectedTransformRow("oneway", "CSHA256 per message with the selected transform (as Bitcoin Core)"),
    // After the 1-way loop, so never picked: they run the lane scheduler on
    // every machine (16 lanes: the AVX-512 algorithm's width).
    LanesRow<Find("portable_16way", Shape::Lanes)>("16 lanes of GCC/Clang generic vectors (the 16-lane scheduling everywhere)"),
#ifdef SHA256_TEST_EXTRA_ROW
    LanesRow<Find("portable_6way", Shape::Lanes)>("6 lanes of generic vectors (SHA256_TEST_EXTRA_ROW)"),
#endif
};
constexpr int ROW_COUNT = sizeof(ROWS) / sizeof(ROWS[0]);
constexpr int ONEWAY = registry::PortableRow(ROWS);
static_assert(ONEWAY >= 0 && ROWS[ONEWAY].base.uses_transform, "the 1-way loop finishes what the lanes do not");

registry::Registry<MultiRow, ROW_COUNT> g_registry{ROWS, "multi-buffer implementation", ONEWAY};

constexpr int MaxWays()
{
    int m = 1;
    for (const auto& e : ROWS) m = e.base.ways > m ? e.base.ways : m;
    return m;
}

#ifndef NDEBUG
bool Overlaps(const unsigned char* out, size_t count, const unsigned char* const* inputs, const size_t* sizes)
{
    const auto o = reinterpret_cast<uintptr_t>(out);
    for (size_t i = 0; i < count; ++i) {
        const auto p = reinterpret_cast<uintptr_t>(inputs[i]);
        if (sizes[i] && p < o + 32 * count && o < p + sizes[i]) return true;
    }
    return false;
}
#endif

} // namespace

void IdleJob(sha256_jobs::Job& job, const unsigned char* block)
{
    std::memset(job.area, 0, sizeof(job.area));
    job.at = job.then = block;
    job.end = block + 64;
    job.blocks = IDLE_JOB_BLOCKS;
    job.out = nullptr;
}

void FillJob(sha256_jobs::Job& job, const unsigned char* p, size_t len, unsigned char* out)
{
    const size_t whole = len / 64;
    job.blocks = whole + static_cast<size_t>(FillPad(job.area + 64, p, len));
    job.at = whole ? p : nullptr;
    job.end = whole ? p + 64 * whole : nullptr;
    job.then = nullptr;
    job.out = out;
}

std::vector<size_t> detail::FeedOrder(const size_t* sizes, size_t count)
{
    std::vector<size_t> order;
    Feed feed(sizes, count);
    for (size_t m = 0; feed.Next(m);) order.push_back(m);
    return order;
}

std::vector<MultiImplementation> MultiImplementations()
{
    return g_registry.List<MultiImplementation>([](MultiImplementation&, const MultiRow&) {});
}

bool SetMultiImplementation(const std::string& name) { return g_registry.Set(name); }

std::string CurrentMultiImplementation() { return g_registry.Current().base.name; }

namespace {
bool SelfTestRow(const MultiRow& e)
{
    // Every padding case (0, 55, 56, 63, 64, 119, 120 bytes...), messages
    // ending at different blocks, more than twice as many messages as the widest row has lanes,
    // misaligned; against the portable transform. Everything here is the
    // caller's own: AutoDetect may run on several threads at once.
    static const size_t LENS[] = {0, 1, 3, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 200, 300, 1000};
    constexpr size_t COUNT = 2 * MaxWays() + 5;
    unsigned char data[1000 + 7];
    for (size_t i = 0; i < sizeof(data); ++i) data[i] = static_cast<unsigned char>(i * 131 + 7);
    const unsigned char* in[COUNT];
    size_t len[COUNT];
    for (size_t i = 0; i < COUNT; ++i) {
        len[i] = LENS[(i * 7) % (sizeof(LENS) / sizeof(LENS[0]))];
        in[i] = data + 1 + i % 7;
    }
    unsigned char got[32 * COUNT], want[32 * COUNT];
    for (size_t i = 0; i < COUNT; ++i) HashWith(TransformBasic, want + 32 * i, in[i], len[i]);
    e.first(e, got, in, len, COUNT);
    if (std::memcmp(got, want, sizeof(got)) != 0) return false;
    for (size_t i = 0; i < COUNT; ++i) HashWith(TransformBasic, want + 32 * i, want + 32 * i, 32);
    e.second(e, got, COUNT);
    return std::memcmp(got, want, sizeof(got)) == 0;
}
} // namespace

bool SelfTestMulti(const std::string& name)
{
    const int row = g_registry.Selectable(name);
    return row >= 0 && SelfTestRow(ROWS[row]);
}

std::string AutoDetectMulti() { return g_registry.AutoDetect(SelfTestRow, ONEWAY); }

} // namespace sha256

void SHA256Multi(unsigned char* out, const unsigned char* const* inputs, const size_t* sizes, size_t count)
{
    assert(!sha256::Overlaps(out, count, inputs, sizes) && "SHA256Multi: out overlaps an input");
    const sha256::MultiRow& e = sha256::g_registry.Current();
    e.first(e, out, inputs, sizes, count);
}

void SHA256DMulti(unsigned char* out, const unsigned char* const* inputs, const size_t* sizes, size_t count)
{
    assert(!sha256::Overlaps(out, count, inputs, sizes) && "SHA256DMulti: out overlaps an input");
    const sha256::MultiRow& e = sha256::g_registry.Current();
    e.first(e, out, inputs, sizes, count);
    e.second(e, out, count);
}
