// The timing model of one streaming multiprocessor: resident blocks and warps, warp
// schedulers (policy from the config), a scoreboard per warp, the execution units with
// the generation's issue model, and the hand-off of memory instructions to the memory
// system. Instructions execute functionally when they issue (WarpExecutor::step); their
// timing decides only when dependents and the unit may go on.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "sim/spec/device_spec.hpp"
#include "sim/foundation/launch_stats.hpp"
#include "sim/memory/memory_counter.hpp"
#include "sim/memory/memory_system.hpp"
#include "sim/sm/async_copy_groups.hpp"
#include "sim/sm/issue_model.hpp"
#include "sim/sm/kernel_deps.hpp"
#include "sim/sm/submit_buffer.hpp"
#include "sim/sm/warp_executor.hpp"
#include "sim/sm/warp_scheduler.hpp"
#include "sim/sm/warp_slice_sink.hpp"

namespace warpsim::sm {

constexpr uint64_t kNever = UINT64_MAX;

// Warp-cycle counters summed over all SMs (the stall breakdown and occupancy integrals).
struct TimingCounters {
  uint64_t issued = 0;
  uint64_t stall_exec = 0, stall_memory = 0, stall_sync = 0, stall_not_selected = 0, stall_pipe = 0;
  uint64_t active_cycles = 0;         // SM-cycles with at least one resident warp
  uint64_t resident_warp_cycles = 0;  // resident warps integrated over time
  uint64_t blocks_finished = 0;       // blocks whose last warp retired (frees a block slot)
};

// Everything the SMs of one launch share.
struct SmShared {
  const DeviceSpec* spec = nullptr;
  const LaunchContext* ctx = nullptr;
  WarpExecutor* executor = nullptr;
  MemoryCounter* counter = nullptr;
  mem::MemorySystem* memory = nullptr;
  const KernelDeps* deps = nullptr;
  const IssueModel* issue = nullptr;
  LaunchStats* stats = nullptr;
  TimingCounters* counters = nullptr;
  WarpSliceSink* timeline = nullptr;  // optional
  uint32_t blocks_per_sm = 1;
  // Parallel timing (engine/sm_phase.hpp). issue_alone: per pc, 1 if the instruction must
  // not issue while other SMs tick concurrently (it writes global memory or prints); null:
  // not tracked. defer_submits: memory submissions are held in the SM's SubmitBuffer until
  // the runner applies them.
  const uint8_t* issue_alone = nullptr;
  bool defer_submits = false;
};

class SmCore {
 public:
  SmCore(uint32_t id, const SmShared& shared);

  uint32_t id() const { return id_; }
  bool has_free_block_slot() const { return resident_blocks_ < shared_.blocks_per_sm; }
  bool empty() const { return resident_blocks_ == 0; }
  uint32_t resident_blocks() const { return resident_blocks_; }
  void assign_block(uint32_t linear_block, uint64_t now);

  // Issues at most one instruction per scheduler; returns how many issued. Sets `wake` to
  // the earliest cycle at which tick() may issue again.
  uint32_t tick(uint64_t now);
  // With SmShared::issue_alone set: the earliest cycle at which a warp whose next
  // instruction is marked there has its operands ready (kNever: none), so tick(now) can
  // issue such an instruction only if alone_from <= now. Kept like `wake` (by tick(),
  // memory_response() and assign_block()); conservative.
  uint64_t alone_from = kNever;
  // Submissions held back while SmShared::defer_submits is set.
  SubmitBuffer& held_submits() { return held_; }
  // Parallel timing: whether this SM keeps what parallel phases need (held submissions and
  // alone_from, as SmShared::issue_alone and defer_submits were wired) or, off, runs as the
  // SM of a serial run does, which costs less (the SM phase turns it off while it ticks
  // serially for long: engine/phase_chooser.hpp). Turning it on rebuilds alone_from.
  // Call between phases (nothing held).
  void set_parallel_ready(bool on);
  // Hints the CPU to fetch the state tick() reads first (the runner calls it one SM ahead).
  void prefetch() const {
    __builtin_prefetch(&wake);
    for (const Sched& sc : scheds_) {
      __builtin_prefetch(&sc);
      __builtin_prefetch(reinterpret_cast<const char*>(&sc) + 64);
    }
  }
  void memory_response(uint64_t token, uint64_t now);
  // Warp `w` of this SM's blocks left barrier.cluster.wait (its cluster's phase completed,
  // ClusterTable::released): it may issue again after the barrier latency.
  void cluster_released(const Warp* w, uint64_t now);
  // Wakes the warps of block slot `block_slot` whose mbarrier waits a completed phase
  // finished (WarpExecutor::mbarrier_released), after the barrier latency.
  void wake_mbarrier_waiters(uint32_t block_slot, uint64_t now);
  // Integrates occupancy up to `now`.
  void account_until(uint64_t now);
  std::string describe(uint64_t now) const;
  // Earliest cycle at which tick() may issue, given what is known now (kNever: only a
  // memory response can wake this SM). Set by tick(), lowered by memory_response() and
  // assign_block(); the runner visits the SM when it is due.
  uint64_t wake = kNever;

