// A stream-ordered memory pool (cudaMemPool_t) as the driver keeps one: memory is reserved
// from the device in chunks and allocations are placed in them first-fit, so a block freed
// by cudaFreeAsync is what the next allocation of its size on the stream gets. Chunks are
// 32 MiB, or an allocation rounded up to 2 MiB when that is larger: an H100 (driver 580)
// reports 33,554,432 bytes reserved for one 1,000-byte allocation and for 7.3 MB of them
// (tests/750_runtime/programs/mem_pools.expected). "Used" counts the bytes asked for.
// Freed chunks stay reserved until a synchronize finds more reserved than the release
// threshold, or cudaMemPoolTrimTo; only chunks with nothing live in them go back.
// The pool does not own device memory: `reserve`/`unreserve` are the device's malloc/free.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace warpsim::runtime {

class MemPool {
 public:
  static constexpr uint64_t kChunk = uint64_t(32) << 20;
  static constexpr uint64_t kChunkGranularity = uint64_t(2) << 20;
  static constexpr uint64_t kAlign = 256;  // cudaMalloc's alignment; pool blocks keep it
  // The memory reserved for `bytes` (> 0): one chunk, or the bytes in 2 MiB steps if larger.
  static uint64_t chunk_bytes(uint64_t bytes);

  using Reserve = std::function<uint64_t(uint64_t bytes)>;  // device address of a new chunk; throws if none
  using Unreserve = std::function<void(uint64_t base)>;

  // max_bytes: cudaMemPoolProps::maxSize (0: no limit but the device's memory).
  explicit MemPool(uint64_t max_bytes = 0) : max_bytes_(max_bytes) {}

  // An allocation of `bytes` (> 0): in a reserved chunk if one has room, else in a new chunk.
  // nullopt when the pool's maxSize would be passed.
  std::optional<uint64_t> allocate(uint64_t bytes, const Reserve& reserve);
  // Frees the allocation starting at `ptr`; false if the pool has none there.
  bool release(uint64_t ptr);
  bool owns(uint64_t ptr) const;  // the start of a live allocation
  bool reserves(uint64_t ptr) const { return chunk_containing(ptr) != nullptr; }  // anywhere in a chunk
  // The chunk (base, bytes) that `ptr` lies in, if any.
  std::optional<std::pair<uint64_t, uint64_t>> chunk_of(uint64_t ptr) const;
  // Gives back chunks with nothing live in them, newest first, while more than `keep`
  // bytes are reserved.
  void trim(uint64_t keep, const Unreserve& unreserve);
  bool empty() const { return used_ == 0; }

  uint64_t used() const { return used_; }
  uint64_t reserved() const { return reserved_; }
  uint64_t used_high() const { return used_high_; }
  uint64_t reserved_high() const { return reserved_high_; }
  void reset_used_high() { used_high_ = used_; }
  void reset_reserved_high() { reserved_high_ = reserved_; }

  // Settable attributes, kept as the program set them.
  uint64_t release_threshold = 0;
  int reuse_follow_event_dependencies = 1;
  int reuse_allow_opportunistic = 1;
  int reuse_allow_internal_dependencies = 1;
  int access_flags = 3;  // cudaMemAccessFlagsProtReadWrite for the owning device
  // IPC (runtime_ipc_pools.cpp): cudaMemPoolProps::handleTypes of a pool made here (1: its
  // chunks live in a memfd another process may map), or a pool imported from another
  // process (nothing is allocated from it; its pointers come from cudaMemPoolImportPointer).
  int handle_types = 0;
  bool imported = false;

 private:
  struct Chunk {
    uint64_t base = 0, bytes = 0;
    std::map<uint64_t, uint64_t> live;  // offset -> bytes asked for
  };
  const Chunk* chunk_containing(uint64_t ptr) const;

  uint64_t max_bytes_;
  std::vector<Chunk> chunks_;  // in reservation order
  uint64_t used_ = 0, reserved_ = 0, used_high_ = 0, reserved_high_ = 0;
};

}  // namespace warpsim::runtime
