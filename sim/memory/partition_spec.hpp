// Fixed pipeline latencies of a memory partition, in SM cycles: the path from the
// interconnect to the L2 tag lookup (GPGPU-Sim's ROP delay), and from an L2 miss (or, on a
// device without L2, the partition's arrival) to the DRAM controller's queue. They carry
// no bandwidth limit of their own (the interconnect, L2 MSHRs and DRAM queues do), and are
// the calibration knobs for measured L2-hit and DRAM latencies (docs/calibration.md).
#pragma once
#include <cstdint>

#include "sim/foundation/config_reader.hpp"

namespace warpsim::mem {

struct PartitionSpec {
  uint32_t rop_latency = 0;
  uint32_t dram_latency = 0;
  // Requests a partition holds in its delay line to DRAM before it stops accepting new ones
  // (back-pressure into the network). It bounds the partition's DRAM requests in flight, so
  // with dram_latency it bounds DRAM bandwidth (Little's law).
  uint32_t dram_queue_limit = 64;
};

inline PartitionSpec parse_partition_spec(ConfigReader& r) {
  PartitionSpec p;
  auto get = [&](const char* k) {
    uint64_t v = r.get_uint(k);
    if (v > 100000) r.fail(k, "latency too large (at most 100000 cycles)");
    return static_cast<uint32_t>(v);
  };
  p.rop_latency = get("rop_latency");
  p.dram_latency = get("dram_latency");
  const uint64_t limit = r.get_positive_or("dram_queue_limit", 64);
  if (limit > 65536) r.fail("dram_queue_limit", "at most 65536 requests");
  p.dram_queue_limit = static_cast<uint32_t>(limit);
  r.finish();
  return p;
}

}  // namespace warpsim::mem
