// Reader for NIST CAVP SHA-256 response files (byte-oriented .rsp).
#ifndef SHA256BENCH_TEST_NIST_H
#define SHA256BENCH_TEST_NIST_H

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

//! SHA256ShortMsg.rsp / SHA256LongMsg.rsp. Throws std::runtime_error with file:line on malformed input.
std::vector<MsgVector> ReadMsgFile(const std::string& path);

//! SHA256Monte.rsp.
MonteVectors ReadMonteFile(const std::string& path);

} // namespace nist

#endif
