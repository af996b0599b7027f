// Every other entry point of libcudart.so.13: it returns cudaErrorNotSupported and says
// once which call it was, so a program that uses one fails with CUDA's own error code
// instead of failing to load (a missing symbol) or getting a silent wrong answer.
#include "sim/runtime/driver/process_context.hpp"

#define X(name) \
  WARPSIM_API int name(...) { return warpsim::runtime::api::unsupported(#name); }
#include "sim/runtime/api/unsupported_calls.inc"
#undef X
