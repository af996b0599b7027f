// Device, pinned-host and managed memory, copies between them, and module variables.
// Device memory is the simulated device's (bounded by its capacity); managed memory is
// mapped at the same address in the program and on the device and copied to the device
// before each launch and back after it, so host and kernels see the same data. Pinned host
// memory is mapped into the device's address space at its own address (zero-copy): kernels
// access it in place.
#include <fmt/format.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string_view>
#include <vector>

#include "sim/isa/ir.hpp"
#include "sim/runtime/runtime.hpp"
#include "sim/runtime/runtime_module.hpp"

namespace warpsim::runtime {

namespace {

DevPtr addr(const void* p) { return reinterpret_cast<DevPtr>(p); }

// Managed and pinned host ranges are kept by base address, each record with its `bytes`.
// The entry of such a map whose range overlaps [lo, hi), or null.
template <class T>
const std::pair<const uint64_t, T>* range_overlapping(const std::map<uint64_t, T>& m, uint64_t lo, uint64_t hi) {
  auto it = m.lower_bound(lo);
  if (it != m.begin() && std::prev(it)->first + std::prev(it)->second.bytes > lo) return &*std::prev(it);
  if (it != m.end() && it->first < hi) return &*it;
  return nullptr;
}

ApiError out_of_memory(std::string_view call, uint64_t bytes, const Device& d) {
  return ApiError(cuda::ErrorMemoryAllocation,
                  fmt::format("{}: {} bytes requested; the simulated {} has {} bytes of device memory, {} in use", call,
                              bytes, d.spec().name, d.memory_capacity(), d.bytes_allocated()));
}

}  // namespace

std::optional<std::pair<DevPtr, uint64_t>> Runtime::device_allocation(const void* ptr) const {
  if (host_alloc(ptr)) return std::nullopt;  // mapped host memory is host memory to the copy calls
  return device_->allocation_containing(addr(ptr));
}

bool Runtime::is_managed(const void* ptr) const {
  return range_overlapping(managed_, addr(ptr), addr(ptr) + 1) != nullptr;
}

DevPtr Runtime::allocate_device(uint64_t bytes, std::string_view call) {
  if (bytes > device_->memory_capacity() - std::min(device_->memory_capacity(), device_->bytes_allocated()))
    throw out_of_memory(call, bytes, *device_);
  try {
    return device_->malloc(bytes);
  } catch (const LaunchError&) {
    throw out_of_memory(call, bytes, *device_);
  }
}

void* Runtime::malloc(uint64_t bytes, const char* call) {
  if (bytes == 0) return nullptr;
  return reinterpret_cast<void*>(allocate_device(bytes, call));
}

void* Runtime::malloc_managed(uint64_t bytes) {
  if (bytes == 0) throw ApiError(cuda::ErrorInvalidValue, "cudaMallocManaged: size 0");
  void* p = this->malloc(bytes);
  // The same address must be valid in the program: map it there, or give up cleanly.
  void* host = ::mmap(p, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (host != p) {
    if (host != MAP_FAILED) ::munmap(host, bytes);
    device_->free(addr(p));
    throw ApiError(cuda::ErrorMemoryAllocation,
                   fmt::format("cudaMallocManaged: cannot map {} bytes at the device address {} in the program", bytes,
                               p));
  }
  managed_[addr(p)] = Managed{bytes};
  return p;
}

void* Runtime::malloc_pitch(uint64_t* pitch, uint64_t width, uint64_t height) {
  if (!pitch) throw ApiError(cuda::ErrorInvalidValue, "cudaMallocPitch: pitch is NULL");
  constexpr uint64_t kPitchAlign = 512;  // cudaDeviceProp::texturePitchAlignment-sized rows
  *pitch = (width + kPitchAlign - 1) / kPitchAlign * kPitchAlign;
  return this->malloc(*pitch * height);
}

cuda::PitchedPtr Runtime::malloc_3d(const cuda::Extent& e) {
  cuda::PitchedPtr p{nullptr, 0, e.width, e.height};
  if (e.width == 0 || e.height == 0 || e.depth == 0) return p;  // measured: a null pointer, pitch 0
  uint64_t pitch = 0;
  p.ptr = malloc_pitch(&pitch, e.width, e.height * e.depth);
  p.pitch = pitch;
  return p;
}

void Runtime::free(void* ptr) {
  if (!ptr) return;
  if (free_pool_allocation(addr(ptr), "cudaFree")) return;  // cudaMallocAsync memory, or imported from another process's pool
  if (graph_allocations_.count(addr(ptr))) {     // a graph allocation a launch left live
    graph_memory_freed(ptr, "cudaFree");
    return;
  }
  auto m = managed_.find(addr(ptr));
  if (m != managed_.end()) {
    if (m->second.variable)
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("cudaFree({}): a __managed__ variable, not an address cudaMalloc returned", ptr));
    ::munmap(ptr, m->second.bytes);
    managed_advice_.erase(m->first);
    managed_.erase(m);
  }
  auto a = device_allocation(ptr);
  if (!a || a->first != addr(ptr))
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("cudaFree({}): not an address cudaMalloc returned", ptr));
  if (!ipc_may_free(addr(ptr)))
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("cudaFree({}): memory another process exported (cudaIpcOpenMemHandle); "
                               "cudaIpcCloseMemHandle releases it",
                               ptr));
  try {
    device_->free(addr(ptr));
  } catch (const LaunchError& e) {
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("cudaFree({}): {}", ptr, e.what()));
  }
  ipc_freed(addr(ptr));
  released(ptr);
}

