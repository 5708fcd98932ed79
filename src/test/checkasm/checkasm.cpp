// SPDX-License-Identifier: MIT
// checkasm trampoline: see checkasm.h. The idea (canaries in callee-saved
// registers and above the return address, checked after the call) follows
// dav1d/FFmpeg checkasm; the code is written for this project.

#include "checkasm.h"

#if defined(__x86_64__)

#include <compat/cpuid.h>

#include <cpuid.h>
#include <csetjmp>
#include <csignal>
#include <cstddef>
#include <mutex>
#include <random>

namespace {

// Shared with the assembly below, which addresses fields by byte offset.
struct Ctx {
    uint64_t fn;              //   0
    uint64_t arg0;            //   8  rdi
    uint64_t arg1;            //  16  rsi
    uint64_t arg2;            //  24  rdx
    uint64_t reg_in[6];       //  32  rbx rbp r12 r13 r14 r15
    uint64_t reg_out[6];      //  80
    uint64_t slot_in[5];      // 128  [rsp], [rsp+8], ... at the call
    uint64_t slot_out[5];     // 168
    uint64_t rsp_before;      // 208  rsp just before `call`
    uint64_t rsp_after;       // 216  rsp just after the callee returned
    uint64_t mode;            // 224  bit 0: vzeroupper first; bit 1: read XINUSE;
                              //      bit 2: reset AVX-512 state (XRSTOR) first
    uint64_t xinuse_before;   // 232
    uint64_t xinuse_after;    // 240
    uint64_t rflags_after;    // 248
    uint64_t ret;             // 256  rax after the call
};
static_assert(offsetof(Ctx, reg_in) == 32, "asm offsets");
static_assert(offsetof(Ctx, reg_out) == 80, "asm offsets");
static_assert(offsetof(Ctx, slot_in) == 128, "asm offsets");
static_assert(offsetof(Ctx, slot_out) == 168, "asm offsets");
static_assert(offsetof(Ctx, rsp_before) == 208, "asm offsets");
static_assert(offsetof(Ctx, mode) == 224, "asm offsets");
static_assert(offsetof(Ctx, rflags_after) == 248, "asm offsets");
static_assert(offsetof(Ctx, ret) == 256, "asm offsets");
constexpr int kSlots = 5;

constexpr uint64_t kModeVzeroupper = 1;
constexpr uint64_t kModeXinuse = 2;
constexpr uint64_t kModeResetAvx512 = 4;
// XINUSE (XGETBV with ECX=1) bits: upper YMM halves; opmask, upper ZMM
// halves of zmm0-15, zmm16-31.
constexpr uint64_t kXinuseYmm = 1u << 2;
constexpr uint64_t kXinuseOpmask = 1u << 5;
constexpr uint64_t kXinuseZmmHi256 = 1u << 6;
constexpr uint64_t kXinuseHi16Zmm = 1u << 7;
constexpr uint64_t kXinuseAvx512 = kXinuseOpmask | kXinuseZmmHi256 | kXinuseHi16Zmm;
const char* const kRegNames[6] = {"rbx", "rbp", "r12", "r13", "r14", "r15"};

} // namespace

extern "C" {
void checkasm_trampoline(Ctx* ctx) __attribute__((visibility("hidden")));
void checkasm_probe_xinuse(uint64_t out[2]) __attribute__((visibility("hidden")));
void checkasm_probe_xinuse_avx512(uint64_t out[2]) __attribute__((visibility("hidden")));
}

