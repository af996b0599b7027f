// A warp's cp.async groups in timing mode: the copies in flight per group, so that
// cp.async.wait_group N waits for all but the N most recently committed groups, and
// wait_all for every copy (PTX ISA, "cp.async.wait_group / cp.async.wait_all").
//
// The groups still in flight are kept in a ring of kGroups counters. A warp that commits
// more groups than that without waiting keeps adding to its newest committed group instead
// (commit() returns false): its waits then wait for more copies than PTX asks for, never
// fewer.
#pragma once
#include <array>
#include <cstdint>

namespace warpsim::sm {

class AsyncCopyGroups {
 public:
  static constexpr uint32_t kGroups = 16;

  void reset() {
    open_ = 0;
    left_.fill(0);
  }
  // A copy issued into the open group; returns its group for copy_done().
  uint32_t copy_issued() {
    ++left_[open_ % kGroups];
    return open_;
  }
  void copy_done(uint32_t group) { --left_[group % kGroups]; }
  // cp.async.commit_group: the open group is closed and a new one opened, unless the ring's
  // next counter still belongs to a group in flight (then the open group stays open).
  bool commit() {
    if (left_[(open_ + 1) % kGroups]) return false;
    ++open_;
    return true;
  }
  // Whether cp.async.wait_group `newest_pending` must still wait: a copy of a committed
  // group older than the `newest_pending` most recent ones is in flight. all: wait_all
  // (every copy, the open group's too).
  bool must_wait(uint32_t newest_pending, bool all) const {
    const uint32_t end = all ? open_ + 1 : (newest_pending >= open_ ? 0 : open_ - newest_pending);
    const uint32_t begin = open_ + 1 >= kGroups ? open_ + 1 - kGroups : 0;
    for (uint32_t g = begin; g < end; ++g)
      if (left_[g % kGroups]) return true;
    return false;
  }

 private:
  uint32_t open_ = 0;  // the number of the group that cp.async adds to
  std::array<uint32_t, kGroups> left_{};
};

}  // namespace warpsim::sm
