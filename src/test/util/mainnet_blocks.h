// SPDX-License-Identifier: MIT
// Real mainnet blocks: their txids, Merkle roots and header fields, as Bitcoin
// displays them (hex in reverse byte order). Shared by merkle_tests.cpp and
// the Bitcoin Core patch check (contrib/core-series/core_check_project.cpp), so
// both check the same roots. Standard headers only.
//
// The block facts were checked offline before use: each header, rebuilt from
// its fields, double-SHA-256es (Python hashlib) to the block's well-known
// hash, which pins every field including the Merkle root; the roots were
// recomputed from the txids the same way.
#ifndef SHA256BENCH_TEST_UTIL_MAINNET_BLOCKS_H
#define SHA256BENCH_TEST_UTIL_MAINNET_BLOCKS_H

#include <cstdint>
#include <string>
#include <vector>

namespace test {

struct MainnetBlock {
    int height;
    std::vector<std::string> txids;
    std::string merkle_root, prev, hash;
    uint32_t version, time, bits, nonce;
};

inline const std::vector<MainnetBlock>& MainnetBlocks()
{
    static const std::vector<MainnetBlock> blocks = {
        // Height 0, the genesis block: one transaction, so the root is its txid.
        {0, {"4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b"},
         "4a5e1e4baab89f3a32518a88c31bc87f618f76673e2cc77ab2127b7afdeda33b",
         "0000000000000000000000000000000000000000000000000000000000000000",
         "000000000019d6689c085ae165831e934ff763ae46a2a6c172b3f1b60a8ce26f", 1, 1231006505, 0x1d00ffff, 2083236893},
        // Height 170: the first bitcoin payment (coinbase + one transaction).
        {170,
         {"b1fea52486ce0c62bb442b530a3f0132b826c74e473d1f2c220bfa78111c5082",
          "f4184fc596403b9d638783cf57adfe4c75c605f6356fbc91338530e9831e9e16"},
         "7dac2c5666815c17a3b36427de37bb9d2e2c5ccec3f8633eb91a4205cb4c10ff",
         "000000002a22cfee1f2c846adbd12b3e183d4f97683f85dad08a79780a84bd55",
         "00000000d1145790a8694403d4063f323d499e655c83426834d4ce2f8dd4a2ee", 1, 1231731025, 0x1d00ffff, 1889418792},
        // Height 100000: four transactions, two levels.
        {100000,
         {"8c14f0db3df150123e6f3dbbf30f8b955a8249b62ac1d1ff16284aefa3d06d87",
          "fff2525b8931402dd09222c50775608f75787bd2b87e56995a7bdd30f79702c4",
          "6359f0868171b1d194cbee1af2f16ea598ae8fad666d9b012c8ed2b79a236ec4",
          "e9a66845e05d5abc0ad04ec80f774a7e585c6e8db975962d069a522137b80c1d"},
         "f3e94742aca4b5ef85488dc37c06c3282295ffec960994b2c0d5ac2a25a95766",
         "000000000002d01c1fccc21636b607dfd930d31d01c3a62104612a1719011250",
         "000000000003ba27aa200b1cecaad478d2b00432346c3f1f3986da1afd33e506", 1, 1293623863, 0x1b04864c, 274148111},
    };
    return blocks;
}

} // namespace test

#endif
