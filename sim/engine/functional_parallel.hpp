// Functional launches on several host threads (--threads N): blocks run in epochs (about
// 2^18 warp instructions each); the threads take an epoch's blocks in chunks of consecutive
// blocks, in increasing order, each thread with its own executor and transaction counter,
// so each thread's blocks run in block order. Everything a launch reports is the serial
// run's, bit for bit:
//  - counts are integers summed over the threads (launch_stats_merge.hpp);
//  - the caches see every access in block order: each chunk's accesses are logged, and the
//    logs are applied chunk after chunk, by thread 0 while the others run the next epoch;
//  - blocks of different threads must not touch the same global bytes where one of them
//    writes (which would make the result depend on timing). Each thread records the bytes
//    it read and wrote; where two threads' records meet, or a thread faults or passes the
//    instruction or host time limit, the epoch's global writes are undone (every page a
//    store touched was saved first, mem::PageSnapshot) and its blocks run again one after
//    another, which gives the serial run's results and errors. After two such epochs the
//    rest of the launch runs serially.
// Kernels whose blocks can see each other's order in other ways run serially from the
// start: global (or generic) atomics, %clock and %globaltimer, device printf, malloc and
// free, surface stores, graph conditionals and the device runtime (dynamic parallelism).
#pragma once
#include <cstdint>

#include "sim/isa/ir.hpp"
#include "sim/spec/device_spec.hpp"
#include "sim/sm/warp_executor.hpp"

namespace warpsim {

class LimitGuard;
class MemoryCounter;
struct LaunchStats;

// Whether blocks of `k` may run on several threads (see above).
bool blocks_may_run_in_parallel(const isa::Kernel& k);

// What a parallel functional run did (for tests and benchmarks; never in reports, which
// must not depend on the thread count).
struct FunctionalParallelReport {
  uint64_t epochs = 0;           // epochs run on several threads and kept
  uint64_t serial_epochs = 0;    // epochs undone and run again serially
  uint64_t conflicts = 0;        // of those, because two threads touched the same bytes
  uint64_t serial_blocks = 0;    // blocks run serially (undone epochs, the tail, small grids)
};

// Runs the blocks of the launch of `executor` (whose stats are the launch's) from
// `first_block` on with `threads` threads; `counter` is the launch's counter (its caches, if
// it models them, see every access in block order). `instructions_before`: warp
// instructions the launch executed before (a sampled timing run's timed blocks), counted
// against its limits. `deal_in_turn`: an epoch's chunks go to the threads in turn (chunk c to
// thread c mod threads) instead of to whichever is free, so every thread runs blocks even on
// a host too busy to start them together (tests that must see two threads' blocks meet;
// LaunchOptions::threads_adaptive false). Throws what the serial run would throw.
void run_functional_parallel(sm::WarpExecutor& executor, LimitGuard& limits, MemoryCounter& counter,
                             const DeviceSpec& spec, LaunchStats& stats, uint32_t threads, uint64_t first_block = 0,
                             uint64_t instructions_before = 0, FunctionalParallelReport* report = nullptr,
                             bool deal_in_turn = false);

}  // namespace warpsim
