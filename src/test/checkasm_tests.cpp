// SPDX-License-Identifier: MIT
// Proves that every check in checkasm can fail: each deliberately broken
// function below must be caught and named, and well-behaved ones must pass;
// and that a call passes and returns what any kernel signature does.

#include <compat/cpuid.h>
#include <test/checkasm/checkasm.h>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <string>

#if defined(__x86_64__)

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define CHECKASM_TESTS_HAVE_VALGRIND_H 1
#endif
#endif

extern "C" {
#define CHECKASM_TEST_FN(name) void name(uint32_t*, const unsigned char*, size_t) __attribute__((visibility("hidden")))
CHECKASM_TEST_FN(checkasm_test_good);
CHECKASM_TEST_FN(checkasm_test_good_avx);
CHECKASM_TEST_FN(checkasm_test_clobber_rbx);
CHECKASM_TEST_FN(checkasm_test_clobber_rbp);
CHECKASM_TEST_FN(checkasm_test_clobber_r12);
CHECKASM_TEST_FN(checkasm_test_clobber_r13);
CHECKASM_TEST_FN(checkasm_test_clobber_r14);
CHECKASM_TEST_FN(checkasm_test_clobber_r15);
CHECKASM_TEST_FN(checkasm_test_clobber_all);
CHECKASM_TEST_FN(checkasm_test_dirty_ymm);
CHECKASM_TEST_FN(checkasm_test_stack_write_near);
CHECKASM_TEST_FN(checkasm_test_stack_write_far);
CHECKASM_TEST_FN(checkasm_test_rsp_change);
CHECKASM_TEST_FN(checkasm_test_set_df);
CHECKASM_TEST_FN(checkasm_test_ud2);
CHECKASM_TEST_FN(checkasm_test_read_null);
CHECKASM_TEST_FN(checkasm_test_good_avx512);
CHECKASM_TEST_FN(checkasm_test_dirty_zmm16);
CHECKASM_TEST_FN(checkasm_test_dirty_zmm_upper);
CHECKASM_TEST_FN(checkasm_test_dirty_opmask);
#undef CHECKASM_TEST_FN
}

