// The set of one cache that an address maps to. The address functions (linear, fermi_hash,
// xor) need only the cache's spec; slice_xor, for L2 slices, also needs the DRAM address
// map: it numbers a line among the lines of its slice (the address with the channel field
// removed, / line_bytes / slices_per_channel) and XOR-folds that number, so the lines of a
// contiguous buffer fill each slice's sets evenly however the channel hash scatters them.
#pragma once
#include <cstdint>
#include <memory>

#include "sim/memory/address_map.hpp"
#include "sim/memory/cache_spec.hpp"

namespace warpsim::mem {

class SetIndex {
 public:
  // Address functions only; throws std::invalid_argument for slice_xor.
  explicit SetIndex(const CacheSpec& spec);
  // Any function; `map` is used (and kept alive) only for slice_xor.
  SetIndex(const CacheSpec& spec, std::shared_ptr<const AddressMap> map, uint32_t slices_per_channel);

  uint32_t operator()(uint64_t addr) const {
    if (map_) return xor_fold_set(map_->channel_local(addr) / slice_stride_, sets_);
    return address_set_index(index_, line_bytes_, sets_, addr);
  }

 private:
  IndexFunction index_;
  uint32_t line_bytes_, sets_;
  std::shared_ptr<const AddressMap> map_;  // set for slice_xor
  uint64_t slice_stride_ = 1;  // line_bytes * slices_per_channel
};

}  // namespace warpsim::mem
