#include "sim/memory/cache_mshr.hpp"

#include <stdexcept>

namespace warpsim::mem {

MshrTable::MshrTable(uint32_t entries, uint32_t max_merge) : entries_(entries), max_merge_(max_merge) {
  for (auto& e : entries_) e.waiters.reserve(max_merge);
}

MshrEntry* MshrTable::find(uint64_t line_addr) {
  for (auto& e : entries_)
    if (e.in_use && e.line_addr == line_addr) return &e;
  return nullptr;
}

const MshrEntry* MshrTable::find(uint64_t line_addr) const {
  for (const auto& e : entries_)
    if (e.in_use && e.line_addr == line_addr) return &e;
  return nullptr;
}

MshrEntry& MshrTable::allocate(uint64_t line_addr) {
  for (auto& e : entries_) {
    if (e.in_use) continue;
    e.in_use = true;
    e.line_addr = line_addr;
    e.pending = 0;
    e.waiters.clear();
    ++used_;
    return e;
  }
  throw std::logic_error("MshrTable::allocate on a full table");
}

void MshrTable::release(MshrEntry& e) {
  if (!e.in_use) throw std::logic_error("MshrTable::release of a free entry");
  e.in_use = false;
  e.waiters.clear();
  --used_;
}

}  // namespace warpsim::mem