// The broken functions. Each does exactly one wrong thing, so a test can also
// check that nothing else is reported.
asm(R"(
    .pushsection .text
    .macro CHECKASM_TEST_FUNC name
    .p2align 4
    .globl  \name
    .hidden \name
    .type   \name, @function
\name:
    .endm
    .macro CHECKASM_TEST_END name
    .size   \name, .-\name
    .endm

    # Honest: saves and uses every callee-saved register and its own stack,
    # and reports what it saw: s[0] = blocks, s[1] = chunk[0], s[2] = (rsp+8) mod 16.
    CHECKASM_TEST_FUNC checkasm_test_good
    pushq   %rbx
    pushq   %rbp
    pushq   %r12
    pushq   %r13
    pushq   %r14
    pushq   %r15
    leaq    56(%rsp), %rax
    andl    $15, %eax
    movl    %eax, 8(%rdi)
    subq    $64, %rsp
    movq    %rdx, %rbx
    movq    %rdx, %rbp
    movq    %rdx, %r12
    movq    %rdx, %r13
    movq    %rdx, %r14
    movq    %rdx, %r15
    movq    %rbx, 0(%rsp)
    movq    %r15, 56(%rsp)
    movl    %ebx, 0(%rdi)
    movzbl  (%rsi), %ecx
    movl    %ecx, 4(%rdi)
    addq    $64, %rsp
    popq    %r15
    popq    %r14
    popq    %r13
    popq    %r12
    popq    %rbp
    popq    %rbx
    ret
    CHECKASM_TEST_END checkasm_test_good

    # Honest AVX function: dirties ymm, then cleans up.
    CHECKASM_TEST_FUNC checkasm_test_good_avx
    vpcmpeqb %ymm1, %ymm1, %ymm1
    vmovdqu %ymm1, -32(%rsp)
    vzeroupper
    ret
    CHECKASM_TEST_END checkasm_test_good_avx

    CHECKASM_TEST_FUNC checkasm_test_clobber_rbx
    notq    %rbx
    ret
    CHECKASM_TEST_END checkasm_test_clobber_rbx
    CHECKASM_TEST_FUNC checkasm_test_clobber_rbp
    notq    %rbp
    ret
    CHECKASM_TEST_END checkasm_test_clobber_rbp
    CHECKASM_TEST_FUNC checkasm_test_clobber_r12
    notq    %r12
    ret
    CHECKASM_TEST_END checkasm_test_clobber_r12
    CHECKASM_TEST_FUNC checkasm_test_clobber_r13
    notq    %r13
    ret
    CHECKASM_TEST_END checkasm_test_clobber_r13
    CHECKASM_TEST_FUNC checkasm_test_clobber_r14
    notq    %r14
    ret
    CHECKASM_TEST_END checkasm_test_clobber_r14
    CHECKASM_TEST_FUNC checkasm_test_clobber_r15
    notq    %r15
    ret
    CHECKASM_TEST_END checkasm_test_clobber_r15
    CHECKASM_TEST_FUNC checkasm_test_clobber_all
    xorl    %ebx, %ebx
    xorl    %ebp, %ebp
    xorl    %r12d, %r12d
    xorl    %r13d, %r13d
    xorl    %r14d, %r14d
    xorl    %r15d, %r15d
    ret
    CHECKASM_TEST_END checkasm_test_clobber_all

    # Uses ymm and returns without vzeroupper.
    CHECKASM_TEST_FUNC checkasm_test_dirty_ymm
    vpcmpeqb %ymm1, %ymm1, %ymm1
    ret
    CHECKASM_TEST_END checkasm_test_dirty_ymm

    # [rsp] is the return address; [rsp+8] and up belong to the caller.
    CHECKASM_TEST_FUNC checkasm_test_stack_write_near
    notq    8(%rsp)
    ret
    CHECKASM_TEST_END checkasm_test_stack_write_near
    CHECKASM_TEST_FUNC checkasm_test_stack_write_far
    notq    40(%rsp)
    ret
    CHECKASM_TEST_END checkasm_test_stack_write_far

    # Returns with rsp 8 bytes higher than it should be, touching no memory.
    CHECKASM_TEST_FUNC checkasm_test_rsp_change
    popq    %rcx
    addq    $8, %rsp
    jmpq    *%rcx
    CHECKASM_TEST_END checkasm_test_rsp_change

    CHECKASM_TEST_FUNC checkasm_test_set_df
    std
    ret
    CHECKASM_TEST_END checkasm_test_set_df

    CHECKASM_TEST_FUNC checkasm_test_ud2
    ud2
    CHECKASM_TEST_END checkasm_test_ud2

    CHECKASM_TEST_FUNC checkasm_test_read_null
    xorl    %eax, %eax
    movq    (%rax), %rax
    ret
    CHECKASM_TEST_END checkasm_test_read_null

    # AVX-512 (assembled whatever the compiler's -m flags; run only when the
    # CPU has AVX-512F). Honest: 512-bit work in zmm0-15, then vzeroupper.
    CHECKASM_TEST_FUNC checkasm_test_good_avx512
    vpternlogd $0xff, %zmm1, %zmm1, %zmm1
    vmovdqu64 %zmm1, -64(%rsp)
    vzeroupper
    ret
    CHECKASM_TEST_END checkasm_test_good_avx512

    # Touches zmm16, then vzeroupper, which does not reset zmm16-31.
    CHECKASM_TEST_FUNC checkasm_test_dirty_zmm16
    vpternlogd $0xff, %zmm16, %zmm16, %zmm16
    vzeroupper
    ret
    CHECKASM_TEST_END checkasm_test_dirty_zmm16

    # Writes a full zmm register and returns without vzeroupper.
    CHECKASM_TEST_FUNC checkasm_test_dirty_zmm_upper
    vpternlogd $0xff, %zmm1, %zmm1, %zmm1
    ret
    CHECKASM_TEST_END checkasm_test_dirty_zmm_upper

    # Sets an opmask register (vzeroupper does not reset those either).
    CHECKASM_TEST_FUNC checkasm_test_dirty_opmask
    kxnorw  %k1, %k1, %k1
    vzeroupper
    ret
    CHECKASM_TEST_END checkasm_test_dirty_opmask

    .purgem CHECKASM_TEST_FUNC
    .purgem CHECKASM_TEST_END
    .popsection
)");

