// SPDX-License-Identifier: MIT
// checkasm: call a SHA-256 transform through a trampoline that checks the
// System V AMD64 calling convention from the outside, so that an assembly
// transform which breaks the ABI fails a test instead of corrupting whatever
// compiled code happens to run after it.
//
// On hosts other than x86-64 Call() just calls the function and reports
// nothing; CanCheckUpperYmm() is false.

#ifndef SHA256BENCH_TEST_CHECKASM_CHECKASM_H
#define SHA256BENCH_TEST_CHECKASM_CHECKASM_H

#include <crypto/sha256.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace checkasm {

using Fn = sha256::TransformFn;

struct Result {
    bool ok() const { return failures.empty(); }
    // One entry per violation, for example
    //   "callee-saved register r12 clobbered", "rsp changed",
    //   "stack above return address modified", "direction flag left set",
    //   "upper YMM state dirty (missing vzeroupper)",
    //   "upper YMM check inconclusive (XINUSE set before the call)",
    //   "SIGILL in transform", "SIGSEGV in transform", "SIGBUS in transform".
    // After a signal only the signal is reported: register state is lost.
    std::vector<std::string> failures;
};

// True when the upper-YMM check in Call() means something: CPUID.(EAX=0Dh,
// ECX=1):EAX bit 2 (XGETBV with ECX=1), the OS has enabled YMM state in XCR0,
// and a probe confirms that XINUSE bit 2 really drops after vzeroupper and
// rises after a 256-bit write (emulators such as valgrind may not do that).
// The answer is computed once and cached.
bool CanCheckUpperYmm();

// Calls fn(s, chunk, blocks) through the checking trampoline. Callee-saved
// registers get fresh random canaries, as do five stack slots directly above
// the return address; the stack is 16-byte aligned at the call. With
// check_vzeroupper, the trampoline runs vzeroupper before the call and reads
// XGETBV(ECX=1) right after it: bit 2 set means the callee left the upper
// halves of the YMM registers dirty. check_vzeroupper is ignored when
// CanCheckUpperYmm() is false. SIGILL, SIGSEGV and SIGBUS raised during the
// call become failures; the previous handlers are restored afterwards.
// Calls are serialised by an internal mutex (signal handlers are per process);
// a crash in another thread while a call is in flight would be misattributed.
Result Call(Fn fn, uint32_t* s, const unsigned char* chunk, size_t blocks, bool check_vzeroupper);

} // namespace checkasm

#endif // SHA256BENCH_TEST_CHECKASM_CHECKASM_H