// Written as a whole function in assembly so that no compiler-generated code
// (or sanitizer instrumentation) runs between loading the canaries and the
// call, or between the return and reading XINUSE. Entry follows the ABI
// (rsp = 8 mod 16), so after six pushes and 40 bytes of canary slots rsp is
// 16-byte aligned at the call. The callee may leave rsp and rdi anywhere: rsp
// is reloaded from ctx->rsp_before, and ctx itself from static storage.
// The CFI keeps debuggers, valgrind and sanitizers able to unwind through
// here from inside the callee. Not reentrant: Call() holds a mutex.
asm(R"(
    .pushsection .text
    .p2align 4
    .globl  checkasm_trampoline
    .hidden checkasm_trampoline
    .type   checkasm_trampoline, @function
checkasm_trampoline:
    .cfi_startproc
    pushq   %rbx
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %rbx, 0
    pushq   %rbp
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %rbp, 0
    pushq   %r12
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %r12, 0
    pushq   %r13
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %r13, 0
    pushq   %r14
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %r14, 0
    pushq   %r15
    .cfi_adjust_cfa_offset 8
    .cfi_rel_offset %r15, 0
    subq    $40, %rsp
    .cfi_adjust_cfa_offset 40
    movq    %rdi, checkasm_saved_ctx(%rip)
    movq    128(%rdi), %rax
    movq    %rax, 0(%rsp)
    movq    136(%rdi), %rax
    movq    %rax, 8(%rsp)
    movq    144(%rdi), %rax
    movq    %rax, 16(%rsp)
    movq    152(%rdi), %rax
    movq    %rax, 24(%rsp)
    movq    160(%rdi), %rax
    movq    %rax, 32(%rsp)
    testb   $4, 224(%rdi)
    jz      0f
    movl    $0xe0, %eax
    xorl    %edx, %edx
    xrstor  checkasm_xstate_init(%rip)
0:
    testb   $1, 224(%rdi)
    jz      1f
    vzeroupper
1:
    testb   $2, 224(%rdi)
    jz      2f
    movl    $1, %ecx
    xgetbv
    movl    %eax, 232(%rdi)
    movl    %edx, 236(%rdi)
2:
    movq    %rsp, 208(%rdi)
    movq    32(%rdi), %rbx
    movq    40(%rdi), %rbp
    movq    48(%rdi), %r12
    movq    56(%rdi), %r13
    movq    64(%rdi), %r14
    movq    72(%rdi), %r15
    movq    0(%rdi), %rax
    movq    16(%rdi), %rsi
    movq    24(%rdi), %rdx
    movq    8(%rdi), %rdi
    callq   *%rax
    movq    checkasm_saved_ctx(%rip), %rdi
    movq    %rax, 256(%rdi)
    movq    %rsp, 216(%rdi)
    testb   $2, 224(%rdi)
    jz      3f
    movl    $1, %ecx
    xgetbv
    movl    %eax, 240(%rdi)
    movl    %edx, 244(%rdi)
3:
    movq    %rbx, 80(%rdi)
    movq    %rbp, 88(%rdi)
    movq    %r12, 96(%rdi)
    movq    %r13, 104(%rdi)
    movq    %r14, 112(%rdi)
    movq    %r15, 120(%rdi)
    movq    208(%rdi), %rsp
    movq    0(%rsp), %rax
    movq    %rax, 168(%rdi)
    movq    8(%rsp), %rax
    movq    %rax, 176(%rdi)
    movq    16(%rsp), %rax
    movq    %rax, 184(%rdi)
    movq    24(%rsp), %rax
    movq    %rax, 192(%rdi)
    movq    32(%rsp), %rax
    movq    %rax, 200(%rdi)
    pushfq
    .cfi_adjust_cfa_offset 8
    popq    %rax
    .cfi_adjust_cfa_offset -8
    movq    %rax, 248(%rdi)
    cld
    addq    $40, %rsp
    .cfi_adjust_cfa_offset -40
    popq    %r15
    .cfi_adjust_cfa_offset -8
    .cfi_restore %r15
    popq    %r14
    .cfi_adjust_cfa_offset -8
    .cfi_restore %r14
    popq    %r13
    .cfi_adjust_cfa_offset -8
    .cfi_restore %r13
    popq    %r12
    .cfi_adjust_cfa_offset -8
    .cfi_restore %r12
    popq    %rbp
    .cfi_adjust_cfa_offset -8
    .cfi_restore %rbp
    popq    %rbx
    .cfi_adjust_cfa_offset -8
    .cfi_restore %rbx
    ret
    .cfi_endproc
    .size   checkasm_trampoline, .-checkasm_trampoline

    .p2align 4
    .globl  checkasm_probe_xinuse
    .hidden checkasm_probe_xinuse
    .type   checkasm_probe_xinuse, @function
checkasm_probe_xinuse:
    .cfi_startproc
    vzeroupper
    movl    $1, %ecx
    xgetbv
    movl    %eax, 0(%rdi)
    movl    %edx, 4(%rdi)
    vpcmpeqb %ymm0, %ymm0, %ymm0
    xgetbv
    movl    %eax, 8(%rdi)
    movl    %edx, 12(%rdi)
    vzeroupper
    ret
    .cfi_endproc
    .size   checkasm_probe_xinuse, .-checkasm_probe_xinuse

    # The same for the AVX-512 state: reset opmask and ZMM state (XRSTOR with
    # RFBM = bits 5-7 and XSTATE_BV = 0 initialises them), read XINUSE, write
    # k1, zmm1 and zmm16, read it again, reset.
    .p2align 4
    .globl  checkasm_probe_xinuse_avx512
    .hidden checkasm_probe_xinuse_avx512
    .type   checkasm_probe_xinuse_avx512, @function
checkasm_probe_xinuse_avx512:
    .cfi_startproc
    movq    %rdi, %rsi
    movl    $0xe0, %eax
    xorl    %edx, %edx
    xrstor  checkasm_xstate_init(%rip)
    vzeroupper
    movl    $1, %ecx
    xgetbv
    movl    %eax, 0(%rsi)
    movl    %edx, 4(%rsi)
    kxnorw  %k1, %k1, %k1
    vpternlogd $0xff, %zmm1, %zmm1, %zmm1
    vpternlogd $0xff, %zmm16, %zmm16, %zmm16
    xgetbv
    movl    %eax, 8(%rsi)
    movl    %edx, 12(%rsi)
    movl    $0xe0, %eax
    xorl    %edx, %edx
    xrstor  checkasm_xstate_init(%rip)
    vzeroupper
    ret
    .cfi_endproc
    .size   checkasm_probe_xinuse_avx512, .-checkasm_probe_xinuse_avx512
    .popsection

    .pushsection .bss
    .p2align 3
checkasm_saved_ctx:
    .zero   8
    # An XSAVE area whose header says "every component in its initial state"
    # (XSTATE_BV = 0, standard form): XRSTOR from it resets what RFBM names.
    .p2align 6
checkasm_xstate_init:
    .zero   1024
    .popsection
)");

