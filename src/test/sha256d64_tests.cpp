// SHA256D64, its registry, the fixed-size double SHA-256 paths and the
// kernels of the multi-buffer hasher: every kernel of the kernel table of
// those shapes, and every registry row, that this CPU supports against CSHA256,
// through the ABI trampoline, misaligned, in place and against guard pages.
// Kernels and rows the CPU cannot run are named, never called.
#include <compat/cpu_model.h>
#include <compat/cpuid.h>
#include <crypto/sha256.h>
#include <crypto/sha256_internal.h>
#include <crypto/sha256_kernels.h>
#include <test/checkasm/checkasm.h>
#include <test/util/reference.h>
#include <test/util/common.h>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>


namespace {

using test::Digest;

// SHA256(SHA256(64 bytes)) the slow way: CSHA256, twice.
Digest Reference(const unsigned char* in)
{
    Digest first, second;
    CSHA256().Write(in, 64).Finalize(first.data());
    CSHA256().Write(first.data(), 32).Finalize(second.data());
    return second;
}

Digest DoubleSha(const unsigned char* in, size_t len)
{
    Digest first, second;
    CSHA256().Write(in, len).Finalize(first.data());
    CSHA256().Write(first.data(), 32).Finalize(second.data());
    return second;
}

std::vector<sha256::D64Implementation> Supported() { return test::Supported(sha256::D64Implementations()); }
std::string NotRun() { return test::NotRun(sha256::D64Implementations()); }

// The D64 kernels of the kernel table to check one call at a time; in_registry
// tells whether a D64 row runs the kernel (a kernel may have no row: the AVX2
// intrinsics in a build whose avx2_8way row is assembly).
struct Kernel {
    std::string name;
    int ways;
    sha256::D64Fn fn;
    bool in_registry;
};
std::vector<Kernel> Kernels()
{
    std::set<std::string> rows;
    for (const auto& impl : Supported()) rows.insert(impl.name);
    std::vector<Kernel> out;
    for (const auto* k : test::RunnableKernels(sha256::kernel::Shape::D64)) {
        out.push_back({k->name, k->ways, k->hash, rows.count(k->name) > 0});
    }
    return out;
}

// One call of a kernel: through the ABI-checking trampoline on x86-64. Its
// signature is TransformFn's (three integer arguments); a D64Fn takes the
// first two in the same registers and ignores the third.
std::string CallKernel(sha256::D64Fn fn, unsigned char* out, const unsigned char* in)
{
#if defined(__x86_64__)
    const checkasm::Result r = checkasm::Call(reinterpret_cast<sha256::TransformFn>(reinterpret_cast<void (*)()>(fn)),
        reinterpret_cast<uint32_t*>(out), in, 0, /*check_vzeroupper=*/true);
    std::string why;
    for (const auto& f : r.failures) {
        // The D64 kernels are compiled from intrinsics: the compiler keeps the
        // 16-lane state in zmm16-31 and may use opmask registers (it does in
        // sanitizer builds). Nothing short of XRSTOR resets either state, and
        // neither costs a transition penalty (measured: SHA-NI and zmm16-31
        // work overlap fully), only a larger context-switch save. Every other
        // check (upper halves of ymm/zmm0-15, callee-saved registers, stack,
        // direction flag) still applies.
        if (f == "zmm16-31 left in use" || f == "opmask registers left in use") continue;
        why += f + "; ";
    }
    return why;
#else
    fn(out, in);
    return "";
#endif
}

// Selects a D64 row for the scope, restoring the previous one afterwards.
struct ScopedD64 : test::ScopedRow {
    explicit ScopedD64(const std::string& name)
        : ScopedRow(sha256::SetD64Implementation, sha256::CurrentD64Implementation, name) {}
};

// Checks out[32*i..] against the reference of in[64*i..] for i < n.
int CountWrong(const unsigned char* out, const std::vector<Digest>& want, size_t n)
{
    int bad = 0;
    for (size_t i = 0; i < n; ++i) {
        if (std::memcmp(out + 32 * i, want[i].data(), 32) != 0) ++bad;
    }
    return bad;
}

} // namespace

BOOST_AUTO_TEST_SUITE(sha256d64_tests)

