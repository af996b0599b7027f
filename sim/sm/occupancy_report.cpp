#include "sim/sm/occupancy_report.hpp"

#include <fmt/format.h>

namespace warpsim::sm {

Json occupancy_json(const OccupancyStats& s) {
  return Json{
      {"threads_per_block", s.threads_per_block},
      {"registers_per_thread", s.registers_per_thread},
      {"shared_bytes_per_block", s.shared_bytes_per_block},
      {"shared_memory_per_sm", s.shared_memory_per_sm},
      {"warps_per_block", s.warps_per_block},
      {"blocks_per_sm", s.blocks_per_sm},
      {"limit_warps", s.limit_warps},
      {"limit_blocks", s.limit_blocks},
      {"limit_registers", s.limit_registers},
      {"limit_shared", s.limit_shared},
      {"limiter", s.limiter},
      {"active_warps_per_sm", s.active_warps_per_sm},
      {"max_warps_per_sm", s.max_warps_per_sm},
      {"theoretical_occupancy", s.theoretical_occupancy},
      {"registers_estimated", s.registers_estimated},
  };
}

std::string occupancy_text(const OccupancyDetail& d) {
  const OccupancyStats& s = d.stats;
  std::string out;
  out += fmt::format("Block:            {} threads = {} warps, {} registers per thread, {} bytes of shared memory\n",
                     s.threads_per_block, s.warps_per_block, s.registers_per_thread, s.shared_bytes_per_block);
  std::string regs = "registers unused";
  if (d.registers_per_block)
    regs = fmt::format("registers {} per block ({} warps allocated)", d.registers_per_block,
                       d.warps_allocated_per_block);
  else if (d.registers_per_warp)
    regs = fmt::format("registers {} per warp ({} warps per SM)", d.registers_per_warp, d.register_warps_per_sm);
  std::string shared = d.shared_allocated_per_block
                           ? fmt::format("shared memory {} bytes per block", d.shared_allocated_per_block)
                           : std::string("shared memory unused");
  out += fmt::format("Allocated:        {}, {}\n", regs, shared);
  out += fmt::format("Limits (blocks):  warps {}, blocks {}, registers {}, shared memory {}\n", s.limit_warps,
                     s.limit_blocks, s.limit_registers, s.limit_shared);
  out += fmt::format("Blocks per SM:    {} (limited by {})\n", s.blocks_per_sm, s.limiter);
  out += fmt::format("Warps per SM:     {} of {}\n", s.active_warps_per_sm, s.max_warps_per_sm);
  out += fmt::format("Threads per SM:   {}\n", s.blocks_per_sm * s.threads_per_block);
  out += fmt::format("Occupancy:        {:.1f}% ({}/{} warps)\n", 100.0 * s.theoretical_occupancy,
                     s.active_warps_per_sm, s.max_warps_per_sm);
  return out;
}

}  // namespace warpsim::sm
