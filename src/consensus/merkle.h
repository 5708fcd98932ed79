// Bitcoin's Merkle root of a block's transaction ids.
#ifndef SHA256BENCH_CONSENSUS_MERKLE_H
#define SHA256BENCH_CONSENSUS_MERKLE_H

#include <uint256.h>

#include <vector>

/** The root of the Merkle tree over `hashes`: each level pairs neighbours and
 *  double-SHA-256es each 64-byte pair (SHA256D64, in place), an odd level
 *  pairs its last hash with itself, until one hash is left. An empty list gives
 *  the all-zero hash. If `mutated` is given, it is set to whether any level
 *  paired two identical hashes: the duplicated-transaction ambiguity
 *  (CVE-2012-2459) that lets two different lists share a root. */
uint256 ComputeMerkleRoot(std::vector<uint256> hashes, bool* mutated = nullptr);

#endif
