// The memory pipeline of a functional run: counts global/local transactions (coalescer),
// shared-memory passes and bank conflicts (bank model) and cache hits (L1 per SM, L2
// slices, without timing), for the whole launch and per instruction. In functional mode
// blocks run one after another, block b on SM b mod SMs (or on entry b mod SMs of the
// launch's first-pass order, place_blocks), so cache hit rates reflect that order rather
// than the interleaving of a timed run.
#pragma once
#include <memory>
#include <vector>

#include "sim/spec/device_spec.hpp"
#include "sim/foundation/launch_stats.hpp"
#include "sim/memory/memory_observer.hpp"
#include "sim/memory/shared_pattern_tally.hpp"
#include "sim/memory/address_map.hpp"
#include "sim/memory/cache.hpp"
#include "sim/memory/cache_replay.hpp"
#include "sim/memory/coalescer.hpp"

namespace warpsim {

class MemoryCounter final : public MemoryObserver {
 public:
  // `model_caches`: run the functional L1/L2 (functional mode); a timed run models the
  // caches in its memory system instead and only counts transactions here.
  // `kept_l2` (optional, with model_caches): L2 slices that keep their contents from the
  // device's earlier launches (empty: made here; their counts restart either way). The
  // L1s start empty at every launch, as on hardware. `reused_l1` (optional, with
  // model_caches): the L1s of an earlier launch with this spec's L1 (empty: made here), so
  // that a launch does not build one per SM again: each one the earlier launch used is made
  // anew, so every launch starts with empty L1s either way.
  MemoryCounter(const DeviceSpec& spec, LaunchStats& stats, uint32_t threads_per_block, uint64_t grid_threads,
                bool model_caches = true, std::vector<mem::Cache>* kept_l2 = nullptr,
                std::vector<mem::Cache>* reused_l1 = nullptr);
  // Applies the accesses still waiting for the caches (a launch that stopped with a fault
  // leaves the caches, and the L2 kept for the next launch, as an inline run would).
  ~MemoryCounter() override;
  MemoryCounter(const MemoryCounter&) = delete;
  MemoryCounter& operator=(const MemoryCounter&) = delete;

  void on_access(const mem::WarpMemAccess& access, const isa::Instr& instr, uint32_t pc, uint32_t block,
                 uint32_t warp) override;
  // The bank model's memo for full-warp 32-bit loads, for the executor to count repeats
  // of a known pattern with (none while a warp is traced).
  SharedPatternTally* shared_pattern_tally() override { return &tally_; }

  // Runs the caches on a host thread of their own (cache_replay.hpp): the same counts, and
  // the executing thread does not wait for them. Call before the first access.
  void replay_caches_on_thread();
  // A counter without caches of its own (model_caches false) that is to hand its cache
  // accesses on: they go to `log`, in order, instead of nowhere (parallel functional
  // blocks: each thread's share is applied later, in block order, by apply_cache_log).
  void log_caches_to(mem::CacheLog* log) { cache_log_ = log; }
  // Whether this counter runs caches (a functional launch's, on a device with L1 or L2).
  bool models_caches() const { return model_caches_ && (spec_.has_l1 || spec_.has_l2); }
  // Applies logged accesses to this counter's caches (inline, or through the cache thread).
  void apply_cache_log(const mem::CacheLog& log);
  // Copies the cache statistics into the launch's MemStats (after the cache thread, if
  // any, applied every access; rethrows what it threw).
  void finish();
  // L2 access control for this launch's functional L2 (l2_access_policy.hpp).
  void set_l2_access_policy(const mem::L2AccessPolicy& policy) {
    for (mem::Cache& slice : l2_) slice.set_access_policy(policy);
  }

  // Records the memory instructions of these warps into stats.traces (at most `limit` each).
  void trace_warps(const std::vector<std::pair<uint32_t, uint32_t>>& block_warp, uint32_t limit);
  // The trace record the last on_access() wrote, or null: (trace index, record index).
  bool last_trace(uint32_t& trace, uint32_t& record) const {
    trace = last_trace_;
    record = last_record_;
    return last_trace_ != UINT32_MAX;
  }

  // Block b's accesses use the L1 of SM (*order)[b mod SMs] (engine/block_placement.hpp;
  // null or empty, the default: SM b mod SMs). `order` must outlive the counter's use.
  void place_blocks(const std::vector<uint32_t>* order) { block_order_ = order; }

  // The transactions of the last global/local access (valid until the next call).
  const std::vector<mem::Transaction>& last_transactions() const { return txns_; }
  // The wavefronts of the last shared-memory access.
  uint32_t last_shared_passes() const { return last_passes_; }

