// SPDX-License-Identifier: MIT
// The lane kernels' operation counts (crypto/sha256_lanes_count.h), the
// bench's lane floor: the counting class against the instructions the lane
// algorithm asks for, worked out here from its definition, for a lanes class
// that supplies its own rotate and ternary logic and for one that keeps the
// portable defaults; then every counted kernel of the table this CPU runs.
#include <crypto/sha256_kernels.h>
#include <crypto/sha256_lanes_count.h>
#include <test/util/common.h>

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <string>

namespace {

// Two lanes classes of one 32-bit lane (the vector is a plain word): the
// primitives only, and the same with its own rotate, three-way xor, Ch and Maj.
struct Word {
    uint32_t v;
};
template <class D>
struct TestLanesBase : sha256::lanes::LanesBase<D> {
    using V = Word;
    static constexpr int N = 1;
    static V Add(V a, V b) { return {a.v + b.v}; }
    static V Xor(V a, V b) { return {a.v ^ b.v}; }
    static V And(V a, V b) { return {a.v & b.v}; }
    static V Or(V a, V b) { return {a.v | b.v}; }
    template <int n>
    static V ShR(V a) { return {a.v >> n}; }
    template <int n>
    static V ShL(V a) { return {a.v << n}; }
    static V Set1(uint32_t x) { return {x}; }
};
template <bool SHORT>
struct DefaultLanes : TestLanesBase<DefaultLanes<SHORT>> {
    static constexpr bool SHORT_E_PATH = SHORT;
};
struct CarriedLanes : TestLanesBase<CarriedLanes> {
    static constexpr bool SHORT_E_PATH = false;
    static constexpr bool CARRIED_MAJ = true;
};
template <bool SHORT>
struct NativeLanes : TestLanesBase<NativeLanes<SHORT>> {
    static constexpr bool SHORT_E_PATH = SHORT;
    template <int n>
    static Word Rotr(Word a) { return {(a.v >> n) | (a.v << (32 - n))}; }
    static Word Xor3(Word a, Word b, Word c) { return {a.v ^ b.v ^ c.v}; }
    static Word Ch(Word e, Word f, Word g) { return {(e.v & f.v) ^ (~e.v & g.v)}; }
    static Word Maj(Word a, Word b, Word c) { return {(a.v & b.v) ^ (a.v & c.v) ^ (b.v & c.v)}; }
};

// One block's instructions from the algorithm's definition, given what a
// rotate, a three-way xor, Ch and Maj cost: 64 rounds (Sigma0 and Sigma1: three
// rotates and a three-way xor each; Ch, Maj, six adds), 64 adds of W + K, 48
// schedule words (sigma0, sigma1: two rotates, a shift, a three-way xor each;
// three adds), the state's eight adds.
double BlockOps(double rot, double xor3, double ch, double maj)
{
    return 64 * (2 * (3 * rot + xor3) + ch + maj + 6) + 64 + 48 * (2 * (2 * rot + 1 + xor3) + 3) + 8;
}
// Native: one instruction each. Defaults: shift, shift, or; two xors; xor,
// and, xor; and, or, and, or (sha256_lanes.h's LanesBase).
const double NATIVE_BLOCK = BlockOps(1, 1, 1, 1);
const double DEFAULT_BLOCK = BlockOps(3, 2, 3, 4);
// Maj carried (sha256_avx2.asm's plan): xor, and, xor a round, and b ^ c once
// at the block's first round.
const double CARRIED_BLOCK = BlockOps(3, 2, 3, 3) + 1;

// Dependent operations from one e to the next: the shortened path takes Ch
// and Sigma1 into the sum last (Sigma1 two deep natively, four with the
// defaults), the textbook path adds them together first.
template <class L>
double RoundChain(bool native)
{
    const double sigma1 = native ? 2 : 4;
    return L::SHORT_E_PATH ? sigma1 + 2 : sigma1 + 3;
}

template <class L, int BYTES>
void CheckBlock(bool native, int registers, const std::string& name)
{
    const sha256::kernel::OpCount c = sha256::lanes::Count<L, BYTES>(sha256::kernel::Shape::Lanes);
    const double want = (native ? NATIVE_BLOCK : c.carried_maj ? CARRIED_BLOCK : DEFAULT_BLOCK) * registers;
    BOOST_CHECK_MESSAGE(c.ops == want, name << ": a block counts " << c.ops << " instructions, the algorithm asks " << want);
    // The chain: 64 rounds of it, plus at most a few operations at the ends
    // (W + K before the first round, the state's add after the last).
    const double rounds = 64 * RoundChain<L>(native);
    BOOST_CHECK_MESSAGE(c.chain >= rounds && c.chain <= rounds + 4,
                        name << ": a block's chain " << c.chain << ", 64 rounds of " << RoundChain<L>(native));
    BOOST_CHECK_EQUAL(c.ways, L::N);
    BOOST_CHECK_EQUAL(c.register_bytes, BYTES);
}

} // namespace

BOOST_AUTO_TEST_SUITE(lane_count_tests)

