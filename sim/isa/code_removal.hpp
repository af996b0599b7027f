// Removing instructions from a decoded kernel after load-time passes (shared_load_merging,
// if_conversion): every index that names an instruction (branch targets, reconvergence
// points, function entries and returns) is renumbered, and the control-flow analysis is
// redone. Precondition: no removed instruction is a branch target, a function's entry or
// its return.
#pragma once
#include <vector>

#include "sim/isa/ir.hpp"

namespace warpsim::isa {

// Removes code[i] (and text[i]) wherever removed[i]; removed.size() == code.size().
void remove_instructions(Kernel& k, const std::vector<bool>& removed);

}  // namespace warpsim::isa
