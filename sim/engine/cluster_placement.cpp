#include "sim/engine/cluster_placement.hpp"

#include <algorithm>

namespace warpsim {

std::vector<std::vector<uint32_t>> cluster_groups(const DeviceSpec& spec, uint32_t size) {
  std::vector<std::vector<uint32_t>> groups;
  const auto& pair_only = spec.clusters.pair_only_sms;
  auto allowed = [&](uint32_t sm) {
    return size <= spec.gpc_tpc_sms || std::find(pair_only.begin(), pair_only.end(), sm) == pair_only.end();
  };
  if (spec.gpcs == 0) {
    groups.emplace_back();
    for (uint32_t sm = 0; sm < spec.sm.count; ++sm)
      if (allowed(sm)) groups.back().push_back(sm);
    return groups;
  }
  groups.resize(spec.gpcs);
  for (uint32_t sm : spec.sm_fill_order)
    if (allowed(sm)) groups[spec.gpc_of_sm[sm]].push_back(sm);
  return groups;
}

uint64_t max_active_clusters(const DeviceSpec& spec, uint32_t size, uint32_t blocks_per_sm) {
  if (size == 0) return 0;
  uint64_t n = 0;
  for (const auto& g : cluster_groups(spec, size))
    if (g.size() >= size) n += uint64_t(g.size()) * blocks_per_sm / size;
  return n;
}

}  // namespace warpsim
