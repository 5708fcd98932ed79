// SPDX-License-Identifier: MIT
// The project's half of core_check: its reference SHA-256 behind a plain
// interface of standard types, so that core_check.cpp can be compiled with
// Bitcoin Core's include paths alone (both trees have a crypto/sha256.h).
#ifndef SHA256BENCH_CORE_CHECK_PROJECT_H
#define SHA256BENCH_CORE_CHECK_PROJECT_H

#include <array>
#include <cstddef>

namespace project {

//! src/test/util/reference.h's textbook SHA-256 (shares no code with Core or with src/crypto).
std::array<unsigned char, 32> ReferenceSha256(const unsigned char* data, size_t len);

} // namespace project

#endif
