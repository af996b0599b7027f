// The timed memory hierarchy behind the SMs: per-SM load/store queues and L1 caches,
// the interconnect, memory partitions with L2 slices, and the DRAM channels. Components
// are wired here and only here.
//
// Contract: an SM submits the transactions of one warp memory instruction (after the
// coalescer) with a token; when every read/atomic transaction of it has its data back,
// a MemResponse with that token appears in responses() (tokens of stores are never
// answered). tick(now) advances everything by one SM cycle; next_event(now) is the
// earliest cycle at which tick can do anything (for idle skipping). Nothing is dropped:
// every queue is bounded and applies back-pressure to the one before it.
//
// One memory system may serve many launches (a device that keeps its caches and DRAM
// state from one kernel to the next, as hardware does): begin_launch()/end_launch()
// bracket each. Every cycle passed in counts from the current launch's start; inside, one
// clock runs on across launches, so DRAM timing, refresh and open rows carry over.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <queue>
#include <vector>

#include "sim/spec/device_spec.hpp"
#include "sim/foundation/launch_stats.hpp"
#include "sim/memory/address_map.hpp"
#include "sim/memory/cache.hpp"
#include "sim/memory/coalescer.hpp"
#include "sim/memory/dram_system.hpp"
#include "sim/memory/interconnect.hpp"
#include "sim/memory/l2_access_policy.hpp"
#include "sim/memory/mem_access.hpp"

namespace warpsim::mem {

struct MemResponse {
  uint32_t sm = 0;
  uint64_t token = 0;
};

class MemorySystem {
 public:
  MemorySystem(const DeviceSpec& spec);
  ~MemorySystem();

  // A launch starts: the first needs nothing; a later one starts the gap after the last
  // ended, with the L1s invalidated (as at a kernel's start on hardware: local data is
  // dead, global stores were written through), the L2 slices and DRAM as the last launch
  // left them, and every statistic counting from zero. `l1`, when given, is the L1 of this
  // launch's L1/shared split: L1s of another size are rebuilt, empty (its line and sector
  // sizes must be the config's). Precondition: idle().
  void begin_launch(const CacheSpec* l1 = nullptr);
  // The launch ended at cycle `end`; the next begins `gap` cycles later (the launch
  // overhead: the GPU's time between two kernels).
  void end_launch(uint64_t end, uint64_t gap);

  // Whether SM `sm`'s load/store queue can take another warp instruction now, with
  // `queued` more transactions than it holds (an SM's submissions held back during a
  // parallel SM phase, engine/sm_phase.hpp).
  bool can_accept(uint32_t sm, size_t queued = 0) const;
  // From freeze_admission() until thaw_admission(), can_accept() answers from the queues
  // as they were at the freeze, while tick() may go on on another thread (epochs: the SMs
  // tick beside the memory system, engine/sm_phase.hpp). Nothing else may be called then.
  void freeze_admission();
  void thaw_admission() { admission_.frozen = false; }
  // The transactions of one warp instruction. `use_l1`: loads that the L1 caches, and all
  // stores on a device with an L1 (write-through / write-back per its policy).
  // token == 0: no response wanted. A store's packet carries the bytes its lanes write
  // (bytes_per_lane each), not the whole segment.
  void submit(uint32_t sm, const std::vector<Transaction>& txns, AccessKind kind, bool local, bool use_l1,
              uint64_t token, uint64_t now, uint32_t bytes_per_lane) {
    submit(sm, txns.data(), txns.size(), kind, local, use_l1, token, now, bytes_per_lane);
  }
  void submit(uint32_t sm, const Transaction* txns, size_t ntxns, AccessKind kind, bool local, bool use_l1,
              uint64_t token, uint64_t now, uint32_t bytes_per_lane);

  bool tick(uint64_t now);
  uint64_t next_event(uint64_t now) const;
  // Whether submit() was called since the last call: new work makes next_event(now) now + 1
  // (the state changes only through submit() and tick()).
  bool take_submitted() {
    const bool s = submitted_;
    submitted_ = false;
    return s;
  }
  std::vector<MemResponse>& responses() { return responses_; }
  bool idle() const;

  // L2 access control for the launch about to begin (l2_access_policy.hpp), and
  // cudaCtxResetPersistingL2Cache.
  void set_l2_access_policy(const L2AccessPolicy& policy);
  void demote_persisting_l2();

  // Cache and DRAM statistics into `stats` (mem.l1_*, mem.l2_*, dram).
  void fill_stats(LaunchStats& stats, uint64_t elapsed_sm_cycles) const;
  // Reports every DRAM command to `sink` (the timeline) with cycles counted from the
  // launch's start (set it after begin_launch); null turns it off.
  void set_dram_command_sink(DramCommandSink* sink);
  // A one-paragraph description of what is queued where (deadlock reports).
  std::string describe_state() const;

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
  std::vector<MemResponse> responses_;
  bool submitted_ = false;
  // Per SM, its queue's length at the freeze. On cache lines of their own: SMs on other
  // threads read them while tick() writes the members around.
  struct alignas(64) Admission {
    bool frozen = false;
    std::vector<uint32_t> lengths;
  };
  Admission admission_;
  uint64_t base_ = 0;        // the memory clock at the current launch's cycle 0
  uint64_t next_base_ = 0;   // ... and at the next launch's
  uint64_t launches_ = 0;    // begun so far
};

}  // namespace warpsim::mem
