// The global-memory coalescer: turns one warp-level memory instruction (WarpMemAccess)
// into the memory transactions the hardware would issue, by a named rule set taken from
// the device config's "coalescer" object. Pure functions: no state between calls.
//
// Rule sets (docs/exact-rules.md gives each one with its source and worked examples):
//   cc1.0    half-warps; coalesced only if the k-th thread accesses the k-th word of one
//            aligned segment, else one 32-byte transaction per thread (PG, cc 1.0/1.1)
//   cc1.3    half-warps; the Programming Guide's segment protocol with 128->64->32 B
//            reduction (PG, cc 1.2/1.3)
//   cc2.0    per warp (words over 4 bytes: per half-/quarter-warp); 128-byte lines when
//            cached in L1, 32-byte segments when L2 only (ld.cg, stores) (PG, cc 2.x)
//   sector32 32-byte sectors, counted per request (later architectures)
//   segments teaching mode: distinct aligned segments of a configured size per sub-warp
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/foundation/config_reader.hpp"
#include "sim/memory/mem_access.hpp"

namespace warpsim::mem {

enum class CoalescerRules : uint8_t { Cc10, Cc13, Cc20, Sector32, Segments };

// How cc2.0 counts accesses serviced by L2 only (uncached loads, stores, per its config).
enum class L2OnlyTransactions : uint8_t {
  Segment32,  // one 32-byte transaction per 32-byte segment (PG: "serviced with 32-byte transactions")
  Line,       // one transaction per 128-byte line, sized 32/64/96/128 B by its sectors (Fermi profiler)
};

struct CoalescerSpec {
  CoalescerRules rules = CoalescerRules::Cc13;
  uint32_t subwarp_size = 16;      // lanes whose accesses coalesce together (cc 1.x: a half-warp)
  // cc2.0 only
  bool l1_caching = true;          // global loads cached in L1 by default (-dlcm=ca); false = -dlcm=cg
  L2OnlyTransactions l2_only = L2OnlyTransactions::Segment32;
  // segments only
  uint32_t segment_bytes = 0;
};

// One memory transaction. `sectors` marks the 32-byte sectors of the 128-byte line at
// (addr & ~127) that the transaction moves (bit i = bytes [32i, 32i+32) of the line); it is
// 0 for transactions larger than 128 bytes (`segments` with segment_bytes > 128).
struct Transaction {
  uint64_t addr = 0;   // aligned start address (the line's base for cc2.0 "line" transactions)
  uint32_t size = 0;   // bytes moved
  uint32_t lanes = 0;  // lanes whose access it serves (a lane whose access spans two
                       // transactions appears in both)
  uint8_t sectors = 0;
  bool operator==(const Transaction&) const = default;
};

// Parse the device config's "coalescer" object (strict: unknown or inapplicable keys fail).
//   {"rules": "cc1.0" | "cc1.3" | "cc2.0" | "sector32" | "segments",
//    "subwarp_size": power of two <= 32,
//    cc2.0 only:    "l1_caching": bool, "l2_only_transactions": "segment32" | "line",
//    segments only: "segment_bytes": power of two}
CoalescerSpec parse_coalescer_spec(ConfigReader& r);

std::string rules_name(CoalescerRules rules);

// The transactions for one warp instruction on global or local memory, in issue order
// (sub-warp by sub-warp). `out` is cleared first. Lane addresses are device byte
// addresses. Throws std::invalid_argument for other spaces or a zero-byte access.
void coalesce(const CoalescerSpec& spec, const WarpMemAccess& access, std::vector<Transaction>& out);

struct CoalesceSummary {
  uint32_t transactions = 0;  // out.size()
  uint64_t bytes = 0;         // sum of the transactions' sizes
};
CoalesceSummary summarize(const std::vector<Transaction>& txns);

// The largest aligned unit the rules place transactions by (segments, lines, and the
// 128-byte lines whose sectors a transaction marks): the same access with every lane moved
// by a multiple of it has the same transactions moved by as much.
uint64_t largest_unit_bytes(const CoalescerSpec& spec);

// Number of transactions coalesce() issues for this access.
uint32_t transaction_count(const CoalescerSpec& spec, const WarpMemAccess& access);

}  // namespace warpsim::mem