 private:
  // Fields used at every issue first: one warp's timing state is two cache lines.
  struct alignas(64) WarpTiming {
    Warp* warp = nullptr;
    // Scoreboard, one entry per register (KernelDeps numbering) in the SM's scoreboard_
    // array: (cycle its value is ready << 1) | (1 if a memory instruction writes it), or
    // kPendingLoad while a load's data is out.
    uint64_t* reg_ready = nullptr;
    uint64_t ready_at = 0;         // next instruction's operands ready (kNever: waiting on memory)
    uint64_t visible_at = 0;       // when it enters its scheduler's ready mask (>= ready_at)
    uint64_t t_free = 0;           // start of the current wait (cycle after the last issue)
    uint64_t release_at = 0;       // barrier release cycle (sync accounting)
    uint64_t pipe_seen_until = 0;  // ready but held back by memory back-pressure until then
                                   // (busy units are recorded per scheduler: pipe_check)
    uint32_t pc = 0;               // next instruction (set by update_ready)
    uint32_t sched = 0;
    Unit next_unit = Unit::Alu;
    bool ready_mem = false;        // the operand it waits for is a memory result
    bool used = false;
    bool retired_pending = false;  // executed its exit, waiting for outstanding loads
    bool waiting_barrier = false;
    uint32_t block_slot = 0;
    uint32_t pending_loads = 0;
    AsyncCopyGroups async_copies;  // cp.async loads in flight, per group (cp.async.wait_group)
    uint32_t generation = 0;
  };

  static constexpr uint64_t kPendingLoad = UINT64_MAX;
  struct BlockSlot {
    bool used = false;
    BlockState state;
    std::vector<uint32_t> warp_slots;
    uint32_t warps_alive = 0;
  };
  struct PendingLoad {
    uint32_t slot = 0;
    uint32_t generation = 0;
    uint32_t left = 0;  // submissions still outstanding
    uint8_t ndests = 0;
    uint16_t dests[8] = {};
    bool used = false;
    bool async_copy = false;  // a cp.async's load: no destination, counted in async_copies
    uint32_t async_group = 0;  // (then) its cp.async group
    uint32_t trace = UINT32_MAX, trace_record = 0;  // a traced warp's record to time
    // A bulk copy's mbarrier completion (cp.async.bulk ... mbarrier::complete_tx::bytes): on
    // the last response, complete_tx of mbar_bytes (0: none) at that shared offset.
    Warp* mbar_warp = nullptr;
    uint32_t mbar_pc = 0, mbar_offset = 0, mbar_bytes = 0;
  };

  uint64_t unit_free(Unit u, uint32_t sched) const;
  // Issues the warp's next instruction; returns the cycles its scheduler's dispatch is held.
  uint32_t issue(uint32_t slot, uint64_t now);
  void update_ready(WarpTiming& wt, uint64_t now);
  // Records when the warp's next instruction can issue (kNever: only an event can tell)
  // and files it with its scheduler's readiness tracker.
  void set_ready(WarpTiming& wt, uint64_t t);
  void set_unit(WarpTiming& wt, Unit u);
  // Charges the warp's wait since its last issue to the stall reasons; returns its length.
  uint64_t account_wait(WarpTiming& wt, uint32_t pc, uint64_t now);
  void retire_warp(uint32_t slot, uint64_t now);
  uint64_t new_token(uint32_t slot, const uint16_t* dests, uint32_t ndests, uint32_t submissions);

