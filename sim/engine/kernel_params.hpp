// Builds a kernel's .param buffer from host arguments, converting each argument to the
// type its .param declares, with errors that name the parameter.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "sim/engine/device.hpp"

namespace warpsim {

std::vector<uint8_t> build_param_buffer(const isa::Kernel& kernel, std::span<const KernelArg> args);

}  // namespace warpsim
