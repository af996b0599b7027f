#include "sim/engine/limit_guard.hpp"

#include <fmt/format.h>

#include "sim/foundation/error.hpp"

namespace warpsim {

LimitGuard::LimitGuard(const Limits& limits, std::string kernel)
    : limits_(limits), kernel_(std::move(kernel)), start_(std::chrono::steady_clock::now()) {}

double LimitGuard::elapsed_seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void LimitGuard::check_host_time() {
  since_clock_check_ = 0;
  if (host_time_exceeded())
    throw KernelFault(KernelFault::Kind::LimitExceeded,
                      fmt::format("kernel '{}' stopped: host time limit of {:.3g} s exceeded (infinite loop?)", kernel_,
                                  limits_.max_host_seconds));
}

void LimitGuard::fail_instructions(uint64_t total) const {
  throw KernelFault(KernelFault::Kind::LimitExceeded,
                    fmt::format("kernel '{}' stopped: instruction limit of {} warp instructions exceeded after {} "
                                "(infinite loop?)",
                                kernel_, limits_.max_warp_instructions, total));
}

void LimitGuard::fail_cycles(uint64_t cycle) const {
  throw KernelFault(KernelFault::Kind::LimitExceeded,
                    fmt::format("kernel '{}' stopped: cycle limit of {} simulated cycles exceeded at cycle {}", kernel_,
                                limits_.max_cycles, cycle));
}

}  // namespace warpsim
