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
};

}  // namespace warpsim
