// SPDX-License-Identifier: MIT
// The SHA256D64 family and the fixed-size double SHA-256 paths: their
// registries (listing, selection, AutoDetect, the order rules) and every row
// this CPU supports through the public API, against CSHA256, misaligned, in
// place, against guard pages and the out == in contract. The kernels
// themselves, one call at a time, are tested by shape (kernel_*_tests.cpp).
// Rows the CPU cannot run are named, never called.
#include <compat/cpu_model.h>
#include <compat/cpuid.h>
#include <crypto/sha256.h>
#include <crypto/sha256_internal.h>
#include <crypto/sha256_kernels.h>
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

std::vector<sha256::D64Implementation> Supported() { return test::Supported(sha256::D64Implementations()); }
std::string NotRun() { return test::NotRun(sha256::D64Implementations()); }

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
        // ... and its batch and Merkle kernels, where the set has them.
        sha256::kernel::BatchFn batch = nullptr;
        sha256::kernel::MerkleFn merkle = nullptr;
        for (const auto& k : sha256::kernel::KERNELS) {
            if (k.shape == sha256::kernel::Shape::D64Batch && impl.name == k.name) batch = k.batch;
            if (k.shape == sha256::kernel::Shape::Merkle && impl.name == k.name) merkle = k.merkle;
        }
        BOOST_CHECK_MESSAGE(impl.batch == batch, impl.name << ": row and kernel table disagree on the batch kernel");
        BOOST_CHECK_MESSAGE(impl.merkle == merkle, impl.name << ": row and kernel table disagree on the Merkle kernel");
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
// this suite with SHA256BENCH_SHANI_OVERLAP at 0, 1.5, 2 and 4, whatever this CPU is).
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
    for (size_t i = 0; i < MAX; ++i) want.push_back(test::DoubleSha256(in.data() + 64 * i, 64));
    // The reference itself against the textbook SHA-256 (shares no code with src/crypto).
    for (size_t i = 0; i < MAX; i += 7) {
        const Digest first = test::ReferenceSha256(in.data() + 64 * i, 64);
        BOOST_REQUIRE(test::ReferenceSha256(first.data(), 32) == want[i]);
    }
    for (const auto& impl : Supported()) {
        test::ScopedD64 use(impl.name);
        int bad = 0;
        for (size_t n = 0; n <= MAX; ++n) {
            std::vector<unsigned char> out(32 * n + 32, 0xa5);
            SHA256D64(out.data(), in.data(), n);
            int wrong = test::CountWrong(out.data(), want, n);
            if (out[32 * n] != 0xa5) ++wrong; // wrote past its output
            std::vector<unsigned char> inplace(in.begin(), in.begin() + 64 * n);
            SHA256D64(inplace.data(), inplace.data(), n);
            wrong += test::CountWrong(inplace.data(), want, n);
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
    for (size_t i = 0; i < n; ++i) want.push_back(test::DoubleSha256(data.data() + 64 * i, 64));
    for (const auto& impl : Supported()) {
        test::ScopedD64 use(impl.name);
        int bad = 0;
        // [out][in] and [in][out] in one buffer, touching; and in place.
        std::vector<unsigned char> buf(32 * n + 64 * n);
        std::memcpy(buf.data() + 32 * n, data.data(), 64 * n);
        SHA256D64(buf.data(), buf.data() + 32 * n, n);
        bad += test::CountWrong(buf.data(), want, n);
        std::memcpy(buf.data(), data.data(), 64 * n);
        SHA256D64(buf.data() + 64 * n, buf.data(), n);
        bad += test::CountWrong(buf.data() + 64 * n, want, n);
        std::memcpy(buf.data(), data.data(), 64 * n);
        SHA256D64(buf.data(), buf.data(), n);
        bad += test::CountWrong(buf.data(), want, n);
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
                const Digest want = test::DoubleSha256(in.data() + off, p.len);
                p.dispatched(out.data() + (63 - off), in.data() + off);
                std::string why;
                if (std::memcmp(out.data() + (63 - off), want.data(), 32) != 0) why += "dispatched wrong; ";
                p.direct(out.data() + off, in.data() + off); // ABI-checked by shape: kernel_double_tests
                if (std::memcmp(out.data() + off, want.data(), 32) != 0) why += "direct wrong; ";
                if (!why.empty() && ++bad <= 5) BOOST_ERROR(impl.name << ": " << p.len << " bytes at offset " << off << ": " << why);
            }
            for (Flush f : {Flush::End, Flush::Begin}) {
                test::GuardedBuffer in(p.len, f), out(32, f);
                rng.Fill(in.begin(), p.len);
                p.dispatched(out.begin(), in.begin());
                if (!std::equal(out.begin(), out.end(), test::DoubleSha256(in.begin(), p.len).begin()) && ++bad <= 5) {
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
