// Sparse, paged device global memory. A multi-GB allocation costs only the pages that
// are written; reads of untouched pages see zeros. Allocations are 2 MiB aligned (so
// every cudaMalloc-style 256-byte alignment holds) and separated by unmapped guard space,
// so an access just past the end of a buffer is an error, never another buffer's data.
// An allocation may instead be backed by storage its owner keeps (map_external: host memory
// mapped into the device's address space, blocks of the device heap): accesses go straight
// to that storage, and it does not count against the capacity.
#pragma once
#include <atomic>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <memory>
#include <vector>

namespace warpsim::mem {

class GlobalMemory {
 public:
  static constexpr uint64_t kPageBits = 16;  // 64 KiB pages
  static constexpr uint64_t kPageSize = uint64_t(1) << kPageBits;
  static constexpr uint64_t kFirstBase = uint64_t(1) << 36;  // first allocation at 64 GiB
  static constexpr uint64_t kAlign = uint64_t(2) << 20;      // 2 MiB
  static constexpr uint64_t kGuard = uint64_t(2) << 20;

  struct Allocation {
    uint64_t base = 0;
    uint64_t size = 0;
    // Page i's bytes. Owned pages are null until first written (the GlobalMemory frees
    // them); an external allocation's pages point into its owner's storage.
    std::vector<uint8_t*> pages;
    std::string label;                               // e.g. the launch spec's buffer name
    uint8_t* external = nullptr;                     // map_external's storage (pages point into it)
    bool contains(uint64_t addr, uint64_t n) const { return addr >= base && addr - base + n <= size; }
  };

  GlobalMemory();
  ~GlobalMemory();
  GlobalMemory(const GlobalMemory&) = delete;
  GlobalMemory& operator=(const GlobalMemory&) = delete;

  uint64_t allocate(uint64_t bytes);        // throws LaunchError("out of memory") above the limit
  bool release(uint64_t base);              // false if base is not a live allocation
  // Makes [base, base + bytes) an allocation backed by `storage` (which must outlive it).
  // False, with nothing changed, if the range is empty, wraps or overlaps a live allocation.
  bool map_external(uint64_t base, uint8_t* storage, uint64_t bytes, std::string label);
  uint64_t bytes_allocated() const { return allocated_; }
  void set_capacity(uint64_t bytes) { capacity_ = bytes; }
  uint64_t capacity() const { return capacity_; }

  // The live allocation containing [addr, addr+n), or null.
  const Allocation* find(uint64_t addr, uint64_t n) const;
  Allocation* find(uint64_t addr, uint64_t n);
  // The live allocation with the greatest base <= addr (for error messages), or null.
  const Allocation* nearest_below(uint64_t addr) const;
  // Describes where addr lies relative to the allocations ("12 bytes past the end of ...").
  std::string describe(uint64_t addr, uint64_t n) const;
  bool set_label(uint64_t base, const std::string& label);

  // Byte access within one allocation (the caller checked bounds). Page-crossing safe.
  void read(const Allocation& a, uint64_t addr, void* dst, uint64_t n) const;
  void write(Allocation& a, uint64_t addr, const void* src, uint64_t n);

  // Fast path for aligned accesses of <= 16 bytes (never page-crossing when aligned).
  // A page pointer is read and set through atomic_ref (plain moves on x86): while blocks run
  // on several threads (engine/functional_parallel), one thread may read a page pointer
  // that another sets under the page snapshot's lock.
  const uint8_t* read_ptr(const Allocation& a, uint64_t addr) const {
    uint64_t off = addr - a.base;
    const uint8_t* p = page(a, off >> kPageBits);
    return p ? p + (off & (kPageSize - 1)) : zero_page_.get();
  }
  uint8_t* write_ptr(Allocation& a, uint64_t addr) {
    uint64_t off = addr - a.base;
    uint8_t* p = page(a, off >> kPageBits);
    if (!p) p = materialise_page(a, off >> kPageBits);
    return p + (off & (kPageSize - 1));
  }
  static uint8_t* page(const Allocation& a, uint64_t index) {
    return std::atomic_ref<uint8_t* const>(a.pages[index]).load(std::memory_order_acquire);
  }
  // Page `index` of `a`, zero-filled if it had no storage yet.
  uint8_t* materialise_page(Allocation& a, uint64_t index);
  // Gives page `index` of an owned allocation its storage back (reads see zeros again).
  void drop_page(Allocation& a, uint64_t index);

  uint64_t pages_materialised() const { return pages_materialised_; }
  // How many allocations were ever released: a cached Allocation pointer is valid only while
  // this is unchanged (kernels free device-heap blocks during a launch).
  uint64_t releases() const { return releases_; }

 private:
  // The lowest live allocation overlapping [lo, hi), or null.
  const Allocation* overlapping(uint64_t lo, uint64_t hi) const;
  void free_pages(Allocation& a);

  std::map<uint64_t, Allocation> allocs_;  // by base
  std::unique_ptr<uint8_t[]> zero_page_;
  uint64_t next_base_ = kFirstBase;
  uint64_t allocated_ = 0;
  uint64_t capacity_ = uint64_t(6) << 30;
  uint64_t pages_materialised_ = 0;
  uint64_t releases_ = 0;
};

}  // namespace warpsim::mem
