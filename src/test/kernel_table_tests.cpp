// SPDX-License-Identifier: MIT
// The kernel table itself (crypto/sha256_kernels.h): what it says of each
// kernel agrees with the build, and each kernel's name says its file.
#include <crypto/sha256.h>
#include <crypto/sha256_kernels.h>
#include <test/util/common.h>

#include <boost/test/unit_test.hpp>

#include <cctype>
#include <set>
#include <string>

namespace {

// The file a kernel set's name says, less its extension: the set
// <isa>[_<N>way...] is in sha256_<isa>; x86 SHA-NI is "x86_shani", as Bitcoin
// Core names its file (ARM's is "arm_shani" already).
std::string FileStem(const std::string& set)
{
    std::string isa = set;
    for (size_t i = 0; i + 1 < set.size(); ++i) {
        if (set[i] != '_' || !std::isdigit(static_cast<unsigned char>(set[i + 1]))) continue;
        size_t j = i + 1;
        while (j < set.size() && std::isdigit(static_cast<unsigned char>(set[j]))) ++j;
        if (set.compare(j, 3, "way") == 0) {
            isa = set.substr(0, i);
            break;
        }
    }
    if (isa == "shani") isa = "x86_shani";
    if (isa == "basic_alias") isa = "basic"; // test-only: the portable transform under a second name
    return "sha256_" + isa;
}

} // namespace

BOOST_AUTO_TEST_SUITE(kernel_table_tests)

// A newcomer finds a kernel's file from its name alone: C++ kernels in
// sha256_<isa>.cpp (one file per compiler-flag set), assembly in
// sha256_<isa>*.asm (src/test/cli-tests.sh checks that every file the table
// names exists and is built).
BOOST_AUTO_TEST_CASE(each_kernel_names_its_file)
{
    using sha256::kernel::Source;
    for (const auto& k : sha256::kernel::KERNELS) {
        const std::string file = k.file, stem = FileStem(k.name);
        BOOST_TEST_CONTEXT(k.name << " (" << file << ")")
        {
            if (k.source == Source::Asm) {
                BOOST_CHECK(file.compare(0, stem.size(), stem) == 0);
                BOOST_CHECK(file.size() > 4 && file.compare(file.size() - 4, 4, ".asm") == 0);
            } else {
                BOOST_CHECK_EQUAL(file, stem + ".cpp");
            }
        }
    }
    // The rule itself, both ways it can fail.
    BOOST_CHECK_EQUAL(FileStem("shani_4way"), "sha256_x86_shani");
    BOOST_CHECK_EQUAL(FileStem("avx2_8way_intrinsics"), "sha256_avx2");
    BOOST_CHECK_EQUAL(FileStem("rorx_x8ms"), "sha256_rorx_x8ms");
}

// Every kernel of the table: Built() (from its source and the build) agrees
// with its pointer, and only the member of its shape is set.
BOOST_AUTO_TEST_CASE(built_matches_pointers)
{
    using sha256::kernel::Shape;
    for (const auto& k : sha256::kernel::KERNELS) {
        const bool t = k.transform != nullptr, h = k.hash != nullptr, b = k.batch != nullptr;
        const bool l = k.lanes != nullptr, j = k.jobs != nullptr, m = k.merkle != nullptr;
        bool own = false;
        switch (k.shape) {
        case Shape::Transform: own = t; break;
        case Shape::D64Batch: own = b; break;
        case Shape::Lanes: own = l; break;
        case Shape::Jobs: own = j; break;
        case Shape::Merkle: own = m; break;
        default: own = h; break;
        }
        BOOST_CHECK_MESSAGE(k.Built() == own, k.name << ": Built() " << k.Built() << " but its pointer is "
                                                     << (own ? "set" : "nullptr"));
        BOOST_CHECK_MESSAGE(int{t} + h + b + l + j + m == int{own}, k.name << ": a member of another shape is set");
    }
}

// The portable kernels run everywhere (the lane algorithm over plain integers
// at the AVX-512 kernel's width among them, so that algorithm is exercised on
// every machine), and so do the rows that run them.
BOOST_AUTO_TEST_CASE(portable_kernels_run_everywhere)
{
    std::set<std::string> portable;
    for (const auto& k : sha256::kernel::KERNELS) {
        if (k.source != sha256::kernel::Source::Portable) continue;
        portable.insert(k.name);
        BOOST_CHECK_MESSAGE(k.Built() && k.needs == 0 && test::KernelWhyNot(k).empty(), k.name << " is not runnable");
    }
    BOOST_CHECK(portable.count(sha256::D64Implementations().back().name));
    int rows = 0;
    for (const auto& impl : sha256::D64Implementations()) {
        if (!portable.count(impl.name)) continue;
        ++rows;
        BOOST_CHECK_MESSAGE(impl.supported, impl.name << ": " << impl.why_not);
    }
    BOOST_CHECK_GE(rows, 2); // the 1-way fallback and at least one lane width
}

BOOST_AUTO_TEST_SUITE_END()
