// The bank-model results a functional counter knows for full-warp 32-bit shared loads, one
// per pc, and the counts such a load adds: an executor whose load at a pc repeats the lane
// pattern (WarpMemAccess::pattern) known there adds the load's counts itself, inline, with
// no access record and no call (a tiled kernel's inner loop: about half its instructions).
// MemoryCounter owns one and keeps each entry equal to its memo of that pc; where a warp is
// traced it knows nothing, so every access reaches MemoryObserver::on_access.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "sim/foundation/launch_stats.hpp"

namespace warpsim {

// A shared load's passes (wavefronts) and bank conflicts, in the launch's and its pc's counts.
inline void add_shared_load_counts(LaunchStats& stats, uint32_t pc, uint32_t passes, uint32_t conflicts) {
  stats.mem.shared_load_transactions += passes;
  stats.mem.shared_load_bank_conflicts += conflicts;
  PcStats& ps = stats.per_pc[pc];
  ++ps.requests;
  ps.transactions += passes;
}

class SharedPatternTally {
 public:
  // `pcs`: the kernel's instructions (stats.per_pc's size); `bank_offset_mask`: the bank
  // width less one (a power of two).
  SharedPatternTally(LaunchStats& stats, size_t pcs, uint64_t bank_offset_mask)
      : stats_(stats), known_(pcs), pcs_(uint32_t(pcs)), bank_offset_mask_(bank_offset_mask) {}

  // A full warp's ld.shared of 32 bits per lane at `pc`, its lanes at the offsets numbered
  // `pattern` (nonzero), lane 0 at byte offset `lane0`: counted, and true, where the tally
  // knows that pattern at pc and lane 0 starts a bank (a move by whole banks keeps the
  // conflicts); false, nothing counted, otherwise.
  bool count_load(uint32_t pc, uint64_t pattern, uint64_t lane0) { return count_load_passes(pc, pattern, lane0) != 0; }
  // count_load, returning the load's passes where it counted it (at least 1) and 0 where not.
  uint32_t count_load_passes(uint32_t pc, uint64_t pattern, uint64_t lane0) {
    if (pc >= pcs_) return 0;
    const Known& k = known_[pc];
    if (k.pattern != pattern || (lane0 & bank_offset_mask_) != 0 || k.passes == 0) return 0;
    add_shared_load_counts(stats_, pc, k.passes, k.conflicts);
    return k.passes;
  }
  // Whether count_load would count this load (nothing is counted).
  bool knows(uint32_t pc, uint64_t pattern, uint64_t lane0) const {
    return pc < pcs_ && known_[pc].pattern == pattern && (lane0 & bank_offset_mask_) == 0 && known_[pc].passes != 0;
  }

  // What the counter's memo holds for pc now (pattern 0 or forget: nothing).
  void learn(uint32_t pc, uint64_t pattern, uint32_t passes, uint32_t conflicts) {
    if (pc < pcs_) known_[pc] = {pattern, passes, conflicts};
  }
  void forget(uint32_t pc) {
    if (pc < pcs_) known_[pc] = {};
  }
  void forget_all() { std::fill(known_.begin(), known_.end(), Known{}); }

 private:
  struct Known {
    uint64_t pattern = 0;  // 0: none
    uint32_t passes = 0, conflicts = 0;
  };
  LaunchStats& stats_;
  std::vector<Known> known_;  // pcs_ entries, never resized
  uint32_t pcs_;
  uint64_t bank_offset_mask_;
};

}  // namespace warpsim
