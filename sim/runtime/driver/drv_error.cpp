// Driver API: the names and strings of CUresult codes, as NVIDIA's driver gives them.
#include "sim/runtime/driver/driver_context.hpp"
#include "sim/runtime/error_text.hpp"

namespace {

using warpsim::runtime::ErrorText;

constexpr ErrorText kErrors[] = {
#define E(code, name, text) {code, name, text},
#include "sim/runtime/driver/driver_error_strings.inc"
#undef E
};

// An unknown code: CUDA_ERROR_INVALID_VALUE and a NULL string, as the driver answers.
int lookup(int code, const char** out, bool name) {
  if (!out) return warpsim::cu::ErrorInvalidValue;
  const ErrorText* e = warpsim::runtime::find_error_text(kErrors, code);
  *out = e ? (name ? e->name : e->text) : nullptr;
  return e ? warpsim::cu::Success : warpsim::cu::ErrorInvalidValue;
}

}  // namespace

WARPSIM_DRIVER_API int cuGetErrorName(int code, const char** name) { return lookup(code, name, true); }
WARPSIM_DRIVER_API int cuGetErrorString(int code, const char** text) { return lookup(code, text, false); }