BOOST_AUTO_TEST_CASE(registry_rows_are_consistent)
{
    const auto impls = sha256::D64Implementations();
    test::CheckRows(impls);
    for (const auto& impl : impls) BOOST_CHECK_EQUAL(impl.built, impl.fn != nullptr);
    BOOST_CHECK_EQUAL(impls.back().name, "basic");
    // Each row runs the kernel table's D64 kernel of its name (one name per kernel).
    for (const auto& impl : impls) {
        int found = 0;
        for (const auto& k : sha256::kernel::KERNELS) {
            if (k.shape != sha256::kernel::Shape::D64 || impl.name != k.name) continue;
            ++found;
            BOOST_CHECK_MESSAGE(impl.fn == k.hash && impl.ways == k.ways && impl.needs_mask == k.needs,
                                impl.name << ": row and kernel table disagree");
        }
        BOOST_CHECK_MESSAGE(found == 1, impl.name << ": " << found << " D64 kernels of that name in the table");
        // ... and its batch kernel, where the set has one.
        sha256::kernel::BatchFn batch = nullptr;
        for (const auto& k : sha256::kernel::KERNELS) {
            if (k.shape == sha256::kernel::Shape::D64Batch && impl.name == k.name) batch = k.batch;
        }
        BOOST_CHECK_MESSAGE(impl.batch == batch, impl.name << ": row and kernel table disagree on the batch kernel");
    }
#ifdef DISABLE_OPTIMIZED_SHA256
    for (const auto& impl : impls) BOOST_CHECK_EQUAL(impl.built, impl.needs_mask == 0);
#endif
    BOOST_TEST_MESSAGE("  CPU: " << cpu::Brand() << "; features: " << cpu::FeatureNames(cpu::Features()));
}

BOOST_AUTO_TEST_CASE(set_refuses_unknown_and_unsupported)
{
    const std::string before = sha256::CurrentD64Implementation();
    BOOST_REQUIRE(sha256::SetD64Implementation("basic"));
    BOOST_CHECK(!sha256::SetD64Implementation("no-such-d64"));
    BOOST_CHECK(!sha256::SetD64Implementation(""));
    BOOST_CHECK(!sha256::SetD64Implementation("BASIC"));
    BOOST_CHECK_EQUAL(sha256::CurrentD64Implementation(), "basic");
    for (const auto& impl : sha256::D64Implementations()) {
        BOOST_REQUIRE(sha256::SetD64Implementation("basic"));
        BOOST_CHECK_EQUAL(sha256::SetD64Implementation(impl.name), impl.supported);
        BOOST_CHECK_EQUAL(sha256::CurrentD64Implementation(), impl.supported ? impl.name : std::string("basic"));
    }
    sha256::SetD64Implementation(before);
}

// AutoDetectD64 picks the first supported row in registry order (all of them
// pass their self-test on a working build), and never one the CPU lacks. Run
// under qemu CPU models this is the dispatch check.
BOOST_AUTO_TEST_CASE(autodetect_picks_first_supported_row)
{
    const std::string before = sha256::CurrentD64Implementation();
    const std::string pick = sha256::AutoDetectD64();
    std::string first;
    for (const auto& impl : sha256::D64Implementations()) {
        if (impl.supported) {
            first = impl.name;
            break;
        }
    }
    BOOST_CHECK_EQUAL(pick, first);
    BOOST_CHECK_EQUAL(sha256::CurrentD64Implementation(), pick);
    std::string fixed_first;
    for (const auto& impl : sha256::FixedImplementations()) {
        if (impl.supported) {
            fixed_first = impl.name;
            break;
        }
    }
    BOOST_CHECK_EQUAL(sha256::CurrentFixedImplementation(), fixed_first);
    BOOST_TEST_MESSAGE("  AutoDetectD64 picked " << pick << ", fixed-size paths " << sha256::CurrentFixedImplementation()
                                                 << " (features: " << cpu::FeatureNames(cpu::Features()) << ")");
    sha256::SetD64Implementation(before);
}

