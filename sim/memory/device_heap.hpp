// The device heap behind malloc/free (and new/delete) in kernels. Blocks come from one
// region of cudaLimitMallocHeapSize bytes (8 MiB by default, as on CUDA devices), first fit
// by address, 16-byte aligned as CUDA guarantees, with 16 bytes between blocks. Each block is
// its own global-memory allocation of exactly the size asked for, so running off its end is
// an out-of-bounds access naming the block. Blocks outlive the launch that allocated them;
// when no free range is large enough, malloc returns 0 (NULL), as CUDA's does. Everything
// is deterministic: the same calls in the same order give the same addresses.
#pragma once
#include <cstdint>
#include <map>
#include <memory>

#include "sim/memory/global_memory.hpp"

namespace warpsim::mem {

class DeviceHeap {
 public:
  static constexpr uint64_t kBase = uint64_t(0x0800) << 32;  // device address of the heap region
  static constexpr uint64_t kDefaultLimit = uint64_t(8) << 20;
  static constexpr uint64_t kAlign = 16;

  explicit DeviceHeap(GlobalMemory& gmem) : gmem_(gmem) {}
  ~DeviceHeap();
  DeviceHeap(const DeviceHeap&) = delete;
  DeviceHeap& operator=(const DeviceHeap&) = delete;

  // cudaLimitMallocHeapSize. False (nothing changed) once a kernel has called malloc.
  bool set_limit(uint64_t bytes);
  uint64_t limit() const { return limit_; }
  bool in_use() const { return storage_ != nullptr; }

  // A block of `bytes` (0 is a valid size and gets a distinct block), or 0 if none fits.
  uint64_t allocate(uint64_t bytes);
  // Frees the block starting at `addr`; 0 is a no-op. False if addr is not a live block's start.
  bool release(uint64_t addr);
  uint64_t blocks() const { return used_.size(); }
  bool owns(uint64_t addr) const { return addr >= kBase && used_.count(addr - kBase) != 0; }

 private:
  GlobalMemory& gmem_;
  uint64_t limit_ = kDefaultLimit;
  struct FreeStorage {
    void operator()(uint8_t* p) const;
  };
  std::unique_ptr<uint8_t, FreeStorage> storage_;  // zeroed on first use
  std::map<uint64_t, uint64_t> free_;  // offset -> length of free ranges, coalesced
  std::map<uint64_t, uint64_t> used_;  // offset -> length taken (block plus gap)
};

}  // namespace warpsim::mem
