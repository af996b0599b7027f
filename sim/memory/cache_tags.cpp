#include "sim/memory/cache_tags.hpp"

namespace warpsim::mem {

CacheTags::CacheTags(const CacheSpec& spec)
    : sets_(spec.sets),
      ways_(spec.ways),
      lines_(size_t(spec.sets) * spec.ways),
      keys_(size_t(spec.sets) * spec.ways, kNoKey),
      policy_(make_replacement_policy(spec.replacement, spec.sets, spec.ways)) {}

std::optional<uint32_t> CacheTags::find(uint32_t set, uint64_t line_addr) const {
  if (line_addr == kNoKey) return std::nullopt;  // kNoKey marks a free way
  const uint64_t* k = &keys_[idx(set, 0)];
  for (uint32_t w = 0; w < ways_; ++w)
    if (k[w] == line_addr) return w;
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

std::optional<uint32_t> CacheTags::victim(uint32_t set, AccessProperty incoming, uint32_t persisting_ways) const {
  uint64_t candidates = 0, persisting = 0, streaming = 0;
  uint32_t held = 0;
  for (uint32_t w = 0; w < ways_; ++w) {
    const CacheLine& l = lines_[idx(set, w)];
    if (!l.allocated) return w;
    const uint64_t bit = uint64_t(1) << w;
    held += l.prop == AccessProperty::Persisting;
    if (l.reserved) continue;
    candidates |= bit;
    if (l.prop == AccessProperty::Persisting) persisting |= bit;
    else if (l.prop == AccessProperty::Streaming) streaming |= bit;
  }
  if (candidates == 0) return std::nullopt;
  uint64_t pick = candidates;
  if (persisting) {
    if (incoming == AccessProperty::Persisting && held >= persisting_ways) pick = persisting;
    else if (held <= persisting_ways) pick = candidates & ~persisting;
    if (pick == 0) pick = candidates;
  }
  if (pick & streaming) pick &= streaming;
  return policy_->victim(set, pick);
}

uint32_t CacheTags::persisting_lines(uint32_t set) const {
  uint32_t n = 0;
  for (uint32_t w = 0; w < ways_; ++w) n += lines_[idx(set, w)].prop == AccessProperty::Persisting;
  return n;
}

void CacheTags::insert(uint32_t set, uint32_t way, uint64_t line_addr) {
  CacheLine& l = lines_[idx(set, way)];
  l = CacheLine{};
  l.line_addr = line_addr;
  l.allocated = true;
  keys_[idx(set, way)] = line_addr;
  policy_->on_insert(set, way);
}

}  // namespace warpsim::mem
