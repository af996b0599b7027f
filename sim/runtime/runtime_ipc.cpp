// CUDA IPC between processes that each run under warpsim (cuda-samples' simpleIPC: a parent
// exports device memory and an event, children it spawns open them). Each process has its
// own simulated device, so exported memory moves into an anonymous file (a memfd: nothing
// is left behind however the process ends) that the importing process opens through the
// /proc/PID/fd/FD the handle names and maps into its device's address space: both devices
// then read and write the same bytes. An interprocess event's records live in a small
// shared file too: a record counts up `recorded` when it is made and sets
// `completed` when the work before it has run, and a wait in another process waits until
// `completed` reaches the record that was last made when the wait was issued. A record runs
// this process's queued work at once, so that no other process waits on work this one has
// merely queued while its host code waits for that process. Simulated clocks stay per
// process: a wait orders the work, it does not carry time across.
#include <fmt/format.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "sim/runtime/runtime.hpp"
#include "sim/runtime/runtime_ipc.hpp"

namespace warpsim::runtime {

namespace {

// cudaIpcMemHandle_t and cudaIpcEventHandle_t are 64 opaque bytes; warpsim's say which
// process made them and which of its objects they name.
struct Handle {
  char magic[8];
  int32_t pid;
  int32_t fd;  // the maker's descriptor of the segment (/proc/pid/fd/fd)
  uint64_t serial;
  uint64_t bytes;
  uint8_t unused[32];
};
static_assert(sizeof(Handle) == 64);

constexpr char kMemMagic[8] = {'w', 'a', 'r', 'p', 's', 'i', 'm', 'M'};
constexpr char kEventMagic[8] = {'w', 'a', 'r', 'p', 's', 'i', 'm', 'E'};

constexpr unsigned kEventBlockingSync = 0x1, kEventDisableTiming = 0x2, kEventInterprocess = 0x4;

std::string memory_label(int32_t pid, uint64_t serial) { return fmt::format("warpsim-ipc-{}-{}", pid, serial); }
std::string event_label(int32_t pid, uint64_t serial) { return fmt::format("warpsim-ipcev-{}-{}", pid, serial); }

Handle read_handle(const void* bytes, const char (&magic)[8], const char* call, const char* maker) {
  Handle h;
  std::memcpy(&h, bytes, sizeof h);
  if (std::memcmp(h.magic, magic, sizeof magic) != 0 || h.pid <= 0)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: not a handle that {} made in a process running under warpsim", call, maker));
  return h;
}

// A handle naming object `serial` of process `pid`, its descriptor `fd` there.
Handle make_handle(const char (&magic)[8], int32_t pid, int32_t fd, uint64_t serial, uint64_t bytes) {
  Handle h{};
  std::memcpy(h.magic, magic, sizeof magic);
  h.pid = pid;
  h.fd = fd;
  h.serial = serial;
  h.bytes = bytes;
  return h;
}

// An interprocess event's shared state, read and written through atomic_ref by every
// process that has the event.
struct SharedEvent {
  uint64_t recorded;   // records made
  uint64_t completed;  // the latest record whose preceding work has run
  int64_t recorder;    // the process that made the latest record
};

SharedEvent& shared_event(const SharedSegment& s) { return *reinterpret_cast<SharedEvent*>(s.data()); }

bool process_alive(int64_t pid) { return pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM; }

}  // namespace

// --- Memory ---

void Runtime::ipc_get_mem_handle(void* handle, const void* ptr, const char* call) {
  if (!handle) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: handle is NULL", call));
  const DevPtr p = reinterpret_cast<DevPtr>(ptr);
  auto a = device_allocation(ptr);
  if (!a || is_managed(ptr) || ipc_->imports.count(a->first))
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}({}): not device memory that cudaMalloc allocated in this process", call, ptr));
  if (find_pool([p](const MemPool& m) { return m.reserves(p); }) || graph_allocations_.count(a->first))
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}({}): memory of a stream-ordered pool or graph (a pool is "
                               "shared with cudaMemPoolExportToShareableHandle and cudaMemPoolExportPointer)",
                               call, ptr));
  // The handle names the whole allocation, as CUDA's does (an interior pointer's handle
  // opens at the allocation's start: docs/measurements/h200_ipc_2026-11-29.txt).
  auto it = ipc_->exports.find(a->first);
  if (it == ipc_->exports.end()) {
    const uint64_t serial = ipc_->next_serial++;
    std::string why;
    auto segment = SharedSegment::create(memory_label(::getpid(), serial), a->second, &why);
    if (!segment) throw ApiError(cuda::ErrorMemoryAllocation, fmt::format("{}({}): {}", call, ptr, why));
    try {
      device_->share_allocation(a->first, segment->data());
    } catch (const LaunchError&) {  // a mapping (a kernel's malloc block, a VMM mapping): not cudaMalloc's
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("{}({}): not device memory that cudaMalloc allocated", call, ptr));
    }
    it = ipc_->exports.emplace(a->first, IpcTable::Export{serial, std::move(segment)}).first;
  }
  const Handle h = make_handle(kMemMagic, static_cast<int32_t>(::getpid()), it->second.segment->fd(),
                               it->second.serial, a->second);
  std::memcpy(handle, &h, sizeof h);
}

