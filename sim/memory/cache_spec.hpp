// The immutable description of one cache (an L1 of one SM, or one L2 slice), parsed and
// validated from a JSON section such as "l1" or "l2". Mutable state lives in Cache.
#pragma once
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/foundation/config_reader.hpp"

namespace warpsim::mem {

// What a write does to the cache and to the level below.
enum class WritePolicy : uint8_t {
  WriteBack,     // a write hit marks the sectors dirty; dirty lines are written back on eviction
  WriteThrough,  // every write is also forwarded to the level below; lines never become dirty
};

// How an address picks its set.
enum class IndexFunction : uint8_t {
  Linear,     // set = (addr / line_bytes) mod sets
  FermiHash,  // GPGPU-Sim FERMI_HASH_SET_FUNCTION (Nugteren et al., HPCA 2014): 32 or 64 sets,
              // 128-byte lines; XORs address bits 13,14,15,17,19 into the line-index bits 7..11
  XorFold,    // set = XOR of all log2(sets)-bit slices of the line address: every set stays in
              // use even when low line bits are fixed (an L2 slice chosen by those bits)
  SliceXor,   // L2 slices only: the XOR fold of the line's number among its slice's lines
              // (its address with the DRAM channel field removed, / line_bytes / slices per
              // channel), so a contiguous buffer fills a slice's sets evenly (SetIndex)
};

struct CacheSpec {
  uint64_t size_bytes = 0;      // capacity of this instance (one L1, or one L2 slice)
  uint32_t line_bytes = 128;    // tag granularity
  uint32_t sector_bytes = 32;   // fill/valid/dirty granularity; line_bytes / sector_bytes <= 32
  uint32_t ways = 1;
  uint32_t sets = 1;            // derived: size_bytes / (line_bytes * ways), a power of two
  std::string replacement = "lru";  // replacement registry name
  IndexFunction index = IndexFunction::Linear;
  WritePolicy write_policy = WritePolicy::WriteBack;        // global (and atomic) writes
  WritePolicy local_write_policy = WritePolicy::WriteBack;  // writes flagged `local`
  bool write_allocate = false;  // a write miss allocates the line (write-validate, no fetch)
  bool invalidate_on_write = false;  // a non-local write hit evicts the line (Fermi L1 global stores)
  uint32_t hit_latency = 1;     // cycles from access to data for a hit
  uint32_t mshr_entries = 1;    // distinct lines with outstanding misses
  uint32_t mshr_max_merge = 1;  // requests that may wait on one MSHR (the first miss included)
  // A read miss fetches, for each sector it lacks, the aligned group of fetch_bytes that
  // holds it, less what is present or on its way (the H100's L2 reads DRAM in 64-byte sector
  // pairs); sector_bytes (the default): just the missing sectors.
  uint32_t fetch_bytes = 32;

  // line_bytes, sector_bytes and fetch_bytes are powers of two (the parser checks), so the
  // sector arithmetic below shifts: a division on every cache access was measurable time.
  uint32_t sector_shift() const { return uint32_t(std::countr_zero(sector_bytes)); }
  uint32_t sectors_per_line() const { return line_bytes >> sector_shift(); }
  uint32_t full_line_mask() const {
    uint32_t n = sectors_per_line();
    return n >= 32 ? 0xFFFFFFFFu : ((1u << n) - 1);
  }
  uint64_t line_addr(uint64_t addr) const { return addr & ~uint64_t(line_bytes - 1); }
  // `sectors` widened to whole aligned groups of fetch_bytes.
  uint32_t fetch_groups(uint32_t sectors) const {
    const uint32_t per = fetch_bytes >> sector_shift();
    if (per <= 1) return sectors;
    const uint32_t group = per >= 32 ? 0xFFFFFFFFu : (1u << per) - 1;
    uint32_t out = 0;
    for (uint32_t i = 0; i < 32; i += per)
      if (sectors >> i & group) out |= group << i;
    return out & full_line_mask();
  }
  // The sectors of addr's line that the byte range [addr, addr + bytes) touches. The range
  // must not cross the line (callers split at line boundaries; the coalescer already does).
  uint32_t sector_mask(uint64_t addr, uint32_t bytes) const;
  // The set of an address for the index functions that need nothing but the address (not
  // slice_xor, which needs the DRAM address map: see SetIndex, set_index.hpp).
  uint32_t set_index(uint64_t addr) const;
};

// The XOR of all log2(sets)-bit pieces of a line number (index functions xor, slice_xor).
uint32_t xor_fold_set(uint64_t line_number, uint32_t sets);
// The set of `addr` under an address function (linear, fermi_hash, xor) of a cache with
// `line_bytes` lines and `sets` sets; throws std::logic_error for slice_xor.
uint32_t address_set_index(IndexFunction f, uint32_t line_bytes, uint32_t sets, uint64_t addr);

// An L2: `slices` identical caches, `slices_per_channel` attached to each memory channel.
// Optionally split into `partitions` (the A100/H100 L2): each SM is attached to one, and
// the slices of partition q are slices [q * slices / partitions, (q + 1) * slices / partitions).
// An address's home slice is the one its channel picks (a line read from DRAM is kept
// there); an SM of another partition uses the slice at the same place in its own partition,
// which keeps a clean copy and asks the home slice for what it misses and writes through
// to it (the rules are in docs/memory-hierarchy.md, "L2 partitions").
struct L2Spec {
  CacheSpec slice;          // one slice; slice.size_bytes = total / slices
  uint64_t total_bytes = 0;
  uint32_t slices_per_channel = 1;
  uint32_t slices = 1;      // channels * slices_per_channel
  uint32_t partitions = 1;
  uint32_t far_latency = 0;              // cycles a copy's miss adds to reach the home slice and back
  std::vector<uint8_t> partition_of_sm;  // per SM (empty with one partition)
  // L2 access control (cudaDeviceProp persistingL2CacheMaxSize, accessPolicyMaxWindowSize;
  // 0: the device has none).
  uint64_t persisting_max_bytes = 0;
  uint64_t access_policy_max_window_bytes = 0;
  double persisting_kept_share = 1.0;  // L2AccessPolicy::persisting_kept_share

