// SPDX-License-Identifier: MIT
// Reader for NIST CAVP SHA-256 response files (byte-oriented .rsp).
#ifndef SHA256BENCH_TEST_UTIL_NIST_H
#define SHA256BENCH_TEST_UTIL_NIST_H

#include <cstddef>
#include <istream>
#include <string>
#include <vector>

namespace nist {

struct MsgVector {
    size_t len_bits;
    std::vector<unsigned char> msg;
    std::vector<unsigned char> md;
    int line; //!< line of "MD =" in the file, for error messages
};

struct MonteVectors {
    std::vector<unsigned char> seed;
    std::vector<std::vector<unsigned char>> checkpoints; //!< MD for COUNT = 0, 1, ...
};

//! Directory holding the .rsp files: $NIST_VECTORS_DIR if set, else the one configure found ("" if none).
std::string VectorsDir();

//! Message the tests fail with when the vectors are missing: names the package and the configure option.
std::string MissingVectorsHelp(const std::string& dir);

//! Published record counts of the byte-oriented SHA-256 files.
constexpr size_t SHORT_MSG_RECORDS = 65;
constexpr size_t LONG_MSG_RECORDS = 64;
constexpr size_t MONTE_CHECKPOINTS = 100;

//! Records SHA256ShortMsg.rsp or SHA256LongMsg.rsp must hold, by file name (0 for another name).
size_t PublishedRecords(const std::string& path);

//! Parse a ShortMsg/LongMsg text. Succeeds only if every line is understood, every
//! record is complete (Len, Msg, MD) and there are exactly `expected` records;
//! otherwise throws std::runtime_error naming `name` and the line.
std::vector<MsgVector> ParseMsgText(std::istream& in, const std::string& name, size_t expected);

//! ParseMsgText on the file at `path`, expecting PublishedRecords(path) records.
std::vector<MsgVector> ReadMsgFile(const std::string& path);

//! Parse SHA256Monte.rsp text: one Seed, then COUNT = 0.. `expected`-1 each with its MD.
MonteVectors ParseMonteText(std::istream& in, const std::string& name, size_t expected = MONTE_CHECKPOINTS);

//! ParseMonteText on the file at `path`.
MonteVectors ReadMonteFile(const std::string& path);

} // namespace nist

#endif