namespace {

// cudaHostAlloc's and cudaHostRegister's flags (driver_types.h).
constexpr unsigned kHostAllocFlags = 0x1 | 0x2 | 0x4;         // Portable, Mapped, WriteCombined
constexpr unsigned kHostRegisterFlags = 0x1 | 0x2 | 0x4 | 0x8;  // Portable, Mapped, IoMemory, ReadOnly
constexpr uint64_t kHostPage = 4096;

// Host memory must not lie in the windows generic addresses reserve for shared and local
// memory: a kernel could not tell such a pointer from a shared one.
bool in_window(uint64_t base, uint64_t bytes) {
  auto overlaps = [&](uint64_t w) { return base < w + isa::kWindowSize && w < base + bytes; };
  return overlaps(isa::kSharedWindow) || overlaps(isa::kLocalWindow);
}

}  // namespace

const std::pair<const uint64_t, Runtime::HostAlloc>* Runtime::host_alloc(const void* ptr) const {
  return range_overlapping(host_allocs_, addr(ptr), addr(ptr) + 1);
}

void Runtime::map_host(uint64_t base, const HostAlloc& h) {
  device_->map_external(base, reinterpret_cast<void*>(base), h.bytes,
                        h.registered ? "host memory (cudaHostRegister)" : "pinned host memory (cudaMallocHost)");
}

void* Runtime::malloc_host(uint64_t bytes, unsigned flags, const char* call) {
  if (flags & ~kHostAllocFlags)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: flags {:#x} (valid: Portable 1, Mapped 2, WriteCombined 4)",
                                                        call, flags));
  const uint64_t size = std::max<uint64_t>(kHostPage, (bytes + kHostPage - 1) / kHostPage * kHostPage);
  // Ask for an address in a region programs do not use, so that it is clear of the
  // shared/local windows; anywhere else the kernel chooses is checked below.
  void* p = MAP_FAILED;
  for (int attempt = 0; attempt < 8 && p == MAP_FAILED; ++attempt) {
    void* hint = reinterpret_cast<void*>(next_host_hint_);
    p = ::mmap(hint, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (p != MAP_FAILED && p != hint) {
      ::munmap(p, size);
      p = MAP_FAILED;
    }
    next_host_hint_ += size + (uint64_t(2) << 20);
  }
  if (p == MAP_FAILED) p = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw ApiError(cuda::ErrorMemoryAllocation, fmt::format("{}: {} bytes", call, bytes));
  HostAlloc h{size, flags, false};
  try {
    if (in_window(addr(p), size)) throw LaunchError("it lies in the shared/local address window");
    map_host(addr(p), h);
  } catch (const LaunchError& e) {
    ::munmap(p, size);
    throw ApiError(cuda::ErrorMemoryAllocation,
                   fmt::format("{}: {} bytes at {} cannot be mapped for the device: {}", call, bytes, p, e.what()));
  }
  host_allocs_[addr(p)] = h;
  return p;
}

