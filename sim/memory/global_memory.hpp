// Sparse, paged device global memory. A multi-GB allocation costs only the pages that
// are written; reads of untouched pages see zeros. Allocations are 2 MiB aligned (so
// every cudaMalloc-style 256-byte alignment holds) and separated by unmapped guard space,
// so an access just past the end of a buffer is an error, never another buffer's data.
// An allocation may instead be backed by storage its owner keeps (map_external: host memory
// mapped into the device's address space, blocks of the device heap): accesses go straight
// to that storage, and it does not count against the capacity.
// Virtual memory management (CUDA's cuMemCreate, cuMemAddressReserve, cuMemMap,
// cuMemSetAccess): a physical allocation is storage without an address, counted against the
// capacity; a reservation is address space nothing else is placed in; a mapping is an
// allocation inside a reservation whose pages are a physical allocation's (two mappings of
// one physical allocation see the same bytes). A mapping starts without access (find() does
// not return it) until set_access grants it. A physical allocation lives until its last
// handle is released and its last mapping is unmapped.
#pragma once
#include <atomic>
#include <cstdint>
#include <cstring>
#include <functional>
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
    uint64_t physical = 0;                           // a mapping's physical allocation (0: not a mapping)
    bool shared = false;                             // an owned allocation moved into `external` by share()
    bool accessible = true;                          // false: a mapping without access (find() skips it)
    bool contains(uint64_t addr, uint64_t n) const { return addr >= base && addr - base + n <= size; }
  };

  GlobalMemory();
  ~GlobalMemory();
  GlobalMemory(const GlobalMemory&) = delete;
  GlobalMemory& operator=(const GlobalMemory&) = delete;

  uint64_t allocate(uint64_t bytes);        // throws LaunchError("out of memory") above the limit
  // An allocation at `base` (kAlign-aligned), with its guard free; false, with nothing
  // changed, where that space is taken or the capacity would be passed.
  bool allocate_at(uint64_t base, uint64_t bytes);
  bool release(uint64_t base);              // false if base is not a live allocation
  // Makes [base, base + bytes) an allocation backed by `storage` (which must outlive it).
  // False, with nothing changed, if the range is empty, wraps or overlaps a live allocation.
  bool map_external(uint64_t base, uint8_t* storage, uint64_t bytes, std::string label);
  // Maps `storage` (which must outlive the mapping) wherever allocate() would place an
  // allocation of `bytes`, not counted against the capacity; returns its base, 0 if none fits.
  uint64_t map_external_anywhere(uint8_t* storage, uint64_t bytes, std::string label);
  // Moves the contents of the owned allocation at `base` into `storage` (at least its size,
  // zero-filled, outliving the allocation) and keeps its bytes there from now on: another
  // process mapping the same storage sees them (CUDA IPC). It still counts against the
  // capacity and is released as before. False, changing nothing, if `base` is not the start
  // of an owned allocation.
  bool share(uint64_t base, uint8_t* storage);
  uint64_t bytes_allocated() const { return allocated_; }

  // Virtual memory management (above). Sizes and addresses are multiples of kAlign (the
  // granularity CUDA reports). Each returns "" or why it refused, changing nothing then.
  static constexpr uint64_t kGranularity = kAlign;
  // A physical allocation of `bytes` (id > 0 in `id`); refuses above the capacity.
  std::string create_physical(uint64_t bytes, uint64_t* id);
  // A physical allocation whose bytes live in `storage` (`bytes` long, outliving it; CUDA's
  // shareable allocations, kept in a file another process maps): its pages point there, and
  // `release` runs when it is freed. `counted`: against the capacity (false for memory
  // another process exported).
  std::string create_physical_external(uint64_t bytes, uint8_t* storage, std::function<void()> release, bool counted,
                                       uint64_t* id);
  // Drops one handle to it: the storage goes with the last handle and mapping.
  std::string release_physical(uint64_t id);
  // One more handle to a physical allocation that is mapped or has a handle
  // (cuMemRetainAllocationHandle).
  std::string retain_physical(uint64_t id);
  uint64_t physical_bytes(uint64_t id) const;  // 0: no such live handle
  // Reserves `bytes` of address space aligned to `alignment` (0: kAlign), at `hint` where it
  // is free and aligned, else where the allocator places the next allocation.
  std::string reserve(uint64_t bytes, uint64_t alignment, uint64_t hint, uint64_t* base);
  // Frees a whole reservation (exactly as reserved) that holds no mapping.
  std::string unreserve(uint64_t base, uint64_t bytes);
  // Maps the first `bytes` of physical allocation `id` at `base`, inside one reservation,
  // over nothing already mapped; without access.
  std::string map_physical(uint64_t base, uint64_t bytes, uint64_t id);
  // Unmaps every mapping in [base, base+bytes), which must be whole mappings end to end.
  std::string unmap(uint64_t base, uint64_t bytes);
  // Grants (true) or removes access to the mappings that make up [base, base+bytes) exactly.
  std::string set_access(uint64_t base, uint64_t bytes, bool accessible);
  bool in_reservation(uint64_t addr) const;
  // The mapping containing `addr` whatever its access, or null.
  const Allocation* mapping_at(uint64_t addr) const;
  // Whether some physical allocation is mapped more than once (its bytes have two addresses).
  bool has_aliased_mappings() const;
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

  // From `addr` to the end of the accessible memory it lies in: its allocation, and for a
  // mapping the accessible mappings that follow it end to end (0: addr is in none).
  uint64_t accessible_from(uint64_t addr) const;

  uint64_t pages_materialised() const { return pages_materialised_; }
  // How many allocations were ever released: a cached Allocation pointer is valid only while
  // this is unchanged (kernels free device-heap blocks during a launch).
  uint64_t releases() const { return releases_; }

 private:
  // The lowest live allocation overlapping [lo, hi), or null.
  const Allocation* overlapping(uint64_t lo, uint64_t hi) const;
  // Where allocate() puts the next `bytes` (clear of mappings and reservations, with guards).
  uint64_t next_free_base(uint64_t bytes);
  void free_pages(Allocation& a);

  struct Physical {
    uint64_t bytes = 0;
    std::vector<uint8_t*> pages;  // materialised on first write through any mapping
    std::vector<uint64_t> mapped_at;  // bases of its mappings
    uint32_t handles = 1;             // handles the program holds (cuMemCreate, cuMemRetain...)
    std::function<void()> release;    // external storage (create_physical_external): gives it back
    bool counted = true;              // against the capacity
  };
  // The reservation containing [lo, hi), or reserved_.end().
  std::map<uint64_t, uint64_t>::const_iterator reservation(uint64_t lo, uint64_t hi) const;
  // The end of the highest reservation overlapping [lo, hi), or 0 if none does.
  uint64_t reserved_end(uint64_t lo, uint64_t hi) const;
  void free_physical_if_unused(uint64_t id);
  // A physical allocation of `bytes` with no storage yet; `counted` against the capacity.
  std::string new_physical(uint64_t bytes, bool counted, uint64_t* id);
  uint8_t* materialise_physical(const Allocation& a, uint64_t index);

  std::map<uint64_t, Allocation> allocs_;  // by base
  std::map<uint64_t, Physical> physical_;  // by id
  std::map<uint64_t, uint64_t> reserved_;  // reservations: base -> bytes
  uint64_t next_physical_ = 1;
  std::unique_ptr<uint8_t[]> zero_page_;
  uint64_t next_base_ = kFirstBase;
  uint64_t allocated_ = 0;
  uint64_t capacity_ = uint64_t(6) << 30;
  uint64_t pages_materialised_ = 0;
  uint64_t releases_ = 0;
};

}  // namespace warpsim::mem