// The D64 and multi-buffer orders follow the SHA unit: the rows with an order
// rule on the SHA-NI overlap (the wide_sha rows of -list-impls) lead every row
// from their rules' higher threshold on, lead the other SHA-NI rows from the
// lower one on, and keep their listed places below it (ci/test-all.sh runs
// this suite with SHA256BENCH_SHANI_OVERLAP at 0, 2 and 4, whatever this CPU is).
BOOST_AUTO_TEST_CASE(preference_order_follows_the_sha_unit)
{
    const double overlap = cpu::Read(cpu::Probe::ShaniOverlap).value;
    // Measured only where this build can run SHA-NI code (not with
    // DISABLE_OPTIMIZED_SHA256, not with sha-ni hidden): a dependent chain
    // cannot beat independent ones, and no SHA unit overlaps 16.
    bool shani = false;
    for (const auto& impl : sha256::D64Implementations()) shani |= impl.supported && (impl.needs_mask & cpu::SHANI);
    test::CheckReading(cpu::Probe::ShaniOverlap, shani, 0.8, 16);
    struct R {
        std::string name;
        bool wide, shani;
    };
    auto check = [&](const char* family, const std::vector<R>& rows, double every_row, double shani_rows) {
        const bool wide = overlap >= every_row;
        const bool streams = !wide && overlap >= shani_rows;
        int wide_rows = 0;
        size_t last_wide = 0, first_other = rows.size(), first_other_shani = rows.size(), first_wide = rows.size();
        for (size_t i = 0; i < rows.size(); ++i) {
            if (rows[i].wide) {
                ++wide_rows;
                last_wide = i;
                first_wide = std::min(first_wide, i);
            } else {
                first_other = std::min(first_other, i);
                if (rows[i].shani) first_other_shani = std::min(first_other_shani, i);
            }
        }
        BOOST_REQUIRE_MESSAGE(wide_rows > 0, family << ": no row with a rule on the SHA-NI overlap");
        if (wide) {
            BOOST_CHECK_MESSAGE(last_wide < first_other, family << ": a wide_sha row after another row at overlap " << overlap);
        } else {
            BOOST_CHECK_MESSAGE(!rows[0].wide, family << ": a wide_sha row leads at overlap " << overlap);
            // Together, and ahead of every other SHA-NI row exactly in the middle band
            // (the listed order has a SHA-NI row before a wide one: fewer streams where the unit is narrow).
            const bool ahead = last_wide < first_other_shani && last_wide - first_wide + 1 == static_cast<size_t>(wide_rows);
            BOOST_CHECK_MESSAGE(ahead == streams, family << ": at overlap " << overlap << " the wide_sha rows "
                                                          << (ahead ? "lead" : "do not lead") << " the other SHA-NI rows");
        }
        BOOST_TEST_MESSAGE("  " << family << " order at SHA-NI overlap " << overlap << ": first " << rows[0].name
                                << ", first wide_sha " << rows[first_wide].name);
    };
    // Each family's rows, and the two thresholds their rules declare: every
    // rule on the overlap leads every row or the SHA-NI rows.
    auto rows_of = [](const auto& impls, double& every_row, double& shani_rows) {
        std::vector<R> rows;
        every_row = shani_rows = -1;
        for (const auto& impl : impls) {
            bool wide = false;
            for (const sha256::Lead& l : impl.leads) {
                if (l.probe != cpu::Probe::ShaniOverlap) continue;
                wide = true;
                BOOST_CHECK_MESSAGE(l.ahead_of == 0 || l.ahead_of == cpu::SHANI, impl.name << ": a rule ahead of " << l.ahead_of);
                double& t = l.ahead_of ? shani_rows : every_row;
                BOOST_CHECK_MESSAGE(t < 0 || t == l.at_least, impl.name << ": another threshold " << l.at_least);
                t = l.at_least;
            }
            rows.push_back({impl.name, wide, (impl.needs_mask & cpu::SHANI) != 0});
        }
        BOOST_CHECK_MESSAGE(shani_rows > 0 && every_row > shani_rows, "thresholds " << shani_rows << ", " << every_row);
        return rows;
    };
    double every_row, shani_rows;
    const std::vector<R> d64 = rows_of(sha256::D64Implementations(), every_row, shani_rows);
    check("d64", d64, every_row, shani_rows);
    const std::vector<R> multi = rows_of(sha256::MultiImplementations(), every_row, shani_rows);
    check("multi", multi, every_row, shani_rows);
}

BOOST_AUTO_TEST_CASE(self_test_rejects_wrong_kernels)
{
    // A kernel that is right for its first input only, and one that does nothing.
    struct Broken {
        static void SecondWrong(unsigned char* out, const unsigned char* in)
        {
            unsigned char tmp[64];
            std::memcpy(tmp, in + 64, 64);
            sha256::kernel::basic_d64(out, in);
            sha256::kernel::basic_d64(out + 32, tmp);
            out[40] ^= 1;
        }
        static void Nothing(unsigned char*, const unsigned char*) {}
    };
    BOOST_CHECK(!sha256::SelfTestD64(Broken::SecondWrong, 2));
    BOOST_CHECK(sha256::SelfTestD64(Broken::SecondWrong, 1)); // only its first output is checked
    BOOST_CHECK(!sha256::SelfTestD64(Broken::Nothing, 1));
    BOOST_CHECK(!sha256::SelfTestD64(nullptr, 1));
    for (const auto& impl : Supported()) BOOST_CHECK_MESSAGE(sha256::SelfTestD64(impl.fn, impl.ways), impl.name);
}

