// SPDX-License-Identifier: MIT
// The transform registry: listing, selection by name, AutoDetect and its self-test.
#include <compat/cpu_model.h>
#include <compat/cpuid.h>
#include <crypto/sha256.h>
#include <crypto/sha256_internal.h>
#include <crypto/sha256_registry.h>
#include <test/util/common.h>

#include <boost/test/unit_test.hpp>

#include <cctype>
#include <cstdlib>
#include <cstring>
#include <set>
#include <sstream>

namespace {
// Correct for one block, wrong from the second on: a multi-block path bug.
void BrokenAfterOneBlock(uint32_t* s, const unsigned char* chunk, size_t blocks)
{
    sha256::TransformBasic(s, chunk, blocks);
    if (blocks > 1) s[3] ^= 1;
}
void DoesNothing(uint32_t*, const unsigned char*, size_t) {}
} // namespace

BOOST_AUTO_TEST_SUITE(registry_tests)

BOOST_AUTO_TEST_CASE(lists_every_transform)
{
    const auto impls = sha256::Implementations();
    std::set<std::string> names;
    for (const auto& impl : impls) {
        names.insert(impl.name);
        BOOST_CHECK_EQUAL(impl.built, impl.fn != nullptr);
        BOOST_CHECK_MESSAGE(impl.supported == impl.why_not.empty(), impl.name << ": why_not='" << impl.why_not << "'");
        BOOST_CHECK(!impl.supported || impl.built);
        BOOST_TEST_MESSAGE("  " << impl.name << ": requires " << impl.needs << ", "
                                << (impl.supported ? "supported" : impl.why_not));
    }
    BOOST_CHECK_EQUAL(names.size(), impls.size()); // names are unique
    // The last row is the portable transform: it needs nothing and is always built and supported.
    BOOST_CHECK_EQUAL(impls.back().needs_mask, 0u);
    BOOST_CHECK_EQUAL(impls.back().needs, "none");
    BOOST_CHECK(impls.back().supported);
    BOOST_CHECK(impls.back().fn == &sha256::TransformBasic);
    for (const auto& impl : impls) {
        BOOST_CHECK_EQUAL(impl.needs, cpu::FeatureNames(impl.needs_mask));
        BOOST_CHECK_GE(impl.max_path_blocks, 1u);
        BOOST_CHECK_LE(impl.max_path_blocks, sha256::detail::MaxPathBlocks());
        // Supported exactly when built and the CPU has every feature the row needs.
        BOOST_CHECK_EQUAL(impl.supported, impl.built && (impl.needs_mask & ~cpu::Features()) == 0);
    }
#ifdef DISABLE_OPTIMIZED_SHA256
    for (const auto& impl : impls) BOOST_CHECK_EQUAL(impl.built, impl.fn == &sha256::TransformBasic);
#endif
    BOOST_TEST_MESSAGE("  CPU: " << cpu::Brand() << "; features: " << cpu::FeatureNames(cpu::Features()));
}

#ifdef SHA256_TEST_EXTRA_ROW
// The test-only row exists, just before the portable one, and runs the portable transform.
BOOST_AUTO_TEST_CASE(extra_row_is_listed)
{
    const auto impls = sha256::Implementations();
    BOOST_REQUIRE_GE(impls.size(), 2u);
    const auto& alias = impls[impls.size() - 2];
    BOOST_CHECK_EQUAL(alias.name, "basic_alias");
    BOOST_CHECK_EQUAL(alias.needs, "none");
    BOOST_CHECK(alias.supported);
    BOOST_CHECK(alias.fn == &sha256::TransformBasic);
}