void Runtime::free_host(void* ptr) {
  if (!ptr) return;
  auto it = host_allocs_.find(addr(ptr));
  if (it == host_allocs_.end() || it->second.registered)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("cudaFreeHost({}): not an address cudaMallocHost or cudaHostAlloc returned", ptr));
  device_->free(it->first);
  ::munmap(ptr, it->second.bytes);
  host_allocs_.erase(it);
  released(ptr);
}

void Runtime::host_register(void* ptr, uint64_t bytes, unsigned flags) {
  if (!ptr || bytes == 0)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("cudaHostRegister({}, {}): a NULL pointer or size 0", ptr, bytes));
  if (flags & ~kHostRegisterFlags)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("cudaHostRegister: flags {:#x} (valid: Portable 1, Mapped 2, IoMemory 4, ReadOnly 8)",
                               flags));
  if (flags & 0x8)
    throw ApiError(cuda::ErrorNotSupported,
                   "cudaHostRegister: cudaHostRegisterReadOnly is not supported (cudaDevAttrHostRegisterReadOnlySupported "
                   "is 0)");
  const uint64_t base = addr(ptr);
  if (range_overlapping(host_allocs_, base, base + bytes) || is_managed(ptr))
    throw ApiError(cuda::ErrorHostMemoryAlreadyRegistered,
                   fmt::format("cudaHostRegister({}, {}): part of the range is already registered or pinned", ptr,
                               bytes));
  if (in_window(base, bytes))
    throw ApiError(cuda::ErrorNotSupported,
                   fmt::format("cudaHostRegister({}, {}): warpsim reserves [{:#x}, {:#x}) and [{:#x}, {:#x}) of the "
                               "address space for generic shared and local pointers",
                               ptr, bytes, isa::kSharedWindow, isa::kSharedWindow + isa::kWindowSize,
                               isa::kLocalWindow, isa::kLocalWindow + isa::kWindowSize));
  HostAlloc h{bytes, flags, true};
  try {
    map_host(base, h);
  } catch (const LaunchError& e) {
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("cudaHostRegister({}, {}): {}", ptr, bytes, e.what()));
  }
  host_allocs_[base] = h;
}

void Runtime::host_unregister(void* ptr) {
  auto it = host_allocs_.find(addr(ptr));
  if (it == host_allocs_.end() || !it->second.registered)
    throw ApiError(cuda::ErrorHostMemoryNotRegistered,
                   fmt::format("cudaHostUnregister({}): not the start of a range cudaHostRegister registered", ptr));
  device_->free(it->first);
  host_allocs_.erase(it);
}

void* Runtime::host_device_pointer(void* host, unsigned flags) const {
  if (flags != 0)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("cudaHostGetDevicePointer: flags {} (must be 0)", flags));
  if (!host_alloc(host))
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("cudaHostGetDevicePointer({}): not in memory from cudaHostAlloc, cudaMallocHost or "
                               "cudaHostRegister",
                               host));
  return host;  // unified addressing: the device sees it at the host's address
}

unsigned Runtime::host_flags(const void* host) const {
  const auto* h = host_alloc(host);
  if (!h)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("cudaHostGetFlags({}): not in memory from cudaHostAlloc, cudaMallocHost or "
                               "cudaHostRegister",
                               host));
  // What an H200 (CUDA 13.0, driver 580) reports, measured by tests/750_runtime/programs/
  // zero_copy.cu: every allocation is Mapped (unified addressing); Portable is reported
  // only together with WriteCombined; registered memory reports Mapped.
  constexpr unsigned kPortable = 1, kMapped = 2, kWriteCombined = 4;
  if (h->second.registered) return kMapped;
  unsigned f = h->second.flags | kMapped;
  if (!(f & kWriteCombined)) f &= ~kPortable;
  return f;
}

