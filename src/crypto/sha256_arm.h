// The aarch64 SHA-256 code: built only for aarch64 hosts (ENABLE_SHA256_ARM),
// each file with its own flags. Callers check cpu::Features() first: none of
// these may run on a CPU that lacks what its comment names.
#ifndef SHA256BENCH_CRYPTO_SHA256_ARM_H
#define SHA256BENCH_CRYPTO_SHA256_ARM_H

#include <cstddef>
#include <cstdint>

/** Needs cpu::ASIMD and cpu::SHA2. TransformFn's signature: `blocks` 64-byte blocks at `chunk` (any alignment). */
void sha256_arm_shani_transform(uint32_t* s, const unsigned char* chunk, size_t blocks);

/** Needs cpu::ASIMD and cpu::SHA2. Two independent 64-byte inputs -> two 32-byte double SHA-256 digests; out may equal in. */
void sha256d64_arm_shani_2way(unsigned char* out, const unsigned char* in);

/** Needs cpu::ASIMD. Four independent 64-byte inputs -> four 32-byte double SHA-256 digests; out may equal in. */
void sha256d64_neon_4way(unsigned char* out, const unsigned char* in);

#endif
