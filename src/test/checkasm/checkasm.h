// SPDX-License-Identifier: MIT
// checkasm: call a kernel through a trampoline that checks the System V
// AMD64 calling convention from the outside, so that a kernel which breaks the
// ABI fails a test instead of corrupting whatever compiled code happens to run
// after it. Any kernel signature: Call(fn, args...) takes the function's own
// parameter types (dav1d's declare_func in spirit), up to three integer or
// pointer arguments, and returns what the function returned.
//
// On hosts other than x86-64 Call() just calls the function and reports
// nothing; CanCheckUpperYmm() and CanCheckUpperZmm() are false.

#ifndef SHA256BENCH_TEST_CHECKASM_CHECKASM_H
#define SHA256BENCH_TEST_CHECKASM_CHECKASM_H

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace checkasm {

struct Result {
    bool ok() const { return failures.empty(); }
    // One entry per violation, for example
    //   "callee-saved register r12 clobbered", "rsp changed",
    //   "stack above return address modified", "direction flag left set",
    //   "upper YMM state dirty (missing vzeroupper)",
    //   "upper YMM check inconclusive (XINUSE set before the call)",
    //   "upper ZMM state dirty (missing vzeroupper)",
    //   "zmm16-31 left in use", "opmask registers left in use",
    //   "SIGILL in transform", "SIGSEGV in transform", "SIGBUS in transform".
    // After a signal only the signal is reported: register state is lost.
    std::vector<std::string> failures;
    //! What the function returned (its rax; 0 for void, or after a signal).
    uint64_t returned{0};
};

//! Whether Call checks the upper vector state the callee leaves.
enum class Upper { Checked, Unchecked };

// True when the upper-YMM check in Call() means something: CPUID.(EAX=0Dh,
// ECX=1):EAX bit 2 (XGETBV with ECX=1), the OS has enabled YMM state in XCR0,
// and a probe confirms that XINUSE bit 2 really drops after vzeroupper and
// rises after a 256-bit write (emulators such as valgrind may not do that).
// The answer is computed once and cached.
bool CanCheckUpperYmm();

// True when the AVX-512 state can be checked as well: CanCheckUpperYmm(), the
// CPU has AVX-512F with opmask and ZMM state enabled by the OS, and a probe
// confirms that XINUSE bits 5-7 (opmask, upper halves of zmm0-15, zmm16-31)
// drop after an XRSTOR to the initial state and rise after writes to k1,
// zmm1 and zmm16. Computed once and cached.
bool CanCheckUpperZmm();

// Calls fn(args...) through the checking trampoline. Callee-saved
// registers get fresh random canaries, as do five stack slots directly above
// the return address; the stack is 16-byte aligned at the call. With
// Upper::Checked (the default), the trampoline runs vzeroupper before the call and reads
// XGETBV(ECX=1) right after it: bit 2 set means the callee left the upper
// halves of the YMM registers dirty. When CanCheckUpperZmm(), the trampoline
// also returns the AVX-512 state to its initial configuration (XRSTOR) before
// the call, and afterwards bits 5-7 must still be clear. That is stricter than
// the ABI (those registers are caller-saved): vzeroupper clears the upper
// halves of zmm0-15 but nothing resets zmm16-31 or k0-k7 short of XRSTOR, so
// a function that leaves them in use makes every later context switch save
// them. This project's assembly therefore uses zmm0-15 and no opmask. (The C
// library's EVEX string functions do leave them in use, which is why the
// trampoline resets them first.) Upper::Checked checks nothing more when
// CanCheckUpperYmm() is false. SIGILL, SIGSEGV and SIGBUS raised during the
// call become failures; the previous handlers are restored afterwards.
// Calls are serialised by an internal mutex (signal handlers are per process);
// a crash in another thread while a call is in flight would be misattributed.
//! The call itself: the function at address `fn` with three integer arguments.
Result CallWords(uint64_t fn, uint64_t a, uint64_t b, uint64_t c, Upper upper);

//! One argument as the integer register the ABI passes it in.
template <class T>
uint64_t Word(T v)
{
    static_assert(std::is_pointer<T>::value || std::is_integral<T>::value, "integer and pointer arguments only");
    if constexpr (std::is_pointer<T>::value) {
        return reinterpret_cast<uintptr_t>(v);
    } else {
        return static_cast<uint64_t>(v);
    }
}

//! The parameter types of fn, not deduced from the arguments: a call converts
//! its arguments as a direct call of fn would.
template <class T>
struct Param {
    using type = T;
};

template <class R, class... P>
Result Call(Upper upper, R (*fn)(P...), typename Param<P>::type... args)
{
    static_assert(sizeof...(P) <= 3, "the trampoline passes three integer arguments");
#if defined(__x86_64__)
    const uint64_t w[3] = {Word<P>(args)...};
    return CallWords(reinterpret_cast<uint64_t>(fn), w[0], w[1], w[2], upper);
#else
    (void)upper;
    Result r;
    if constexpr (std::is_void<R>::value) {
        fn(args...);
    } else {
        r.returned = Word<R>(fn(args...));
    }
    return r;
#endif
}

template <class R, class... P>
Result Call(R (*fn)(P...), typename Param<P>::type... args)
{
    return Call(Upper::Checked, fn, args...);
}

} // namespace checkasm

#endif // SHA256BENCH_TEST_CHECKASM_CHECKASM_H
