// SPDX-License-Identifier: MIT
// The one registry template behind the four families (transforms, SHA256D64,
// the fixed-size paths, the multi-buffer hasher): a family's registry is a
// constant table of rows in its order of preference, each row naming kernels
// of the kernel table (crypto/sha256_kernels.h). This file finds, lists,
// selects and auto-detects for all of them.
#ifndef SHA256BENCH_CRYPTO_SHA256_REGISTRY_H
#define SHA256BENCH_CRYPTO_SHA256_REGISTRY_H

#include <compat/cpu_model.h>
#include <compat/cpuid.h>
#include <crypto/sha256_kernels.h>
#include <crypto/sha256_row.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace sha256 {
namespace registry {

//! The order rules a row may carry (Lead, crypto/sha256_row.h).
constexpr int MAX_LEADS = 2;

//! What every row holds, whatever its family.
struct Base {
    const char* name;      //!< its kernel set's name
    uint32_t needs;        //!< cpu::Feature mask (of every kernel it runs)
    bool built;            //!< every kernel it runs is in this build
    kernel::Source source; //!< why a build may lack it
    int ways;
    const char* technique;
    bool uses_transform;        //!< runs the selected transform rather than a kernel of its own
    Lead lead[MAX_LEADS]{};     //!< its order rules, strongest first; place 0: none
};

//! A row built from one kernel of the table.
constexpr Base From(const kernel::Kernel& k, const char* technique)
{
    return {k.name, k.needs, k.Built(), k.source, k.ways, technique, false, {}};
}

//! A row of any family (an entry with a `base`) with its order rules.
template <class Entry>
constexpr Entry Leading(Entry e, Lead first, Lead second = {})
{
    e.base.lead[0] = first;
    e.base.lead[1] = second;
    return e;
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

    //! Row numbers in this CPU's order of preference: as listed, except the
    //! rows a rule places (Placing, crypto/sha256_row.h): those ahead of every
    //! row go first, by place; those ahead of the first row that needs some
    //! features go, by place, just before that row.
    std::vector<int> Order() const
    {
        const Lead* rule[N];
        size_t at[N]; // where a placed row goes; N: its listed place
        for (size_t i = 0; i < N; ++i) {
            rule[i] = Placing(m_rows[i].base.lead);
            at[i] = rule[i] ? Target(rule[i]->ahead_of) : N;
        }
        std::vector<int> order;
        for (size_t i = 0; i < N; ++i) {
            std::vector<int> group;
            for (size_t j = 0; j < N; ++j) {
                if (at[j] == i) group.push_back(static_cast<int>(j));
            }
            // Rows ahead of every row come first, then those ahead of row i itself; each by place.
            std::stable_sort(group.begin(), group.end(), [&rule](int a, int b) {
                return std::make_pair(rule[a]->ahead_of != 0, rule[a]->place) < std::make_pair(rule[b]->ahead_of != 0, rule[b]->place);
            });
            order.insert(order.end(), group.begin(), group.end());
            if (at[i] == N) order.push_back(static_cast<int>(i));
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
    //! The listed place of the first row that needs every feature of `mask` (0: the first row), or N.
    size_t Target(uint32_t mask) const
    {
        for (size_t i = 0; i < N; ++i) {
            if ((m_rows[i].base.needs & mask) == mask) return i;
        }
        return N;
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
