// A 32-byte hash value, as Bitcoin uses for transaction ids, block hashes and
// Merkle nodes. Bytes are kept in the order the hash function produced them;
// GetHex() prints them reversed, as Bitcoin displays hashes.
#ifndef SHA256BENCH_UINT256_H
#define SHA256BENCH_UINT256_H

#include <array>
#include <cstddef>
#include <cstring>
#include <optional>
#include <string>

class uint256
{
public:
    static constexpr size_t WIDTH = 32;

    constexpr uint256() : m_data{} {}

    unsigned char* data() { return m_data.data(); }
    const unsigned char* data() const { return m_data.data(); }
    static constexpr size_t size() { return WIDTH; }
    unsigned char* begin() { return m_data.data(); }
    unsigned char* end() { return m_data.data() + WIDTH; }
    const unsigned char* begin() const { return m_data.data(); }
    const unsigned char* end() const { return m_data.data() + WIDTH; }

    bool IsNull() const;

    // memcmp of a constant size compared with 0 is inlined (four 8-byte
    // loads a side); std::array's == called libc's memcmp, a visible part of
    // a Merkle root's time beside the fastest SHA256D64 (one compare per pair).
    friend bool operator==(const uint256& a, const uint256& b) { return std::memcmp(a.data(), b.data(), WIDTH) == 0; }
    friend bool operator!=(const uint256& a, const uint256& b) { return !(a == b); }

    //! 64 lowercase hex digits, last byte first (Bitcoin's display order).
    std::string GetHex() const;

    //! The inverse of GetHex(): exactly 64 hex digits (either case), else nullopt.
    static std::optional<uint256> FromHex(const std::string& hex);

private:
    std::array<unsigned char, WIDTH> m_data;
};

#endif