// The test-only D64 and multi-buffer rows: a width no other row has, from one
// kernel function and one kernel table line per shape, runnable everywhere,
// after every row that needs a feature; SHA256D64 and SHA256DMulti through them
// agree with the portable rows (the per-row suites run them like any other row).
BOOST_AUTO_TEST_CASE(extra_d64_and_multi_rows_are_listed)
{
    const auto d64 = sha256::D64Implementations();
    BOOST_REQUIRE_GE(d64.size(), 2u);
    BOOST_CHECK_EQUAL(d64[d64.size() - 2].name, "portable_6way");
    BOOST_CHECK_EQUAL(d64[d64.size() - 2].ways, 6);
    BOOST_CHECK(d64[d64.size() - 2].supported);
    bool multi = false;
    for (const auto& impl : sha256::MultiImplementations()) {
        if (impl.name != "portable_6way") continue;
        multi = true;
        BOOST_CHECK_EQUAL(impl.ways, 6);
        BOOST_CHECK(impl.supported);
        BOOST_CHECK(sha256::SelfTestMulti(impl.name));
    }
    BOOST_CHECK(multi);
    const std::string before = sha256::CurrentD64Implementation();
    BOOST_REQUIRE(sha256::SetD64Implementation("portable_6way"));
    unsigned char in[64 * 13], six[32 * 13], one[32 * 13];
    for (size_t i = 0; i < sizeof(in); ++i) in[i] = static_cast<unsigned char>(i * 13 + 5);
    SHA256D64(six, in, 13);
    BOOST_REQUIRE(sha256::SetD64Implementation("basic"));
    SHA256D64(one, in, 13);
    BOOST_CHECK(std::memcmp(six, one, sizeof(six)) == 0);
    sha256::SetD64Implementation(before);
}

// The test-only probe of the CPU model and the test-only rule on it: a probe
// and a rule are the CPU model's table line and the row's declaration, nothing
// else. portable_6way leads every D64 row where SHA256BENCH_TEST_PROBE is 2 or
// more (ci/extra-row.sh sets it), and keeps its listed place (just before
// basic) where the probe reads less (its measurement: 0).
BOOST_AUTO_TEST_CASE(extra_probe_orders_its_row)
{
    const cpu::Reading r = cpu::Read(cpu::Probe::TestProbe);
    BOOST_CHECK(r.source == (std::getenv("SHA256BENCH_TEST_PROBE") ? cpu::Source::Environment : cpu::Source::Measured));
    const auto d64 = sha256::D64Implementations();
    size_t at = d64.size();
    for (size_t i = 0; i < d64.size(); ++i) {
        if (d64[i].name != "portable_6way") continue;
        at = i;
        BOOST_REQUIRE_EQUAL(d64[i].leads.size(), 1u);
        BOOST_CHECK(d64[i].leads[0].probe == cpu::Probe::TestProbe);
    }
    BOOST_REQUIRE(at < d64.size());
    if (r.value >= d64[at].leads[0].at_least) {
        BOOST_CHECK_EQUAL(at, 0u);
    } else {
        BOOST_CHECK_EQUAL(at, d64.size() - 2);
    }
    BOOST_TEST_MESSAGE("  test probe " << cpu::Describe(cpu::Probe::TestProbe) << ": portable_6way at " << at);
}
#endif

