// Receives every warp memory access the functional engine performs, in execution order.
// The functional runner uses one to count transactions, bank conflicts and cache hits;
// traces use one to record what a chosen warp did.
#pragma once
#include <cstdint>

#include "sim/isa/ir.hpp"
#include "sim/memory/mem_access.hpp"

namespace warpsim {

class MemoryObserver {
 public:
  virtual ~MemoryObserver() = default;
  virtual void on_access(const mem::WarpMemAccess& access, const isa::Instr& instr, uint32_t pc, uint32_t block,
                         uint32_t warp) = 0;
  // A full warp's shared access at `pc` whose lanes sit at the offsets of the accesses the
  // executor numbered `pattern` (WarpMemAccess::pattern), lane 0 at `lane0`, of
  // `bytes_per_lane` each. An observer that can take it from that alone does so and returns
  // true; false (the default): the executor passes the whole record to on_access instead.
  virtual bool on_shared_pattern(uint32_t /*pc*/, mem::AccessKind /*kind*/, uint32_t /*bytes_per_lane*/,
                                 uint64_t /*lane0*/, uint64_t /*pattern*/) {
    return false;
  }
};

}  // namespace warpsim