namespace {

std::mutex g_call_mutex;          // one trampoline/handler set at a time
sigjmp_buf g_jump;
volatile sig_atomic_t g_signal;
// A callee that wrecked rsp must still be able to deliver its SIGSEGV.
alignas(64) unsigned char g_alt_stack[1 << 16];

void OnSignal(int sig, siginfo_t*, void*)
{
    g_signal = sig;
    siglongjmp(g_jump, 1);
}

// Runs body(arg) with SIGILL/SIGSEGV/SIGBUS turned into a return value
// (0 when none was raised). Previous handlers and alternate stack are restored.
int RunCaptured(void (*body)(void*), void* arg)
{
    static const int kSignals[3] = {SIGILL, SIGSEGV, SIGBUS};
    std::lock_guard<std::mutex> lock(g_call_mutex);

    stack_t alt{}, old_alt{};
    alt.ss_sp = g_alt_stack;
    alt.ss_size = sizeof(g_alt_stack);
    const bool alt_ok = sigaltstack(&alt, &old_alt) == 0;

    struct sigaction sa {};
    sa.sa_sigaction = OnSignal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    struct sigaction old[3];
    for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &sa, &old[i]);

    g_signal = 0;
    // savemask=1: the handler runs with its signal blocked; siglongjmp must unblock it.
    if (sigsetjmp(g_jump, 1) == 0) body(arg);
    const int sig = g_signal;

    for (int i = 0; i < 3; ++i) sigaction(kSignals[i], &old[i], nullptr);
    if (alt_ok) sigaltstack(&old_alt, nullptr);
    return sig;
}

// What the CPU and OS really provide, not what SHA256BENCH_HIDE_FEATURES leaves
// for dispatch: hiding a feature must not switch off the checks of the code
// that still runs.
bool AvxUsable() { return (cpu::DetectedFeatures() & cpu::AVX) != 0; }
bool Avx512Usable() { return (cpu::DetectedFeatures() & cpu::AVX512F) != 0; }

void ProbeBody(void* out) { checkasm_probe_xinuse(static_cast<uint64_t*>(out)); }
void ProbeAvx512Body(void* out) { checkasm_probe_xinuse_avx512(static_cast<uint64_t*>(out)); }

void TrampolineBody(void* ctx) { checkasm_trampoline(static_cast<Ctx*>(ctx)); }

// Fresh, pairwise distinct, non-trivial values for every call.
void MakeCanaries(uint64_t* out, int n)
{
    static std::mutex m;
    static std::mt19937_64 rng{[] {
        std::random_device rd;
        return (uint64_t{rd()} << 32) ^ rd();
    }()};
    std::lock_guard<std::mutex> lock(m);
    for (int i = 0; i < n; ++i) {
        uint64_t v;
        bool fresh;
        do {
            v = rng();
            fresh = v != 0 && v != ~uint64_t{0};
            for (int j = 0; j < i && fresh; ++j) fresh = out[j] != v;
        } while (!fresh);
        out[i] = v;
    }
}