// SHA256D64 with each supported row selected, 0..70 inputs (every tail of
// every width: 70 = 4*16 + 6), against CSHA256 twice; also in place.
BOOST_AUTO_TEST_CASE(counts_0_to_70_against_csha256)
{
    test::Rng rng(0xd64);
    const size_t MAX = 70;
    std::vector<unsigned char> in = rng.Bytes(64 * MAX);
    std::vector<Digest> want;
    for (size_t i = 0; i < MAX; ++i) want.push_back(Reference(in.data() + 64 * i));
    // The reference itself against the textbook SHA-256 (shares no code with src/crypto).
    for (size_t i = 0; i < MAX; i += 7) {
        const Digest first = test::ReferenceSha256(in.data() + 64 * i, 64);
        BOOST_REQUIRE(test::ReferenceSha256(first.data(), 32) == want[i]);
    }
    for (const auto& impl : Supported()) {
        ScopedD64 use(impl.name);
        int bad = 0;
        for (size_t n = 0; n <= MAX; ++n) {
            std::vector<unsigned char> out(32 * n + 32, 0xa5);
            SHA256D64(out.data(), in.data(), n);
            int wrong = CountWrong(out.data(), want, n);
            if (out[32 * n] != 0xa5) ++wrong; // wrote past its output
            std::vector<unsigned char> inplace(in.begin(), in.begin() + 64 * n);
            SHA256D64(inplace.data(), inplace.data(), n);
            wrong += CountWrong(inplace.data(), want, n);
            if (wrong && ++bad <= 5) BOOST_ERROR(impl.name << ": " << n << " inputs: " << wrong << " wrong digests");
        }
        BOOST_CHECK_MESSAGE(bad == 0, impl.name << ": " << bad << " counts failed");
        BOOST_TEST_MESSAGE("  " << impl.name << ": 0.." << MAX << " inputs, copy and in place: " << (bad ? "FAILED" : "ok"));
    }
    BOOST_TEST_MESSAGE("  not run: " << NotRun());
}

// The contract of SHA256D64: out is in, or the two do not overlap. Both sides,
// for every row: out == in, out right after the inputs and out right before
// them give the right digests; a partial overlap (out = in + 64, where a row
// that hashes one input at a time would overwrite the next input before reading
// it) stops a build without NDEBUG (assert), in a child process here.
BOOST_AUTO_TEST_CASE(out_is_in_or_disjoint)
{
    test::Rng rng(0x0e4);
    const size_t n = 37;
    const std::vector<unsigned char> data = rng.Bytes(64 * n);
    std::vector<Digest> want;
    for (size_t i = 0; i < n; ++i) want.push_back(Reference(data.data() + 64 * i));
    for (const auto& impl : Supported()) {
        ScopedD64 use(impl.name);
        int bad = 0;
        // [out][in] and [in][out] in one buffer, touching; and in place.
        std::vector<unsigned char> buf(32 * n + 64 * n);
        std::memcpy(buf.data() + 32 * n, data.data(), 64 * n);
        SHA256D64(buf.data(), buf.data() + 32 * n, n);
        bad += CountWrong(buf.data(), want, n);
        std::memcpy(buf.data(), data.data(), 64 * n);
        SHA256D64(buf.data() + 64 * n, buf.data(), n);
        bad += CountWrong(buf.data() + 64 * n, want, n);
        std::memcpy(buf.data(), data.data(), 64 * n);
        SHA256D64(buf.data(), buf.data(), n);
        bad += CountWrong(buf.data(), want, n);
        BOOST_CHECK_MESSAGE(bad == 0, impl.name << ": " << bad << " wrong digests with out touching or equal to in");
#ifndef NDEBUG
        const bool caught = test::AbortsInChild([&] {
            std::vector<unsigned char> b(64 * n + 64);
            std::memcpy(b.data(), data.data(), 64 * n);
            SHA256D64(b.data() + 64, b.data(), n);
        });
        BOOST_CHECK_MESSAGE(caught, impl.name << ": SHA256D64 with out = in + 64 did not abort");
        BOOST_TEST_MESSAGE("  " << impl.name << ": out == in, out touching in: " << (bad ? "FAILED" : "ok")
                                << "; out = in + 64 aborts: " << (caught ? "ok" : "FAILED"));
#else
        BOOST_TEST_MESSAGE("  " << impl.name << ": out == in, out touching in: " << (bad ? "FAILED" : "ok")
                                << "; built with NDEBUG: a partial overlap is not checked");
#endif
    }
}

