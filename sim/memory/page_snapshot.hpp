// Undo for speculative writes to global memory: while blocks of a functional launch run on
// several host threads (engine/functional_parallel.hpp), the first write to each page in
// an epoch first saves the page, so that an epoch whose blocks turn out to depend on each
// other can be put back exactly as it was and run again one block after another.
#pragma once
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "sim/memory/global_memory.hpp"

namespace warpsim::mem {

class PageSnapshot {
 public:
  explicit PageSnapshot(GlobalMemory& gm) : gm_(gm) {}
  // Saves the page holding `addr` unless this epoch saved it already, and gives it
  // storage. Safe to call from several threads; call before writing anything to the page.
  void claim(GlobalMemory::Allocation& a, uint64_t addr);
  // Puts every page saved since the last keep()/restore() back as it was.
  void restore();
  // Forgets the saved pages: the epoch's writes stand.
  void keep();
  size_t pages() const { return saved_.size(); }

 private:
  struct Saved {
    GlobalMemory::Allocation* alloc = nullptr;
    uint64_t index = 0;
    std::unique_ptr<uint8_t[]> bytes;  // null: the page had no storage (all zeros)
  };
  GlobalMemory& gm_;
  std::mutex m_;
  std::unordered_map<const void*, Saved> saved_;  // by the page pointer's slot
};

// One thread's way into a PageSnapshot: remembers the last page it claimed, so a warp's
// stores into one page take the lock once per epoch, not once each.
class WriteGuard {
 public:
  explicit WriteGuard(PageSnapshot& snapshot) : snapshot_(snapshot) {}
  void before_write(GlobalMemory::Allocation& a, uint64_t addr) {
    const void* slot = &a.pages[(addr - a.base) >> GlobalMemory::kPageBits];
    if (slot == last_) return;
    snapshot_.claim(a, addr);
    last_ = slot;
  }
  void new_epoch() { last_ = nullptr; }

 private:
  PageSnapshot& snapshot_;
  const void* last_ = nullptr;
};

}  // namespace warpsim::mem
