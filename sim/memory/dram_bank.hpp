// Per-bank state a channel controller keeps: the open row and the queue bookkeeping the
// schedulers read. Timing lives in TimingEngine; this is only "what is open".
#pragma once
#include <cstdint>

#include "sim/memory/dram_request.hpp"
#include "sim/memory/dram_timing.hpp"

namespace warpsim::mem {

struct BankState {
  bool open = false;
  uint64_t row = 0;           // the open row (valid when open)
  uint32_t queued = 0;        // queued requests to this bank
  uint32_t queued_hits = 0;   // ... of which target the open row
  uint32_t outstanding = 0;   // queued + issued but data not yet complete (for BLP)
};

// The command that request `q` needs next, given its bank's state.
inline DramCommand next_command(const QueuedRequest& q, const BankState& b) {
  if (!b.open) return DramCommand::ACT;
  if (b.row != q.row) return DramCommand::PRE;
  return q.write ? DramCommand::WR : DramCommand::RD;
}

}  // namespace warpsim::mem
