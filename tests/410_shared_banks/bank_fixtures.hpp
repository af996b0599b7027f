// Builders for the shared-memory bank tests: the FX5800 (cc1) and C2070 (cc2) bank specs
// and warp accesses from an address function.
#pragma once
#include <catch2/catch.hpp>
#include <functional>

#include "sim/sm/shared_banks.hpp"

namespace warpsim::test {

using mem::AccessKind;
using mem::WarpMemAccess;
using sm::BankRules;
using sm::SharedBankSpec;
using sm::SharedConflicts;

inline SharedBankSpec cc1_banks() { return SharedBankSpec{BankRules::Cc1, 16, 4, 16}; }
inline SharedBankSpec cc2_banks() { return SharedBankSpec{BankRules::Cc2, 32, 4, 32}; }

inline WarpMemAccess shared_access(uint32_t elem_bytes, const std::function<uint64_t(uint32_t)>& addr,
                                   uint32_t mask = 0xFFFFFFFFu, AccessKind kind = AccessKind::Load,
                                   uint32_t vec = 1) {
  WarpMemAccess a;
  a.space = isa::Space::Shared;
  a.kind = kind;
  a.elem_bytes = uint8_t(elem_bytes);
  a.vec = uint8_t(vec);
  a.mask = mask;
  for (uint32_t lane = 0; lane < 32; ++lane) a.addr[lane] = addr(lane);
  return a;
}

// 32-bit words: lane -> word index.
inline WarpMemAccess words(const std::function<uint64_t(uint32_t)>& word, uint32_t mask = 0xFFFFFFFFu,
                           AccessKind kind = AccessKind::Load) {
  return shared_access(4, [&](uint32_t l) { return 4 * word(l); }, mask, kind);
}

inline uint32_t lanes_mask(uint32_t first, uint32_t count) {
  return count >= 32 ? 0xFFFFFFFFu : ((1u << count) - 1u) << first;
}

}  // namespace warpsim::test