BOOST_AUTO_TEST_CASE(set_implementation_refuses_unknown_and_unsupported)
{
    const std::string portable = test::PortableTransform();
    BOOST_REQUIRE(sha256::SetImplementation(portable));
    BOOST_CHECK(!sha256::SetImplementation("no-such-transform"));
    BOOST_CHECK(!sha256::SetImplementation(""));
    std::string upper = portable;
    for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    BOOST_CHECK(!sha256::SetImplementation(upper));
    BOOST_CHECK_EQUAL(sha256::CurrentImplementation(), portable);
    BOOST_CHECK(sha256::Transform == &sha256::TransformBasic);
    for (const auto& impl : sha256::Implementations()) {
        BOOST_REQUIRE(sha256::SetImplementation(portable));
        BOOST_CHECK_EQUAL(sha256::SetImplementation(impl.name), impl.supported);
        if (impl.supported) {
            BOOST_CHECK_EQUAL(sha256::CurrentImplementation(), impl.name);
            BOOST_CHECK(sha256::Transform == impl.fn);
            // Called as the plain function pointer Core-style code expects.
            unsigned char block[64] = {'a', 'b', 'c', 0x80};
            block[63] = 24;
            uint32_t got[8], want[8];
            std::memcpy(got, sha256::IV, sizeof(got));
            std::memcpy(want, sha256::IV, sizeof(want));
            sha256::Transform(got, block, 1);
            sha256::TransformBasic(want, block, 1);
            BOOST_CHECK_MESSAGE(std::memcmp(got, want, sizeof(got)) == 0, impl.name << " through sha256::Transform");
        } else {
            // Never switched to a transform the CPU cannot run.
            BOOST_CHECK_EQUAL(sha256::CurrentImplementation(), portable);
            BOOST_CHECK(sha256::Transform == &sha256::TransformBasic);
        }
    }
}

BOOST_AUTO_TEST_CASE(autodetect_picks_first_supported)
{
    const std::string picked = sha256::AutoDetect();
    // Expected pick: the first built row whose needs are a subset of the CPU's features.
    std::string first;
    for (const auto& impl : sha256::Implementations()) {
        if (impl.built && (impl.needs_mask & ~cpu::Features()) == 0) {
            first = impl.name;
            break;
        }
    }
    BOOST_CHECK_EQUAL(picked, first);
    // Under qemu (src/test/run-qemu.sh) the expected pick and the transforms the
    // emulated CPU must refuse are given from outside.
    if (const char* want = std::getenv("SHA256_EXPECT_AUTODETECT")) BOOST_CHECK_EQUAL(picked, want);
    if (const char* want = std::getenv("SHA256_EXPECT_UNSUPPORTED")) {
        std::set<std::string> unsupported, expected;
        for (const auto& impl : sha256::Implementations()) {
            if (!impl.supported) unsupported.insert(impl.name);
        }
        std::istringstream words(want);
        for (std::string w; words >> w;) expected.insert(w);
        BOOST_CHECK_MESSAGE(unsupported == expected, "unsupported transforms differ from SHA256_EXPECT_UNSUPPORTED='" << want << "'");
    }
    BOOST_CHECK_EQUAL(sha256::CurrentImplementation(), picked);
    BOOST_TEST_MESSAGE("  AutoDetect() picked " << picked << " (CPU features: " << cpu::FeatureNames(cpu::Features()) << ")");
    sha256::SetImplementation(test::PortableTransform());
}

BOOST_AUTO_TEST_CASE(self_test_rejects_broken_transforms)
{
    BOOST_CHECK(sha256::SelfTest(sha256::TransformBasic));
    BOOST_CHECK(!sha256::SelfTest(DoesNothing));
    BOOST_CHECK(!sha256::SelfTest(BrokenAfterOneBlock));
    test::ForEachTransform([&](const sha256::Implementation& impl) {
        BOOST_CHECK_MESSAGE(sha256::SelfTest(impl.fn), impl.name << " fails its self-test");
    });
    // AutoDetect's choice (the registry template's Detect, as every family
    // uses it) falls through a failing row to the next, and to the fallback.
    struct TestRow {
        sha256::registry::Base base;
        sha256::TransformFn fn;
    };
    using sha256::kernel::Source;
    static constexpr TestRow ROWS[] = {
        {{"broken", 0, true, Source::Portable, 1, "test", false, {}}, BrokenAfterOneBlock},
        {{"nothing", 0, true, Source::Portable, 1, "test", false, {}}, DoesNothing},
        {{"portable", 0, true, Source::Portable, 1, "test", false, {}}, sha256::TransformBasic},
    };
    static constexpr TestRow BROKEN[] = {ROWS[0], ROWS[1]};
    sha256::registry::Registry<TestRow, 3> rows{ROWS, "transform", 2};
    sha256::registry::Registry<TestRow, 2> broken{BROKEN, "transform", 0};
    const auto self_test = [](const TestRow& e) { return sha256::SelfTest(e.fn); };
    BOOST_CHECK_EQUAL(rows.Detect(self_test, -1), 2);
    BOOST_CHECK_EQUAL(broken.Detect(self_test, -1), -1);
}

