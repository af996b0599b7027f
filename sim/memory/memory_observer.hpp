// Receives every warp memory access the functional engine performs, in execution order
// (but the shared loads it lets the executor count in its tally, below). The functional
// runner uses one to count transactions, bank conflicts and cache hits; traces use one to
// record what a chosen warp did.
#pragma once
#include <cstdint>

#include "sim/isa/ir.hpp"
#include "sim/memory/mem_access.hpp"

namespace warpsim {

class SharedPatternTally;

class MemoryObserver {
 public:
  virtual ~MemoryObserver() = default;
  virtual void on_access(const mem::WarpMemAccess& access, const isa::Instr& instr, uint32_t pc, uint32_t block,
                         uint32_t warp) = 0;
  // Where the executor may count a full warp's 32-bit shared load itself, when its lane
  // pattern is one the observer knows at that pc (shared_pattern_tally.hpp); null (the
  // default): every access comes through on_access. The tally counts what on_access would
  // for those loads.
  virtual SharedPatternTally* shared_pattern_tally() { return nullptr; }
};

}  // namespace warpsim
