// SPDX-License-Identifier: MIT
// Big-endian load/store helpers (SHA-256 is defined on big-endian words).
#ifndef SHA256BENCH_CRYPTO_COMMON_H
#define SHA256BENCH_CRYPTO_COMMON_H

#include <cstdint>
#include <cstring>

inline uint32_t HostToBE32(uint32_t x)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return x;
#else
    return __builtin_bswap32(x);
#endif
}

inline uint64_t HostToBE64(uint64_t x)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return x;
#else
    return __builtin_bswap64(x);
#endif
}

// memcpy + byte swap: any alignment, and compilers turn it into one movbe/bswap.
inline uint32_t ReadBE32(const unsigned char* ptr)
{
    uint32_t x;
    std::memcpy(&x, ptr, 4);
    return HostToBE32(x);
}

inline void WriteBE32(unsigned char* ptr, uint32_t x)
{
    x = HostToBE32(x);
    std::memcpy(ptr, &x, 4);
}

inline void WriteBE64(unsigned char* ptr, uint64_t x)
{
    x = HostToBE64(x);
    std::memcpy(ptr, &x, 8);
}

#endif
