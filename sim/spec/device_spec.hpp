// The immutable, typed device description parsed from a JSON config (configs/*.json).
// Parsing validates every key; the running simulator never looks at JSON again.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "sim/foundation/config_reader.hpp"
#include "sim/memory/cache_spec.hpp"
#include "sim/memory/coalescer.hpp"
#include "sim/memory/dram_spec.hpp"
#include "sim/memory/interconnect_spec.hpp"
#include "sim/memory/partition_spec.hpp"
#include "sim/sm/carveout.hpp"
#include "sim/sm/shared_banks.hpp"

namespace warpsim {

// How registers are allocated for occupancy (the Occupancy Calculator's two schemes).
enum class RegisterAllocation { PerBlock, PerWarp };

struct SmSpec {
  uint32_t count = 0;                    // streaming multiprocessors
  uint32_t warp_size = 32;
  uint32_t cores = 0;                    // SP lanes per SM
  uint32_t sfus = 0;
  uint32_t dp_units = 0;
  uint32_t schedulers = 1;               // warp schedulers per SM
  std::string scheduler_policy = "lrr";  // registry name (lrr, gto, two_level)
  uint32_t two_level_active_warps = 8;   // active set size of the two-level policy

  uint32_t max_threads = 0;              // resident threads per SM
  uint32_t max_warps = 0;
  uint32_t max_blocks = 0;
  uint32_t max_threads_per_block = 0;
  uint32_t max_block_dim[3] = {0, 0, 0};
  uint32_t max_grid_dim[3] = {0, 0, 0};

  uint32_t registers = 0;                // 32-bit registers per SM
  uint32_t max_registers_per_thread = 0;
  RegisterAllocation register_allocation = RegisterAllocation::PerWarp;
  uint32_t register_allocation_unit = 0;
  uint32_t warp_allocation_granularity = 1;