std::string SignalFailure(int sig)
{
    const char* name = sig == SIGILL ? "SIGILL" : sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : "signal";
    return std::string(name) + " in transform";
}

} // namespace

namespace checkasm {

bool CanCheckUpperYmm()
{
    static const bool can = [] {
        if (!AvxUsable()) return false;
        // Whether XINUSE can be read is a property of this checker, not a
        // feature any transform uses, so it is asked here and not in cpu::.
        unsigned a, b, c, d;
        if (__get_cpuid_max(0, nullptr) < 0xD) return false;
        __cpuid_count(0xD, 1, a, b, c, d);
        if (!(a & (1u << 2))) return false; // XGETBV with ECX=1
        // Trust, but verify: an emulator may claim the feature and not track XINUSE.
        uint64_t xinuse[2] = {~uint64_t{0}, 0};
        if (RunCaptured(ProbeBody, xinuse) != 0) return false;
        return (xinuse[0] & kXinuseYmm) == 0 && (xinuse[1] & kXinuseYmm) != 0;
    }();
    return can;
}

bool CanCheckUpperZmm()
{
    static const bool can = [] {
        if (!CanCheckUpperYmm() || !Avx512Usable()) return false;
        uint64_t xinuse[2] = {~uint64_t{0}, 0};
        if (RunCaptured(ProbeAvx512Body, xinuse) != 0) return false;
        return (xinuse[0] & kXinuseAvx512) == 0 && (xinuse[1] & kXinuseAvx512) == kXinuseAvx512;
    }();
    return can;
}

Result CallWords(uint64_t fn, uint64_t a, uint64_t b, uint64_t c, Upper upper)
{
    const bool check_ymm = upper == Upper::Checked && CanCheckUpperYmm();
    const bool check_zmm = check_ymm && CanCheckUpperZmm();
    Ctx ctx{};
    ctx.fn = fn;
    ctx.arg0 = a;
    ctx.arg1 = b;
    ctx.arg2 = c;
    uint64_t canaries[6 + kSlots];
    MakeCanaries(canaries, 6 + kSlots);
    for (int i = 0; i < 6; ++i) ctx.reg_in[i] = canaries[i];
    for (int i = 0; i < kSlots; ++i) ctx.slot_in[i] = canaries[6 + i];
    ctx.mode = (AvxUsable() ? kModeVzeroupper : 0) | (check_ymm ? kModeXinuse : 0) |
               (check_zmm ? kModeResetAvx512 : 0);

    Result r;
    if (const int sig = RunCaptured(TrampolineBody, &ctx)) {
        r.failures.push_back(SignalFailure(sig));
        return r;
    }
    for (int i = 0; i < 6; ++i) {
        if (ctx.reg_out[i] != ctx.reg_in[i]) {
            r.failures.push_back(std::string("callee-saved register ") + kRegNames[i] + " clobbered");
        }
    }
    if (ctx.rsp_after != ctx.rsp_before) r.failures.push_back("rsp changed");
    for (int i = 0; i < kSlots; ++i) {
        if (ctx.slot_out[i] != ctx.slot_in[i]) {
            r.failures.push_back("stack above return address modified");
            break;
        }
    }
    r.returned = ctx.ret;
    if (ctx.rflags_after & (1u << 10)) r.failures.push_back("direction flag left set");
    if (check_ymm) {
        // The probe showed vzeroupper clears the bit on this CPU; if it did not
        // here, a dirty result would prove nothing, so say so instead of passing.
        if (ctx.xinuse_before & kXinuseYmm) {
            r.failures.push_back("upper YMM check inconclusive (XINUSE set before the call)");
        } else if (ctx.xinuse_after & kXinuseYmm) {
            r.failures.push_back("upper YMM state dirty (missing vzeroupper)");
        }
    }
    if (check_zmm) {
        if (ctx.xinuse_before & kXinuseAvx512) {
            r.failures.push_back("upper ZMM check inconclusive (XINUSE bits 5-7 set before the call)");
        } else {
            if (ctx.xinuse_after & kXinuseZmmHi256) r.failures.push_back("upper ZMM state dirty (missing vzeroupper)");
            if (ctx.xinuse_after & kXinuseHi16Zmm) r.failures.push_back("zmm16-31 left in use");
            if (ctx.xinuse_after & kXinuseOpmask) r.failures.push_back("opmask registers left in use");
        }
    }
    return r;
}

} // namespace checkasm

#else // !__x86_64__

namespace checkasm {

bool CanCheckUpperYmm() { return false; }
bool CanCheckUpperZmm() { return false; }



} // namespace checkasm

#endif
