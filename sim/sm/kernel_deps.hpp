// Register dependences of every instruction of a kernel, flattened once per launch for
// the scoreboard: the register slots each instruction reads and writes. Predicate
// registers are numbered after the data slots (slot = num_slots + predicate index).
#pragma once
#include <cstdint>
#include <vector>

#include "sim/isa/ir.hpp"

namespace warpsim::sm {

class KernelDeps {
 public:
  explicit KernelDeps(const isa::Kernel& k);

  uint32_t scoreboard_size() const { return size_; }
  // Slots read by the instruction at pc (its guard included), then slots it writes.
  const uint16_t* reads_begin(uint32_t pc) const { return pool_.data() + off_[pc].rb; }
  const uint16_t* reads_end(uint32_t pc) const { return pool_.data() + off_[pc].re; }
  const uint16_t* writes_begin(uint32_t pc) const { return pool_.data() + off_[pc].re; }
  const uint16_t* writes_end(uint32_t pc) const { return pool_.data() + off_[pc].we; }

 private:
  struct Range {
    uint32_t rb, re, we;
  };
  std::vector<uint16_t> pool_;
  std::vector<Range> off_;
  uint32_t size_ = 0;
};

}  // namespace warpsim::sm
