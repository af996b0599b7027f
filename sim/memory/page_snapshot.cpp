#include "sim/memory/page_snapshot.hpp"

#include <algorithm>
#include <cstring>

namespace warpsim::mem {

namespace {
// The bytes of page `index` that belong to `a` (an external allocation's last page may be
// short: its storage ends with the allocation).
uint64_t page_bytes(const GlobalMemory::Allocation& a, uint64_t index) {
  return std::min<uint64_t>(GlobalMemory::kPageSize, a.size - index * GlobalMemory::kPageSize);
}
}  // namespace

void PageSnapshot::claim(GlobalMemory::Allocation& a, uint64_t addr) {
  const uint64_t index = (addr - a.base) >> GlobalMemory::kPageBits;
  std::lock_guard<std::mutex> lock(m_);
  auto [it, fresh] = saved_.try_emplace(&a.pages[index]);
  if (!fresh) return;
  Saved& s = it->second;
  s.alloc = &a;
  s.index = index;
  // A mapping's page is its physical allocation's: it is never dropped, so it is saved
  // even while all zeros. (Launches with a physical page mapped twice run serially.)
  if (a.physical) gm_.materialise_page(a, index);
  if (const uint8_t* p = GlobalMemory::page(a, index)) {
    s.bytes = std::make_unique<uint8_t[]>(page_bytes(a, index));
    std::memcpy(s.bytes.get(), p, page_bytes(a, index));
  } else {
    gm_.materialise_page(a, index);
  }
}

void PageSnapshot::restore() {
  for (auto& [slot, s] : saved_) {
    if (s.bytes) std::memcpy(GlobalMemory::page(*s.alloc, s.index), s.bytes.get(), page_bytes(*s.alloc, s.index));
    else gm_.drop_page(*s.alloc, s.index);
  }
  saved_.clear();
}

void PageSnapshot::keep() { saved_.clear(); }

}  // namespace warpsim::mem
