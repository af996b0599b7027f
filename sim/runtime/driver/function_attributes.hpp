// A kernel's CUfunction_attribute as cuFuncGetAttribute and cuKernelGetAttribute answer it
// (drv_module.cpp): `function` is any kernel handle, a host stub, a CUfunction or a CUkernel.
#pragma once
#include "sim/runtime/runtime.hpp"

namespace warpsim::runtime::driver {

// ApiError cudaErrorInvalidValue, naming `call`, for a number that is not an attribute.
int function_attribute(Runtime& rt, int attribute, const void* function, const char* call);

}  // namespace warpsim::runtime::driver