  uint32_t slices_per_partition() const { return slices / partitions; }
  uint32_t partition_of_slice(uint32_t slice_index) const { return slice_index / slices_per_partition(); }
  // The slice at the place of `slice_index` in partition `q`.
  uint32_t slice_in(uint32_t slice_index, uint32_t q) const {
    const uint32_t per = slices_per_partition();
    return q * per + slice_index % per;
  }
  // The slice SM `sm` uses for an address whose home slice is `home`.
  uint32_t near_slice(uint32_t home, uint32_t sm) const {
    return partitions == 1 ? home : slice_in(home, partition_of_sm[sm]);
  }
};

// The keys that fix a cache's shape, as read (wider than CacheSpec's fields, so that a value
// too large for them is reported rather than cut).
struct CacheGeometry {
  uint64_t size_bytes = 0;    // of one instance (one L1, or one L2 slice)
  uint64_t line_bytes = 0;
  uint64_t sector_bytes = 0;
  uint64_t ways = 0;
  IndexFunction index = IndexFunction::Linear;
};

// A geometry rule that a cache breaks: the key of a cache section it concerns, and why.
struct CacheGeometryProblem {
  const char* key;  // "line_bytes", "sector_bytes", "ways", "size_bytes" or "index"
  std::string why;
};

// The geometry rules of one cache, wherever its shape comes from (a cache section, or the L1
// of a carveout split): line_bytes a power of two up to 65536, sector_bytes a power of two
// with 1 to 32 sectors a line, 1 to kMaxWays ways, size_bytes a multiple of line_bytes * ways
// giving a power-of-two set count, and fermi_hash's 128-byte lines with 32 or 64 sets.
// `size_what` names the size in the messages ("49152 bytes", "an L1 of 49152 bytes"); the
// caller adds the key path. Returns the first rule broken, in that order, or nullopt; with
// none broken the set count is size_bytes / (line_bytes * ways).
std::optional<CacheGeometryProblem> cache_geometry_problem(const CacheGeometry& g, const std::string& size_what);

// Reads the cache keys of `r` (see docs/memory-hierarchy.md for the schema). Does not call
// r.finish(): the owner of the section may read further keys first, then finish it.
// Every error names the file and the key path (e.g. "c2070.json: l1.ways: ...").
CacheSpec parse_cache_spec(ConfigReader& r);

// Reads an "l2" section: the cache keys, with `size_bytes` the total over all slices, plus
// `slices_per_channel`. `channels` comes from the DRAM section (one slice group per channel).
L2Spec parse_l2_spec(ConfigReader& r, uint32_t channels);

// Reads the optional "partitions" object of an "l2" section into `l2` (count, far_latency,
// sm_partition: one partition number per SM, not needed with count 1). `channels` must
// divide evenly among them.
void parse_l2_partitions(ConfigReader& r, L2Spec& l2, uint32_t channels, uint32_t sm_count);

const char* write_policy_name(WritePolicy p);
const char* index_function_name(IndexFunction f);

}  // namespace warpsim::mem
