#include "sim/memory/cache_tags.hpp"

namespace warpsim::mem {

CacheTags::CacheTags(const CacheSpec& spec)
    : sets_(spec.sets),
      ways_(spec.ways),
      lines_(size_t(spec.sets) * spec.ways),
      policy_(make_replacement_policy(spec.replacement, spec.sets, spec.ways)) {}

std::optional<uint32_t> CacheTags::find(uint32_t set, uint64_t line_addr) const {
  for (uint32_t w = 0; w < ways_; ++w) {
    const CacheLine& l = lines_[idx(set, w)];
    if (l.allocated && l.line_addr == line_addr) return w;
  }
  return std::nullopt;
}

std::optional<uint32_t> CacheTags::victim(uint32_t set) const {
  uint64_t candidates = 0;
  for (uint32_t w = 0; w < ways_; ++w) {
    const CacheLine& l = lines_[idx(set, w)];
    if (!l.allocated) return w;
    if (!l.reserved) candidates |= uint64_t(1) << w;
  }
  if (candidates == 0) return std::nullopt;
  return policy_->victim(set, candidates);
}

void CacheTags::insert(uint32_t set, uint32_t way, uint64_t line_addr) {
  CacheLine& l = lines_[idx(set, way)];
  l = CacheLine{};
  l.line_addr = line_addr;
  l.allocated = true;
  policy_->on_insert(set, way);
}

}  // namespace warpsim::mem
