// Every other entry point of libcudart.so.13: it returns cudaErrorNotSupported and says
// once which call it was, so a program that uses one fails with CUDA's own error code
// instead of failing to load (a missing symbol) or getting a silent wrong answer.
#include "sim/runtime/api/api_context.hpp"

namespace {
// cudaChannelFormatDesc, the one struct an entry point returns by value.
struct ChannelFormatDesc {
  int x, y, z, w;
  int f;
};
}  // namespace

// Implemented because it returns a struct: a generic stub could not return it correctly.
WARPSIM_API ChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, int f) { return {x, y, z, w, f}; }

#define X(name) \
  WARPSIM_API int name(...) { return warpsim::runtime::api::unsupported(#name); }
#include "sim/runtime/api/unsupported_calls.inc"
#undef X
