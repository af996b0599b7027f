// Errors of the CUDA runtime layer. Each carries the cudaError_t the API call returns.
#pragma once
#include "sim/foundation/error.hpp"
#include "sim/runtime/cuda_abi.hpp"

namespace warpsim::runtime {

// A runtime API call that fails: `code` is what the call returns, the message goes to
// stderr (once per distinct failure) naming the call and the reason.
class ApiError : public Error {
 public:
  ApiError(cuda::Error code, const std::string& msg) : Error(msg), code_(code) {}
  cuda::Error code() const { return code_; }

 private:
  cuda::Error code_;
};

// cudaErrorInvalidValue from instantiating a graph whose dependencies form a cycle, which
// cudaGraphInstantiateWithParams reports as cudaGraphInstantiateInvalidStructure.
class GraphCycleError : public ApiError {
 public:
  using ApiError::ApiError;
};

// The simulated machine has one device, 0: any other number is cudaErrorInvalidDevice.
void check_device(int device, const char* call);

// A fatbinary that cannot be read or holds no PTX.
class FatbinError : public Error {
 public:
  using Error::Error;
};

}  // namespace warpsim::runtime
