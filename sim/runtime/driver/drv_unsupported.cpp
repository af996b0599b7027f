// Every other entry point of libcuda.so.1: it returns CUDA_ERROR_NOT_SUPPORTED and says
// once which call it was, so a program that uses one fails with CUDA's own error code
// instead of failing to load (a missing symbol) or getting a silent wrong answer.
#include "sim/runtime/driver/driver_context.hpp"

#define X(name) \
  WARPSIM_DRIVER_API int name(...) { return warpsim::runtime::api::driver_unsupported(#name); }
#include "sim/runtime/driver/unsupported_driver_calls.inc"
#undef X
