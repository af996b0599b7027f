// GlobalMemory's virtual memory management: physical allocations, reservations, mappings
// and their access (global_memory.hpp).
#include <fmt/format.h>

#include <algorithm>

#include "sim/memory/global_memory.hpp"

namespace warpsim::mem {

namespace {

bool granular(uint64_t v) { return v % GlobalMemory::kGranularity == 0; }

}  // namespace

std::string GlobalMemory::create_physical(uint64_t bytes, uint64_t* id) { return new_physical(bytes, true, id); }

std::string GlobalMemory::new_physical(uint64_t bytes, bool counted, uint64_t* id) {
  if (!bytes || !granular(bytes))
    return fmt::format("size {} is not a non-zero multiple of the granularity ({} bytes)", bytes, kGranularity);
  if (counted && (bytes > capacity_ || allocated_ + bytes > capacity_))
    return fmt::format("out of device memory: {} bytes requested, {} of {} bytes in use", bytes, allocated_,
                       capacity_);
  Physical ph;
  ph.bytes = bytes;
  ph.pages.resize(bytes >> kPageBits);
  ph.counted = counted;
  if (counted) allocated_ += bytes;
  *id = next_physical_++;
  physical_.emplace(*id, std::move(ph));
  return "";
}

std::string GlobalMemory::create_physical_external(uint64_t bytes, uint8_t* storage, std::function<void()> release,
                                                   bool counted, uint64_t* id) {
  if (!storage) return "no storage";
  if (std::string why = new_physical(bytes, counted, id); !why.empty()) return why;
  Physical& ph = physical_.at(*id);
  for (size_t i = 0; i < ph.pages.size(); ++i) ph.pages[i] = storage + i * kPageSize;
  ph.release = std::move(release);
  return "";
}

uint64_t GlobalMemory::physical_bytes(uint64_t id) const {
  auto it = physical_.find(id);
  return it == physical_.end() || !it->second.handles ? 0 : it->second.bytes;
}

void GlobalMemory::free_physical_if_unused(uint64_t id) {
  auto it = physical_.find(id);
  if (it == physical_.end() || it->second.handles || !it->second.mapped_at.empty()) return;
  if (!it->second.release) {
    for (uint8_t* p : it->second.pages)
      if (p) {
        delete[] p;
        --pages_materialised_;
      }
  }
  if (it->second.counted) allocated_ -= it->second.bytes;
  std::function<void()> release = std::move(it->second.release);
  physical_.erase(it);
  if (release) release();  // its storage's owner lets it go
}

std::string GlobalMemory::release_physical(uint64_t id) {
  auto it = physical_.find(id);
  if (it == physical_.end() || !it->second.handles) return fmt::format("{:#x} is not a live allocation handle", id);
  --it->second.handles;
  free_physical_if_unused(id);
  return "";
}

std::string GlobalMemory::retain_physical(uint64_t id) {
  auto it = physical_.find(id);
  if (it == physical_.end()) return fmt::format("{:#x} is not a live allocation", id);
  ++it->second.handles;
  return "";
}

std::map<uint64_t, uint64_t>::const_iterator GlobalMemory::reservation(uint64_t lo, uint64_t hi) const {
  auto r = reserved_.upper_bound(lo);
  if (r == reserved_.begin()) return reserved_.end();
  --r;
  return lo >= r->first && hi <= r->first + r->second ? r : reserved_.end();
}

uint64_t GlobalMemory::reserved_end(uint64_t lo, uint64_t hi) const {
  auto r = reserved_.lower_bound(hi);
  if (r == reserved_.begin()) return 0;
  const uint64_t end = std::prev(r)->first + std::prev(r)->second;
  return end > lo ? end : 0;
}

std::string GlobalMemory::reserve(uint64_t bytes, uint64_t alignment, uint64_t hint, uint64_t* base) {
  if (!bytes || !granular(bytes))
    return fmt::format("size {} is not a non-zero multiple of the granularity ({} bytes)", bytes, kGranularity);
  if (alignment & (alignment - 1)) return fmt::format("alignment {} is not a power of two", alignment);
  const uint64_t align = std::max(alignment, kAlign);
  // Device addresses stay below 2^47, as a GPU's virtual addresses do.
  constexpr uint64_t kTop = uint64_t(1) << 47;
  if (bytes > kTop) return fmt::format("size {} is larger than the address space", bytes);
  auto free_at = [&](uint64_t b) {
    return b >= kFirstBase && b % align == 0 && b + bytes <= kTop && !overlapping(b - kGuard, b + bytes + kGuard) &&
           !reserved_end(b, b + bytes);
  };
  uint64_t b = hint;
  if (!hint || !free_at(hint)) {
    b = (next_base_ + align - 1) & ~(align - 1);
    while (!free_at(b)) {
      b += align;
      if (b + bytes > kTop) return fmt::format("no free {}-byte range of addresses", bytes);
    }
    next_base_ = (b + bytes + kGuard + kAlign - 1) & ~(kAlign - 1);
  }
  reserved_.emplace(b, bytes);
  *base = b;
  return "";
}

std::string GlobalMemory::unreserve(uint64_t base, uint64_t bytes) {
  auto r = reserved_.find(base);
  if (r == reserved_.end() || r->second != bytes)
    return fmt::format("[{:#x}, +{}) is not an address range cuMemAddressReserve returned", base, bytes);
  if (overlapping(base, base + bytes))
    return fmt::format("the reservation at {:#x} still has memory mapped in it (cuMemUnmap first)", base);
  reserved_.erase(r);
  return "";
}

std::string GlobalMemory::map_physical(uint64_t base, uint64_t bytes, uint64_t id) {
  auto ph = physical_.find(id);
  if (ph == physical_.end() || !ph->second.handles) return fmt::format("{:#x} is not a live allocation handle", id);
  if (!bytes || !granular(bytes) || !granular(base))
    return fmt::format("address {:#x} and size {} must be multiples of the granularity ({} bytes)", base, bytes,
                       kGranularity);
  if (bytes > ph->second.bytes)
    return fmt::format("size {} is larger than the allocation ({} bytes)", bytes, ph->second.bytes);
  if (base + bytes < base || reservation(base, base + bytes) == reserved_.end())
    return fmt::format("[{:#x}, +{}) is not inside one address reservation (cuMemAddressReserve)", base, bytes);
  if (const Allocation* in_way = overlapping(base, base + bytes))
    return fmt::format("[{:#x}, +{}) overlaps the mapping at {:#x}", base, bytes, in_way->base);
  Allocation a;
  a.base = base;
  a.size = bytes;
  a.physical = id;
  a.accessible = false;
  a.pages.assign(ph->second.pages.begin(), ph->second.pages.begin() + static_cast<std::ptrdiff_t>(bytes >> kPageBits));
  ph->second.mapped_at.push_back(base);
  allocs_.emplace(base, std::move(a));
  return "";
}

namespace {

// The mappings that make up [base, base+bytes) end to end, or why not.
template <class Map, class Out>
std::string whole_mappings(Map& allocs, uint64_t base, uint64_t bytes, Out& out) {
  uint64_t at = base;
  while (at < base + bytes) {
    auto it = allocs.find(at);
    if (it == allocs.end() || !it->second.physical)
      return at == base ? fmt::format("nothing is mapped at {:#x}", at)
                        : fmt::format("[{:#x}, +{}) is not mapped end to end: nothing starts at {:#x}", base, bytes,
                                      at);
    out.push_back(&it->second);
    at += it->second.size;
  }
  if (at != base + bytes || bytes == 0)
    return fmt::format("[{:#x}, +{}) does not end where a mapping ends ({:#x})", base, bytes, at);
  return "";
}

}  // namespace

std::string GlobalMemory::unmap(uint64_t base, uint64_t bytes) {
  std::vector<Allocation*> maps;
  if (std::string why = whole_mappings(allocs_, base, bytes, maps); !why.empty()) return why;
  for (Allocation* a : maps) {
    const uint64_t id = a->physical, at = a->base;
    auto& bases = physical_.at(id).mapped_at;
    bases.erase(std::find(bases.begin(), bases.end(), at));
    allocs_.erase(at);
    free_physical_if_unused(id);
  }
  ++releases_;
  return "";
}

std::string GlobalMemory::set_access(uint64_t base, uint64_t bytes, bool accessible) {
  std::vector<Allocation*> maps;
  if (std::string why = whole_mappings(allocs_, base, bytes, maps); !why.empty()) return why;
  for (Allocation* a : maps) a->accessible = accessible;
  if (!accessible) ++releases_;  // cached allocation pointers must look again
  return "";
}

bool GlobalMemory::in_reservation(uint64_t addr) const { return reservation(addr, addr + 1) != reserved_.end(); }

const GlobalMemory::Allocation* GlobalMemory::mapping_at(uint64_t addr) const {
  const Allocation* a = nearest_below(addr);
  return a && a->physical && a->contains(addr, 1) ? a : nullptr;
}

bool GlobalMemory::has_aliased_mappings() const {
  return std::any_of(physical_.begin(), physical_.end(), [](const auto& p) { return p.second.mapped_at.size() > 1; });
}

uint64_t GlobalMemory::accessible_from(uint64_t addr) const {
  const Allocation* a = find(addr, 1);
  if (!a) return 0;
  uint64_t end = a->base + a->size;
  while (a->physical) {
    auto next = allocs_.find(end);
    if (next == allocs_.end() || !next->second.physical || !next->second.accessible) break;
    a = &next->second;
    end += a->size;
  }
  return end - addr;
}

uint8_t* GlobalMemory::materialise_physical(const Allocation& a, uint64_t index) {
  // Every mapping of the physical allocation maps it from its start, so page `index` is the
  // same page in each.
  Physical& ph = physical_.at(a.physical);
  uint8_t* p = ph.pages[index];
  if (!p) {
    p = new uint8_t[kPageSize]();
    ++pages_materialised_;
    ph.pages[index] = p;
  }
  for (uint64_t at : ph.mapped_at) {
    Allocation& m = allocs_.at(at);
    if (index < m.pages.size()) std::atomic_ref<uint8_t*>(m.pages[index]).store(p, std::memory_order_release);
  }
  return p;
}

}  // namespace warpsim::mem
