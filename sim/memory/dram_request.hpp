// What enters and leaves the DRAM model, and a request as a channel queue holds it.
#pragma once
#include <cstdint>

namespace warpsim::mem {

// A read or write of `bytes` starting at `addr`. A request of several access atoms (e.g. a
// 128-byte L2 line on 32-byte atoms) is served as consecutive column bursts of one row;
// all its atoms must fall in one channel, bank and row (DramSystem::enqueue checks).
struct DramRequest {
  uint64_t id = 0;      // caller's tag, returned in the completion
  uint64_t addr = 0;
  uint32_t bytes = 32;
  bool write = false;
};

// A finished request: `cycle` is the command cycle in which its last data beat transferred.
struct DramCompletion {
  uint64_t id = 0;
  uint64_t cycle = 0;
  bool write = false;
};

// How a request found its bank when it issued its first command.
enum class RowOutcome : uint8_t { Pending, Hit, Miss, Conflict };

// One entry of a channel's request queue (kept oldest first).
struct QueuedRequest {
  uint64_t id = 0;
  uint64_t arrival = 0;     // cycle it entered the queue
  uint64_t row = 0;
  uint32_t bank = 0;        // flat bank index within the channel
  uint32_t bursts_left = 0; // column commands still to issue
  uint32_t bursts = 0;      // column commands in total
  bool write = false;
  RowOutcome outcome = RowOutcome::Pending;
};

}  // namespace warpsim::mem
