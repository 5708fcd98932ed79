#include <uint256.h>

bool uint256::IsNull() const
{
    for (unsigned char c : m_data) {
        if (c) return false;
    }
    return true;
}

std::string uint256::GetHex() const
{
    static const char digits[] = "0123456789abcdef";
    std::string out(2 * WIDTH, '0');
    for (size_t i = 0; i < WIDTH; ++i) {
        const unsigned char c = m_data[WIDTH - 1 - i];
        out[2 * i] = digits[c >> 4];
        out[2 * i + 1] = digits[c & 15];
    }
    return out;
}

namespace {
int HexDigit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}
} // namespace

std::optional<uint256> uint256::FromHex(const std::string& hex)
{
    if (hex.size() != 2 * WIDTH) return std::nullopt;
    uint256 out;
    for (size_t i = 0; i < WIDTH; ++i) {
        const int hi = HexDigit(hex[2 * i]), lo = HexDigit(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) return std::nullopt;
        out.m_data[WIDTH - 1 - i] = static_cast<unsigned char>(hi << 4 | lo);
    }
    return out;
}
