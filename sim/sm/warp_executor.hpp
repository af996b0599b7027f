// Functional execution of warps: one warp instruction per step(), with the SIMT
// reconvergence stack, block barriers, memory accesses checked against their allocations,
// and the per-instruction counters every report is built from. Both the functional
// runner and the timing model drive warps through this one class.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "sim/foundation/dim3.hpp"
#include "sim/foundation/error.hpp"
#include "sim/foundation/launch_stats.hpp"
#include "sim/isa/ir.hpp"
#include "sim/isa/semantics.hpp"
#include "sim/memory/device_heap.hpp"
#include "sim/memory/global_memory.hpp"
#include "sim/memory/mem_access.hpp"
#include "sim/memory/memory_observer.hpp"
#include "sim/memory/page_snapshot.hpp"
#include "sim/sm/cluster_state.hpp"
#include "sim/sm/device_work.hpp"
#include "sim/sm/shared_access_plan.hpp"
#include "sim/sm/shared_load_chain.hpp"
#include "sim/sm/texture_objects.hpp"
#include "sim/sm/warp.hpp"

namespace warpsim::sm {

// Everything about one launch that does not change while it runs.
struct LaunchContext;
// Sets the local-memory layout of `ctx` for `k` (stack_bytes per thread for device functions).
void set_local_layout(LaunchContext& ctx, const isa::Kernel& k, uint32_t stack_bytes);

struct LaunchContext {
  const isa::Kernel* kernel = nullptr;         // what executes (register storage compacted)
  const isa::Kernel* source_kernel = nullptr;  // as loaded: the scoreboard's register numbering
  Dim3 grid, block;
  uint32_t dynamic_shared = 0;
  // The block's reserved shared memory (DeviceSpec's shared_reserved_per_block) where the
  // kernel reads a %reserved_smem_offset_* register, else 0: each block's shared memory
  // then ends with that many bytes, at a 128-byte aligned offset after the kernel's own (on
  // the GPU it is the window's first 1 KB and the kernel's own follows: the offsets differ,
  // the region's use does not).
  uint32_t reserved_shared = 0;
  uint32_t warp_size = 32;
  uint32_t warps_per_block = 0;
  uint32_t threads_per_block = 0;
  uint32_t num_sms = 1;
  // The launch's first-pass order (engine/block_placement.hpp; null or empty: SM 0, 1, 2,
  // ...): the timed dispatcher walks it, a functional run places block b on entry b mod SMs.
  const std::vector<uint32_t>* sm_fill_order = nullptr;
  uint32_t sm_of_block(uint64_t linear) const {
    const uint64_t k = linear % num_sms;
    return sm_fill_order && !sm_fill_order->empty() ? (*sm_fill_order)[k] : uint32_t(k);
  }
  std::vector<uint8_t> params;      // the .param buffer
  // Per-thread local memory: the kernel's .local variables, then (with calls) the
  // call-parameter area at call_param_base and the device-function stack at stack_base.
  uint32_t local_stride = 0;
  uint32_t call_param_base = 0;
  uint32_t stack_base = 0;
  double ns_per_cycle = 1;          // %globaltimer: simulated nanoseconds per cycle
  uint64_t grid_workspace = 0;      // cooperative launch: %envreg1:%envreg2 (0 otherwise)
  // Thread block clusters: the shape (1x1x1 without), whether the launch asked for them
  // (%is_explicit_cluster), and the run-time table (null where the kernel uses no cluster
  // instruction and the launch no clusters).
  Dim3 cluster;
  bool explicit_cluster = false;
  uint32_t tpc_sms = 1;  // SMs per TPC (SMs s and t share one if s / tpc_sms == t / tpc_sms)
  ClusterTable* clusters = nullptr;
  mem::GlobalMemory* gmem = nullptr;
  mem::DeviceHeap* heap = nullptr;          // malloc/free in kernels
  const TextureTable* textures = nullptr;  // the device's texture and surface objects (none: null)
  std::vector<std::string>* labels = nullptr;  // unused hook
  // Dynamic parallelism: who runs the grid's device launches (null: nobody; they fault).
  DeviceLaunchSupport* device_runtime = nullptr;
};

struct StepResult {
  enum class Kind : uint8_t { Executed, WaitingAtBarrier, WarpDone };
  Kind kind = Kind::Executed;
  uint32_t pc = 0;
  const isa::Instr* instr = nullptr;
  uint32_t active = 0;       // threads on the executing path
  uint32_t exec_mask = 0;    // active threads whose guard predicate held
  bool diverged = false;
  bool barrier_released = false;  // this step completed the block barrier
  uint8_t n_accesses = 0;
  const mem::WarpMemAccess* accesses = nullptr;
  // A full-warp 32-bit shared load that step()'s tally counted (its passes; 0: none): it
  // has no access record (n_accesses 0), and nothing more is to be counted for it.
  uint16_t tallied_shared_passes = 0;
  // A bulk copy whose mbarrier completion waits for its data (WarpExecutor::set_timed): the
  // caller applies complete_tx of these bytes to the mbarrier at this shared offset of the
  // warp's block when the copy's loads have returned (mbarrier_complete_tx). 0 bytes: none.
  uint32_t mbar_tx_offset = 0, mbar_tx_bytes = 0;
};

class WarpExecutor {
 public:
  WarpExecutor(const LaunchContext& ctx, LaunchStats& stats);

