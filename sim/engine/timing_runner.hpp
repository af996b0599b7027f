// Runs a grid in timing mode: the SMs and the memory system are wired here, blocks are
// handed to SMs as their resources free up (in linear block order, round-robin over SMs),
// and the clock jumps over cycles in which nothing can happen.
#pragma once
#include "sim/spec/device_spec.hpp"
#include "sim/foundation/launch_stats.hpp"
#include "sim/engine/limit_guard.hpp"
#include "sim/memory/memory_counter.hpp"
#include "sim/memory/memory_system.hpp"
#include "sim/sm/warp_executor.hpp"

namespace warpsim {

// `counter` counts transactions and bank conflicts (its caches unused: the memory system
// models them with timing).
class Timeline;
struct TimingThreads;

// `timeline` (optional) receives SM and DRAM events. `timed_blocks` (0: the whole grid)
// times only the grid's first blocks, for sampling (engine/sampling.hpp); it then records
// in stats.timing.sample its steady-state window (engine/sampling.hpp). `threads` > 1
// ticks the SMs in parallel (engine/sm_phase.hpp: the same statistics for any count); a
// timeline or warp traces make it 1; `adaptive`: SmPhase::set_adaptive.
// `kept` (optional): the memory system of the device's earlier launches, whose L2 and DRAM
// state this launch starts from (MemorySystem::begin_launch); null: a new, cold one. When
// the launch throws, `kept` is left mid-launch and must not be used again. `pool`
// (optional): the device's worker threads and phase chooser, kept across launches.
// `epoch` > 1: SMs and the memory system exchange requests and responses only every `epoch`
// cycles (the SMs of an epoch tick on their own: faster, and parallel for longer stretches;
// the times move by a few cycles per memory round trip; docs/performance.md, "Epochs"). 1:
// every cycle.
void run_timing(const DeviceSpec& spec, sm::WarpExecutor& executor, MemoryCounter& counter, LaunchStats& stats,
                LimitGuard& limits, Timeline* timeline = nullptr, uint64_t timed_blocks = 0, uint32_t threads = 1,
                bool adaptive = true, mem::MemorySystem* kept = nullptr, TimingThreads* pool = nullptr,
                uint32_t epoch = 1);

}  // namespace warpsim