namespace {

using TransformFn = void (*)(uint32_t* s, const unsigned char* chunk, size_t blocks);

bool Has(const checkasm::Result& r, const std::string& what)
{
    return std::find(r.failures.begin(), r.failures.end(), what) != r.failures.end();
}

std::string Describe(const checkasm::Result& r)
{
    std::string out;
    for (const auto& f : r.failures) out += "[" + f + "] ";
    return out.empty() ? "(no failures)" : out;
}

// Calls fn on a zeroed state and a one-block buffer.
checkasm::Result Run(TransformFn fn, bool check_vzeroupper = false)
{
    uint32_t s[8] = {};
    unsigned char chunk[64] = {};
    return checkasm::Call(check_vzeroupper ? checkasm::Upper::Checked : checkasm::Upper::Unchecked, fn, s, chunk, 1);
}

// Other kernel shapes: two arguments and a result, as a job kernel returns one.
size_t CountAbove(const uint32_t* words, size_t n)
{
    size_t above = 0;
    for (size_t i = 0; i < n; ++i) above += words[i] > 100;
    return above;
}

// A C++ function stands for compiled code: it must pass every check.
void CppTransform(uint32_t* s, const unsigned char* chunk, size_t blocks)
{
    for (size_t b = 0; b < blocks; ++b) {
        for (int i = 0; i < 64; ++i) s[i % 8] = s[i % 8] * 31 + chunk[b * 64 + i];
    }
}

// The deliberate null read is reported by memcheck before the SIGSEGV arrives.
// Constructor and destructor are user-provided in every build, so a scoped
// instance never counts as an unused variable.
struct QuietValgrind {
    QuietValgrind()
    {
#ifdef CHECKASM_TESTS_HAVE_VALGRIND_H
        VALGRIND_DISABLE_ERROR_REPORTING;
#endif
    }
    ~QuietValgrind()
    {
#ifdef CHECKASM_TESTS_HAVE_VALGRIND_H
        VALGRIND_ENABLE_ERROR_REPORTING;
#endif
    }
};

} // namespace

BOOST_AUTO_TEST_SUITE(checkasm_tests)

BOOST_AUTO_TEST_CASE(good_asm_function_passes_and_sees_its_arguments)
{
    uint32_t s[8] = {0, 0, 99, 0, 0, 0, 0, 0};
    unsigned char chunk[3 * 64] = {};
    chunk[0] = 0xab;
    const checkasm::Result r = checkasm::Call(checkasm_test_good, s, chunk, 3);
    BOOST_CHECK_MESSAGE(r.ok(), Describe(r));
    BOOST_CHECK_EQUAL(s[0], 3u);
    BOOST_CHECK_EQUAL(s[1], 0xabu);
    BOOST_CHECK_EQUAL(s[2], 0u); // rsp + 8 is 16-byte aligned on entry, as the ABI requires
}

