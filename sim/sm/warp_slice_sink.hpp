// Where a timed SM reports what each warp slot did and when (issue slices and stall
// intervals by reason), for a trace of the run. The engine's Timeline implements it; the SM
// knows only this interface.
#pragma once
#include <cstdint>
#include <string>

namespace warpsim::sm {

class WarpSliceSink {
 public:
  virtual ~WarpSliceSink() = default;
  // A slice of warp slot `slot` on SM `sm` in SM cycles [begin, end). `category` is a
  // literal ("issue", "stall"); `name` says which instruction class or stall reason.
  virtual void warp_slice(uint32_t sm, uint32_t slot, const char* category, const std::string& name, uint64_t begin,
                          uint64_t end) = 0;
};

}  // namespace warpsim::sm