  // Prepares a block: warps, masks, special registers, shared and local memory.
  void init_block(BlockState& b, uint32_t linear_block, uint32_t sm_id) const;

  // Executes the warp's next instruction. `now` is the cycle %clock reads. With a tally (the
  // memory counter's), a full-warp 32-bit shared load of a pattern the tally knows at its pc
  // is counted there and returns no access record (StepResult::tallied_shared_passes): for
  // a runner that passes every record to that counter, the same counts.
  StepResult step(Warp& w, uint64_t now, SharedPatternTally* tally = nullptr);

  // Executes at most `budget` of the warp's next instructions while they are arithmetic
  // (a semantic function) or ld/st.shared that step() would take on its fast path, and
  // stops before any other (a branch, a barrier, exit, a global access, a shared access the
  // fast path leaves: step() is for those). Each access goes to `observer` (if any) as soon
  // as it is made, as a functional runner would pass step()'s on. The same effects, counts
  // and order as that many step() calls, without a StepResult and a return to the runner
  // for each; returns how many it executed. No instruction it runs reads the clock.
  uint64_t run_plain(Warp& w, uint64_t budget, MemoryObserver* observer);

  // Throws KernelFault(Deadlock) describing the block's waiting warps.
  [[noreturn]] void report_deadlock(const BlockState& b) const;

  // mbarrier objects (warp_mbarrier_ops.cpp). A wait whose phase has not completed parks its
  // warp (at_barrier, Warp::mbar_waiting) until a phase of one of the block's mbarriers
  // completes and its threads' phases have; a functional runner with nothing else to run
  // calls release_mbarrier_waits, which lets the parked warps' waits execute again and
  // return false (as test_wait and a timed-out try_wait may): true if it released any;
  // false if none is parked or each was released so before at the same wait with no
  // mbarrier of the block changed since (it would spin forever: the block is deadlocked).
  bool release_mbarrier_waits(BlockState& b);
  // Timing mode: test_wait does not park (the warp spins, as on the GPU), bulk copies leave
  // their transaction completion to the caller (StepResult::mbar_tx_bytes), and warps whose
  // waits a completed phase finished are listed in mbarrier_released() for the caller to
  // wake (and clear).
  void set_timed(bool on) { timed_ = on; }
  std::vector<Warp*>& mbarrier_released() { return mbar_released_; }
  // complete_tx of `bytes` on the mbarrier at shared `offset` of w's block, for the bulk copy
  // w issued at pc.
  void mbarrier_complete_tx(Warp& w, uint32_t pc, uint32_t offset, uint32_t bytes);

