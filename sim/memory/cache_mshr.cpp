#include "sim/memory/cache_mshr.hpp"

#include <stdexcept>

namespace warpsim::mem {

MshrTable::MshrTable(uint32_t entries, uint32_t max_merge)
    : entries_(entries), active_lines_(entries), active_index_(entries), max_merge_(max_merge) {
  // Waiter lists grow when an entry first takes them (and keep their capacity after):
  // reserving max_merge for every entry up front took the H100 config's 132 L1s 17 MB,
  // most of it never used, and a third of a short program's run.
}

MshrEntry* MshrTable::find(uint64_t line_addr) {
  return const_cast<MshrEntry*>(static_cast<const MshrTable*>(this)->find(line_addr));
}

const MshrEntry* MshrTable::find(uint64_t line_addr) const {
  // A scan of the compact list of lines in use (contiguous, usually short).
  for (uint32_t i = 0; i < used_; ++i)
    if (active_lines_[i] == line_addr) return &entries_[active_index_[i]];
  return nullptr;
}

MshrEntry& MshrTable::allocate(uint64_t line_addr) {
  for (uint32_t i = 0; i < entries_.size(); ++i) {
    MshrEntry& e = entries_[i];
    if (e.in_use) continue;
    e.in_use = true;
    e.line_addr = line_addr;
    e.pending = 0;
    e.waiters.clear();
    active_lines_[used_] = line_addr;
    active_index_[used_] = i;
    ++used_;
    return e;
  }
  throw std::logic_error("MshrTable::allocate on a full table");
}

void MshrTable::release(MshrEntry& e) {
  if (!e.in_use) throw std::logic_error("MshrTable::release of a free entry");
  e.in_use = false;
  e.waiters.clear();
  const uint32_t index = static_cast<uint32_t>(&e - entries_.data());
  for (uint32_t i = 0; i < used_; ++i)
    if (active_index_[i] == index) {
      active_lines_[i] = active_lines_[used_ - 1];
      active_index_[i] = active_index_[used_ - 1];
      break;
    }
  --used_;
}

}  // namespace warpsim::mem
