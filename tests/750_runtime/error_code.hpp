// The cudaError_t a Runtime call throws (as ApiError), or cudaSuccess if it returns.
#pragma once
#include "sim/runtime/runtime_error.hpp"

namespace rttest {

template <class F>
warpsim::cuda::Error code_of(F&& f) {
  try {
    f();
  } catch (const warpsim::runtime::ApiError& e) {
    return e.code();
  }
  return warpsim::cuda::Success;
}

}  // namespace rttest
