// The most bytes of parameters a kernel may take: 32,764 since CUDA 12.1 on Volta and later,
// 4096 before. The PTX reader bounds a module by the larger; a launch checks its device's
// own limit (sim/engine/launch_validation.cpp).
#pragma once
#include <cstdint>

namespace warpsim::isa {

constexpr uint32_t kMaxKernelParamBytes = 32764;
constexpr uint32_t kMaxKernelParamBytesBeforeVolta = 4096;

}  // namespace warpsim::isa