BOOST_AUTO_TEST_CASE(good_cpp_function_passes)
{
    uint32_t s[8] = {}, expect[8] = {};
    unsigned char chunk[2 * 64];
    for (int i = 0; i < 128; ++i) chunk[i] = static_cast<unsigned char>(i * 7);
    CppTransform(expect, chunk, 2);
    for (int rep = 0; rep < 100; ++rep) { // fresh canaries each time
        std::memset(s, 0, sizeof(s));
        const checkasm::Result r = checkasm::Call(CppTransform, s, chunk, 2);
        BOOST_REQUIRE_MESSAGE(r.ok(), Describe(r));
        BOOST_REQUIRE(std::memcmp(s, expect, sizeof(s)) == 0);
    }
}

// Call takes the function's own signature and hands back its result: the
// arguments reach it in order, and what it returns is returned.
BOOST_AUTO_TEST_CASE(any_signature_and_its_result)
{
    const uint32_t words[5] = {1, 200, 3, 400, 500};
    const checkasm::Result r = checkasm::Call(CountAbove, words, 5);
    BOOST_CHECK_MESSAGE(r.ok(), Describe(r));
    BOOST_CHECK_EQUAL(r.returned, 3u);
    BOOST_CHECK_EQUAL(checkasm::Call(CountAbove, words, 2).returned, 1u);
    BOOST_CHECK_EQUAL(checkasm::Call(CountAbove, words + 1, 0).returned, 0u);
}

BOOST_AUTO_TEST_CASE(each_clobbered_callee_saved_register_is_named)
{
    const struct {
        TransformFn fn;
        const char* reg;
    } cases[] = {
        {checkasm_test_clobber_rbx, "rbx"}, {checkasm_test_clobber_rbp, "rbp"},
        {checkasm_test_clobber_r12, "r12"}, {checkasm_test_clobber_r13, "r13"},
        {checkasm_test_clobber_r14, "r14"}, {checkasm_test_clobber_r15, "r15"},
    };
    for (const auto& c : cases) {
        const checkasm::Result r = Run(c.fn);
        BOOST_TEST_CONTEXT("clobbering " << c.reg << ": " << Describe(r))
        {
            BOOST_CHECK(!r.ok());
            BOOST_CHECK_EQUAL(r.failures.size(), 1u);
            BOOST_CHECK(Has(r, std::string("callee-saved register ") + c.reg + " clobbered"));
        }
    }
}

BOOST_AUTO_TEST_CASE(all_six_clobbered_registers_are_named)
{
    const checkasm::Result r = Run(checkasm_test_clobber_all);
    BOOST_TEST_MESSAGE(Describe(r));
    BOOST_CHECK_EQUAL(r.failures.size(), 6u);
    for (const char* reg : {"rbx", "rbp", "r12", "r13", "r14", "r15"}) {
        BOOST_CHECK_MESSAGE(Has(r, std::string("callee-saved register ") + reg + " clobbered"), reg);
    }
}

BOOST_AUTO_TEST_CASE(missing_vzeroupper_is_detected)
{
    if (!checkasm::CanCheckUpperYmm()) {
        BOOST_TEST_MESSAGE("upper YMM state cannot be observed here (no XGETBV ECX=1); check skipped");
        // Even then, requesting the check must not produce false reports.
        const checkasm::Result r = Run(CppTransform, true);
        BOOST_CHECK_MESSAGE(r.ok(), Describe(r));
        return;
    }
    const checkasm::Result dirty = Run(checkasm_test_dirty_ymm, true);
    BOOST_CHECK_MESSAGE(Has(dirty, "upper YMM state dirty (missing vzeroupper)"), Describe(dirty));
    BOOST_CHECK_EQUAL(dirty.failures.size(), 1u);

    // Not asked for, not reported.
    const checkasm::Result unchecked = Run(checkasm_test_dirty_ymm, false);
    BOOST_CHECK_MESSAGE(unchecked.ok(), Describe(unchecked));

    // A function that cleans up passes, even right after a dirty one: the
    // trampoline starts every checked call from a clean upper state.
    for (int i = 0; i < 3; ++i) {
        Run(checkasm_test_dirty_ymm, false);
        const checkasm::Result clean = Run(checkasm_test_good_avx, true);
        BOOST_CHECK_MESSAGE(clean.ok(), Describe(clean));
        Run(checkasm_test_dirty_ymm, false);
        const checkasm::Result again = Run(checkasm_test_dirty_ymm, true);
        BOOST_CHECK_MESSAGE(Has(again, "upper YMM state dirty (missing vzeroupper)"), Describe(again));
    }
}