  const LaunchContext& context() const { return ctx_; }

  // Whether a warp of the kernel may wait in a loop for another warp's write: a loop (a
  // backward branch) has a strong load (.volatile, .relaxed, .acquire) of memory other
  // threads write, or an atom.cas/exch (a lock), in its body. Functional runners then let a
  // block's warps take turns.
  bool may_spin();

  // Global stores first tell `guard` which page they write (parallel functional blocks,
  // engine/functional_parallel.hpp); null (the default): they just write.
  void set_write_guard(mem::WriteGuard* guard) { write_guard_ = guard; }

  // The launch's device printf output so far, one string per printf call, ordered by block,
  // warp, the warp's printf calls, then lane (deterministic in both modes); clears it.
  std::vector<std::string> take_printf_output();
  // Moves this executor's printf records into `into` (parallel timing runs give each worker
  // thread an executor; take_printf_output() orders the records whatever their origin).
  void move_printf_to(WarpExecutor& into);

 private:
  // step() for everything but the arithmetic instructions (those with a semantic function).
  __attribute__((noinline)) void step_other(Warp& w, const isa::Instr& in, uint64_t now, StepResult& r);
  void memory_op(Warp& w, const isa::Instr& in, uint32_t pc, uint32_t mask, StepResult& r);
  void load_store(Warp& w, const isa::Instr& in, uint32_t pc, uint32_t mask, StepResult& r);
  template <int EB>
  void load_store_sized(Warp& w, const isa::Instr& in, uint32_t pc, uint32_t mask, StepResult& r);
  // ld.shared/st.shared of one element per lane, in bounds and aligned (most of a tiled
  // kernel's instructions), without load_store_sized's generality; false: not that case,
  // nothing done (warp_shared_ops.cpp).
  template <int EB>
  bool shared_scalar(Warp& w, const isa::Instr& in, uint32_t mask, StepResult& r);
  // ld.shared.v2/.v4 and st.shared.v2/.v4 of a full warp in bounds and aligned; false: not
  // that case, nothing done.
  template <int EB>
  bool shared_vector(Warp& w, const isa::Instr& in, uint32_t mask, StepResult& r);
  // A full warp's 4-byte unsigned ld.shared from a base register whose lanes sit at the
  // offsets of the plan of this pc's last execution again (most of a tiled kernel's inner
  // loop): the load and its counts, without the lanes' addresses; the observer's counts in
  // its tally (`tally`, the observer's shared_pattern_tally()) where that knows the pattern,
  // else the whole record through on_access. false: not that case, nothing done
  // (shared_fast is next). `run` numbers run_plain's straight-line run (repeat_loads_).
  bool shared_load_repeat(Warp& w, const isa::Instr& in, uint32_t pc, MemoryObserver* observer,
                          SharedPatternTally* tally, uint64_t run);
  // step()'s form of it: a full-warp 32-bit shared load at pc whose lanes follow its plan and
  // whose pattern `tally` knows is made and counted there; returns its passes, or 0 with
  // nothing done (shared_fast then takes it).
  uint32_t shared_load_tallied(Warp& w, const isa::Instr& in, uint32_t pc, SharedPatternTally& tally);
  // The plan of the shared load at pc where it has a pattern and runs (what both take by
  // plan), else null.
  const SharedAccessPlan* repeat_plan(uint32_t pc) const;
  // shared_scalar (one element) or shared_vector for the instruction's element size; false
  // where it leaves the access to load_store_sized (other sizes, a fault).
  bool shared_fast(Warp& w, const isa::Instr& in, uint32_t mask, StepResult& r);
  void atomic(Warp& w, const isa::Instr& in, uint32_t pc, uint32_t mask, StepResult& r);
  // tex, tld4, suld, sust through the launch's texture/surface objects (warp_texture_ops.cpp).
  void texture_op(Warp& w, const isa::Instr& in, uint32_t pc, uint32_t mask, StepResult& r);
  // wmma.load, wmma.store and wmma.mma for the whole warp (warp_matrix_ops.cpp).
  void matrix_op(Warp& w, const isa::Instr& in, uint32_t pc, uint32_t mask, StepResult& r);
  // cp.async: global to shared, copied at once (warp_async_copy.cpp).
  void async_copy(Warp& w, const isa::Instr& in, uint32_t pc, uint32_t mask, StepResult& r);
  // mbarrier instructions, cp.async.mbarrier.arrive and the bulk copy (warp_mbarrier_ops.cpp).
  void mbarrier_op(Warp& w, const isa::Instr& in, uint32_t pc, uint32_t mask, StepResult& r);
  void mbarrier_wait(Warp& w, const isa::Instr& in, uint32_t pc, uint32_t mask, StepResult& r);
  void bulk_copy(Warp& w, const isa::Instr& in, uint32_t pc, uint32_t mask, StepResult& r);
  // The mbarrier word a lane's address operand names in w's block (faults: outside the
  // block's shared memory, misaligned, another block's).
  uint64_t* mbarrier_word(const Warp& w, const isa::Instr& in, const isa::Operand& a, uint32_t lane, uint32_t pc);
  // Which of `mask`'s lanes find the phase their operand b names completed.
  uint32_t mbarrier_done_lanes(const Warp& w, const isa::Instr& in, uint32_t pc, uint32_t mask);
  // One arrival of `count` (and expect_tx of `tx` first); returns the state token.
  uint64_t mbarrier_arrive(const Warp& w, uint32_t lane, uint32_t pc, uint64_t* word, uint32_t count, uint32_t tx,
                           uint8_t flags);
  void mbarrier_tx(const Warp& w, uint32_t lane, uint32_t pc, uint64_t* word, int64_t delta);
  // The word of an initialised mbarrier (else a fault: `what` on an uninitialised one).
  uint64_t mbarrier_load(const Warp& w, uint32_t lane, uint32_t pc, const uint64_t* word, const char* what) const;
  // Stores a phase's new counts, or the next phase where none is pending (mbar_phase_done_).
  void mbarrier_store(const Warp& w, uint64_t* word, uint64_t parity, uint64_t pend, uint64_t exp, int64_t t);
  // A shared::cta or shared::cluster offset as one in w's own block (a fault naming `what`
  // for another block's: unsupported).
  uint64_t own_shared_offset(const Warp& w, uint32_t lane, uint32_t pc, uint64_t off, const char* what) const;
  // An operand's value for a lane (a constant, a register; 1 where the operand is absent).
  uint64_t operand_value(const Warp& w, const isa::Operand& o, uint32_t lane) const;
  // A phase of one of the block's mbarriers completed: finishes the parked waits it satisfies.
  void mbarrier_phase_completed(BlockState& b);
  void branch(Warp& w, const isa::Instr& in, uint32_t pc, uint32_t active, uint32_t taken, StepResult& r);
  void exit_threads(Warp& w, uint32_t exiting, StepResult& r);
  void arrive_at_barrier(Warp& w, uint32_t pc, uint32_t active, StepResult& r);
  bool release_barrier_if_complete(BlockState& b);
  // barrier.cluster.arrive/wait, a cluster's threads exiting, and distributed shared
  // memory (warp_cluster_ops.cpp).
  void cluster_arrive(Warp& w, uint32_t pc, uint32_t active);
  void cluster_wait(Warp& w, uint32_t pc, uint32_t active, StepResult& r);
  void cluster_threads_exit(Warp& w, uint32_t exiting);
  void complete_cluster_phase_if_done(ClusterState& c);
  // Where shared address `a` (a rank above isa::kClusterRankShift, or none: the warp's own
  // block) is, for n bytes; faults for a rank past the cluster, a block that ended, or an
  // offset past its shared memory.
  uint8_t* cluster_shared_ptr(const Warp& w, uint32_t lane, uint32_t pc, uint64_t a, uint32_t n,
                              const char* what) const;
  // The block of the warp's cluster whose shared memory shared address `a` names (its rank
  // above isa::kClusterRankShift; none: the warp's own), or null for a rank past the
  // cluster or a block that has ended.
  const BlockState* cluster_block(const Warp& w, uint64_t a) const {
    const uint64_t bits = (a & 0xFFFFFFFFu) >> isa::kClusterRankShift;
    if (bits == 0 || bits - 1 == w.block->cluster_rank) return w.block;
    return w.block->cluster && bits - 1 < ctx_.cluster.count() ? w.block->cluster->members[bits - 1] : nullptr;
  }
  // Where address `a` of a shared access is from the warp's block: WarpMemAccess::cluster_remote.
  uint8_t remote_kind(const Warp& w, uint64_t a) const {
    const BlockState* b = cluster_block(w, a);
    if (b == w.block) return 0;
    return b && b->sm / ctx_.tpc_sms == w.block->sm / ctx_.tpc_sms ? 1 : 2;
  }
  uint32_t red_predicate(const Warp& w, const isa::Instr& in) const;  // bar.red's predicate per lane