// Each kernel on its own, through the trampoline: input and output offsets 0..63
// (every pair (k, 63 - k) and (k, k)), random data, and in place.
BOOST_AUTO_TEST_CASE(kernels_misaligned_in_place_abi_checked)
{
    test::Rng rng(0x64d);
    for (const auto& impl : Kernels()) {
        const size_t ways = static_cast<size_t>(impl.ways);
        int bad = 0, cases = 0;
        for (size_t k = 0; k < 64; ++k) {
            for (size_t out_off : {k, 63 - k}) {
                std::vector<unsigned char> in(64 + 64 * ways), out(64 + 32 * ways + 64, 0x5a);
                rng.Fill(in.data() + k, 64 * ways);
                std::vector<Digest> want;
                for (size_t i = 0; i < ways; ++i) want.push_back(Reference(in.data() + k + 64 * i));
                std::string why = CallKernel(impl.fn, out.data() + out_off, in.data() + k);
                if (CountWrong(out.data() + out_off, want, ways)) why += "wrong digest; ";
                for (size_t i = 0; i < out.size(); ++i) {
                    if ((i < out_off || i >= out_off + 32 * ways) && out[i] != 0x5a) {
                        why += "wrote outside its output; ";
                        break;
                    }
                }
                // In place, at the input's offset.
                why += CallKernel(impl.fn, in.data() + k, in.data() + k);
                if (CountWrong(in.data() + k, want, ways)) why += "wrong digest in place; ";
                ++cases;
                if (!why.empty() && ++bad <= 5) {
                    BOOST_ERROR(impl.name << ": input offset " << k << ", output offset " << out_off << ": " << why);
                }
            }
        }
        BOOST_CHECK_MESSAGE(bad == 0, impl.name << ": " << bad << " of " << cases << " cases failed");
        BOOST_TEST_MESSAGE("  " << impl.name << ": " << cases << " offset pairs + in place"
#if defined(__x86_64__)
                                << ", ABI-checked"
#endif
                                << ": " << (bad ? "FAILED" : "ok"));
    }
    BOOST_TEST_MESSAGE("  not run: " << NotRun());
}

// No kernel reads or writes a byte outside its buffers: input ending at a
// PROT_NONE page or starting right after one, output likewise.
BOOST_AUTO_TEST_CASE(guard_pages)
{
    using Flush = test::GuardedBuffer::Flush;
    test::Rng rng(0x9a9e);
    for (const auto& impl : Kernels()) {
        int bad = 0;
        // The kernel alone (exactly `ways` inputs), and SHA256D64 with tails
        // (a registry row's).
        std::vector<size_t> counts{static_cast<size_t>(impl.ways)};
        if (impl.in_registry) counts.insert(counts.end(), {static_cast<size_t>(impl.ways) * 2 + 1, size_t{37}});
        for (size_t n : counts) {
            for (Flush in_flush : {Flush::End, Flush::Begin}) {
                for (Flush out_flush : {Flush::End, Flush::Begin}) {
                    test::GuardedBuffer in(64 * n, in_flush), out(32 * n, out_flush);
                    rng.Fill(in.begin(), 64 * n);
                    std::vector<Digest> want;
                    for (size_t i = 0; i < n; ++i) want.push_back(Reference(in.begin() + 64 * i));
                    std::string why;
                    if (n == static_cast<size_t>(impl.ways)) {
                        why = CallKernel(impl.fn, out.begin(), in.begin());
                    } else {
                        ScopedD64 use(impl.name);
                        SHA256D64(out.begin(), in.begin(), n);
                    }
                    if (CountWrong(out.begin(), want, n)) why += "wrong digest; ";
                    if (!why.empty() && ++bad <= 5) {
                        BOOST_ERROR(impl.name << ": " << n << " inputs, input "
                                              << (in_flush == Flush::End ? "ending at" : "starting after")
                                              << " a guard page, output "
                                              << (out_flush == Flush::End ? "ending at" : "starting after")
                                              << " one: " << why);
                    }
                }
            }
        }
        BOOST_CHECK_MESSAGE(bad == 0, impl.name << ": " << bad << " guard-page cases failed");
        BOOST_TEST_MESSAGE("  " << impl.name << ": guard pages: " << (bad ? "FAILED" : "ok"));
    }
}

