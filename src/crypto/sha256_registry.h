// SPDX-License-Identifier: MIT
// The one registry template behind the four families (transforms, SHA256D64,
// the fixed-size paths, the multi-buffer hasher): a family's registry is a
// constant table of rows in its order of preference, each row naming kernels
// of the kernel table (crypto/sha256_kernels.h). This file finds, lists,
// selects and auto-detects for all of them.
#ifndef SHA256BENCH_CRYPTO_SHA256_REGISTRY_H
#define SHA256BENCH_CRYPTO_SHA256_REGISTRY_H

#include <compat/cpuid.h>
#include <crypto/sha256.h>
#include <crypto/sha256_kernels.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace sha256 {
namespace registry {

//! What every row holds, whatever its family.
struct Base {
    const char* name;      //!< its kernel set's name
    uint32_t needs;        //!< cpu::Feature mask (of every kernel it runs)
    bool built;            //!< every kernel it runs is in this build
    kernel::Source source; //!< why a build may lack it
    int ways;
    const char* technique;
    int wide_rank;       //!< 0, or its place (from 1) among the rows that lead on a CPU whose
                         //!< SHA unit overlaps >= WIDE_SHA_OVERLAP sha256rnds2
    bool uses_transform; //!< runs the selected transform rather than a kernel of its own
    bool deep_lanes{false}; //!< listed ahead of the next row, which it follows where
                            //!< Avx512AddDepth() is below DEEP_LANES_DEPTH
};

//! A row built from one kernel of the table.
constexpr Base From(const kernel::Kernel& k, const char* technique, int wide_rank = 0)
{
    return {k.name, k.needs, k.Built(), k.source, k.ways, technique, wide_rank, false};
}

//! Why a row of this source and needs is not in this binary.
std::string NotBuiltReason(uint32_t needs, kernel::Source source);

inline bool Runnable(const Base& b) { return b.built && (cpu::Features() & b.needs) == b.needs; }

//! The public Row fields of a registry row.
void Describe(Row& out, const Base& b);

//! One family's registry: `rows` (each with a `base`) in the order of preference
//! the family's measurements chose, and the row selected now.
template <class Entry, size_t N>
class Registry
{
public:
    //! `on_select(i)`, if given, runs before row i becomes the selected one
    //! (a family that keeps more than the row number: the transform pointer, the D64 plan).
    constexpr Registry(const Entry (&rows)[N], const char* family, int initial, void (*on_select)(int) = nullptr)
        : m_rows(rows), m_family(family), m_on_select(on_select), m_selected(initial)
    {
    }
    Registry(const Registry&) = delete;
    Registry& operator=(const Registry&) = delete;

    static constexpr int Size() { return static_cast<int>(N); }
    const Entry& operator[](int i) const { return m_rows[i]; }
    bool Runnable(int i) const { return registry::Runnable(m_rows[i].base); }

    //! A row's number by name, or -1.
    int Find(const std::string& name) const
    {
        for (size_t i = 0; i < N; ++i) {
            if (name == m_rows[i].base.name) return static_cast<int>(i);
        }
        return -1;
    }

    //! Row numbers in this CPU's order of preference: as listed, except that the
    //! wide rows, by rank, lead every row when ShaniOverlap() is at least
    //! WIDE_SHA_OVERLAP, and take the place of the first SHA-NI row when it is
    //! at least STREAMS_SHA_OVERLAP; and that a deep_lanes row goes behind the
    //! row after it when Avx512AddDepth() is below DEEP_LANES_DEPTH.
    std::vector<int> Order() const
    {
        const double overlap = HasWideRows() ? ShaniOverlap() : 0.0;
        // Where the wide rows go: first, at the first SHA-NI row, or nowhere (N: as listed).
        size_t at = N;
        if (overlap >= WIDE_SHA_OVERLAP) {
            at = 0;
        } else if (overlap >= STREAMS_SHA_OVERLAP) {
            at = 0;
            while (at < N && !(m_rows[at].base.needs & cpu::SHANI)) ++at;
        }
        std::vector<int> order;
        for (size_t i = 0; i < N; ++i) {
            if (i == at) {
                for (int rank = 1; rank <= static_cast<int>(N); ++rank) {
                    for (size_t j = 0; j < N; ++j) {
                        if (m_rows[j].base.wide_rank == rank) order.push_back(static_cast<int>(j));
                    }
                }
            }
            if (at == N || m_rows[i].base.wide_rank == 0) order.push_back(static_cast<int>(i));
        }
        if (HasDeepRows() && Avx512AddDepth() < DEEP_LANES_DEPTH) {
            for (size_t k = 0; k + 1 < order.size(); ++k) {
                if (m_rows[order[k]].base.deep_lanes) std::swap(order[k], order[k + 1]), ++k;
            }
        }
        return order;
    }

