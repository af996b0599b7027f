// First-pass block placement (block_placement.hpp).
#include "sim/engine/block_placement.hpp"

#include <algorithm>

namespace warpsim {

std::vector<uint32_t> first_pass_order(const DeviceSpec& spec, uint64_t grid_blocks) {
  const uint32_t n = spec.sm.count;
  if (spec.sm_fill_order.empty() || grid_blocks >= n || spec.gpcs <= 1) return spec.sm_fill_order;
  const uint32_t lead = uint32_t(std::min<uint64_t>(spec.gpc_small_grid_lead_sms, grid_blocks));
  const uint32_t tpc = std::max<uint32_t>(spec.gpc_tpc_sms, 1);
  std::vector<bool> taken(n, false);
  for (uint32_t k = 0; k < lead; ++k) taken[spec.sm_fill_order[k]] = true;
  // Each GPC's SMs in fill order, and the GPCs in the order their first SM comes.
  std::vector<std::vector<uint32_t>> lists(spec.gpcs);
  std::vector<uint32_t> gpc_order;
  for (uint32_t s : spec.sm_fill_order) {
    const uint32_t g = spec.gpc_of_sm[s];
    if (lists[g].empty()) gpc_order.push_back(g);
    lists[g].push_back(s);
  }
  // tiers[g][t]: GPC g's free SMs that would be the (t+1)-th busy SM of their TPC, in
  // fill order (an SM of a TPC the lead took counts that TPC's taken SMs first).
  std::vector<std::vector<std::vector<uint32_t>>> tiers(spec.gpcs, std::vector<std::vector<uint32_t>>(tpc));
  for (uint32_t g = 0; g < spec.gpcs; ++g)
    for (size_t first = 0; first < lists[g].size(); first += tpc) {
      const size_t end = std::min(lists[g].size(), first + tpc);
      uint32_t busy = 0;
      for (size_t i = first; i < end; ++i) busy += taken[lists[g][i]] ? 1 : 0;
      for (size_t i = first; i < end; ++i)
        if (!taken[lists[g][i]]) tiers[g][busy++].push_back(lists[g][i]);
    }
  // Deal the blocks after the lead: round by round over the GPCs in order, one tier at a time.
  std::vector<std::vector<uint32_t>> given(spec.gpcs);
  uint64_t left = grid_blocks - lead;
  for (uint32_t t = 0; t < tpc && left > 0; ++t) {
    std::vector<size_t> next(spec.gpcs, 0);
    bool dealt = true;
    while (left > 0 && dealt) {
      dealt = false;
      for (uint32_t g : gpc_order) {
        if (left == 0 || next[g] == tiers[g][t].size()) continue;
        given[g].push_back(tiers[g][t][next[g]++]);
        taken[given[g].back()] = true;
        --left;
        dealt = true;
      }
    }
  }
  std::vector<uint32_t> order(spec.sm_fill_order.begin(), spec.sm_fill_order.begin() + lead);
  order.reserve(n);
  for (uint32_t g : gpc_order) order.insert(order.end(), given[g].begin(), given[g].end());
  for (uint32_t g : gpc_order)
    for (uint32_t s : lists[g])
      if (!taken[s]) order.push_back(s);
  return order;
}

}  // namespace warpsim
