// Per-warp reconvergence stack (post-dominator based, as in GPGPU-Sim / Fung et al.).
// The top entry is what the warp executes; an entry is popped when its pc reaches its
// reconvergence pc, at which point the threads of the entry below resume together.
#pragma once
#include <cstdint>
#include <utility>
#include <vector>

namespace warpsim::sm {

struct SimtEntry {
  int32_t pc = 0;
  int32_t rpc = -1;   // reconvergence pc; -1 = only at exit
  uint32_t mask = 0;  // threads on this path
};

class SimtStack {
 public:
  void reset(uint32_t mask) {
    entries_.clear();
    entries_.push_back({0, -1, mask});
  }
  bool empty() const { return entries_.empty(); }
  size_t depth() const { return entries_.size(); }
  SimtEntry& top() { return entries_.back(); }
  const SimtEntry& top() const { return entries_.back(); }
  const std::vector<SimtEntry>& entries() const { return entries_; }

  // Pops entries that have reached their reconvergence point (or have no threads left).
  void reconverge() {
    while (entries_.size() > 1 && (entries_.back().pc == entries_.back().rpc || entries_.back().mask == 0))
      entries_.pop_back();
  }

  // Splits the top entry at a divergent branch: the top becomes the reconvergence entry,
  // the taken path is pushed below the fall-through path, which runs first.
  void diverge(int32_t rpc, int32_t taken_pc, uint32_t taken, int32_t fall_pc, uint32_t fall) {
    entries_.back().pc = rpc;
    entries_.push_back({taken_pc, rpc, taken});
    entries_.push_back({fall_pc, rpc, fall});
  }

  // A call: the callee's threads run from `pc` on an entry of their own, which never
  // reconverges by pc; the callee's return pops it (pop_call) and the caller's entry below,
  // already at the return address, resumes.
  // An indirect call whose threads call different functions: one path per target, each
  // re-executing the call at `pc` and reconverging at `rpc` (the return address).
  void push_path(int32_t pc, int32_t rpc, uint32_t mask) { entries_.push_back({pc, rpc, mask}); }

  // The path below the top that is the other side of the same divergent branch and has not
  // reached their reconvergence pc (null: none).
  const SimtEntry* sibling() const {
    if (entries_.size() < 2) return nullptr;
    const SimtEntry& t = entries_.back();
    const SimtEntry& s = entries_[entries_.size() - 2];
    if (t.rpc == kCallFrame || s.rpc != t.rpc || s.pc == s.rpc || s.mask == 0) return nullptr;
    return &s;
  }
  // Lets sibling() run first; the top path waits below it and resumes when the sibling
  // reaches the reconvergence pc (as independent thread scheduling lets a warp's paths wait
  // for each other).
  void run_sibling_first() { std::swap(entries_.back(), entries_[entries_.size() - 2]); }

  static constexpr int32_t kCallFrame = -2;
  void push_call(int32_t pc, uint32_t mask) { entries_.push_back({pc, kCallFrame, mask}); }
  void pop_call() {
    entries_.pop_back();
    reconverge();
  }

  // Removes exited threads from every entry; returns false when no thread is left.
  bool remove_threads(uint32_t exited) {
    for (auto& e : entries_) e.mask &= ~exited;
    while (!entries_.empty() && entries_.back().mask == 0) entries_.pop_back();
    if (entries_.empty()) return false;
    reconverge();
    return true;
  }

 private:
  std::vector<SimtEntry> entries_;
};

}  // namespace warpsim::sm
