// Whether this build runs under AddressSanitizer (tools/sanitize.sh), and what that changes
// for the processes warpsim starts: ASan reserves terabytes of shadow address space, so a
// child's address-space limit (RLIMIT_AS) cannot be set; and a program that preloads
// warpsim's instrumented libcudart must preload the ASan runtime before it.
#pragma once
#include <string>

namespace warpsim {

#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kAddressSanitizer = true;
#else
inline constexpr bool kAddressSanitizer = false;
#endif
#else
inline constexpr bool kAddressSanitizer = false;
#endif

// The file of the ASan runtime this process loaded; "" when there is none (every normal
// build) or it is linked statically.
std::string address_sanitizer_runtime();

// LD_PRELOAD for a child that must load `library`: the ASan runtime first when this build
// has one, then `library`, then `existing` (the caller's LD_PRELOAD, may be empty).
std::string preload_list(const std::string& library, const std::string& existing);

// ASAN_OPTIONS for such a child: the caller's, with leak detection and ASan's SIGSEGV
// handler off (the program itself is not instrumented: its own leaks and crashes are not
// warpsim's findings, and a crash must stay a crash). `existing` may be empty.
std::string child_asan_options(const std::string& existing);

}  // namespace warpsim
