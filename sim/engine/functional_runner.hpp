// Runs a whole grid functionally: blocks one after another in linear order, the warps
// of a block round-robin, each until it blocks at a barrier or exits. No timing.
#pragma once
#include "sim/engine/device.hpp"
#include "sim/memory/memory_observer.hpp"
#include "sim/sm/warp_executor.hpp"

namespace warpsim {

class LimitGuard;

void run_functional(sm::WarpExecutor& executor, LimitGuard& limits, MemoryObserver* observer);

}  // namespace warpsim
