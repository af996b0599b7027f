#include "sim/memory/device_heap.hpp"

#include <cstdlib>
#include <iterator>
#include <new>

namespace warpsim::mem {

void DeviceHeap::FreeStorage::operator()(uint8_t* p) const { std::free(p); }

DeviceHeap::~DeviceHeap() = default;

bool DeviceHeap::set_limit(uint64_t bytes) {
  if (in_use()) return false;
  limit_ = bytes;
  return true;
}

uint64_t DeviceHeap::allocate(uint64_t bytes) {
  if (bytes > limit_) return 0;
  if (!storage_) {
    if (limit_ == 0) return 0;
    // calloc: zero pages the host maps on first touch, so what a block holds before the
    // kernel writes it is the same in every run.
    storage_.reset(static_cast<uint8_t*>(std::calloc(limit_, 1)));
    if (!storage_) throw std::bad_alloc();
    free_.emplace(0, limit_);
  }
  const uint64_t visible = bytes == 0 ? 1 : bytes;
  const uint64_t rounded = (visible + kAlign - 1) / kAlign * kAlign;
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    // A block is followed by a gap, except at the very end of the heap.
    const bool at_end = it->first + it->second == limit_;
    if (it->second < rounded + kAlign && !(at_end && it->second >= rounded)) continue;
    const uint64_t off = it->first;
    const uint64_t take = std::min(rounded + kAlign, it->second);
    const uint64_t rest = it->second - take;
    // The heap's address range is the device's: if an allocation was ever placed there
    // (after terabytes of cudaMalloc address space), this block cannot be had.
    if (!gmem_.map_external(kBase + off, storage_.get() + off, visible, "device malloc block")) return 0;
    free_.erase(it);
    if (rest) free_.emplace(off + take, rest);
    used_.emplace(off, take);
    return kBase + off;
  }
  return 0;
}

bool DeviceHeap::release(uint64_t addr) {
  if (addr == 0) return true;
  if (addr < kBase) return false;
  auto it = used_.find(addr - kBase);
  if (it == used_.end()) return false;
  uint64_t off = it->first, len = it->second;
  used_.erase(it);
  gmem_.release(addr);
  // Coalesce with the free neighbours.
  auto next = free_.lower_bound(off);
  if (next != free_.end() && next->first == off + len) {
    len += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == off) {
      prev->second += len;
      return true;
    }
  }
  free_.emplace(off, len);
  return true;
}

}  // namespace warpsim::mem
