#include "sim/memory/global_memory.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "sim/foundation/error.hpp"

namespace warpsim::mem {

GlobalMemory::GlobalMemory() : zero_page_(new uint8_t[kPageSize]()) {}

GlobalMemory::~GlobalMemory() {
  for (auto& [base, a] : allocs_) free_pages(a);
  for (auto& [id, ph] : physical_) {
    if (ph.release) {  // external storage: its owner's
      ph.release();
      continue;
    }
    for (uint8_t* p : ph.pages) delete[] p;
  }
}

void GlobalMemory::free_pages(Allocation& a) {
  if (a.external || a.physical) return;  // its owner's, or its physical allocation's
  for (uint8_t*& p : a.pages)
    if (p) {
      delete[] p;
      p = nullptr;
      --pages_materialised_;
    }
}

uint64_t GlobalMemory::allocate(uint64_t bytes) {
  if (bytes == 0) bytes = 1;
  if (bytes > capacity_ || allocated_ + bytes > capacity_)
    throw LaunchError(fmt::format("out of device memory: {} bytes requested, {} of {} bytes in use", bytes,
                                  allocated_, capacity_));
  Allocation a;
  a.base = next_free_base(bytes);
  a.size = bytes;
  a.pages.resize((bytes + kPageSize - 1) >> kPageBits);
  next_base_ = (a.base + bytes + kGuard + kAlign - 1) & ~(kAlign - 1);
  allocated_ += bytes;
  uint64_t base = a.base;
  allocs_.emplace(base, std::move(a));
  return base;
}

uint64_t GlobalMemory::next_free_base(uint64_t bytes) {
  // Skip any externally mapped range or reservation (with a guard on both sides) the next
  // base would run into.
  for (;;) {
    const uint64_t lo = next_base_ - kGuard, hi = next_base_ + bytes + kGuard;
    uint64_t end = reserved_end(lo, hi);
    if (const Allocation* in_way = overlapping(lo, hi)) end = std::max(end, in_way->base + in_way->size);
    if (!end) return next_base_;
    next_base_ = (end + kGuard + kAlign - 1) & ~(kAlign - 1);
  }
}

uint64_t GlobalMemory::map_external_anywhere(uint8_t* storage, uint64_t bytes, std::string label) {
  if (bytes == 0 || !storage) return 0;
  const uint64_t base = next_free_base(bytes);
  if (!map_external(base, storage, bytes, std::move(label))) return 0;
  next_base_ = (base + bytes + kGuard + kAlign - 1) & ~(kAlign - 1);
  return base;
}

bool GlobalMemory::share(uint64_t base, uint8_t* storage) {
  auto it = allocs_.find(base);
  if (it == allocs_.end() || !storage) return false;
  Allocation& a = it->second;
  if (a.external || a.physical) return false;
  for (size_t i = 0; i < a.pages.size(); ++i) {
    uint8_t* dst = storage + i * kPageSize;
    if (a.pages[i]) std::memcpy(dst, a.pages[i], std::min<uint64_t>(kPageSize, a.size - i * kPageSize));
  }
  free_pages(a);
  for (size_t i = 0; i < a.pages.size(); ++i) a.pages[i] = storage + i * kPageSize;
  a.external = storage;
  a.shared = true;  // (called between launches: no running block holds one of its old pages)
  return true;
}

bool GlobalMemory::allocate_at(uint64_t base, uint64_t bytes) {
  if (bytes == 0) bytes = 1;
  if (base % kAlign || base < kGuard || base + bytes + kGuard < base) return false;
  if (bytes > capacity_ || allocated_ + bytes > capacity_) return false;
  const uint64_t lo = base - kGuard, hi = base + bytes + kGuard;
  if (overlapping(lo, hi) || reserved_end(lo, hi)) return false;
  Allocation a;
  a.base = base;
  a.size = bytes;
  a.pages.resize((bytes + kPageSize - 1) >> kPageBits);
  next_base_ = std::max(next_base_, (base + bytes + kGuard + kAlign - 1) & ~(kAlign - 1));
  allocated_ += bytes;
  allocs_.emplace(base, std::move(a));
  return true;
}

bool GlobalMemory::map_external(uint64_t base, uint8_t* storage, uint64_t bytes, std::string label) {
  if (bytes == 0 || !storage || base + bytes < base) return false;
  // Only overlap is refused: host ranges may be adjacent, as they are in the program, and
  // device allocations keep their guard from external ranges when they are placed. A
  // reservation (cuMemAddressReserve) is the program's: nothing else goes there.
  if (overlapping(base, base + bytes) || reserved_end(base, base + bytes)) return false;
  Allocation a;
  a.base = base;
  a.size = bytes;
  a.external = storage;
  a.pages.resize((bytes + kPageSize - 1) >> kPageBits);
  for (size_t i = 0; i < a.pages.size(); ++i) a.pages[i] = storage + i * kPageSize;
  a.label = std::move(label);
  allocs_.emplace(base, std::move(a));
  return true;
}

const GlobalMemory::Allocation* GlobalMemory::overlapping(uint64_t lo, uint64_t hi) const {
  auto it = allocs_.lower_bound(lo);
  if (it != allocs_.begin() && std::prev(it)->first + std::prev(it)->second.size > lo) return &std::prev(it)->second;
  if (it != allocs_.end() && it->first < hi) return &it->second;
  return nullptr;
}

bool GlobalMemory::release(uint64_t base) {
  auto it = allocs_.find(base);
  if (it == allocs_.end() || it->second.physical) return false;  // (a mapping goes with unmap)
  if (!it->second.external || it->second.shared) allocated_ -= it->second.size;
  free_pages(it->second);
  allocs_.erase(it);
  ++releases_;
  return true;
}

const GlobalMemory::Allocation* GlobalMemory::find(uint64_t addr, uint64_t n) const {
  auto it = allocs_.upper_bound(addr);
  if (it == allocs_.begin()) return nullptr;
  --it;
  return it->second.contains(addr, n) && it->second.accessible ? &it->second : nullptr;
}

GlobalMemory::Allocation* GlobalMemory::find(uint64_t addr, uint64_t n) {
  return const_cast<Allocation*>(static_cast<const GlobalMemory*>(this)->find(addr, n));
}

const GlobalMemory::Allocation* GlobalMemory::nearest_below(uint64_t addr) const {
  auto it = allocs_.upper_bound(addr);
  if (it == allocs_.begin()) return nullptr;
  return &std::prev(it)->second;
}

std::string GlobalMemory::describe(uint64_t addr, uint64_t n) const {
  auto name = [](const Allocation& a) {
    return a.label.empty() ? fmt::format("the {}-byte allocation at {:#x}", a.size, a.base)
                           : fmt::format("buffer '{}' ({} bytes at {:#x})", a.label, a.size, a.base);
  };
  const Allocation* below = nearest_below(addr);
  if (below && !below->accessible && below->contains(addr, n))
    return fmt::format("inside the {}-byte mapping at {:#x}, which has no access (cuMemSetAccess)", below->size,
                       below->base);
  if (!below || !below->contains(addr, 1)) {
    auto r = reservation(addr, addr + 1);
    if (r != reserved_.end())
      return fmt::format("inside the {}-byte address reservation at {:#x}, where nothing is mapped (cuMemMap)",
                         r->second, r->first);
  }
  if (below) {
    if (below->contains(addr, n)) return fmt::format("inside {}", name(*below));
    if (addr < below->base + below->size) return fmt::format("straddles the end of {}", name(*below));
  }
  // Between allocations: describe the address relative to the closer one.
  auto it = allocs_.upper_bound(addr);
  const Allocation* above = it != allocs_.end() ? &it->second : nullptr;
  const uint64_t past = below ? addr - (below->base + below->size) : UINT64_MAX;
  const uint64_t before = above ? above->base - addr : UINT64_MAX;
  if (below && past <= before) return fmt::format("{} bytes past the end of {}", past, name(*below));
  if (above) return fmt::format("{} bytes before {}", before, name(*above));
  return allocs_.empty() ? "no memory is allocated" : "not inside any allocation";
}

bool GlobalMemory::set_label(uint64_t base, const std::string& label) {
  auto it = allocs_.find(base);
  if (it == allocs_.end()) return false;
  it->second.label = label;
  return true;
}

uint8_t* GlobalMemory::materialise_page(Allocation& a, uint64_t index) {
  uint8_t* p = page(a, index);
  if (p) return p;
  if (a.physical) return materialise_physical(a, index);
  p = new uint8_t[kPageSize]();
  ++pages_materialised_;
  std::atomic_ref<uint8_t*>(a.pages[index]).store(p, std::memory_order_release);
  return p;
}

void GlobalMemory::drop_page(Allocation& a, uint64_t index) {
  uint8_t* p = page(a, index);
  if (a.external || a.physical || !p) return;
  std::atomic_ref<uint8_t*>(a.pages[index]).store(nullptr, std::memory_order_release);
  delete[] p;
  --pages_materialised_;
}

void GlobalMemory::read(const Allocation& a, uint64_t addr, void* dst, uint64_t n) const {
  auto* out = static_cast<uint8_t*>(dst);
  while (n) {
    uint64_t off = addr - a.base;
    uint64_t in_page = std::min<uint64_t>(n, kPageSize - (off & (kPageSize - 1)));
    std::memcpy(out, read_ptr(a, addr), in_page);
    out += in_page;
    addr += in_page;
    n -= in_page;
  }
}

void GlobalMemory::write(Allocation& a, uint64_t addr, const void* src, uint64_t n) {
  auto* in = static_cast<const uint8_t*>(src);
  while (n) {
    uint64_t off = addr - a.base;
    uint64_t in_page = std::min<uint64_t>(n, kPageSize - (off & (kPageSize - 1)));
    std::memcpy(write_ptr(a, addr), in, in_page);
    in += in_page;
    addr += in_page;
    n -= in_page;
  }
}

}  // namespace warpsim::mem