void Runtime::copy_device_to_device(DevPtr dst, DevPtr src, uint64_t bytes) {
  std::vector<uint8_t> chunk(std::min<uint64_t>(bytes, 1 << 20));
  for (uint64_t done = 0; done < bytes;) {
    uint64_t n = std::min<uint64_t>(chunk.size(), bytes - done);
    device_->copy_from_device(chunk.data(), src + done, n);
    device_->copy_to_device(dst + done, chunk.data(), n);
    done += n;
  }
}

void Runtime::account_copy(cuda::MemcpyKind kind, uint64_t bytes) {
  if (kind == cuda::HostToHost || bytes == 0) return;
  const DeviceSpec& s = spec();
  CopyRecord r;
  r.kind = kind == cuda::HostToDevice ? "HtoD" : kind == cuda::DeviceToHost ? "DtoH" : "DtoD";
  r.bytes = bytes;
  r.start_ns = sim_time_ns_;
  if (options_.mode == SimMode::Timing) {
    // GB/s is bytes per ns. A device-to-device copy reads and writes DRAM.
    if (kind == cuda::DeviceToDevice) {
      if (s.has_dram) r.duration_ns = 2.0 * double(bytes) / s.dram.peak_bandwidth_gbps();
    } else if (s.host_link_gbps > 0) {
      r.duration_ns = double(bytes) / s.host_link_gbps;
    }
  }
  sim_time_ns_ += r.duration_ns;
  copies_.push_back(std::move(r));
}

void Runtime::account_memset(uint64_t bytes) {
  if (bytes == 0) return;
  const DeviceSpec& s = spec();
  CopyRecord r{"memset", bytes, sim_time_ns_, 0};
  if (options_.mode == SimMode::Timing && s.has_dram) r.duration_ns = double(bytes) / s.dram.peak_bandwidth_gbps();
  sim_time_ns_ += r.duration_ns;
  copies_.push_back(std::move(r));
}

void Runtime::memcpy(void* dst, const void* src, uint64_t bytes, cuda::MemcpyKind kind, const char* call) {
  account_copy(transfer(dst, src, bytes, kind, call), bytes);
}

void Runtime::memcpy_async(void* dst, const void* src, uint64_t bytes, cuda::MemcpyKind kind, const char* call) {
  const auto pageable = [&](const void* p) {
    return p && !is_managed(p) && !device_allocation(p) && !host_alloc(p);
  };
  if (!queueing_ || queue_.empty() || options_.launch_blocking || pageable(dst) || pageable(src)) {
    drain();
    memcpy(dst, src, bytes, kind, call);
    return;
  }
  queue_.push_back({[=, this] { memcpy(dst, src, bytes, kind, call); }, false});
}

