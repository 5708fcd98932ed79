#include <test/nist.h>

#include <test/util.h>

#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace nist {
namespace {

std::string Trim(const std::string& s)
{
    const auto b = s.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) return "";
    return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

// Calls f(key, value, line) for each "key = value" line, skipping comments and [sections].
template <typename F>
void ForEachField(const std::string& path, F f)
{
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
        ++n;
        line = Trim(line);
        if (line.empty() || line[0] == '#' || line[0] == '[') continue;
        const auto eq = line.find('=');
        if (eq == std::string::npos) throw std::runtime_error(path + ":" + std::to_string(n) + ": expected 'key = value'");
        try {
            f(Trim(line.substr(0, eq)), Trim(line.substr(eq + 1)), n);
        } catch (const std::exception& e) {
            throw std::runtime_error(path + ":" + std::to_string(n) + ": " + e.what());
        }
    }
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

std::vector<MsgVector> ReadMsgFile(const std::string& path)
{
    std::vector<MsgVector> out;
    MsgVector cur{};
    bool have_len = false, have_msg = false;
    ForEachField(path, [&](const std::string& key, const std::string& value, int line) {
        if (key == "L") {
            if (value != "32") throw std::runtime_error("digest length L = " + value + ", expected 32");
        } else if (key == "Len") {
            cur = MsgVector{};
            cur.len_bits = std::stoul(value);
            if (cur.len_bits % 8) throw std::runtime_error("bit-oriented message; use the byte-oriented files");
            have_len = true;
            have_msg = false;
        } else if (key == "Msg") {
            if (!have_len) throw std::runtime_error("Msg before Len");
            cur.msg = test::ParseHex(value);
            // A zero-length message is written as "00".
            if (cur.len_bits == 0) cur.msg.clear();
            if (cur.msg.size() * 8 != cur.len_bits) throw std::runtime_error("Msg length does not match Len");
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
    if (out.empty()) throw std::runtime_error(path + ": no vectors");
    return out;
}

MonteVectors ReadMonteFile(const std::string& path)
{
    MonteVectors out;
    size_t expect_count = 0;
    ForEachField(path, [&](const std::string& key, const std::string& value, int) {
        if (key == "L") {
            if (value != "32") throw std::runtime_error("digest length L = " + value + ", expected 32");
        } else if (key == "Seed") {
            out.seed = test::ParseHex(value);
            if (out.seed.size() != 32) throw std::runtime_error("Seed is not 32 bytes");
        } else if (key == "COUNT") {
            if (std::stoul(value) != expect_count) throw std::runtime_error("COUNT out of sequence");
        } else if (key == "MD") {
            out.checkpoints.push_back(test::ParseHex(value));
            if (out.checkpoints.back().size() != 32) throw std::runtime_error("MD is not 32 bytes");
            ++expect_count;
        } else {
            throw std::runtime_error("unexpected field '" + key + "'");
        }
    });
    if (out.seed.empty() || out.checkpoints.empty()) throw std::runtime_error(path + ": no Seed or no MD");
    return out;
}

} // namespace nist
