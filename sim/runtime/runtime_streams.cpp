// Streams and events. Launches wait in one queue, in the order they were made (each
// stream's order kept), until the program's next call that is not stream work; events
// carry the simulated time at which the work before them ended, so a program's own
// cudaEventElapsedTime measures the simulated GPU.
#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "sim/runtime/runtime.hpp"

namespace warpsim::runtime {

void Runtime::drain() {
  if (draining_) return;  // (the queue holds grids, copies and event records, none of which drains; never re-entered)
  draining_ = true;
  struct Done {
    bool& flag;
    ~Done() { flag = false; }
  } done{draining_};
  std::optional<ApiError> first;
  while (!queue_.empty()) {
    QueuedWork w = std::move(queue_.front());
    queue_.pop_front();
    if (w.launch) --queued_launches_;
    try {
      w.run();
    } catch (const ApiError& e) {
      if (!first) first = e;
    }
  }
  if (first) throw *first;
}

void Runtime::drain_at_exit() {
  drop_printf_ = true;
  struct Done {
    bool& flag;
    ~Done() { flag = false; }
  } done{drop_printf_};
  drain();
}

void* Runtime::create_stream(unsigned flags, int priority) {
  handles_.push_back(std::make_unique<char>());
  const auto [least, greatest] = stream_priority_range();
  streams_[handles_.back().get()] = {flags, std::clamp(priority, greatest, least), next_stream_id_++};
  return handles_.back().get();
}

Runtime::StreamProperties Runtime::stream_properties(const void* stream, const char* call) const {
  if (special_stream(stream)) {  // ids: the per-thread stream's own, the null and legacy streams' one
    const bool per_thread = reinterpret_cast<uintptr_t>(stream) == kPerThreadStream;
    return {0, 0, per_thread ? uint64_t(2) : uint64_t(1)};
  }
  auto it = streams_.find(stream);
  if (it == streams_.end())
    throw ApiError(cuda::ErrorInvalidResourceHandle, fmt::format("{}: {} is not a live stream", call, stream));
  return it->second;
}

void Runtime::check_stream(const void* stream, const char* call) const { stream_properties(stream, call); }

void Runtime::attach_managed(const void* stream, const void* ptr, unsigned flags) const {
  check_stream(stream, "cudaStreamAttachMemAsync");
  if (flags != 1 && flags != 2 && flags != 4)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("cudaStreamAttachMemAsync: flags {} is not cudaMemAttachGlobal, Host or Single", flags));
  if (!is_managed(ptr))
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("cudaStreamAttachMemAsync: {} is not managed memory (cudaMallocManaged)", ptr));
}

void Runtime::destroy_stream(void* stream) {
  if (special_stream(stream) || !streams_.erase(stream))
    throw ApiError(cuda::ErrorInvalidResourceHandle, fmt::format("cudaStreamDestroy: {} is not a live stream", stream));
  stream_windows_.erase(stream);
  stream_attributes_.erase(stream);
}

void Runtime::check_event(const void* event, const char* call) const {
  if (!events_.count(event))
    throw ApiError(cuda::ErrorInvalidResourceHandle, fmt::format("{}: {} is not a live event", call, event));
}

void Runtime::destroy_event(void* event) {
  check_event(event, "cudaEventDestroy");
  events_.erase(event);
  event_flags_.erase(event);
  ipc_forget_event(event);
}

void Runtime::record_event(void* event, void* stream) {
  check_event(event, "cudaEventRecord");
  check_stream(stream, "cudaEventRecord");
  if (capturing(stream)) {  // in a capture: a fork point other streams may join
    capture_event(event, stream);
    return;
  }
  if (ipc_event(event)) {  // another process may wait on it: the queue runs now (runtime_ipc.cpp)
    ipc_record(event);
    events_[event] = sim_time_ns_;
    return;
  }
  if (queueing_ && !queue_.empty()) {  // when the work queued before it has run
    queue_.push_back({[this, event] { events_[event] = sim_time_ns_; }, false});
    return;
  }
  events_[event] = sim_time_ns_;
}

float Runtime::elapsed_ms(void* start, void* end) const {
  check_event(start, "cudaEventElapsedTime");
  check_event(end, "cudaEventElapsedTime");
  for (void* e : {start, end})
    if (event_flags_.at(e) & 0x2)  // cudaEventDisableTiming
      throw ApiError(cuda::ErrorInvalidResourceHandle,
                     fmt::format("cudaEventElapsedTime: event {} was created with cudaEventDisableTiming", e));
  double a = events_.at(start), b = events_.at(end);
  if (a < 0 || b < 0)
    throw ApiError(cuda::ErrorInvalidResourceHandle, "cudaEventElapsedTime: an event was never recorded");
  return static_cast<float>((b - a) / 1e6);
}

}  // namespace warpsim::runtime