// A row not built has a null function (fn, double32, ...): every public
// function given one answers false and changes nothing; none dereferences it.
// On x86-64 the ARM rows are not built, on aarch64 the x86 ones; SelfTest(nullptr)
// is checked on every build.
BOOST_AUTO_TEST_CASE(rows_not_built_answer_false)
{
    BOOST_CHECK(!sha256::SelfTest(nullptr));
    BOOST_CHECK(!sha256::SelfTestD64(nullptr, 4));
    BOOST_CHECK(!sha256::SelfTestMulti("no_such_row"));
    int unbuilt = 0;
    const std::string transform = sha256::CurrentImplementation();
    for (const auto& impl : sha256::Implementations()) {
        if (impl.built) continue;
        ++unbuilt;
        BOOST_CHECK_MESSAGE(!sha256::SelfTest(impl.fn), impl.name << " (not built) passes SelfTest");
        BOOST_CHECK_MESSAGE(!sha256::SetImplementation(impl.name), impl.name << " (not built) can be selected");
        BOOST_CHECK_EQUAL(sha256::CurrentImplementation(), transform);
    }
    const std::string d64 = sha256::CurrentD64Implementation();
    for (const auto& impl : sha256::D64Implementations()) {
        if (impl.built) continue;
        ++unbuilt;
        BOOST_CHECK_MESSAGE(!sha256::SelfTestD64(impl.fn, impl.ways), impl.name << " (not built) passes SelfTestD64");
        BOOST_CHECK_MESSAGE(!sha256::SetD64Implementation(impl.name), impl.name << " (not built) can be selected");
        BOOST_CHECK_EQUAL(sha256::CurrentD64Implementation(), d64);
    }
    const std::string fixed = sha256::CurrentFixedImplementation();
    for (const auto& impl : sha256::FixedImplementations()) {
        if (impl.built) continue;
        ++unbuilt;
        BOOST_CHECK_MESSAGE(!sha256::SetFixedImplementation(impl.name), impl.name << " (not built) can be selected");
        BOOST_CHECK_EQUAL(sha256::CurrentFixedImplementation(), fixed);
    }
    const std::string multi = sha256::CurrentMultiImplementation();
    for (const auto& impl : sha256::MultiImplementations()) {
        if (impl.built) continue;
        ++unbuilt;
        BOOST_CHECK_MESSAGE(!sha256::SelfTestMulti(impl.name), impl.name << " (not built) passes SelfTestMulti");
        BOOST_CHECK_MESSAGE(!sha256::SetMultiImplementation(impl.name), impl.name << " (not built) can be selected");
        BOOST_CHECK_EQUAL(sha256::CurrentMultiImplementation(), multi);
    }
    BOOST_TEST_MESSAGE("  rows not built in this binary, each refused: " << unbuilt);
}

BOOST_AUTO_TEST_CASE(cpu_features_are_consistent)
{
    const uint32_t f = cpu::Features();
    BOOST_CHECK_EQUAL(f, cpu::Features()); // cached, stable
    // AVX2 is only reported when the OS saves YMM state, which AVX needs as well.
    if (f & cpu::AVX2) BOOST_CHECK(f & cpu::AVX);
    BOOST_CHECK(!cpu::Brand().empty());
}

// Every per-transform test above ran every runnable registry row.
BOOST_AUTO_TEST_CASE(per_transform_tests_follow_the_registry) { test::CheckEveryTransformRan("registry_tests"); }

BOOST_AUTO_TEST_SUITE_END()
