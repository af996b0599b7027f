// Device, pinned-host and managed memory, copies between them, and module variables.
// Device memory is the simulated device's (bounded by its capacity); managed memory is
// mapped at the same address in the program and on the device and copied to the device
// before each launch and back after it, so host and kernels see the same data.
#include <fmt/format.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "sim/runtime/runtime.hpp"
#include "sim/runtime/runtime_module.hpp"

namespace warpsim::runtime {

namespace {

DevPtr addr(const void* p) { return reinterpret_cast<DevPtr>(p); }

ApiError out_of_memory(const char* call, uint64_t bytes, const Device& d) {
  return ApiError(cuda::ErrorMemoryAllocation,
                  fmt::format("{}: {} bytes requested; the simulated {} has {} bytes of device memory, {} in use", call,
                              bytes, d.spec().name, d.memory_capacity(), d.bytes_allocated()));
}

}  // namespace

std::optional<std::pair<DevPtr, uint64_t>> Runtime::device_allocation(const void* ptr) const {
  return device_->allocation_containing(addr(ptr));
}

bool Runtime::is_managed(const void* ptr) const {
  auto it = managed_.upper_bound(addr(ptr));
  if (it == managed_.begin()) return false;
  --it;
  return addr(ptr) - it->first < it->second.bytes;
}

void* Runtime::malloc(uint64_t bytes) {
  if (bytes == 0) return nullptr;
  if (bytes > device_->memory_capacity() - std::min(device_->memory_capacity(), device_->bytes_allocated()))
    throw out_of_memory("cudaMalloc", bytes, *device_);
  try {
    return reinterpret_cast<void*>(device_->malloc(bytes));
  } catch (const LaunchError&) {
    throw out_of_memory("cudaMalloc", bytes, *device_);
  }
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

void Runtime::free(void* ptr) {
  if (!ptr) return;
  auto m = managed_.find(addr(ptr));
  if (m != managed_.end()) {
    ::munmap(ptr, m->second.bytes);
    managed_.erase(m);
  }
  auto a = device_allocation(ptr);
  if (!a || a->first != addr(ptr))
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("cudaFree({}): not an address cudaMalloc returned", ptr));
  device_->free(addr(ptr));
}

void* Runtime::malloc_host(uint64_t bytes) {
  void* p = std::aligned_alloc(4096, std::max<uint64_t>(4096, (bytes + 4095) / 4096 * 4096));
  if (!p) throw ApiError(cuda::ErrorMemoryAllocation, fmt::format("cudaMallocHost: {} bytes", bytes));
  host_allocs_.insert(p);
  return p;
}

void Runtime::free_host(void* ptr) {
  if (!ptr) return;
  if (!host_allocs_.erase(ptr))
    throw ApiError(cuda::ErrorInvalidValue, fmt::format("cudaFreeHost({}): not an address cudaMallocHost returned", ptr));
  std::free(ptr);
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

cuda::MemcpyKind Runtime::transfer(void* dst, const void* src, uint64_t bytes, cuda::MemcpyKind kind,
                                   const char* call) {
  if (bytes == 0) return kind;
  if (!dst || !src) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: a NULL pointer", call));
  // Managed memory is host memory between launches.
  const bool dst_dev = device_allocation(dst).has_value() && !is_managed(dst);
  const bool src_dev = device_allocation(src).has_value() && !is_managed(src);
  if (kind == cuda::Default) {
    kind = dst_dev ? (src_dev ? cuda::DeviceToDevice : cuda::HostToDevice)
                   : (src_dev ? cuda::DeviceToHost : cuda::HostToHost);
  }
  auto where = [&](bool dev, const void* p, uint64_t n) {
    if (!dev) return;
    auto a = device_allocation(p);
    if (addr(p) + n > a->first + a->second)
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("{}: {} bytes at {} run {} bytes past the end of its {}-byte allocation", call, n, p,
                                 addr(p) + n - a->first - a->second, a->second));
  };
  auto need_device = [&](bool dev, const void* p, const char* which) {
    if (!dev)
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("{}: the {} {} is not device memory (cudaMemcpyKind says it is)", call, which, p));
  };
  try {
    switch (kind) {
      case cuda::HostToDevice:
        need_device(dst_dev, dst, "destination");
        where(true, dst, bytes);
        device_->copy_to_device(addr(dst), src, bytes);
        break;
      case cuda::DeviceToHost:
        need_device(src_dev, src, "source");
        where(true, src, bytes);
        device_->copy_from_device(dst, addr(src), bytes);
        break;
      case cuda::DeviceToDevice:
        need_device(dst_dev, dst, "destination");
        need_device(src_dev, src, "source");
        where(true, dst, bytes);
        where(true, src, bytes);
        copy_device_to_device(addr(dst), addr(src), bytes);
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
  if (addr(dst) - a->first + bytes > a->second)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("{}: {} bytes at {} run past the end of its {}-byte allocation", call, bytes, dst,
                               a->second));
  device_->memset(addr(dst), static_cast<uint8_t>(value), bytes);
}

void Runtime::memset_2d(void* dst, uint64_t pitch, int value, uint64_t width, uint64_t height) {
  if (width > pitch) throw ApiError(cuda::ErrorInvalidPitchValue, "cudaMemset2D: width exceeds the pitch");
  for (uint64_t row = 0; row < height; ++row) fill(static_cast<char*>(dst) + row * pitch, value, width, "cudaMemset2D");
  account_memset(width * height);
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
    bool pinned = std::any_of(host_allocs_.begin(), host_allocs_.end(), [&](void* p) { return p == ptr; });
    attr->type = pinned ? cuda::Host : cuda::Unregistered;
    attr->hostPointer = pinned ? const_cast<void*>(ptr) : nullptr;
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