BOOST_AUTO_TEST_CASE(counts_what_the_algorithm_asks)
{
    CheckBlock<NativeLanes<true>, 4>(true, 1, "native, shortened path");
    CheckBlock<NativeLanes<false>, 4>(true, 1, "native, textbook path");
    CheckBlock<DefaultLanes<true>, 4>(false, 1, "defaults, shortened path");
    CheckBlock<DefaultLanes<false>, 4>(false, 1, "defaults, textbook path");
    // A word in two registers is two instructions an operation, one chain.
    CheckBlock<NativeLanes<true>, 2>(true, 2, "native, a word in two registers");
    CheckBlock<DefaultLanes<true>, 3>(false, 2, "defaults, a word in a register and a part");
    CheckBlock<CarriedLanes, 4>(false, 1, "defaults, Maj carried");
    BOOST_CHECK((sha256::lanes::Count<CarriedLanes, 4>(sha256::kernel::Shape::Lanes).carried_maj));
    BOOST_CHECK((!sha256::lanes::Count<DefaultLanes<false>, 4>(sha256::kernel::Shape::Lanes).carried_maj));
    // D64 carried: one b ^ c for each of its three blocks, 63 Maj operations
    // fewer than the defaults' in each.
    {
        const double carried = sha256::lanes::Count<CarriedLanes, 4>(sha256::kernel::Shape::D64).ops;
        const double defaults = sha256::lanes::Count<DefaultLanes<false>, 4>(sha256::kernel::Shape::D64).ops;
        BOOST_CHECK_EQUAL(defaults - carried, 3 * 63);
    }

    // D64: the message block, the padding block (every W + K a constant: no
    // schedule, no W + K adds) and the second hash's block (some schedule
    // words folded into constants): less than three blocks, more than two.
    using L = NativeLanes<true>;
    const sha256::kernel::OpCount d64 = sha256::lanes::Count<L, 4>(sha256::kernel::Shape::D64);
    const sha256::kernel::OpCount block = sha256::lanes::Count<L, 4>(sha256::kernel::Shape::Lanes);
    const sha256::kernel::OpCount hash32 = sha256::lanes::Count<L, 4>(sha256::kernel::Shape::Hash32);
    BOOST_CHECK_GT(d64.ops, 2 * block.ops);
    BOOST_CHECK_LT(d64.ops, 3 * block.ops);
    BOOST_CHECK_LT(hash32.ops, block.ops);
    // Three blocks' rounds in one chain.
    BOOST_CHECK_GE(d64.chain, 3 * 64 * RoundChain<L>(true));
    BOOST_CHECK_LE(d64.chain, 3 * 64 * RoundChain<L>(true) + 12);
    const sha256::kernel::OpCount none = sha256::lanes::Count<L, 4>(sha256::kernel::Shape::Transform);
    BOOST_CHECK_EQUAL(none.ops, 0);
}

// Every counted kernel this CPU runs (the count is compiled with its file's
// flags): the shape's count, a block's instructions as the algorithm asks for
// that instruction set (AVX-512's vprord and vpternlogd: one each; the others
// the defaults), its register width.
BOOST_AUTO_TEST_CASE(every_counted_kernel)
{
    using sha256::kernel::Shape;
    int counted = 0;
    const struct {
        Shape shape;
        const char* name;
    } shapes[] = {{Shape::D64, "D64"}, {Shape::Hash32, "Hash32"}, {Shape::Lanes, "Lanes"}, {Shape::Jobs, "Jobs"}};
    for (const auto& [shape, shape_name] : shapes) {
        for (const auto* k : test::RunnableKernels(shape)) {
            if (!k->count) continue;
            ++counted;
            const sha256::kernel::OpCount c = k->count(shape);
            const sha256::kernel::OpCount block = k->count(Shape::Lanes);
            BOOST_CHECK_MESSAGE(c.ways == k->ways, k->name << ": counts " << c.ways << " ways, the table says " << k->ways);
            BOOST_CHECK_MESSAGE(c.ops > c.chain && c.chain > 0, k->name << ": " << c.ops << " ops, chain " << c.chain);
            const bool avx512 = (k->needs & cpu::AVX512F) != 0;
            BOOST_CHECK_MESSAGE(c.register_bytes == (avx512 ? 64 : (k->needs & cpu::AVX2) ? 32 : 16),
                                k->name << ": register bytes " << c.register_bytes);
            // Registers a word of every lane takes (a partial one counts whole).
            const int registers = (4 * k->ways + c.register_bytes - 1) / c.register_bytes;
            const double want = (avx512 ? NATIVE_BLOCK : c.carried_maj ? CARRIED_BLOCK : DEFAULT_BLOCK) * registers;
            BOOST_CHECK_MESSAGE(block.ops == want,
                                k->name << ": a block counts " << block.ops << " instructions, the algorithm asks " << want);
            // A job kernel's call is counted as a block of its lanes, whatever
            // function of its own it runs the block with: the same operations,
            // and no longer a chain (one that computes a block's words ahead
            // takes them off the rounds' chain).
            if (shape == Shape::Jobs) {
                BOOST_CHECK_MESSAGE(c.ops == block.ops && c.chain <= block.chain && c.chain > 0.9 * block.chain,
                                    k->name << ": a job block counts " << c.ops << " instructions, chain " << c.chain
                                            << "; a block " << block.ops << ", chain " << block.chain);
            }
            BOOST_TEST_MESSAGE("  " << k->name << " " << shape_name << ": " << c.ops << " instructions, chain "
                                    << c.chain << ", " << c.ways << " ways, " << c.register_bytes << "-byte registers");
        }
    }
    BOOST_TEST_MESSAGE("  " << counted << " counted kernels run on this CPU");
    // The portable kernels run everywhere, so a count is never missing silently.
    BOOST_CHECK_GE(counted, 3);
}

BOOST_AUTO_TEST_SUITE_END()
