// Error queries: CUDA's names and strings for the codes this runtime returns.
#include "sim/runtime/driver/process_context.hpp"
#include "sim/runtime/error_text.hpp"

WARPSIM_API const char* cudaGetErrorString(int code) { return warpsim::runtime::cuda_error_string(code); }

WARPSIM_API const char* cudaGetErrorName(int code) { return warpsim::runtime::cuda_error_name(code); }

WARPSIM_API int cudaGetLastError() { return warpsim::runtime::api::last_error(true); }
WARPSIM_API int cudaPeekAtLastError() { return warpsim::runtime::api::last_error(false); }
