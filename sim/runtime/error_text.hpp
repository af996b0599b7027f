// A CUDA error code's name and string, as the runtime's and the driver's tables hold them
// (api/api_error.cpp, driver/drv_error.cpp).
#pragma once
#include <cstddef>

namespace warpsim::runtime {

struct ErrorText {
  int code;
  const char* name;
  const char* text;
};

// The table's entry for `code`, or null.
template <size_t N>
const ErrorText* find_error_text(const ErrorText (&table)[N], int code) {
  for (const ErrorText& e : table)
    if (e.code == code) return &e;
  return nullptr;
}

// The runtime API's (libcudart 13's) name and string of a code; "unrecognized error code"
// for one it does not have (runtime_error_text.cpp).
const char* cuda_error_string(int code);
const char* cuda_error_name(int code);

}  // namespace warpsim::runtime
