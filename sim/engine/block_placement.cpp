// First-pass block placement (block_placement.hpp).
#include "sim/engine/block_placement.hpp"

#include <algorithm>

namespace warpsim {

std::vector<uint32_t> first_pass_order(const DeviceSpec& spec, uint64_t grid_blocks) {
  const uint32_t n = spec.sm.count;
  if (spec.sm_fill_order.empty() || grid_blocks >= n || spec.gpcs <= 1) return spec.sm_fill_order;
  // Each GPC's SMs in fill order, and the GPCs in the order their first SM comes.
  std::vector<std::vector<uint32_t>> lists(spec.gpcs);
  std::vector<uint32_t> gpc_order;
  for (uint32_t s : spec.sm_fill_order) {
    const uint32_t g = spec.gpc_of_sm[s];
    if (lists[g].empty()) gpc_order.push_back(g);
    lists[g].push_back(s);
  }
  // Shares in proportion to the GPCs' sizes, by largest remainder (ties: the earlier GPC).
  std::vector<uint64_t> share(spec.gpcs), remainder(spec.gpcs);
  uint64_t given = 0;
  for (uint32_t g = 0; g < spec.gpcs; ++g) {
    share[g] = grid_blocks * lists[g].size() / n;
    remainder[g] = grid_blocks * lists[g].size() % n;
    given += share[g];
  }
  std::vector<uint32_t> by_remainder = gpc_order;
  std::stable_sort(by_remainder.begin(), by_remainder.end(),
                   [&](uint32_t a, uint32_t b) { return remainder[a] > remainder[b]; });
  for (size_t k = 0; given < grid_blocks; ++k, ++given) ++share[by_remainder[k % by_remainder.size()]];
  std::vector<uint32_t> order;
  order.reserve(n);
  for (uint32_t g : gpc_order) order.insert(order.end(), lists[g].begin(), lists[g].begin() + long(share[g]));
  for (uint32_t g : gpc_order) order.insert(order.end(), lists[g].begin() + long(share[g]), lists[g].end());
  return order;
}

}  // namespace warpsim
