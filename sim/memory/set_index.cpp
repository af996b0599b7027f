#include "sim/memory/set_index.hpp"

#include <stdexcept>
#include <utility>

namespace warpsim::mem {

SetIndex::SetIndex(const CacheSpec& spec) : index_(spec.index), line_bytes_(spec.line_bytes), sets_(spec.sets) {
  if (spec.index == IndexFunction::SliceXor)
    throw std::invalid_argument("SetIndex: slice_xor needs the DRAM address map and the slices per channel");
}

SetIndex::SetIndex(const CacheSpec& spec, std::shared_ptr<const AddressMap> map, uint32_t slices_per_channel)
    : index_(spec.index), line_bytes_(spec.line_bytes), sets_(spec.sets) {
  if (spec.index != IndexFunction::SliceXor) return;
  if (!map || slices_per_channel == 0)
    throw std::invalid_argument("SetIndex: slice_xor needs the DRAM address map and the slices per channel");
  map_ = std::move(map);
  slice_stride_ = uint64_t(spec.line_bytes) * slices_per_channel;
}

}  // namespace warpsim::mem