 private:
  void count_shared(const mem::WarpMemAccess& a, uint32_t pc);
  // Adds one shared access's passes and conflicts to the launch's and pc's counts.
  void add_shared_counts(mem::AccessKind kind, uint32_t pc, uint32_t passes, uint32_t conflicts, uint32_t degree);
  void count_global(const mem::WarpMemAccess& a, uint32_t pc, uint32_t block, uint32_t warp);
  // One access's transactions through the L1 (if a.use_l1) and the L2 slices.
  void through_caches(const mem::CacheAccess& a, const mem::Transaction* txns);
  // The accesses of `log` through the caches, in order, each one's tag sets prefetched
  // kLookahead accesses before it is applied: a large L2's (and many L1s') tags miss the
  // host's caches, and so their loads overlap instead of following one another. The
  // counts are those of applying them one by one.
  void apply_in_order(const mem::CacheLog& log);
  static constexpr size_t kLookahead = 8;
  // Only where the caches' tag state is larger than a host core's own caches hold: the
  // H100 config's (about 15 MB), not the C2070's (about 0.3 MB). kTagBytesPerWay: a way's
  // CacheLine and key, near enough.
  static constexpr uint64_t kTagBytesPerWay = 32, kPrefetchTagBytes = uint64_t(2) << 20;
  bool prefetch_tags_ = true;
  // Serial runs: accesses wait in pending_ until kPendingAccesses are there (or finish(),
  // a cache log or the destructor needs them applied), then apply_in_order.
  void apply_pending();
  static constexpr size_t kPendingAccesses = 256;
  // Starts loading the tag sets of the transactions' lines into the host's caches, so
  // that their misses overlap (a hint: counts nothing).
  void prefetch_sets(const mem::CacheAccess& a, const mem::Transaction* txns) const;
  void l2_access(uint64_t addr, uint32_t sectors, mem::AccessType type, uint32_t sm);

  // The last shared access of each instruction: most instructions repeat one lane pattern
  // (addresses relative to the first active lane) in every warp, and the bank-conflict
  // result depends only on that pattern (a uniform offset only rotates the banks).
  struct SharedMemo {
    bool valid = false;
    uint32_t mask = 0;
    uint8_t kind = 0, bytes = 0;
    int64_t delta[32] = {};
    uint64_t pattern = 0;  // the access's WarpMemAccess::pattern (0: none)
    uint32_t passes = 0, conflicts = 0, degree = 0;
  };
  std::vector<SharedMemo> shared_memo_;

  // A full warp's global accesses at one pc usually repeat one lane pattern, and their
  // transactions depend only on that pattern and on where lane 0 lies within the rules'
  // largest aligned unit (memo_align_): the same access moved by a multiple of it has the
  // same transactions moved by as much. Two per pc (a tiled kernel's row operand
  // alternates between two places in its 128-byte lines), made at a pc's first global
  // access.
  struct GlobalMemo {
    bool valid = false;
    uint8_t kind = 0, elem_bytes = 0, vec = 0, cache = 0;
    bool is_volatile = false, texture = false;
    uint64_t lane0 = 0;
    int64_t min_delta = 0;
    int64_t delta[32] = {};
    std::vector<mem::Transaction> txns;
  };
  struct GlobalMemoPair {
    GlobalMemo slot[2];
    uint8_t next = 0;  // the slot a miss replaces
  };
  // txns_ for a full warp's global access: from a memo of `pc` that holds its pattern, or
  // coalesced (and kept in one).
  void coalesce_full_warp(const mem::WarpMemAccess& a, uint32_t pc);
  std::vector<uint32_t> global_memo_index_;  // per pc: into global_memos_ (UINT32_MAX: none yet)
  std::vector<GlobalMemoPair> global_memos_;
  uint64_t memo_align_ = 128;  // mem::largest_unit_bytes of the coalescer

  const DeviceSpec& spec_;
  const std::vector<uint32_t>* block_order_ = nullptr;
  LaunchStats& stats_;
  uint32_t threads_per_block_;
  uint64_t grid_threads_;
  bool model_caches_;
  uint32_t last_passes_ = 0;
  uint32_t last_degree_ = 0;
  uint32_t trace_limit_ = 0;
  uint32_t last_trace_ = UINT32_MAX, last_record_ = 0;
  void record_trace(const mem::WarpMemAccess& a, uint32_t pc, uint32_t block, uint32_t warp);
  std::vector<mem::Transaction> txns_;
  mem::WarpMemAccess local_view_;
  std::shared_ptr<const mem::AddressMap> map_;
  std::vector<mem::Cache> own_l1_;
  std::vector<mem::Cache>& l1_;
  std::vector<mem::Cache> own_l2_;
  std::vector<mem::Cache>& l2_;
  SharedPatternTally tally_;  // what shared_memo_ holds for full-warp 32-bit loads
  mem::CacheLog pending_;
  // Last: destroyed first, so it finishes with the caches while they exist.
  std::unique_ptr<mem::CacheReplay> replay_;
  mem::CacheLog* cache_log_ = nullptr;
};

}  // namespace warpsim
