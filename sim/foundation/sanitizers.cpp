#include "sim/foundation/sanitizers.hpp"

#include <dlfcn.h>

extern "C" void __asan_init() __attribute__((weak));

namespace warpsim {

std::string address_sanitizer_runtime() {
  if (!kAddressSanitizer || &__asan_init == nullptr) return "";
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&__asan_init), &info) == 0 || info.dli_fname == nullptr) return "";
  const std::string file = info.dli_fname;
  return file.find("libasan") != std::string::npos || file.find("asan_rt") != std::string::npos ? file : "";
}

std::string preload_list(const std::string& library, const std::string& existing) {
  std::string out = address_sanitizer_runtime();
  out += (out.empty() ? "" : ":") + library;
  if (!existing.empty()) out += ":" + existing;
  return out;
}

std::string child_asan_options(const std::string& existing) {
  // handle_segv=0: the program's own crash stays a SIGSEGV (a verdict), not an ASan report.
  return (existing.empty() ? "" : existing + ":") + "detect_leaks=0:handle_segv=0";
}

}  // namespace warpsim