// The D64Batch kernels (many calls' worth of inputs in one, pipelined across
// batches): 0..9 batches of random inputs, input and output at odd offsets and
// in place, through the ABI trampoline (its third argument is the batch
// count), and against guard pages; against CSHA256 twice.
BOOST_AUTO_TEST_CASE(batch_kernels)
{
    using Flush = test::GuardedBuffer::Flush;
    test::Rng rng(0xba7c);
    for (const auto* k : test::RunnableKernels(sha256::kernel::Shape::D64Batch)) {
        const size_t ways = static_cast<size_t>(k->ways);
        int bad = 0, cases = 0;
        auto call = [&](unsigned char* out, const unsigned char* in, size_t batches) {
#if defined(__x86_64__)
            const checkasm::Result r = checkasm::Call(
                reinterpret_cast<sha256::TransformFn>(reinterpret_cast<void (*)()>(k->batch)),
                reinterpret_cast<uint32_t*>(out), in, batches, /*check_vzeroupper=*/true);
            std::string why;
            for (const auto& f : r.failures) {
                if (f != "zmm16-31 left in use" && f != "opmask registers left in use") why += f + "; ";
            }
            return why;
#else
            k->batch(out, in, batches);
            return std::string();
#endif
        };
        for (size_t batches = 0; batches <= 9; ++batches) {
            const size_t n = ways * batches, off = batches * 7 % 64;
            std::vector<unsigned char> in(64 * n + 64), out(32 * n + 128, 0x5a);
            rng.Fill(in.data() + off, 64 * n);
            std::vector<Digest> want;
            for (size_t i = 0; i < n; ++i) want.push_back(Reference(in.data() + off + 64 * i));
            std::string why = call(out.data() + 63 - off, in.data() + off, batches);
            if (CountWrong(out.data() + 63 - off, want, n)) why += "wrong digest; ";
            for (size_t i = 0; i < out.size(); ++i) {
                if ((i < 63 - off || i >= 63 - off + 32 * n) && out[i] != 0x5a) {
                    why += "wrote outside its output; ";
                    break;
                }
            }
            why += call(in.data() + off, in.data() + off, batches);
            if (CountWrong(in.data() + off, want, n)) why += "wrong digest in place; ";
            for (Flush f : {Flush::End, Flush::Begin}) {
                if (n == 0) break;
                test::GuardedBuffer gin(64 * n, f), gout(32 * n, f);
                std::copy(in.begin(), in.begin() + 64 * n, gin.begin());
                std::vector<Digest> gwant;
                for (size_t i = 0; i < n; ++i) gwant.push_back(Reference(gin.begin() + 64 * i));
                why += call(gout.begin(), gin.begin(), batches);
                if (CountWrong(gout.begin(), gwant, n)) why += "wrong digest at a guard page; ";
            }
            ++cases;
            if (!why.empty() && ++bad <= 5) BOOST_ERROR(k->name << " batch: " << batches << " batches: " << why);
        }
        BOOST_CHECK_MESSAGE(bad == 0, k->name << " batch: " << bad << " of " << cases << " batch counts failed");
        BOOST_TEST_MESSAGE("  " << k->name << " batch: 0..9 batches of " << ways << ", misaligned, in place, guard pages"
#if defined(__x86_64__)
                                << ", ABI-checked"
#endif
                                << ": " << (bad ? "FAILED" : "ok"));
    }
}

// The N-lane transforms (lane i compresses its own block into a word-sliced
// state) against the portable 1-way transform, each lane its own state and block.
BOOST_AUTO_TEST_CASE(lane_transforms_against_basic)
{
    struct LaneFn {
        std::string name;
        int lanes;
        sha256::kernel::LanesFn fn;
    };
    std::vector<LaneFn> fns;
    for (const auto* k : test::RunnableKernels(sha256::kernel::Shape::Lanes)) fns.push_back({k->name, k->ways, k->lanes});
    test::Rng rng(0x1a9e);
    for (const auto& f : fns) {
        int bad = 0;
        for (int round = 0; round < 20; ++round) {
            std::vector<unsigned char> data = rng.Bytes(64 * 16 * 2 + 64);
            std::vector<uint32_t> st(8 * f.lanes);
            for (auto& w : st) w = static_cast<uint32_t>(rng.Next());
            std::vector<const unsigned char*> blocks;
            // Lanes read scattered, misaligned blocks (some lanes share one).
            for (int i = 0; i < f.lanes; ++i) blocks.push_back(data.data() + rng.Below(64 * 16 * 2));
            std::vector<uint32_t> want(st);
            for (int i = 0; i < f.lanes; ++i) {
                uint32_t s[8];
                for (int j = 0; j < 8; ++j) s[j] = want[j * f.lanes + i];
                sha256::TransformBasic(s, blocks[i], 1);
                for (int j = 0; j < 8; ++j) want[j * f.lanes + i] = s[j];
            }
            f.fn(st.data(), blocks.data());
            if (st != want) ++bad;
        }
        BOOST_CHECK_MESSAGE(bad == 0, f.name << ": " << bad << " of 20 rounds differ from basic");
        BOOST_TEST_MESSAGE("  " << f.name << ": 20 rounds of " << f.lanes << " lanes: " << (bad ? "FAILED" : "ok"));
    }
}