void* Runtime::ipc_open_mem_handle(const void* handle, unsigned flags, const char* call) {
  if (flags & ~1u)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: flags {:#x} (valid: cudaIpcMemLazyEnablePeerAccess 1)", call, flags));
  const Handle h = read_handle(handle, kMemMagic, call, "cudaIpcGetMemHandle or cuIpcGetMemHandle");
  if (h.pid == ::getpid())
    throw ApiError(cuda::ErrorDeviceUninitialized,
                   fmt::format("{}: the handle was made in this process; only another process may open it", call));
  for (auto& [at, imp] : ipc_->imports)
    if (imp.pid == h.pid && imp.serial == h.serial) {  // opened before: the same pointer, counted
      ++imp.opens;
      return reinterpret_cast<void*>(at);
    }
  std::string why;
  auto segment = SharedSegment::open(h.pid, h.fd, memory_label(h.pid, h.serial), h.bytes, &why);
  if (!segment) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {}", call, why));
  const DevPtr at = device_->map_external_anywhere(segment->data(), h.bytes,
                                                   fmt::format("IPC memory of process {}", h.pid));
  ipc_->imports.emplace(at, IpcTable::Import{h.pid, h.serial, 1, std::move(segment)});
  return reinterpret_cast<void*>(at);
}

void Runtime::ipc_close_mem_handle(void* ptr, const char* call) {
  auto it = ipc_->imports.find(reinterpret_cast<DevPtr>(ptr));
  if (it == ipc_->imports.end())
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}({}): not a pointer an IPC open of a memory handle returned and that is "
                               "still open",
                               call, ptr));
  if (--it->second.opens) return;
  device_->free(it->first);
  released(ptr);
  ipc_->imports.erase(it);
}

bool Runtime::ipc_may_free(DevPtr base) const { return !ipc_->imports.count(base); }

void Runtime::ipc_freed(DevPtr base) { ipc_->exports.erase(base); }

// --- Events ---

bool Runtime::ipc_event(const void* event) const { return ipc_->events.count(event) != 0; }

void Runtime::ipc_get_event_handle(void* handle, void* event, const char* call) {
  if (!handle) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: handle is NULL", call));
  check_event(event, call);
  auto it = ipc_->events.find(event);
  if (it == ipc_->events.end())
    throw ApiError(cuda::ErrorInvalidResourceHandle,
                   fmt::format("{}({}): the event was not created with cudaEventInterprocess", call, event));
  IpcTable::Event& e = it->second;
  if (!e.segment) {
    const uint64_t serial = ipc_->next_serial++;
    std::string why;
    auto segment = SharedSegment::create(event_label(::getpid(), serial), sizeof(SharedEvent), &why);
    if (!segment) throw ApiError(cuda::ErrorMemoryAllocation, fmt::format("{}: {}", call, why));
    e.serial = serial;
    e.fd = segment->fd();
    e.segment = std::move(segment);
  }
  // An event opened from another process's handle gets that handle again: e.pid made it.
  const Handle h = make_handle(kEventMagic, e.pid, e.fd, e.serial, sizeof(SharedEvent));
  std::memcpy(handle, &h, sizeof h);
}

void* Runtime::ipc_open_event_handle(const void* handle, const char* call) {
  const Handle h = read_handle(handle, kEventMagic, call, "cudaIpcGetEventHandle or cuIpcGetEventHandle");
  if (h.pid == ::getpid())
    throw ApiError(cuda::ErrorDeviceUninitialized,
                   fmt::format("{}: the handle was made in this process; only another process may open it", call));
  std::string why;
  auto segment = SharedSegment::open(h.pid, h.fd, event_label(h.pid, h.serial), sizeof(SharedEvent), &why);
  if (!segment) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {}", call, why));
  void* event = create_event(kEventDisableTiming | kEventInterprocess);
  IpcTable::Event& e = ipc_->events[event];
  e.pid = h.pid;
  e.serial = h.serial;
  e.fd = h.fd;
  e.segment = std::move(segment);
  return event;
}

void Runtime::ipc_record(const void* event) {
  const IpcTable::Event& e = ipc_->events.at(event);
  if (!e.segment) return;  // no handle made yet: no other process can wait on it
  SharedEvent& s = shared_event(*e.segment);
  const uint64_t mine = std::atomic_ref<uint64_t>(s.recorded).fetch_add(1, std::memory_order_acq_rel) + 1;
  std::atomic_ref<int64_t>(s.recorder).store(::getpid(), std::memory_order_release);
  auto complete = [&] {
    std::atomic_ref<uint64_t> done(s.completed);
    for (uint64_t now = done.load(); now < mine && !done.compare_exchange_weak(now, mine);) {
    }
  };
  try {
    drain();
  } catch (...) {
    complete();  // the work ran (a launch error is this process's); waiters go on
    throw;
  }
  complete();
}

