// Statistics of one kernel launch: plain structs, filled by the simulator and printed by
// separate printers (stats_text.cpp, stats_json.cpp). Metric names follow nvprof where
// one exists; metrics.cpp is the one place that maps these fields to those names.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/foundation/dim3.hpp"

namespace warpsim {

// Counts any run produces (functional or timing).
struct ExecStats {
  uint64_t inst_executed = 0;                  // warp instructions
  uint64_t thread_inst_executed = 0;           // active threads summed over warp instructions
  uint64_t not_predicated_off_thread_inst_executed = 0;
  uint64_t branch = 0;                         // warp-level branch instructions executed
  uint64_t divergent_branch = 0;               // ... of which split the warp
  uint64_t gld_requests = 0, gst_requests = 0; // warp-level global loads / stores
  uint64_t local_load_requests = 0, local_store_requests = 0;
  uint64_t shared_load_requests = 0, shared_store_requests = 0;
  uint64_t atomic_requests = 0;                // global and shared atomics/reductions
  uint64_t tex_requests = 0;                   // texture fetches (tex, tld4) and surface loads/stores
  uint64_t barriers = 0;                       // warp arrivals at bar.sync
  uint64_t blocks = 0, warps = 0, threads = 0;
  uint32_t warp_size = 32;
  // Warp instructions of the blocks i, i + S, i + 2S, ... (S the SM count), wherever they
  // ran: the work each SM gets when blocks are spread round-robin. Its maximum is what
  // sampling over launches scales time by (engine/launch_sampling.hpp); not reported.
  std::vector<uint64_t> round_robin_sm_instructions;
  uint64_t longest_warp_instructions = 0;  // the most warp instructions one warp executed
};

// Counts from the memory pipeline (coalescer, bank model, caches); valid in both modes.
struct MemStats {
  uint64_t gld_transactions = 0, gst_transactions = 0;
  uint64_t local_load_transactions = 0, local_store_transactions = 0;
  uint64_t atomic_transactions = 0;
  uint64_t tex_transactions = 0;  // of texture fetches and surface accesses (not in gld/gst)
  uint64_t gld_bytes_requested = 0, gst_bytes_requested = 0;  // bytes the threads asked for
  uint64_t gld_bytes_transferred = 0, gst_bytes_transferred = 0;  // bytes the transactions moved
  uint64_t shared_load_transactions = 0, shared_store_transactions = 0;  // passes (wavefronts)
  uint64_t shared_load_bank_conflicts = 0, shared_store_bank_conflicts = 0;  // extra passes
  uint64_t l1_hits = 0, l1_misses = 0;
  uint64_t l2_hits = 0, l2_misses = 0;
  // Load sectors at the L1s and the SMs' read sectors at the L2, and of each those found
  // present or already on their way (CacheStats::sector_read_tag_hits, ncu's lookup hits).
  uint64_t l1_sectors = 0, l1_sector_hits = 0;
  uint64_t l2_read_sectors = 0, l2_read_sector_hits = 0;
  uint64_t l2_read_transactions = 0, l2_write_transactions = 0;
  // A partitioned L2: sectors a copy's miss looked up in the home partition, and of those
  // the ones found there (not in l2_hits/l2_misses, which count the SMs' own lookups).
  uint64_t l2_fabric_sectors = 0, l2_fabric_hits = 0;
  // GPC read merging (DeviceSpec::gpc_merge_reads, timed runs): L1 miss sectors that waited
  // for another SM's request of their GPC instead of going to the L2.
  uint64_t gpc_merged_sectors = 0;
  bool has_l1 = false, has_l2 = false;
  bool l2_partitioned = false;
  bool gpc_merging = false;
  // The counters the cache models produce (not execution): what sampling scales, launch
  // sampling copies from a timed launch and a merge of parts adds.
  std::array<uint64_t*, 13> cache_counters() {
    return {&l1_hits,         &l1_misses,         &l2_hits,           &l2_misses,
            &l1_sectors,      &l1_sector_hits,    &l2_read_sectors,   &l2_read_sector_hits,
            &l2_read_transactions, &l2_write_transactions, &l2_fabric_sectors, &l2_fabric_hits,
            &gpc_merged_sectors};
  }
  std::array<const uint64_t*, 13> cache_counters() const {
    auto p = const_cast<MemStats*>(this)->cache_counters();
    std::array<const uint64_t*, 13> c{};
    for (size_t i = 0; i < p.size(); ++i) c[i] = p[i];
    return c;
  }
};

struct OccupancyStats {
  uint32_t threads_per_block = 0;
  uint32_t registers_per_thread = 0;
  uint32_t shared_bytes_per_block = 0;  // static + dynamic + reserved
  uint32_t shared_memory_per_sm = 0;    // the SM's shared capacity for this launch (its L1/shared split)
  uint32_t warps_per_block = 0;
  uint32_t blocks_per_sm = 0;
  uint32_t limit_warps = 0, limit_blocks = 0, limit_registers = 0, limit_shared = 0;
  std::string limiter;                  // "warps", "blocks", "registers", "shared memory"
  uint32_t active_warps_per_sm = 0;
  uint32_t max_warps_per_sm = 0;
  double theoretical_occupancy = 0;     // active warps / max warps
  bool registers_estimated = false;
};

// Timing-mode results (zero in functional mode).
struct TimingStats {
  bool valid = false;
  uint64_t elapsed_cycles_sm = 0;       // cycles from launch to last block done
  double duration_ns = 0;
  double ipc = 0;                       // warp instructions per cycle per SM (active SMs)
  double issue_slot_utilization = 0;    // % of scheduler issue slots used
  double achieved_occupancy = 0;        // time-averaged active warps / max warps
  double sm_efficiency = 0;             // % of SM-cycles with at least one active warp
  uint64_t stall_exec_dependency = 0;   // warp-cycles waiting on an arithmetic result
  uint64_t stall_memory_dependency = 0; // ... on a memory result
  uint64_t stall_sync = 0;              // ... at a barrier
  uint64_t stall_not_selected = 0;      // ready but another warp issued
  uint64_t stall_pipe_busy = 0;         // ready but the unit was busy
  uint64_t sm_active_cycles = 0;
  uint64_t issue_slots = 0, issued = 0;
  uint64_t waves = 0;
  // --sample: the first timed_blocks blocks ran in the timing model, the rest functionally;
  // the time and the timing-only counters are extrapolated (engine/sampling.hpp).
  struct Sample {
    bool sampled = false;
    uint64_t timed_blocks = 0;
    uint64_t timed_cycles = 0;        // elapsed cycles of the timed blocks
    // The steady-state window: the first cycle by whose end half (seven eighths) of the
    // timed blocks had finished, and how many had.
    uint64_t lo_cycle = 0, lo_blocks = 0, hi_cycle = 0, hi_blocks = 0;
    // The window's first and last `group` finishes by count (engine/sampling.hpp): the
    // count each group begins at and the sum of the cycles by which those blocks had
    // finished. The steady state's cycles per block is the difference of the groups' mean
    // cycles over the counts between them (cycles_per_block, set by extrapolate_timing).
    uint64_t group = 0, head_first = 0, tail_first = 0;
    uint64_t head_cycles = 0, tail_cycles = 0;
    double cycles_per_block = 0;
    double scale = 1;                 // grid time / timed time
  } sample;
  // --sample-launches: this launch ran functionally and took its time and timing-only
  // counters from an earlier timed launch of the same kernel and shape, scaled by the work
  // (engine/launch_sampling.hpp).
  struct FromLaunch {
    bool estimated = false;
    uint64_t launch = 0;              // that launch's index among the program's launches
    double scale = 1;                 // time scale: this launch's busiest-SM work / that launch's
  } from_launch;
};

struct DramChannelStats {
  uint64_t reads = 0, writes = 0;       // requests served
  uint64_t row_hits = 0, row_misses = 0, row_conflicts = 0;  // once per request
  uint64_t activates = 0, precharges = 0, refreshes = 0;
  uint64_t busy_cycles = 0;             // data-bus busy DRAM cycles
  uint64_t read_transactions = 0, write_transactions = 0;  // 32-byte units moved
  uint64_t read_bytes = 0, write_bytes = 0;                // bytes moved (whole atoms)
  uint64_t read_latency_cycles = 0;     // sum over reads of enqueue-to-last-data cycles
  uint64_t bank_busy_cycles = 0;        // sum over banks of cycles with outstanding requests
  uint64_t active_cycles = 0;           // cycles with at least one bank busy
  double utilization = 0;               // busy_cycles / elapsed
  double bank_level_parallelism = 0;    // bank_busy_cycles / active_cycles
  std::vector<uint64_t> bank_reads, bank_writes;
  std::vector<uint64_t> bank_row_hits, bank_row_misses, bank_row_conflicts, bank_activates;
};

struct DramStats {
  bool valid = false;
  uint64_t dram_cycles = 0;
  uint64_t read_transactions = 0, write_transactions = 0;
  uint64_t read_bytes = 0, write_bytes = 0;
  uint64_t row_hits = 0, row_misses = 0, row_conflicts = 0;
  double utilization = 0;               // data-bus busy fraction, averaged over channels
  double bank_level_parallelism = 0;    // average busy banks while any bank is busy
  double average_memory_latency_cycles = 0;  // SM cycles from issue to data return (global loads)
  double achieved_bandwidth_gbps = 0;
  double peak_bandwidth_gbps = 0;
  uint64_t requests = 0;                // read + write requests served
  uint64_t activates = 0, precharges = 0, refreshes = 0;
  double average_read_latency_dram_cycles = 0;  // DRAM queue entry to last data beat
  std::vector<DramChannelStats> channels;
};

// Per-instruction counters, aggregated into per-line reports by the teaching reports.
struct PcStats {
  uint64_t executed = 0;          // warp instructions
  uint64_t active_threads = 0;    // summed active lanes
  uint64_t divergent = 0;         // branch executions that split the warp
  uint64_t requests = 0;          // memory instructions
  uint64_t transactions = 0;      // global transactions or shared passes
  uint64_t stall_cycles = 0;      // warp-cycles this instruction was the one a warp waited to issue
};

// Per branch instruction: for each dynamic instance k (k-th execution by a warp),
// how many warps reached it and how many of them diverged there.
struct BranchInstanceStats {
  uint32_t pc = 0;
  std::vector<uint64_t> reached;
  std::vector<uint64_t> diverged;
};

// One memory instruction of a traced warp (--trace-warp).
struct TraceTransaction {
  uint64_t addr = 0;
  uint32_t size = 0;
  uint32_t lanes = 0;
  uint8_t sectors = 0;
};
struct TraceRecord {
  uint32_t pc = 0;
  uint8_t space = 0;             // isa::Space
  uint8_t kind = 0;              // mem::AccessKind
  uint8_t bytes_per_lane = 0;
  uint32_t mask = 0;             // active lanes
  std::vector<uint64_t> addrs;   // the active lanes' addresses, in lane order
  std::vector<TraceTransaction> transactions;  // global/local
  uint32_t shared_passes = 0, shared_degree = 0;
  bool timed = false;
  uint64_t issue_cycle = 0;      // timing mode: when it issued
  uint64_t waited_cycles = 0;    // ... how long the warp waited to issue it
  uint64_t done_cycle = 0;       // ... when its data came back (loads; 0 = not applicable)
};
struct WarpTrace {
  uint32_t block = 0;            // linear block index
  uint32_t warp = 0;             // warp index within the block
  std::vector<TraceRecord> records;
  uint64_t dropped = 0;          // records beyond the limit
};

struct LaunchStats {
  std::string kernel;
  std::string device;
  Dim3 grid, block;
  uint32_t dynamic_shared_bytes = 0;
  uint32_t l1_bytes = 0;             // each SM's L1 for this launch (0: none); see occupancy.shared_memory_per_sm
  bool timing_mode = false;
  double host_seconds = 0;

  ExecStats exec;
  bool mem_valid = false;                      // the memory pipeline counted transactions
  MemStats mem;
  OccupancyStats occupancy;
  TimingStats timing;
  DramStats dram;
  std::vector<PcStats> per_pc;                 // indexed by instruction
  std::vector<BranchInstanceStats> branches;   // one per conditional branch
  std::vector<WarpTrace> traces;               // --trace-warp
};

}  // namespace warpsim