// The job kernels (the multi-buffer hasher's SHA-NI rows), one call at a
// time: random messages of every padding case, read in place at odd
// addresses, handed out 0..5 jobs per call. After every call: all its jobs
// taken, some lane idle. Then the lanes still busy run on, idle lanes taking
// jobs that repeat one block, until each of their messages ends. Every digest
// against CSHA256.
BOOST_AUTO_TEST_CASE(job_kernels)
{
    using sha256_jobs::Job;
    using sha256_jobs::Lane;
    constexpr size_t IDLE = ~size_t{0} >> 1;
    test::Rng rng(0x10b5);
    for (const auto* k : test::RunnableKernels(sha256::kernel::Shape::Jobs)) {
        const sha256::kernel::JobsFn fn = k->jobs;
        const size_t streams = static_cast<size_t>(k->ways);
        int bad = 0, calls = 0, rounds = 0;
        const std::vector<unsigned char> repeat = rng.Bytes(64);
        std::vector<Job> idle(streams);
        for (auto& j : idle) {
            std::memset(j.area, 0, sizeof(j.area));
            j.at = j.then = repeat.data();
            j.end = repeat.data() + 64;
            j.blocks = IDLE;
            j.out = nullptr;
        }
        for (; rounds < 40; ++rounds) {
            const size_t count = 1 + rng.Below(40);
            std::vector<std::vector<unsigned char>> msg(count);
            std::vector<unsigned char> got(32 * count, 0), want(32 * count);
            std::vector<Job> jobs(count);
            for (size_t i = 0; i < count; ++i) {
                const size_t len = rng.Below(4) == 0 ? rng.Below(130) : rng.Below(700);
                msg[i] = rng.Bytes(len + 3);
                const unsigned char* p = msg[i].data() + 1 + i % 3;
                CSHA256().Write(p, len).Finalize(want.data() + 32 * i);
                sha256::FillJob(jobs[i], p, len, got.data() + 32 * i);
            }
            std::vector<Lane> lane(streams);
            std::memset(static_cast<void*>(lane.data()), 0x5a, sizeof(Lane) * streams);
            for (auto& l : lane) l.left = 0;
            for (size_t given = 0; given < count;) {
                const size_t n = std::min<size_t>(count - given, rng.Below(6));
                bad += fn(lane.data(), jobs.data() + given, n) != n;
                given += n;
                ++calls;
                bool some_idle = false;
                for (const auto& l : lane) some_idle |= l.left == 0;
                bad += !some_idle;
            }
            for (int guard = 0; guard < 100; ++guard) {
                size_t busy = 0, free = 0;
                for (const auto& l : lane) {
                    busy += l.left != 0 && l.left < IDLE / 2;
                    free += l.left == 0;
                }
                if (!busy) break;
                bad += fn(lane.data(), idle.data(), free) != free;
                ++calls;
            }
            for (size_t i = 0; i < count; ++i) bad += std::memcmp(got.data() + 32 * i, want.data() + 32 * i, 32) != 0;
        }
        BOOST_CHECK_MESSAGE(bad == 0, k->name << " jobs: " << bad << " wrong digests or broken contracts");
        BOOST_TEST_MESSAGE("  " << k->name << " jobs: " << rounds << " sets of 1..40 messages, " << calls
                                << " calls: " << (bad ? "FAILED" : "ok"));
    }
}

