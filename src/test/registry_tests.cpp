// The transform registry: listing, selection by name, AutoDetect and its self-test.
#include <compat/cpuid.h>
#include <crypto/sha256.h>
#include <test/util.h>

#include <boost/test/unit_test.hpp>

#include <cstdlib>
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
    BOOST_CHECK(names == (std::set<std::string>{"basic", "sse4", "avx", "rorx", "rorx_x8ms", "shani", "arm_shani"}));
    BOOST_CHECK_EQUAL(impls.back().name, "basic");
    BOOST_CHECK(impls.back().supported);
#ifdef DISABLE_OPTIMIZED_SHA256
    for (const auto& impl : impls) BOOST_CHECK_EQUAL(impl.built, impl.name == "basic");
#endif
    BOOST_TEST_MESSAGE("  CPU: " << cpu::Brand() << "; features: " << cpu::FeatureNames(cpu::Features()));
}

BOOST_AUTO_TEST_CASE(set_implementation_refuses_unknown_and_unsupported)
{
    BOOST_REQUIRE(sha256::SetImplementation("basic"));
    BOOST_CHECK(!sha256::SetImplementation("no-such-transform"));
    BOOST_CHECK(!sha256::SetImplementation(""));
    BOOST_CHECK(!sha256::SetImplementation("BASIC"));
    BOOST_CHECK_EQUAL(sha256::CurrentImplementation(), "basic");
    BOOST_CHECK(sha256::Transform == &sha256::TransformBasic);
    for (const auto& impl : sha256::Implementations()) {
        BOOST_REQUIRE(sha256::SetImplementation("basic"));
        BOOST_CHECK_EQUAL(sha256::SetImplementation(impl.name), impl.supported);
        if (impl.supported) {
            BOOST_CHECK_EQUAL(sha256::CurrentImplementation(), impl.name);
            BOOST_CHECK(sha256::Transform == impl.fn);
        } else {
            // Never switched to a transform the CPU cannot run.
            BOOST_CHECK_EQUAL(sha256::CurrentImplementation(), "basic");
            BOOST_CHECK(sha256::Transform == &sha256::TransformBasic);
        }
    }
}

BOOST_AUTO_TEST_CASE(autodetect_picks_first_supported)
{
    const std::string picked = sha256::AutoDetect();
    std::string first;
    for (const auto& impl : sha256::Implementations()) {
        if (impl.supported) {
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
    sha256::SetImplementation("basic");
}

BOOST_AUTO_TEST_CASE(self_test_rejects_broken_transforms)
{
    BOOST_CHECK(sha256::SelfTest(sha256::TransformBasic));
    BOOST_CHECK(!sha256::SelfTest(DoesNothing));
    BOOST_CHECK(!sha256::SelfTest(BrokenAfterOneBlock));
    for (const auto& impl : test::RunnableTransforms()) {
        BOOST_CHECK_MESSAGE(sha256::SelfTest(impl.fn), impl.name << " fails its self-test");
    }
    // AutoDetect's choice falls through a failing candidate to the next.
    BOOST_CHECK_EQUAL(sha256::detail::FirstPassing({{"broken", BrokenAfterOneBlock}, {"basic", sha256::TransformBasic}}), 1);
    BOOST_CHECK_EQUAL(sha256::detail::FirstPassing({{"broken", DoesNothing}}), -1);
}

BOOST_AUTO_TEST_CASE(cpu_features_are_consistent)
{
    const uint32_t f = cpu::Features();
    BOOST_CHECK_EQUAL(f, cpu::Features()); // cached, stable
    // AVX2 is only reported when the OS saves YMM state, which AVX needs as well.
    if (f & cpu::AVX2) BOOST_CHECK(f & cpu::AVX);
    BOOST_CHECK(!cpu::Brand().empty());
}

BOOST_AUTO_TEST_SUITE_END()
