#include "sim/runtime/driver/process_context.hpp"

#include <fmt/format.h>
#include <unistd.h>

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
  bool runtime_api_used = false;  // a libcudart call was made (it makes the primary context current)
  std::set<std::string> printed;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
};

// The one process-wide object of this layer (see process_context.hpp).
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

// At exit (nvcc's __cudaUnregisterFatBinary, whose exit handler runs before warpsim's, or
// warpsim's own): launches the program never waited for run now, so that the report counts
// them, and it is told that their device printf output is dropped, as on a GPU.
void finish_queued(Runtime& rt) {
  const uint64_t n = rt.queued_launches();
  if (!n) return;
  try {
    rt.drain_at_exit();
  } catch (const std::exception& e) {
    fmt::print(stderr, "warpsim: {}\n", e.what());
  }
  fmt::print(stderr,
             "warpsim: note: the program exited without waiting for its last {} kernel launch{} (no "
             "cudaDeviceSynchronize, blocking copy or other synchronising call after {}): {} device printf output "
             "is not printed, as on a GPU, where it is flushed only at such calls; the report counts {}\n",
             n, n == 1 ? "" : "es", n == 1 ? "it" : "them", n == 1 ? "its" : "their", n == 1 ? "it" : "them");
}

void at_exit() {
  Context& c = context();
  std::lock_guard lock(c.mutex);
  if (!c.runtime) return;
  Runtime& rt = *c.runtime;
  finish_queued(rt);
  const double host = std::chrono::duration<double>(std::chrono::steady_clock::now() - c.start).count();
  try {
    if (!rt.options().json_out.empty()) {
      std::ofstream f(rt.options().json_out);
      if (!f) fmt::print(stderr, "warpsim: {}: cannot write the JSON report\n", rt.options().json_out);
      write_exec_json(f, rt.json_launches(), rt.copies(), rt.faults(), rt.spec(), rt.options());
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
    const std::string name = program_name();
    if (o.program == "program") o.program = name;
    for_other_process(o, ::getpid(), name);  // a process the program started
    c.runtime = new Runtime(std::move(o));
    std::atexit(at_exit);
  } catch (const std::exception& e) {
    c.failed = true;
    fmt::print(stderr, "warpsim: cannot start the simulated device: {}\n", e.what());
  }
  return c.runtime;
}

namespace {

// The body of every call; `runtime_api`: a libcudart call, whose error cudaGetLastError
// reports (the driver API's errors are only returned).
int run(const char* name, const std::function<void(Runtime&)>& body, Sticky sticky, bool runtime_api,
        bool ordered = false) {
  Context& c = context();
  std::lock_guard lock(c.mutex);
  Runtime* rt = instance();
  if (runtime_api) c.runtime_api_used = true;
  int code = cuda::Success;
  if (!rt) {
    code = cuda::ErrorInitializationError;
  } else {
    // The queue runs first (its faults become sticky, and a later check sees them);
    // an ordered call's launch queues behind it.
    struct Queueing {
      Runtime& rt;
      bool was;
      ~Queueing() { rt.set_queueing(was); }
    } queueing{*rt, rt->queueing()};
    try {
      if (!ordered) rt->drain();
      if (sticky == Sticky::Check && rt->sticky_error() != cuda::Success) {
        code = rt->sticky_error();
      } else {
        rt->set_queueing(ordered);
        body(*rt);
      }
    } catch (const ApiError& e) {
      code = e.code();
      if (code != cuda::ErrorNotReady) print_once(c, e.what());  // a query's answer, not an error
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
  if (code != cuda::Success && code != cuda::ErrorNotReady && runtime_api) t_last_error = code;
  return code;
}

}  // namespace

int call(const char* name, const std::function<void(Runtime&)>& body, Sticky sticky) {
  return run(name, body, sticky, true);
}

int ordered_call(const char* name, const std::function<void(Runtime&)>& body, Sticky sticky) {
  return run(name, body, sticky, true, true);
}

int driver_call(const char* name, const std::function<void(Runtime&)>& body, Sticky sticky) {
  return run(name, body, sticky, false);
}

int registration_call(const char* name, const std::function<void(Runtime&)>& body) {
  return run(name, body, Sticky::Ignore, false);
}

void finish_queued_at_exit() {
  Context& c = context();
  std::lock_guard lock(c.mutex);
  if (c.runtime) finish_queued(*c.runtime);
}

int run_due_destructors(int rc) {
  std::vector<std::pair<void (*)(void*), void*>> due;
  {
    Context& c = context();
    std::lock_guard lock(c.mutex);
    if (c.runtime) due = c.runtime->take_due_destructors();
  }
  for (const auto& [destroy, ptr] : due) destroy(ptr);
  return rc;
}

bool runtime_api_used() {
  Context& c = context();
  std::lock_guard lock(c.mutex);
  return c.runtime_api_used;
}

void print_message(const std::string& message) {
  Context& c = context();
  std::lock_guard lock(c.mutex);
  print_once(c, message);
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

int driver_unsupported(const char* name) {
  print_message(fmt::format("{} is not supported by warpsim's CUDA driver (it returns CUDA_ERROR_NOT_SUPPORTED)", name));
  return cuda::ErrorNotSupported;
}

}  // namespace warpsim::runtime::api