// The Hash32 kernels (DMulti's second hash: one 32-byte message per stream):
// against CSHA256, through the ABI trampoline, input and output at every
// offset, in place, and against guard pages.
BOOST_AUTO_TEST_CASE(hash32_kernels)
{
    using Flush = test::GuardedBuffer::Flush;
    test::Rng rng(0x3232);
    for (const auto* k : test::RunnableKernels(sha256::kernel::Shape::Hash32)) {
        const sha256::kernel::HashFn fn = k->hash;
        const size_t n = static_cast<size_t>(k->ways);
        auto wrong = [&](const unsigned char* out, const unsigned char* in_copy) {
            for (size_t i = 0; i < n; ++i) {
                unsigned char want[32];
                CSHA256().Write(in_copy + 32 * i, 32).Finalize(want);
                if (std::memcmp(out + 32 * i, want, 32) != 0) return true;
            }
            return false;
        };
        int bad = 0, cases = 0;
        for (size_t off = 0; off < 64; ++off) {
            std::vector<unsigned char> in(64 + 32 * n), out(64 + 32 * n + 64, 0x5a);
            rng.Fill(in.data() + off, 32 * n);
            const std::vector<unsigned char> copy(in.begin() + off, in.begin() + off + 32 * n);
            const size_t out_off = 63 - off;
            std::string why = CallKernel(fn, out.data() + out_off, in.data() + off);
            if (wrong(out.data() + out_off, copy.data())) why += "wrong digest; ";
            for (size_t i = 0; i < out.size(); ++i) {
                if ((i < out_off || i >= out_off + 32 * n) && out[i] != 0x5a) {
                    why += "wrote outside its output; ";
                    break;
                }
            }
            why += CallKernel(fn, in.data() + off, in.data() + off);
            if (wrong(in.data() + off, copy.data())) why += "wrong digest in place; ";
            ++cases;
            if (!why.empty() && ++bad <= 5) BOOST_ERROR(k->name << " hash32: offset " << off << ": " << why);
        }
        for (Flush in_flush : {Flush::End, Flush::Begin}) {
            for (Flush out_flush : {Flush::End, Flush::Begin}) {
                test::GuardedBuffer in(32 * n, in_flush), out(32 * n, out_flush);
                rng.Fill(in.begin(), 32 * n);
                std::string why = CallKernel(fn, out.begin(), in.begin());
                if (wrong(out.begin(), in.begin())) why += "wrong digest; ";
                ++cases;
                if (!why.empty() && ++bad <= 5) BOOST_ERROR(k->name << " hash32: guard pages: " << why);
            }
        }
        BOOST_CHECK_MESSAGE(bad == 0, k->name << " hash32: " << bad << " of " << cases << " cases failed");
        BOOST_TEST_MESSAGE("  " << k->name << " hash32: " << cases
                                << " cases (offsets, in place, guard pages), ABI-checked: " << (bad ? "FAILED" : "ok"));
    }
}

// Double SHA-256 of 32, 64 and 80 bytes: every supported fixed-size row
// against CSHA256 twice, misaligned, and against guard pages.
BOOST_AUTO_TEST_CASE(fixed_size_paths)
{
    using Flush = test::GuardedBuffer::Flush;
    test::Rng rng(0xf1d);
    const std::string before = sha256::CurrentFixedImplementation();
    for (const auto& impl : sha256::FixedImplementations()) {
        if (!impl.supported) {
            BOOST_TEST_MESSAGE("  not run: fixed-size " << impl.name << ": " << impl.why_not);
            continue;
        }
        BOOST_REQUIRE(sha256::SetFixedImplementation(impl.name));
        int bad = 0;
        const struct {
            size_t len;
            sha256::DoubleFn direct;
            void (*dispatched)(unsigned char*, const unsigned char*);
        } paths[] = {{32, impl.double32, sha256::Double32}, {64, impl.double64, sha256::Double64},
            {80, impl.double80, sha256::Double80}};
        for (const auto& p : paths) {
            for (size_t off = 0; off < 64; ++off) {
                std::vector<unsigned char> in(p.len + 64), out(32 + 64);
                rng.Fill(in.data() + off, p.len);
                const Digest want = DoubleSha(in.data() + off, p.len);
                p.dispatched(out.data() + (63 - off), in.data() + off);
                std::string why;
                if (std::memcmp(out.data() + (63 - off), want.data(), 32) != 0) why += "dispatched wrong; ";
                why += CallKernel(p.direct, out.data() + off, in.data() + off);
                if (std::memcmp(out.data() + off, want.data(), 32) != 0) why += "direct wrong; ";
                if (!why.empty() && ++bad <= 5) BOOST_ERROR(impl.name << ": " << p.len << " bytes at offset " << off << ": " << why);
            }
            for (Flush f : {Flush::End, Flush::Begin}) {
                test::GuardedBuffer in(p.len, f), out(32, f);
                rng.Fill(in.begin(), p.len);
                p.dispatched(out.begin(), in.begin());
                if (!std::equal(out.begin(), out.end(), DoubleSha(in.begin(), p.len).begin()) && ++bad <= 5) {
                    BOOST_ERROR(impl.name << ": " << p.len << " bytes at a guard page");
                }
            }
        }
        BOOST_CHECK_MESSAGE(bad == 0, impl.name << ": " << bad << " fixed-size cases failed");
        BOOST_TEST_MESSAGE("  fixed-size " << impl.name << ": 32, 64, 80 bytes, 64 offsets, guard pages: "
                                           << (bad ? "FAILED" : "ok"));
    }
    BOOST_CHECK(!sha256::SetFixedImplementation("no-such-path"));
    sha256::SetFixedImplementation(before);
}

BOOST_AUTO_TEST_SUITE_END()