cuda::MemcpyKind Runtime::transfer(void* dst, const void* src, uint64_t bytes, cuda::MemcpyKind kind,
                                   const char* call) {
  if (bytes == 0) return kind;
  if (!dst || !src) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: a NULL pointer", call));
  // Managed memory is host memory between launches, and any kind may name it as either side
  // (an H200 copies cudaMemcpyToSymbol's HostToDevice into a __managed__ variable).
  const bool dst_man = is_managed(dst), src_man = is_managed(src);
  const bool dst_dev = device_allocation(dst).has_value() && !dst_man;
  const bool src_dev = device_allocation(src).has_value() && !src_man;
  // Memory mapped without access, or only reserved, is neither host nor device memory.
  for (const auto& [dev, p] : {std::pair<bool, const void*>{dst_dev, dst}, {src_dev, src}})
    if (!dev && device_->in_reservation(addr(p)))
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("{}: {} is reserved device address space with no accessible memory mapped there "
                                 "(cuMemMap, cuMemSetAccess)",
                                 call, p));
  if (kind == cuda::Default) {
    kind = dst_dev ? (src_dev ? cuda::DeviceToDevice : cuda::HostToDevice)
                   : (src_dev ? cuda::DeviceToHost : cuda::HostToHost);
  }
  // (A copy may run over mappings end to end.)
  auto where = [&](bool dev, const void* p, uint64_t n) {
    if (!dev) return;
    auto a = device_allocation(p);
    const uint64_t room = device_->accessible_from(addr(p));
    if (n > room)
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("{}: {} bytes at {} run {} bytes past the end of its {}-byte allocation", call, n, p,
                                 n - room, addr(p) + room - a->first));
  };
  // Managed memory is host memory the runtime owns: a copy must stay inside it.
  for (const auto& [man, p] : {std::pair<bool, const void*>{dst_man, dst}, {src_man, src}}) {
    if (!man) continue;
    const auto* m = range_overlapping(managed_, addr(p), addr(p) + 1);
    if (addr(p) + bytes > m->first + m->second.bytes)
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("{}: {} bytes at {} run past the end of its {}-byte managed allocation", call, bytes,
                                 p, m->second.bytes));
  }
  auto need_device = [&](bool dev, bool managed, const void* p, const char* which) {
    if (!dev && !managed)
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("{}: the {} {} is not device memory (cudaMemcpyKind says it is)", call, which, p));
  };
  // The copy between device memory and host memory (managed memory included) on each side.
  auto copy = [&](bool to_dev, bool from_dev) {
    if (to_dev && from_dev) copy_device_to_device(addr(dst), addr(src), bytes);
    else if (to_dev) device_->copy_to_device(addr(dst), src, bytes);
    else if (from_dev) device_->copy_from_device(dst, addr(src), bytes);
    else std::memmove(dst, src, bytes);
  };
  try {
    switch (kind) {
      case cuda::HostToDevice:
        need_device(dst_dev, dst_man, dst, "destination");
        where(dst_dev, dst, bytes);
        copy(dst_dev, false);
        break;
      case cuda::DeviceToHost:
        need_device(src_dev, src_man, src, "source");
        where(src_dev, src, bytes);
        copy(false, src_dev);
        break;
      case cuda::DeviceToDevice:
        need_device(dst_dev, dst_man, dst, "destination");
        need_device(src_dev, src_man, src, "source");
        where(dst_dev, dst, bytes);
        where(src_dev, src, bytes);
        copy(dst_dev, src_dev);
        break;
      case cuda::HostToHost:
        if (dst_dev || src_dev)
          throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: cudaMemcpyHostToHost with device memory", call));
        std::memmove(dst, src, bytes);
        break;
      default:
        throw ApiError(cuda::ErrorInvalidMemcpyDirection, fmt::format("{}: kind {}", call, int(kind)));
    }
  } catch (const LaunchError& e) {
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {}", call, e.what()));
  }
  return kind;
}

void Runtime::memcpy_2d(void* dst, uint64_t dpitch, const void* src, uint64_t spitch, uint64_t width, uint64_t height,
                        cuda::MemcpyKind kind) {
  if (width > dpitch || width > spitch)
    throw ApiError(cuda::ErrorInvalidPitchValue,
                   fmt::format("cudaMemcpy2D: width {} exceeds a pitch (dst {}, src {})", width, dpitch, spitch));
  cuda::MemcpyKind done = kind;
  for (uint64_t row = 0; row < height; ++row)
    done = transfer(static_cast<char*>(dst) + row * dpitch, static_cast<const char*>(src) + row * spitch, width, kind,
                    "cudaMemcpy2D");
  account_copy(done, width * height);
}

void Runtime::memset(void* dst, int value, uint64_t bytes) {
  fill(dst, value, bytes, "cudaMemset");
  account_memset(bytes);
}

void Runtime::fill(void* dst, int value, uint64_t bytes, const char* call) {
  if (bytes == 0) return;
  if (is_managed(dst)) {
    std::memset(dst, value, bytes);
    return;
  }
  auto a = device_allocation(dst);
  if (!a) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {} is not device memory", call, dst));
  if (bytes > device_->accessible_from(addr(dst)))
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: {} bytes at {} run past the end of its {}-byte allocation", call, bytes, dst,
                               a->second));
  device_->memset(addr(dst), static_cast<uint8_t>(value), bytes);
}

