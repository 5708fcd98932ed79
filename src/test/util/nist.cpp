// SPDX-License-Identifier: MIT
#include <test/util/nist.h>

#if defined(HAVE_CONFIG_H)
#include <config/sha256bench-config.h> // NIST_VECTORS_DIR, C-escaped by configure
#endif
#ifndef NIST_VECTORS_DIR
#define NIST_VECTORS_DIR "" // not configured: the environment variable or nothing
#endif
#include <test/util/common.h>

#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace nist {
namespace {

// The longest message any published SHA-256 file holds is far below this (bits).
constexpr size_t MAX_LEN_BITS = size_t{1} << 24;

std::string Trim(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// A plain decimal in [0, max]: no sign, no spaces, no trailing characters.
size_t StrictDecimal(const std::string& key, const std::string& value, size_t max)
{
    if (value.empty() || value.size() > 12) throw std::runtime_error(key + " = '" + value + "' is not a decimal number in range");
    size_t n = 0;
    for (char c : value) {
        if (c < '0' || c > '9') throw std::runtime_error(key + " = '" + value + "' is not a plain decimal number");
        n = n * 10 + static_cast<size_t>(c - '0');
    }
    if (n > max) throw std::runtime_error(key + " = " + value + " is out of range (at most " + std::to_string(max) + ")");
    return n;
}

// Calls f(key, value, line) for each "key = value" line, skipping comments and [sections]
// (f sees "[L = 32]" as key "L"). Returns the number of lines read.
template <typename F>
int ForEachField(std::istream& in, const std::string& name, F f)
{
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
        ++n;
        line = Trim(line);
        if (line.empty() || line[0] == '#') continue;
        if (line[0] == '[') {
            if (line.back() != ']') throw std::runtime_error(name + ":" + std::to_string(n) + ": unterminated section header");
            line = Trim(line.substr(1, line.size() - 2));
        }
        const auto eq = line.find('=');
        if (eq == std::string::npos) throw std::runtime_error(name + ":" + std::to_string(n) + ": expected 'key = value'");
        try {
            f(Trim(line.substr(0, eq)), Trim(line.substr(eq + 1)), n);
        } catch (const std::exception& e) {
            throw std::runtime_error(name + ":" + std::to_string(n) + ": " + e.what());
        }
    }
    if (in.bad()) throw std::runtime_error(name + ":" + std::to_string(n) + ": read error");
    return n;
}

std::string Base(const std::string& path)
{
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

std::string VectorsDir()
{
    if (const char* env = std::getenv("NIST_VECTORS_DIR"); env && *env) return env;
    return NIST_VECTORS_DIR;
}

std::string MissingVectorsHelp(const std::string& dir)
{
    return "NIST CAVP vectors not found" + (dir.empty() ? std::string() : " in '" + dir + "'") +
           ". Install Debian's python3-cryptography-vectors (apt-get install python3-cryptography-vectors) and "
           "re-run ./configure, or pass ./configure --with-nist-vectors=DIR (or set NIST_VECTORS_DIR=DIR) to a "
           "directory holding SHA256ShortMsg.rsp, SHA256LongMsg.rsp and SHA256Monte.rsp.";
}

size_t PublishedRecords(const std::string& path)
{
    const std::string base = Base(path);
    if (base == "SHA256ShortMsg.rsp") return SHORT_MSG_RECORDS;
    if (base == "SHA256LongMsg.rsp") return LONG_MSG_RECORDS;
    return 0;
}

std::vector<MsgVector> ParseMsgText(std::istream& in, const std::string& name, size_t expected)
{
    std::vector<MsgVector> out;
    MsgVector cur{};
    bool have_l = false, have_len = false, have_msg = false;
    int record_line = 0;
    const int lines = ForEachField(in, name, [&](const std::string& key, const std::string& value, int line) {
        if (key == "L") {
            if (value != "32") throw std::runtime_error("digest length L = " + value + ", expected 32");
            have_l = true;
        } else if (key == "Len") {
            if (!have_l) throw std::runtime_error("Len before the [L = 32] header");
            if (have_len) throw std::runtime_error("Len while the record at line " + std::to_string(record_line) + " has no MD yet");
            cur = MsgVector{};
            cur.len_bits = StrictDecimal("Len", value, MAX_LEN_BITS);
            if (cur.len_bits % 8) throw std::runtime_error("bit-oriented message; use the byte-oriented files");
            have_len = true;
            have_msg = false;
            record_line = line;
        } else if (key == "Msg") {
            if (!have_len) throw std::runtime_error("Msg before Len");
            if (have_msg) throw std::runtime_error("second Msg in one record");
            cur.msg = test::ParseHex(value);
            // A zero-length message is written as "00".
            if (cur.len_bits == 0) {
                if (cur.msg.size() != 1 || cur.msg[0] != 0) throw std::runtime_error("Len = 0 needs Msg = 00");
                cur.msg.clear();
            }
            if (cur.msg.size() * 8 != cur.len_bits) {
                throw std::runtime_error("Msg holds " + std::to_string(cur.msg.size() * 8) + " bits but Len = " +
                                         std::to_string(cur.len_bits));
            }
            have_msg = true;
        } else if (key == "MD") {
            if (!have_msg) throw std::runtime_error("MD before Msg");
            cur.md = test::ParseHex(value);
            if (cur.md.size() != 32) throw std::runtime_error("MD is not 32 bytes");
            cur.line = line;
            out.push_back(cur);
            have_len = have_msg = false;
        } else {
            throw std::runtime_error("unexpected field '" + key + "'");
        }
    });
    const std::string at_end = name + ":" + std::to_string(lines) + ": ";
    if (have_len) {
        throw std::runtime_error(at_end + "file ends inside the record begun at line " + std::to_string(record_line) +
                                 " (no " + (have_msg ? "MD" : "Msg") + ")");
    }
    if (out.size() != expected) {
        throw std::runtime_error(at_end + "file ends after " + std::to_string(out.size()) + " records; the published file holds " +
                                 std::to_string(expected) + " (truncated or not the NIST file?)");
    }
    return out;
}

std::vector<MsgVector> ReadMsgFile(const std::string& path)
{
    const size_t expected = PublishedRecords(path);
    if (expected == 0) throw std::runtime_error(path + ": not SHA256ShortMsg.rsp or SHA256LongMsg.rsp; record count unknown");
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    return ParseMsgText(in, path, expected);
}

MonteVectors ParseMonteText(std::istream& in, const std::string& name, size_t expected)
{
    MonteVectors out;
    bool have_l = false, have_count = false;
    const int lines = ForEachField(in, name, [&](const std::string& key, const std::string& value, int) {
        if (key == "L") {
            if (value != "32") throw std::runtime_error("digest length L = " + value + ", expected 32");
            have_l = true;
        } else if (key == "Seed") {
            if (!have_l) throw std::runtime_error("Seed before the [L = 32] header");
            if (!out.seed.empty()) throw std::runtime_error("second Seed");
            out.seed = test::ParseHex(value);
            if (out.seed.size() != 32) throw std::runtime_error("Seed is not 32 bytes");
        } else if (key == "COUNT") {
            if (out.seed.empty()) throw std::runtime_error("COUNT before Seed");
            if (have_count) throw std::runtime_error("COUNT without MD before it");
            if (StrictDecimal("COUNT", value, expected) != out.checkpoints.size()) {
                throw std::runtime_error("COUNT = " + value + " out of sequence (expected " +
                                         std::to_string(out.checkpoints.size()) + ")");
            }
            have_count = true;
        } else if (key == "MD") {
            if (!have_count) throw std::runtime_error("MD without COUNT");
            out.checkpoints.push_back(test::ParseHex(value));
            if (out.checkpoints.back().size() != 32) throw std::runtime_error("MD is not 32 bytes");
            have_count = false;
        } else {
            throw std::runtime_error("unexpected field '" + key + "'");
        }
    });
    const std::string at_end = name + ":" + std::to_string(lines) + ": ";
    if (have_count) throw std::runtime_error(at_end + "file ends after a COUNT with no MD");
    if (out.seed.empty()) throw std::runtime_error(at_end + "no Seed");
    if (out.checkpoints.size() != expected) {
        throw std::runtime_error(at_end + "file ends after " + std::to_string(out.checkpoints.size()) +
                                 " checkpoints; the published file holds " + std::to_string(expected));
    }
    return out;
}

MonteVectors ReadMonteFile(const std::string& path)
{
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    return ParseMonteText(in, path, MONTE_CHECKPOINTS);
}

} // namespace nist