  // Device functions and the vprintf/__assertfail builtins (warp_calls.cpp).
  void call(Warp& w, const isa::Instr& in, uint32_t pc, uint32_t mask);
  // An indirect call: the target function of every calling thread (a fault for an address
  // that is not a device function or whose parameters differ from the prototype's); -1
  // when the threads call different functions (then split into one path per target).
  int32_t indirect_target(Warp& w, const isa::Instr& in, uint32_t pc, uint32_t mask);
  void func_return(Warp& w, uint32_t pc);
  void builtin_printf(Warp& w, const isa::CallSite& cs, uint32_t pc, uint32_t mask);
  void builtin_malloc(Warp& w, const isa::CallSite& cs, uint32_t pc, uint32_t mask);
  void builtin_free(Warp& w, const isa::CallSite& cs, uint32_t pc, uint32_t mask);
  void builtin_set_conditional(Warp& w, const isa::CallSite& cs, uint32_t pc, uint32_t mask);
  [[noreturn]] void builtin_assert(Warp& w, const isa::CallSite& cs, uint32_t pc, uint32_t mask);
  // The device runtime's calls (warp_device_runtime.cpp), lane by lane in lane order.
  void device_runtime_call(Warp& w, const isa::CallSite& cs, uint32_t pc, uint32_t mask);
  uint32_t device_launch(Warp& w, uint32_t lane, uint32_t pc, uint64_t buffer, uint64_t stream);
  uint64_t parameter_buffer(Warp& w, uint32_t lane, uint32_t pc, const uint8_t* params, const isa::CallSite& cs);
  uint64_t device_string(const std::string& text);
  // The checks an H200 makes of a 2D or 3D copy or set when a kernel asks for it (a CUDA
  // code; 0: none): a copy row wider than a pitch is cudaErrorInvalidPitchValue, a set row
  // wider than its pitch cudaErrorInvalidValue, a copy `kind` other than device to device or
  // default cudaErrorInvalidMemcpyDirection (device_copies_2d.expected).
  static uint32_t check_rows(const DeviceWork& work, uint32_t kind);
  // The kernel of this launch's module at a device-side kernel address, or null.
  const isa::Kernel* kernel_at(uint64_t func) const;
  // The kernel a device-side query names; a fault (illegal address) where there is none.
  const isa::Kernel& queried_kernel(const Warp& w, uint32_t lane, uint32_t pc, uint64_t func, const char* call) const;
  bool write_generic(const Warp& w, uint32_t lane, uint64_t addr, const void* in, uint32_t n);
  // Where a generic address in the shared or local window is (null past the block's shared
  // memory or the thread's local memory); `windowed` false: a global address.
  uint8_t* shared_or_local(const Warp& w, uint32_t lane, uint64_t addr, uint32_t n, bool& windowed) const;
  // Records work a thread asked the device runtime for, stamped with its place in the block's order.
  void add_device_work(const Warp& w, uint32_t lane, uint64_t stream, DeviceWork&& work);
  DeviceLaunchSupport& device_runtime(const Warp& w, uint32_t lane, uint32_t pc, const char* call);
  uint64_t thread_key(const Warp& w, uint32_t lane) const {
    return (uint64_t(w.block->linear) << 32) | (w.index * 32u + lane);
  }
  bool read_generic(const Warp& w, uint32_t lane, uint64_t addr, void* out, uint32_t n) const;
  std::string read_string(const Warp& w, uint32_t lane, uint64_t addr, uint32_t pc, const char* what) const;
  uint8_t* call_params(const Warp& w, uint32_t lane) const {
    return w.local + size_t(lane) * ctx_.local_stride + ctx_.call_param_base;
  }