  uint32_t id_;
  SmShared shared_;
  std::vector<WarpTiming> warps_;
  // Per scheduler: which warps are ready (bit per slot) as of the last refresh, which unit
  // each warp's next instruction needs, and when the others become ready: a timing wheel
  // of slot masks for the next kWheel cycles (non-empty buckets marked in `occupied`), and
  // a heap for later times (rare; its entries carry the slot's version). Eligible warps are
  // found with a few mask operations instead of a scan over all warps.
  static constexpr size_t kUnits = 6;  // Unit::Alu .. Unit::None
  struct ReadyTracker {
    // One bucket per cycle for the next 64 cycles: arithmetic, shared-memory and barrier
    // latencies fit (memory results are not filed: responses wake the warp), and the whole
    // occupancy set is one word.
    static constexpr uint32_t kWheel = 64;
    uint64_t ready = 0;
    uint64_t by_unit[kUnits] = {};
    uint64_t global_next = 0;  // warps whose next instruction is a global-path memory op
    uint64_t cursor = 0;       // buckets for times <= cursor are folded into `ready`
    uint64_t occupied = 0;     // bit per non-empty bucket
    struct PipeCheck {
      uint64_t at = 0, until = 0;  // when ready warps of a unit were last found blocked, and until when
    };
    PipeCheck pipe_check[kUnits];
    struct Entry {
      uint64_t time;
      uint32_t slot, version;
      bool operator>(const Entry& o) const { return time > o.time; }
    };
    std::vector<Entry> far;
    std::array<uint64_t, kWheel> wheel{};
    // Warps whose next instruction is marked in SmShared::issue_alone (when tracked; kept
    // last, off the cache lines a serial run touches).
    uint64_t alone_next = 0;
  };
  // One scheduler's state, kept together: its policy, readiness tracker, ALU pipe and the
  // earliest cycle a select() can succeed, known from its last failed select; that is
  // lowered whenever one of its warps becomes ready earlier (responses, barrier releases,
  // new blocks), so the SM skips cycles in which nothing can issue.
  struct alignas(64) Sched {
    uint64_t next_try = kNever;
    uint64_t alu_free = 0;
    uint64_t tensor_free = 0;  // its tensor core (wmma.mma)
    uint64_t dispatch_free = 0;  // issue.sequences_hold_dispatch: a sequence is still issuing
    ReadyTracker tr;
    std::unique_ptr<WarpScheduler> policy;
  };
  std::vector<Sched> scheds_;
  std::vector<uint64_t> scoreboard_;     // max_warps x KernelDeps::scoreboard_size()
  std::vector<uint32_t> ready_version_;  // per slot
  std::vector<uint64_t> due_;            // per slot: the time it is filed under (kNever: not filed)
  void file(ReadyTracker& tr, uint32_t slot, uint64_t t);
  void unfile(ReadyTracker& tr, uint32_t slot);
  uint64_t next_due(const ReadyTracker& tr) const;
  void refresh(uint32_t s, uint64_t now);
  uint64_t eligible(uint32_t s, uint64_t now) const;
  std::vector<BlockSlot> blocks_;
  std::vector<PendingLoad> loads_;
  std::vector<uint32_t> free_loads_;
  uint64_t scheduler_earliest(uint32_t s, uint64_t now);
  void update_alone_from();
  uint64_t next_wake(uint64_t now) const;
  void wake_scheduler(uint32_t s, uint64_t t) {
    if (t < scheds_[s].next_try) scheds_[s].next_try = t;
    if (t < wake) wake = t;
  }
  SubmitBuffer held_;
  // The counter's tally (MemoryCounter::shared_pattern_tally), for step() to count
  // repeated shared loads with; null without a counter.
  SharedPatternTally* tally_ = nullptr;
  const uint8_t* wired_alone_ = nullptr;  // SmShared::issue_alone as wired (set_parallel_ready)
  bool wired_defer_ = false;
  uint64_t sfu_free_ = 0, dp_free_ = 0, lsu_free_ = 0;
  uint32_t resident_blocks_ = 0;
  uint32_t resident_warps_ = 0;
  uint64_t accounted_until_ = 0;
  uint64_t age_ = 0;
};

}  // namespace warpsim::sm