// Each AVX-512 leftover is named on its own; zmm0-15 work followed by
// vzeroupper passes, even right after code that left the AVX-512 state in use.
BOOST_AUTO_TEST_CASE(avx512_state_left_in_use_is_detected)
{
    if (!checkasm::CanCheckUpperZmm()) {
        BOOST_TEST_MESSAGE("not run: "
                           << (cpu::DetectedFeatures() & cpu::AVX512F ? "XINUSE bits 5-7 not observable here"
                                                                       : "CPU lacks avx512f")
                           << "; AVX-512 state check skipped");
        // Requesting the checks must still report nothing for clean code.
        const checkasm::Result r = Run(CppTransform, true);
        BOOST_CHECK_MESSAGE(r.ok(), Describe(r));
        return;
    }
    BOOST_TEST_MESSAGE("AVX-512 state (XINUSE bits 5-7) checked on every checked call");
    const checkasm::Result hi16 = Run(checkasm_test_dirty_zmm16, true);
    BOOST_CHECK_MESSAGE(Has(hi16, "zmm16-31 left in use"), Describe(hi16));
    BOOST_CHECK_EQUAL(hi16.failures.size(), 1u);

    const checkasm::Result mask = Run(checkasm_test_dirty_opmask, true);
    BOOST_CHECK_MESSAGE(Has(mask, "opmask registers left in use"), Describe(mask));
    BOOST_CHECK_EQUAL(mask.failures.size(), 1u);

    // A dirty zmm0-15 upper half is dirty YMM state as well.
    const checkasm::Result upper = Run(checkasm_test_dirty_zmm_upper, true);
    BOOST_CHECK_MESSAGE(Has(upper, "upper ZMM state dirty (missing vzeroupper)"), Describe(upper));
    BOOST_CHECK_MESSAGE(Has(upper, "upper YMM state dirty (missing vzeroupper)"), Describe(upper));
    BOOST_CHECK_EQUAL(upper.failures.size(), 2u);

    for (int i = 0; i < 3; ++i) {
        Run(checkasm_test_dirty_zmm16, false); // leaves zmm16-31 in use for the next call
        Run(checkasm_test_dirty_opmask, false);
        const checkasm::Result clean = Run(checkasm_test_good_avx512, true);
        BOOST_CHECK_MESSAGE(clean.ok(), Describe(clean));
        const checkasm::Result again = Run(checkasm_test_dirty_zmm16, true);
        BOOST_CHECK_MESSAGE(Has(again, "zmm16-31 left in use"), Describe(again));
    }
    // Not asked for, not reported.
    const checkasm::Result unchecked = Run(checkasm_test_dirty_zmm16, false);
    BOOST_CHECK_MESSAGE(unchecked.ok(), Describe(unchecked));
}

BOOST_AUTO_TEST_CASE(write_above_return_address_is_detected)
{
    for (TransformFn fn : {checkasm_test_stack_write_near, checkasm_test_stack_write_far}) {
        const checkasm::Result r = Run(fn);
        BOOST_CHECK_MESSAGE(Has(r, "stack above return address modified"), Describe(r));
        BOOST_CHECK_EQUAL(r.failures.size(), 1u);
    }
}

BOOST_AUTO_TEST_CASE(changed_rsp_is_detected)
{
    const checkasm::Result r = Run(checkasm_test_rsp_change);
    BOOST_CHECK_MESSAGE(Has(r, "rsp changed"), Describe(r));
    BOOST_CHECK_EQUAL(r.failures.size(), 1u);
}

