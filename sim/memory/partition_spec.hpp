// Fixed pipeline latencies of a memory partition, in SM cycles: the path from the
// interconnect to the L2 tag lookup (GPGPU-Sim's ROP delay), and from an L2 miss (or, on a
// device without L2, the partition's arrival) to the DRAM controller's queue. They carry
// no bandwidth limit of their own (the interconnect, L2 MSHRs and DRAM queues do), and are
// the calibration knobs for measured L2-hit and DRAM latencies (docs/calibration.md).
#pragma once
#include <bit>
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
  // The same bound in 32-byte sectors, whatever the requests' sizes (0: none): a partition
  // whose requests may each carry several sectors (issue.lsu_line_requests) keeps the bytes
  // in flight that Little's law gives.
  uint32_t dram_queue_sector_limit = 0;
  // The largest DRAM request the partition makes: a run of sectors is split at multiples
  // of it (0: a run is one request per DRAM row).
  uint32_t dram_request_bytes = 0;
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
  const uint64_t sectors = r.get_uint_or("dram_queue_sector_limit", 0);
  if (sectors > 1u << 20) r.fail("dram_queue_sector_limit", "at most 1048576 sectors");
  p.dram_queue_sector_limit = static_cast<uint32_t>(sectors);
  const uint64_t rb = r.get_uint_or("dram_request_bytes", 0);
  if (rb != 0 && (rb < 32 || rb > 65536 || !std::has_single_bit(rb)))
    r.fail("dram_request_bytes", "expected 0 (no limit) or a power of two from 32 to 65536");
  p.dram_request_bytes = static_cast<uint32_t>(rb);
  r.finish();
  return p;
}

}  // namespace warpsim::mem