  uint32_t shared_memory = 0;            // bytes per SM available to blocks
  uint32_t shared_allocation_unit = 0;
  uint32_t shared_reserved_per_block = 0;  // cc 1.x: parameters, block/grid indices in shared memory
  uint32_t max_shared_per_block = 0;
};

// Per-generation issue model and latencies, in SM clock cycles.
// One wmma.mma on a sub-partition's tensor core: cycles it occupies the tensor core, and
// cycles until its result may be used. cycles == 0: the device has no tensor cores.
struct TensorRate {
  uint32_t cycles = 0;
  uint32_t latency = 0;
};

struct IssueSpec {
  // Cycles one scheduler is busy issuing one warp instruction to each unit kind.
  uint32_t alu_cycles = 4;       // int/fp32 arithmetic
  uint32_t imul_cycles = 4;      // 32-bit integer multiply
  uint32_t sfu_cycles = 16;      // transcendental (rcp, sqrt, rsqrt, ex2, lg2, sin, cos)
  uint32_t dp_cycles = 32;       // double precision
  uint32_t mem_cycles = 4;       // load/store unit: a warp memory instruction at the least
  uint32_t shared_pass_cycles = 1;       // LSU cycles per shared-memory pass (wavefront)
  uint32_t transaction_cycles = 1;       // LSU cycles per global/local transaction
  // Global/local transactions the load/store unit hands to the memory system per cycle
  // (the H100's L1 takes a 128-byte wavefront, four 32-byte sectors, per cycle); 1 by default.
  uint32_t lsu_transactions_per_cycle = 1;
  // Loads through a sectored L1 (or around the L1, at the L2's line): the transactions of one
  // warp instruction that fall in one line (consecutive in the queue, up to
  // lsu_transactions_per_cycle) are one L1 lookup and one request below it, with their
  // sectors together, answered by one reply (the
  // H100's L1TEX looks up a line per wavefront, and its L2 sees requests of up to four
  // sectors). Off: one lookup, request and reply per transaction.
  bool lsu_line_requests = false;
  // Cycles the load/store unit is busy with a global store transaction that writes only part
  // of its bytes (a byte-masked sector), instead of sharing a cycle with others; 0: no extra cost.
  uint32_t partial_store_cycles = 0;
  uint32_t branch_cycles = 4;
  bool dp_blocks_other_schedulers = false;  // Fermi: a DP instruction uses both core groups
  // Loads issue ahead of independent arithmetic in their basic block, as ptxas schedules
  // them (sim/isa/load_scheduling.hpp); off: PTX order.
  bool hoist_loads = false;
  // Consecutive shared loads from one aligned base become one vector load, as ptxas makes
  // LDS.64/LDS.128 (sim/isa/shared_load_merging.hpp); off: the PTX's loads.
  bool merge_shared_loads = false;
  // Short blocks with a load that a branch jumps over are predicated instead, as ptxas does
  // (sim/isa/if_conversion.hpp); off: the PTX's branches.
  bool if_convert = false;
  // Counted single-block loops unrolled this many times more, as ptxas does
  // (sim/isa/loop_unrolling.hpp); 0 or 1: the PTX's loops.
  uint32_t unroll_loops = 0;
  // Instruction sequences that PTX writes as one instruction but the hardware runs as many.
  uint32_t idiv_instructions = 20;  // 32-bit integer div/rem
  uint32_t fdiv_instructions = 8;   // div.rn.f32 / div.full
  // The sequences' instructions issue one per cycle from their scheduler, which issues
  // nothing else meanwhile (SASS); off: they only keep the ALU busy.
  bool sequences_hold_dispatch = false;
  // Latencies: cycles from issue until a dependent instruction may issue.
  uint32_t alu_latency = 24;
  uint32_t imul_latency = 24;
  uint32_t sfu_latency = 28;
  uint32_t dp_latency = 48;
  uint32_t shared_latency = 38;
  uint32_t param_latency = 24;      // ld.param / constant cache hit
  uint32_t global_latency = 440;    // only when no memory system is configured
  uint32_t barrier_latency = 4;
  // A try_wait on an mbarrier phase that has not completed suspends its warp until the phase
  // completes or this many cycles have passed (then it returns false and the program's loop
  // tries again); 0: until the phase completes.
  uint32_t mbarrier_try_wait_cycles = 0;
  bool ideal_fetch = true;          // documented assumption: instruction fetch never stalls
  // Tensor cores (the config's optional issue.tensor, per input type of wmma.mma: f16, bf16,
  // tf32, f64, s8 for s8 and u8); absent: none, and kernels with wmma do not launch.
  TensorRate tensor_f16, tensor_bf16, tensor_tf32, tensor_f64, tensor_i8;
  bool has_tensor_cores() const { return tensor_f16.cycles != 0; }
};

// Thread block clusters (cc 9.0; the config's optional "clusters" section; without it a
// launch in clusters is refused). A cluster's blocks run at once on distinct SMs of one GPC.
//   max_size: blocks per cluster with cudaFuncAttributeNonPortableClusterSizeAllowed;
//     portable_size: without it.
//   max_blocks_per_sm: a cluster launch's blocks per SM at most (below the occupancy's).
//   pair_only_sms: SMs that take only clusters of at most gpc_tpc_sms blocks (one TPC);
//     empty on a device without GPCs.
//   remote_shared_latency: cycles from issuing a load from another block's shared memory
//     (distributed shared memory) until a dependent instruction may issue.
//   remote_wavefront_cycles, remote_atomic_lane_cycles: below.
struct ClusterSpec {
  uint32_t max_size = 0;
  uint32_t portable_size = 0;
  uint32_t max_blocks_per_sm = 0;
  std::vector<uint32_t> pair_only_sms;
  uint32_t remote_shared_latency = 0;
  // The SM-to-SM network's throughput across TPCs: LSU cycles per wavefront of a load or
  // store, and per lane of an atomic, to another TPC's block (0: as the SM's own banks).
  uint32_t remote_wavefront_cycles = 0;
  uint32_t remote_atomic_lane_cycles = 0;
};

struct DeviceSpec {
  std::string name;
  std::string file;                 // where it came from (for messages)
  std::string compute_capability;   // "1.3", "2.0", ...
  double clock_mhz = 0;             // SM (shader) clock
  // Device (global) memory in bytes, the config's memory.size_bytes; allocations past it fail.
  // Configs without a "memory" section get the C2070's 6 GiB.
  uint64_t memory_bytes = uint64_t(6) << 30;
  // The host link (PCIe) that cudaMemcpy between host and device crosses, in GB/s per
  // direction; 0: copies take no simulated time (the CUDA runtime's events and report).
  double host_link_gbps = 0;
  // Fixed cost of a kernel launch in SM cycles, added to elapsed_cycles_sm and duration_ns:
  // what a profiler's kernel duration shows for an empty kernel (the front end starting the
  // grid and the end-of-kernel flush). 0 (the default): the time from the first block's
  // dispatch to the last block's end only.
  uint64_t launch_overhead_cycles = 0;
  // The GPU-wide rate at which blocks start on SMs: at most one block per this many SM
  // cycles (fractions allowed), counted from the launch. 0 (the default): a free SM slot
  // takes the next block at once.
  double block_dispatch_cycles = 0;
  // The GPCs (the config's "gpcs" section; docs/memory-hierarchy.md, "GPCs"). Without it
  // these are empty and false: no GPCs, and the dispatcher fills SM 0, 1, 2, ...
  //   gpc_of_sm[s]: SM s's GPC.
  //   sm_fill_order: every SM once, in the order the dispatcher gives them a block each in
  //     a pass (GPC by GPC, as the GPU does).
  //   gpc_tpc_sms: SMs per TPC (consecutive SMs of a GPC's list); gpc_small_grid_lead_sms:
  //     the SMs a grid smaller than the SMs fills first (engine/block_placement.hpp).
  //   gpc_merge_reads: an L1 read miss for sectors another SM of its GPC has already asked
  //     the L2 for waits for that request's reply instead of going to the L2 itself, if
  //     the line was asked for at most gpc_merge_window cycles before (0: any time before
  //     its reply), and while its GPC tracks fewer than gpc_merge_lines lines (0: no limit;
  //     a miss that finds the table full goes to the L2 and takes no others).
  //   gpc_merge_whole_requests: a miss waits only for a request in flight that asked for
  //     exactly its sectors (the config's merge_match "request"); otherwise ("sectors") for
  //     whichever of its sectors were asked.
  std::vector<uint32_t> gpc_of_sm;
  std::vector<uint32_t> sm_fill_order;
  uint32_t gpcs = 0;
  uint32_t gpc_tpc_sms = 1;
  uint32_t gpc_small_grid_lead_sms = 0;
  bool gpc_merge_reads = false;
  uint32_t gpc_merge_window = 0;
  uint32_t gpc_merge_lines = 0;
  bool gpc_merge_whole_requests = false;
  ClusterSpec clusters;
  bool has_clusters() const { return clusters.max_size > 0; }
  SmSpec sm;
  IssueSpec issue;
  mem::CoalescerSpec coalescer;
  sm::SharedBankSpec shared;
  bool has_l1 = false;              // a cache for global loads in each SM
  mem::CacheSpec l1;
  // How the L1 and shared memory divide one storage ("carveout" section; Fixed without it):
  // each launch runs with the split with_shared_capacity() gives.
  sm::CarveoutSpec carveout;
  bool has_l2 = false;
  mem::L2Spec l2;
  mem::InterconnectSpec interconnect;
  mem::PartitionSpec partition;     // fixed latencies inside a memory partition
  bool has_dram = false;            // without a DRAM model, global accesses cost issue.global_latency
  mem::DramSpec dram;
  Json document;                    // the validated JSON (after overrides), for reports

  int cc_major() const;
  int cc_minor() const;
};

// The spec a launch runs with when the SM's shared-memory capacity is `shared_bytes`, one
// of spec.carveout's splits: sm.shared_memory is that capacity and the L1 has the rest of
// the storage, with the split's ways. Anything else is `spec` as it is.
DeviceSpec with_shared_capacity(const DeviceSpec& spec, uint32_t shared_bytes);

// Parse and validate a device config document. `file` is used in error messages.
DeviceSpec parse_device_spec(const Json& doc, const std::string& file);
// Load a config file, apply "--set key.path=value" overrides, then parse.
DeviceSpec load_device_spec(const std::string& path, const std::vector<std::string>& overrides = {});

}  // namespace warpsim