BOOST_AUTO_TEST_CASE(direction_flag_left_set_is_detected)
{
    const checkasm::Result r = Run(checkasm_test_set_df);
    BOOST_CHECK_MESSAGE(Has(r, "direction flag left set"), Describe(r));
    BOOST_CHECK_EQUAL(r.failures.size(), 1u);
}

BOOST_AUTO_TEST_CASE(ud2_becomes_sigill_failure)
{
    const checkasm::Result r = Run(checkasm_test_ud2);
    BOOST_CHECK_MESSAGE(Has(r, "SIGILL in transform"), Describe(r));
    BOOST_CHECK_EQUAL(r.failures.size(), 1u);
}

BOOST_AUTO_TEST_CASE(null_read_becomes_sigsegv_failure)
{
    checkasm::Result r;
    {
        QuietValgrind quiet;
        r = Run(checkasm_test_read_null);
    }
    BOOST_CHECK_MESSAGE(Has(r, "SIGSEGV in transform"), Describe(r));
    BOOST_CHECK_EQUAL(r.failures.size(), 1u);
}

namespace {
void MarkerHandler(int) {}
} // namespace

BOOST_AUTO_TEST_CASE(crashes_repeat_and_previous_handlers_come_back)
{
    struct sigaction mine {}, saved[2];
    mine.sa_handler = MarkerHandler;
    sigemptyset(&mine.sa_mask);
    BOOST_REQUIRE(sigaction(SIGILL, &mine, &saved[0]) == 0);
    BOOST_REQUIRE(sigaction(SIGSEGV, &mine, &saved[1]) == 0);

    for (int i = 0; i < 5; ++i) {
        BOOST_CHECK(Has(Run(checkasm_test_ud2), "SIGILL in transform"));
        {
            QuietValgrind quiet;
            BOOST_CHECK(Has(Run(checkasm_test_read_null), "SIGSEGV in transform"));
        }
        const checkasm::Result r = Run(checkasm_test_good, true);
        BOOST_CHECK_MESSAGE(r.ok(), Describe(r));
    }

    struct sigaction now {};
    BOOST_CHECK(sigaction(SIGILL, nullptr, &now) == 0);
    BOOST_CHECK(now.sa_handler == MarkerHandler);
    BOOST_CHECK(sigaction(SIGSEGV, nullptr, &now) == 0);
    BOOST_CHECK(now.sa_handler == MarkerHandler);
    // Signals were unblocked by siglongjmp: a later crash would not hang or kill us.
    sigset_t blocked;
    sigprocmask(SIG_BLOCK, nullptr, &blocked);
    BOOST_CHECK(!sigismember(&blocked, SIGILL));
    BOOST_CHECK(!sigismember(&blocked, SIGSEGV));

    sigaction(SIGILL, &saved[0], nullptr);
    sigaction(SIGSEGV, &saved[1], nullptr);
}

BOOST_AUTO_TEST_SUITE_END()

#else // !__x86_64__

BOOST_AUTO_TEST_SUITE(checkasm_tests)

BOOST_AUTO_TEST_CASE(fallback_just_calls)
{
    uint32_t s[8] = {};
    unsigned char chunk[64] = {};
    chunk[0] = 5;
    const checkasm::Result r = checkasm::Call(
        +[](uint32_t* st, const unsigned char* c, size_t n) { st[0] = c[0] + static_cast<uint32_t>(n); }, s, chunk, 1);
    BOOST_CHECK(r.ok());
    BOOST_CHECK_EQUAL(s[0], 6u);
    const uint32_t words[3] = {7, 8, 9};
    BOOST_CHECK_EQUAL(checkasm::Call(+[](const uint32_t* w, size_t n) -> size_t { return w[n - 1]; }, words, 3).returned, 9u);
    BOOST_CHECK(!checkasm::CanCheckUpperYmm());
    BOOST_CHECK(!checkasm::CanCheckUpperZmm());
}

BOOST_AUTO_TEST_SUITE_END()

#endif
