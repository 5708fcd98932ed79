// SPDX-License-Identifier: MIT
// Compiled with the project's include path (src/), not Core's: see core_check_project.h.
#include "core_check_project.h"

#include <test/util/reference.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace project {

std::array<unsigned char, 32> ReferenceSha256(const unsigned char* data, size_t len)
{
    return test::ReferenceSha256(data, len);
}

} // namespace project

// test/util/nist.cpp parses hex with test::ParseHex, which lives in
// test/util/common.cpp together with Boost.Test helpers this program does not
// link; this is the same strict parse (even length, hex digits only).
namespace test {
std::vector<unsigned char> ParseHex(const std::string& hex)
{
    auto nibble = [&](char c) -> unsigned {
        if (c >= '0' && c <= '9') return unsigned(c - '0');
        if (c >= 'a' && c <= 'f') return unsigned(c - 'a' + 10);
        if (c >= 'A' && c <= 'F') return unsigned(c - 'A' + 10);
        throw std::runtime_error("'" + hex + "' is not hex");
    };
    if (hex.size() % 2) throw std::runtime_error("'" + hex + "' has an odd number of hex digits");
    std::vector<unsigned char> out(hex.size() / 2);
    for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<unsigned char>(nibble(hex[2 * i]) << 4 | nibble(hex[2 * i + 1]));
    return out;
}
} // namespace test
