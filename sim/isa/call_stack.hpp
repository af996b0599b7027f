// The stack a kernel's calls need, as ptxas works it out: for a call graph without
// recursion, the deepest chain of activations (each function's frame_bytes). The CUDA driver
// raises the per-thread stack to this at launch whatever cudaLimitStackSize says; only
// recursive code is held to the limit (ptxas: "stack size cannot be statically determined").
#pragma once
#include <cstdint>
#include <optional>

#include "sim/isa/ir.hpp"

namespace warpsim::isa {

// Bytes of stack the deepest call chain from the kernel needs (0 without calls), or nullopt
// when a function can reach itself (recursion) or makes an indirect call.
std::optional<uint64_t> static_stack_bytes(const Kernel& k);

}  // namespace warpsim::isa
