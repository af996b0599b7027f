// Stream capture modes (cudaStreamBeginCapture's mode, cudaThreadExchangeStreamCaptureMode)
// and the calls they forbid while a capture records. Measured on an H200
// (tests/750_runtime/programs/capture_modes.cu): in global and thread-local captures the
// capturing thread may not allocate or free memory (cudaMalloc, cudaMallocHost,
// cudaMallocPitch, cudaHostAlloc, cudaMallocManaged, cudaFree, cudaFreeHost) nor wait on or
// query other work (cudaStreamSynchronize and cudaStreamQuery of another stream,
// cudaEventQuery, cudaEventSynchronize, cudaDeviceSynchronize); during a global capture no
// other thread in global mode may either; a thread in relaxed mode may, but not
// cudaDeviceSynchronize while it captures itself. Such a call returns
// cudaErrorStreamCaptureUnsupported and invalidates the captures that forbade it; blocking
// copies and memsets, copies on other streams and queries of the device are allowed.
#include <fmt/format.h>

#include "sim/runtime/runtime.hpp"

namespace warpsim::runtime {

namespace {

constexpr int kGlobal = 0, kThreadLocal = 1, kRelaxed = 2;

}  // namespace

int Runtime::exchange_capture_mode(int mode) {
  int& m = thread_capture_modes_[std::this_thread::get_id()];  // 0, global, until first set
  const int before = m;
  m = mode;
  return before;
}

void Runtime::check_unsafe_during_capture(const char* call) {
  const std::thread::id me = std::this_thread::get_id();
  const auto tm = thread_capture_modes_.find(me);
  const int mode = tm == thread_capture_modes_.end() ? kGlobal : tm->second;
  if (mode == kRelaxed) return;
  std::vector<const Graph*> forbidding;
  for (const auto& [g, owner] : capture_owners_) {
    if (!capture_origin_.count(g) || owner.mode == kRelaxed) continue;
    const bool own = owner.thread == me;
    if (own || (mode != kThreadLocal && owner.mode != kThreadLocal)) forbidding.push_back(g);
  }
  if (forbidding.empty()) return;
  for (const Graph* g : forbidding) invalidated_captures_.insert(g);
  const bool own = capture_owners_.at(forbidding.front()).thread == me;
  throw ApiError(cuda::ErrorStreamCaptureUnsupported,
                 fmt::format("{}: not permitted while a stream capture records ({} capture in progress; allocating, "
                             "freeing and waiting for other work are refused in global and thread-local capture "
                             "modes, as on the GPU); the capture is invalidated",
                             call, own ? "this thread's" : "another thread's"));
}

void Runtime::check_device_sync_during_capture(const char* call) {
  check_unsafe_during_capture(call);
  const std::thread::id me = std::this_thread::get_id();
  std::vector<const Graph*> own;
  for (const auto& [g, owner] : capture_owners_)
    if (capture_origin_.count(g) && owner.thread == me) own.push_back(g);
  if (own.empty()) return;
  for (const Graph* g : own) invalidated_captures_.insert(g);
  throw ApiError(cuda::ErrorStreamCaptureUnsupported,
                 fmt::format("{}: not permitted while this thread's stream capture records (it would wait for the "
                             "capturing stream); the capture is invalidated",
                             call));
}

}  // namespace warpsim::runtime