    //! The public rows in Order(); `fill(out, entry)` adds the family's own fields.
    template <class Public, class Fill>
    std::vector<Public> List(Fill fill) const
    {
        std::vector<Public> out;
        for (int i : Order()) {
            Public row;
            Describe(row, m_rows[i].base);
            fill(row, m_rows[i]);
            out.push_back(row);
        }
        return out;
    }

    //! The first runnable row in Order() that passes `self_test(entry)`
    //! (each failure said on stderr), or `fallback`.
    template <class SelfTest>
    int Detect(SelfTest self_test, int fallback) const
    {
        for (int i : Order()) {
            if (!Runnable(i)) continue;
            if (self_test(m_rows[i])) return i;
            std::fprintf(stderr, "sha256: %s '%s' failed its self-test and will not be used\n", m_family,
                         m_rows[i].base.name);
        }
        return fallback;
    }

    //! Select row i (runnable, or the caller's last resort).
    void Select(int i)
    {
        if (m_on_select) m_on_select(i);
        m_selected.store(i, std::memory_order_relaxed);
    }
    //! The row number for `name` if it is runnable, else -1 (and nothing changes).
    int Selectable(const std::string& name) const
    {
        const int i = Find(name);
        return i >= 0 && Runnable(i) ? i : -1;
    }
    //! Select the row called `name`; false (and no change) if there is none or this CPU cannot run it.
    bool Set(const std::string& name)
    {
        const int i = Selectable(name);
        if (i >= 0) Select(i);
        return i >= 0;
    }
    //! Select what Detect() finds; return its name.
    template <class SelfTest>
    const char* AutoDetect(SelfTest self_test, int fallback)
    {
        Select(Detect(self_test, fallback));
        return Current().base.name;
    }
    int Selected() const { return m_selected.load(std::memory_order_relaxed); }
    const Entry& Current() const { return m_rows[Selected()]; }

private:
    static constexpr bool HasWideRowsOf(const Entry (&rows)[N])
    {
        for (const auto& e : rows) {
            if (e.base.wide_rank) return true;
        }
        return false;
    }
    bool HasWideRows() const { return HasWideRowsOf(m_rows); }
    bool HasDeepRows() const
    {
        for (const auto& e : m_rows) {
            if (e.base.deep_lanes) return true;
        }
        return false;
    }

    const Entry (&m_rows)[N];
    const char* m_family;
    void (*m_on_select)(int);
    std::atomic<int> m_selected;
};

//! The contract of SHA256D64 (and the check of SHA256Multi's inputs): the two
//! ranges are the same place or share no byte. Compared as addresses, since
//! they may be parts of unrelated objects.
inline bool EqualOrDisjoint(const void* a, size_t a_len, const void* b, size_t b_len)
{
    const auto x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
    return x == y || x + a_len <= y || y + b_len <= x || a_len == 0 || b_len == 0;
}

//! The last 1-way row of a table that needs nothing and is always built: the
//! last resort of AutoDetect and a family's choice before it runs; -1 if none.
template <class Entry, size_t N>
constexpr int PortableRow(const Entry (&rows)[N])
{
    int found = -1;
    for (size_t i = 0; i < N; ++i) {
        const Base& b = rows[i].base;
        if (b.needs == 0 && b.built && b.ways == 1 && b.source == kernel::Source::Portable) found = static_cast<int>(i);
    }
    return found;
}

} // namespace registry
} // namespace sha256

#endif