  [[noreturn]] void fault(const Warp& w, uint32_t lane, uint32_t pc, const std::string& what,
                          KernelFault::Kind kind = KernelFault::Kind::MemoryAccess) const;
  std::string thread_name(const Warp& w, uint32_t lane) const;

  const LaunchContext& ctx_;
  LaunchStats& stats_;
  // One instruction's accesses: up to three for ld/st (a generic address in every space),
  // up to 16 for wmma.load/store (warp_matrix_ops.cpp).
  std::array<mem::WarpMemAccess, 16> accesses_{};
  // Per pc, the allocation its last global access was in, and GlobalMemory::releases()
  // then (sized with the code).
  struct AllocationSeen {
    const mem::GlobalMemory::Allocation* alloc = nullptr;
    uint64_t releases = 0;
  };
  std::vector<AllocationSeen> alloc_seen_;
  mem::WriteGuard* write_guard_ = nullptr;
  // shared_scalar's and shared_vector's plans: an index into shared_plans_ per pc
  // (UINT32_MAX: none yet; sized with the code), and the last pattern number given.
  SharedAccessPlan& shared_plan(uint32_t pc) {
    const uint32_t i = shared_plan_index_[pc];
    return i != UINT32_MAX ? shared_plans_[i] : new_shared_plan(pc);
  }
  __attribute__((noinline)) SharedAccessPlan& new_shared_plan(uint32_t pc);
  std::vector<uint32_t> shared_plan_index_;
  std::vector<SharedAccessPlan> shared_plans_;
  uint64_t last_pattern_ = 0;
  // Per pc, for shared_load_repeat (sized with the code): whether it is such a load
  // (is_u32_shared_load), the earlier load from the same base register with no write of it
  // between (same_base_predecessors), the run of run_plain in which this load last found its
  // base register's lanes at its plan's offsets and that plan's pattern then, and whether
  // its plan's offsets equal the earlier load's (known for the two patterns named). A run is
  // straight-line: each run_plain call, and each reconvergence within one, starts a new
  // number (plain_run_); within a run a load's plan changes only where it runs.
  struct RepeatLoad {
    uint64_t checked_in = 0, checked_pattern = 0;
    uint64_t prev_pattern = 0, own_pattern = 0;
    uint32_t prev = kNoChainLoad;
    bool eligible = false;
    bool same_offsets = false;
  };
  // Made by the first run_plain or shared_load_tallied (timed runs use only `eligible`).
  std::vector<RepeatLoad> repeat_loads_;
  __attribute__((noinline)) void make_repeat_loads();
  uint64_t plain_run_ = 0;
  bool timed_ = false;
  int8_t may_spin_ = -1;  // may_spin(), once known
  bool mbar_phase_done_ = false;  // an mbarrier's phase completed in this instruction
  std::vector<Warp*> mbar_released_;
  struct PrintfRecord {
    uint32_t block, warp, call, lane;
    std::string text;
  };
  std::vector<PrintfRecord> printf_;
};

}  // namespace warpsim::sm