void Runtime::memset_elements(void* dst, uint64_t pitch, uint32_t value, unsigned element_bytes, uint64_t width,
                              uint64_t height, const char* call) {
  if (element_bytes != 1 && element_bytes != 2 && element_bytes != 4)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {}-byte elements", call, element_bytes));
  if (addr(dst) % element_bytes != 0 || (height > 1 && pitch % element_bytes != 0))
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: {} (pitch {}) is not aligned to its {}-byte elements", call, dst, pitch,
                               element_bytes));
  const uint64_t row_bytes = width * element_bytes;
  if (height > 1 && row_bytes > pitch)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {} bytes a row exceed the pitch {}", call, row_bytes, pitch));
  std::vector<uint8_t> row(row_bytes);
  for (uint64_t i = 0; i < width; ++i) std::memcpy(row.data() + i * element_bytes, &value, element_bytes);
  for (uint64_t r = 0; r < height; ++r) {
    char* p = static_cast<char*>(dst) + r * pitch;
    if (element_bytes == 1) {
      fill(p, int(value & 0xff), row_bytes, call);
    } else if (is_managed(p)) {
      std::memcpy(p, row.data(), row_bytes);
    } else {
      fill(p, 0, row_bytes, call);  // checks the range
      device_->copy_to_device(addr(p), row.data(), row_bytes);
    }
  }
  account_memset(row_bytes * height);
}

void Runtime::memset_2d(void* dst, uint64_t pitch, int value, uint64_t width, uint64_t height) {
  memset_3d({dst, pitch, width, height}, value, {width, height, 1}, "cudaMemset2D");
}

void Runtime::check_memset_3d(const cuda::PitchedPtr& p, const cuda::Extent& e, const char* call) const {
  // Measured on an H200: as cudaMemset2D, rows wider than the pitch only for a single row,
  // and slices no closer than the extent's rows.
  if (e.width > p.pitch && e.height * e.depth > 1)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: width {} exceeds the pitch {}", call, e.width, p.pitch));
  if (e.depth > 1 && e.height > p.ysize)
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {} rows in slices of {} (pitchedDevPtr.ysize)", call,
                                                        e.height, p.ysize));
}

void Runtime::memset_3d(const cuda::PitchedPtr& p, int value, const cuda::Extent& e, const char* call) {
  check_memset_3d(p, e, call);
  const uint64_t slice = uint64_t(p.pitch) * p.ysize;
  for (uint64_t z = 0; z < e.depth; ++z)
    for (uint64_t y = 0; y < e.height; ++y)
      fill(static_cast<char*>(p.ptr) + z * slice + y * p.pitch, value, e.width, call);
  account_memset(uint64_t(e.width) * e.height * e.depth);
}

void Runtime::mem_get_info(uint64_t* free_bytes, uint64_t* total_bytes) const {
  const uint64_t total = device_->memory_capacity();
  if (free_bytes) *free_bytes = total - std::min(total, device_->bytes_allocated());
  if (total_bytes) *total_bytes = total;
}

void Runtime::pointer_attributes(cuda::PointerAttributes* attr, const void* ptr) const {
  if (!attr) throw ApiError(cuda::ErrorInvalidValue, "cudaPointerGetAttributes: attributes is NULL");
  std::memset(attr, 0, sizeof(*attr));
  if (is_managed(ptr)) {
    attr->type = cuda::Managed;
    attr->devicePointer = const_cast<void*>(ptr);
    attr->hostPointer = const_cast<void*>(ptr);
  } else if (device_allocation(ptr)) {
    attr->type = cuda::Device;
    attr->devicePointer = const_cast<void*>(ptr);
  } else {
    const bool pinned = host_alloc(ptr) != nullptr;
    attr->type = pinned ? cuda::Host : cuda::Unregistered;
    attr->hostPointer = pinned ? const_cast<void*>(ptr) : nullptr;
    attr->devicePointer = pinned ? const_cast<void*>(ptr) : nullptr;  // mapped at the same address
    attr->device = pinned ? 0 : -2;
  }
}

void Runtime::sync_managed_to_device() {
  for (const auto& [base, m] : managed_) device_->copy_to_device(base, reinterpret_cast<const void*>(base), m.bytes);
}

void Runtime::sync_managed_to_host() {
  for (const auto& [base, m] : managed_) device_->copy_from_device(reinterpret_cast<void*>(base), base, m.bytes);
}

}  // namespace warpsim::runtime
