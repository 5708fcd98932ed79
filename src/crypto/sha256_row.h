// SPDX-License-Identifier: MIT
// What every family's registry says of a row (transforms, SHA256D64, the
// fixed-size paths, the multi-buffer hasher), as the tests, the bench and
// `bench_bitcoin -list-impls` see it, and the rule by which a row leads its
// family's order on a CPU whose reading of a probe is high enough.
#ifndef SHA256BENCH_CRYPTO_SHA256_ROW_H
#define SHA256BENCH_CRYPTO_SHA256_ROW_H

#include <compat/cpu_model.h>

#include <cstdint>
#include <string>
#include <vector>

namespace sha256 {

/** An order rule: where the CPU model's reading of `probe` is at least
 *  `at_least`, the row goes ahead of every row of its family (`ahead_of` 0) or
 *  of the first row that needs the features `ahead_of`, in `place` (from 1)
 *  among the rows that rules move there. A row's first rule whose reading is
 *  high enough places it; with none it keeps its listed place. */
struct Lead {
    cpu::Probe probe;
    double at_least;
    uint32_t ahead_of;
    int place;
};

/** A row of a family's registry. It is named after its kernel set in the
 *  kernel table (crypto/sha256_kernels.h): one name in every family. */
struct Row {
    std::string name;       //!< e.g. "shani_4way"
    std::string needs;      //!< CPU features it needs, e.g. "avx2 bmi2" ("none" for none)
    uint32_t needs_mask{0}; //!< the same as a cpu::Feature mask
    std::string technique;  //!< one line on how it works
    bool built{false};      //!< compiled into this binary
    bool supported{false};  //!< built and this CPU has what it needs
    std::string why_not;    //!< empty when supported, otherwise the reason
    int ways{1};            //!< inputs, lanes or streams one kernel call works on
    std::vector<Lead> leads; //!< its order rules, strongest first
    bool uses_transform{false}; //!< runs the selected transform (its speed is that transform's)
};

/** The rule of `leads` that places a row now: the first whose reading is high
 *  enough, or nullptr (the row keeps its listed place). Entries of place 0 are
 *  no rules. */
template <class Leads>
const Lead* Placing(const Leads& leads)
{
    for (const Lead& l : leads) {
        if (l.place > 0 && cpu::Read(l.probe).value >= l.at_least) return &l;
    }
    return nullptr;
}

} // namespace sha256

#endif
