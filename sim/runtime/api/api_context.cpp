#include "sim/runtime/api/api_context.hpp"

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <set>
#include <string>

#include "sim/runtime/exec_report.hpp"

namespace warpsim::runtime::api {

namespace {

struct Context {
  std::recursive_mutex mutex;
  Runtime* runtime = nullptr;  // never destroyed: calls may come from other exit handlers
  bool failed = false;
  std::set<std::string> printed;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

// The one process-wide object of this layer (see api_context.hpp).
Context& context() {
  static Context* c = new Context;
  return *c;
}

thread_local int t_last_error = cuda::Success;

std::string program_name() {
  std::ifstream f("/proc/self/cmdline");
  std::string arg0;
  std::getline(f, arg0, '\0');
  auto slash = arg0.rfind('/');
  return slash == std::string::npos ? arg0 : arg0.substr(slash + 1);
}

void print_once(Context& c, const std::string& msg) {
  if (msg.empty()) return;
  if (c.printed.insert(msg).second) fmt::print(stderr, "warpsim: {}\n", msg);
}

void at_exit() {
  Context& c = context();
  std::lock_guard lock(c.mutex);
  if (!c.runtime) return;
  const Runtime& rt = *c.runtime;
  const double host = std::chrono::duration<double>(std::chrono::steady_clock::now() - c.start).count();
  try {
    if (!rt.options().json_out.empty()) {
      std::ofstream f(rt.options().json_out);
      if (!f) fmt::print(stderr, "warpsim: {}: cannot write the JSON report\n", rt.options().json_out);
      write_exec_json(f, rt.launches(), rt.copies(), rt.faults(), rt.spec(), rt.options());
    }
    if (rt.options().summary) fmt::print(stderr, "{}", format_exec_summary(rt.launches(), rt.copies(), rt.faulted_launches(), rt.spec(), rt.options(), host));
  } catch (const std::exception& e) {
    fmt::print(stderr, "warpsim: writing the exit report failed: {}\n", e.what());
  }
}

}  // namespace

Runtime* instance() {
  Context& c = context();
  if (c.runtime || c.failed) return c.runtime;
  try {
    RuntimeOptions o = RuntimeOptions::from_environment([](const char* n) { return std::getenv(n); });
    if (o.program == "program") o.program = program_name();
    c.runtime = new Runtime(std::move(o));
    std::atexit(at_exit);
  } catch (const std::exception& e) {
    c.failed = true;
    fmt::print(stderr, "warpsim: cannot start the simulated device: {}\n", e.what());
  }
  return c.runtime;
}

int call(const char* name, const std::function<void(Runtime&)>& body, Sticky sticky) {
  Context& c = context();
  std::lock_guard lock(c.mutex);
  Runtime* rt = instance();
  int code = cuda::Success;
  if (!rt) {
    code = cuda::ErrorInitializationError;
  } else if (sticky == Sticky::Check && rt->sticky_error() != cuda::Success) {
    code = rt->sticky_error();
  } else {
    try {
      body(*rt);
    } catch (const ApiError& e) {
      code = e.code();
      print_once(c, e.what());
    } catch (const Error& e) {
      code = cuda::ErrorUnknown;
      print_once(c, fmt::format("{}: {}", name, e.what()));
    } catch (const std::bad_alloc&) {
      code = cuda::ErrorMemoryAllocation;
      print_once(c, fmt::format("{}: the host ran out of memory", name));
    } catch (const std::exception& e) {
      code = cuda::ErrorUnknown;
      print_once(c, fmt::format("{}: internal error: {}", name, e.what()));
    }
    // A fault inside this call (a launch) becomes sticky but the call itself succeeds.
  }
  if (code != cuda::Success) t_last_error = code;
  return code;
}

int last_error(bool clear) {
  Context& c = context();
  std::lock_guard lock(c.mutex);
  Runtime* rt = instance();
  int code = t_last_error;
  if (rt && rt->sticky_error() != cuda::Success) code = rt->sticky_error();
  if (clear) t_last_error = cuda::Success;
  return code;
}

int unsupported(const char* name) {
  Context& c = context();
  std::lock_guard lock(c.mutex);
  print_once(c, fmt::format("{} is not supported by warpsim's CUDA runtime (it returns cudaErrorNotSupported)", name));
  t_last_error = cuda::ErrorNotSupported;
  return cuda::ErrorNotSupported;
}

}  // namespace warpsim::runtime::api
