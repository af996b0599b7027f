// Shared-memory bank conflicts of one warp instruction, by the Programming Guide's rules
// for compute capability 1.x or 2.x, or as measured on cc 9.0 (named in the device
// config's "shared" object).
// Pure function: the passes (wavefronts) an access costs and the conflict degree of each
// request it is split into. docs/exact-rules.md gives the rules, sources and examples.
#pragma once
#include <cstdint>
#include <vector>

#include "sim/foundation/config_reader.hpp"
#include "sim/memory/mem_access.hpp"

namespace warpsim::sm {

enum class BankRules : uint8_t {
  Cc1,  // per half-warp; one broadcast word per step; wide accesses split into 32-bit requests
  Cc2,  // per warp; multi-word broadcast; 64-bit per half-warp, 128-bit per quarter-warp
  Cc9,  // as Cc2 up to 32 bits; 64/128-bit as measured on an H100 (shared_banks.cpp, cc9_wide)
};

struct SharedBankSpec {
  BankRules rules = BankRules::Cc2;
  uint32_t banks = 32;
  uint32_t bank_width = 4;   // bytes: successive words of this size map to successive banks
  uint32_t partition = 32;   // lanes whose accesses can conflict with each other
};

// Parse the device config's "shared" object (strict):
//   {"rules": "cc1" | "cc2" | "cc9", "banks": pow2, "bank_width": pow2 bytes, "partition": pow2 <= 32}
SharedBankSpec parse_shared_bank_spec(ConfigReader& r);

// One request the access is split into: lanes that are serviced together.
struct SharedRequest {
  uint32_t first_lane = 0;
  uint32_t lane_count = 0;
  uint32_t piece = 0;        // cc1: which bank_width-sized piece of a wide access (0 otherwise)
  uint32_t active = 0;       // active lanes of this request
  uint32_t degree = 0;       // passes this request takes (1 = conflict-free)
};

struct SharedConflicts {
  uint32_t passes = 0;       // wavefronts the instruction costs: sum of the requests' degrees
  uint32_t requests = 0;     // requests with active lanes: the passes without any conflict
  uint32_t max_degree = 0;   // the worst request's degree ("N-way")
  std::vector<uint32_t> partition_degree;  // per partition of `partition` lanes: its worst request
  std::vector<uint32_t> partition_passes;  // per partition: its requests' degrees summed
  std::vector<SharedRequest> per_request;  // requests with active lanes, in issue order

  uint32_t conflicts() const { return passes - requests; }  // extra passes caused by conflicts
};

// The totals of shared_conflicts() without its per-request detail: no allocation, and a
// fast path for the common case of one bank-width word per lane. The simulator calls
// this on every shared-memory instruction; it always equals shared_conflicts()'s totals.
struct SharedPasses {
  uint32_t passes = 0;
  uint32_t requests = 0;
  uint32_t max_degree = 0;
  uint32_t conflicts() const { return passes - requests; }
};
SharedPasses shared_passes(const SharedBankSpec& spec, const mem::WarpMemAccess& access);

// Bank conflicts of one shared-memory access (any kind; the mask selects the lanes).
// Addresses are byte offsets in the block's shared memory. A zero mask costs nothing.
SharedConflicts shared_conflicts(const SharedBankSpec& spec, const mem::WarpMemAccess& access);

}  // namespace warpsim::sm