uint64_t Runtime::ipc_wait_target(const void* event) const {
  const IpcTable::Event& e = ipc_->events.at(event);
  if (!e.segment) return 0;
  return std::atomic_ref<uint64_t>(shared_event(*e.segment).recorded).load(std::memory_order_acquire);
}

void Runtime::ipc_wait(const void* event, uint64_t target, const char* call) {
  auto it = ipc_->events.find(event);
  if (it == ipc_->events.end() || !it->second.segment) return;
  SharedEvent& s = shared_event(*it->second.segment);
  auto pause = std::chrono::microseconds(20);
  while (std::atomic_ref<uint64_t>(s.completed).load(std::memory_order_acquire) < target) {
    const int64_t recorder = std::atomic_ref<int64_t>(s.recorder).load(std::memory_order_acquire);
    if (!process_alive(recorder) &&
        std::atomic_ref<uint64_t>(s.completed).load(std::memory_order_acquire) < target)
      throw ApiError(cuda::ErrorLaunchFailure,
                     fmt::format("{}: the interprocess event's last record was made by process {}, which ended before "
                                 "the work before it ran",
                                 call, recorder));
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::microseconds(2000));
  }
}

void Runtime::ipc_forget_event(const void* event) { ipc_->events.erase(event); }

void Runtime::ipc_reset() {
  // The retired device's memory keeps pointing into the exported and opened objects; the
  // exported ones are withdrawn (handles made before the reset no longer open, as on CUDA).
  for (auto& [base, x] : ipc_->exports) {
    x.segment->withdraw();
    ipc_->retired.push_back(std::move(x.segment));
  }
  for (auto& [at, imp] : ipc_->imports) ipc_->retired.push_back(std::move(imp.segment));
  for (auto& [pool, e] : ipc_->pool_exports)
    for (auto& [base, c] : e.chunks) ipc_->retired_mappings.push_back(std::move(c.mapping));
  for (auto& [pool, imp] : ipc_->pool_imports)
    for (auto& [offset, c] : imp.chunks) ipc_->retired_mappings.push_back(std::move(c.mapping));
  ipc_->exports.clear();
  ipc_->imports.clear();
  ipc_->events.clear();
  ipc_->pool_exports.clear();
  ipc_->pool_imports.clear();
  ipc_->imported_pointers.clear();
  ipc_->vmm_shares.clear();  // the retired device's physical allocations keep theirs
}

// --- Event flags, waits and queries (every event; the interprocess parts above) ---

void* Runtime::create_event(unsigned flags) {
  if (flags & ~(kEventBlockingSync | kEventDisableTiming | kEventInterprocess))
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("cudaEventCreateWithFlags: flags {:#x} (valid: BlockingSync 1, DisableTiming 2, "
                               "Interprocess 4)",
                               flags));
  if ((flags & kEventInterprocess) && !(flags & kEventDisableTiming))
    throw ApiError(cuda::ErrorInvalidValue,
                   "cudaEventCreateWithFlags: an interprocess event (cudaEventInterprocess) must also have "
                   "cudaEventDisableTiming");
  handles_.push_back(std::make_unique<char>());
  void* event = handles_.back().get();
  events_[event] = -1;
  event_flags_[event] = flags;
  if (flags & kEventInterprocess) ipc_->events[event].pid = static_cast<int32_t>(::getpid());
  return event;
}

void Runtime::wait_event(void* stream, void* event) {
  check_stream(stream, "cudaStreamWaitEvent");
  check_event(event, "cudaStreamWaitEvent");
  join_capture(stream, event);  // waiting on an event of a capture joins it
  if (!ipc_event(event)) return;  // this process's work runs in issue order: nothing to wait for
  const uint64_t target = ipc_wait_target(event);
  if (queueing_ && !queue_.empty()) {
    queue_.push_back({[this, event, target] { ipc_wait(event, target, "cudaStreamWaitEvent"); }, false});
    return;
  }
  ipc_wait(event, target, "cudaStreamWaitEvent");
}

void Runtime::synchronize_event(void* event) {
  check_event(event, "cudaEventSynchronize");
  synchronize();
  if (ipc_event(event)) ipc_wait(event, ipc_wait_target(event), "cudaEventSynchronize");
}

bool Runtime::event_done(void* event) {
  check_event(event, "cudaEventQuery");
  synchronize();
  if (!ipc_event(event)) return true;
  auto& e = ipc_->events.at(event);
  return !e.segment ||
         std::atomic_ref<uint64_t>(shared_event(*e.segment).completed).load(std::memory_order_acquire) >=
             ipc_wait_target(event);
}

}  // namespace warpsim::runtime
