// The device runtime of dynamic parallelism (the __cudaCDP2* calls nvcc -rdc=true emits for
// <<<>>> in a kernel and the cuda* calls kernels may make): launches are checked when made
// and recorded with their parameters, to run after this grid (sm/device_work.hpp); stream
// copies and sets likewise; device-side cudaMalloc/cudaFree use the device heap. Each call
// runs lane by lane in lane order, so the work and the errors are the same in every run.
#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>

#include "sim/sm/warp_executor.hpp"

namespace warpsim::sm {

namespace {

// CUDA's codes (driver_types.h) the device runtime returns.
constexpr uint32_t kSuccess = 0;
constexpr uint32_t kInvalidValue = 1;
constexpr uint32_t kMemoryAllocation = 2;
constexpr uint32_t kInvalidConfiguration = 9;
constexpr uint32_t kInvalidPitchValue = 12;
constexpr uint32_t kInvalidMemcpyDirection = 21;
constexpr uint32_t kLaunchPendingCountExceeded = 69;
constexpr uint32_t kInvalidDeviceFunction = 98;
constexpr uint32_t kNotSupported = 801;

// A device-side stream or event handle: distinct from 0 and the named streams.
constexpr uint64_t kHandleBase = 0x0000'7A00'0000'0000ull;

// Byte `pos` {x, y, z} of a cudaPitchedPtr {ptr, pitch, xsize, ysize}, with the pitched
// volume's row and slice strides.
uint64_t pitched_at(const uint64_t* ptr, const uint64_t* pos, uint64_t& pitch, uint64_t& slice) {
  pitch = ptr[1];
  slice = ptr[1] * ptr[3];
  return ptr[0] + pos[2] * slice + pos[1] * pitch + pos[0];
}

Dim3 read_dim3(const uint8_t* p) {
  uint32_t v[3];
  std::memcpy(v, p, sizeof v);
  return Dim3{v[0], v[1], v[2]};
}

}  // namespace

void order_device_work(std::vector<DeviceWork>& work) {
  std::stable_sort(work.begin(), work.end(), [](const DeviceWork& a, const DeviceWork& b) {
    const bool at = a.stream == kTailLaunchStream, bt = b.stream == kTailLaunchStream;
    if (at != bt) return bt;
    if (a.block != b.block) return a.block < b.block;
    if (a.seq != b.seq) return a.seq < b.seq;
    return a.thread < b.thread;
  });
}

bool WarpExecutor::write_generic(const Warp& w, uint32_t lane, uint64_t a, const void* in, uint32_t n) {
  bool windowed = false;
  if (uint8_t* p = shared_or_local(w, lane, a, n, windowed)) {
    std::memcpy(p, in, n);
    return true;
  }
  if (windowed) return false;
  auto* al = ctx_.gmem->find(a, n);
  if (!al) return false;
  ctx_.gmem->write(*al, a, in, n);
  return true;
}

DeviceLaunchSupport& WarpExecutor::device_runtime(const Warp& w, uint32_t lane, uint32_t pc, const char* call) {
  if (!ctx_.device_runtime) fault(w, lane, pc, fmt::format("{}: this launch has no device runtime", call));
  return *ctx_.device_runtime;
}

uint64_t WarpExecutor::device_string(const std::string& text) {
  auto& strings = ctx_.device_runtime->strings;
  auto it = strings.find(text);
  if (it != strings.end()) return it->second;
  const uint64_t at = ctx_.heap ? ctx_.heap->allocate(text.size() + 1) : 0;
  if (at) {
    auto* al = ctx_.gmem->find(at, text.size() + 1);
    if (al) ctx_.gmem->write(*al, at, text.c_str(), uint32_t(text.size() + 1));
  }
  strings.emplace(text, at);
  return at;
}

uint32_t WarpExecutor::check_rows(const DeviceWork& work, uint32_t kind) {
  if (work.kind == DeviceWork::Kind::Memset) return work.bytes > work.dst_pitch ? kInvalidValue : kSuccess;
  constexpr uint32_t kDeviceToDevice = 3, kDefault = 4;
  if (kind != kDeviceToDevice && kind != kDefault) return kInvalidMemcpyDirection;
  if (work.bytes > work.dst_pitch || work.bytes > work.src_pitch) return kInvalidPitchValue;
  return kSuccess;
}

const isa::Kernel* WarpExecutor::kernel_at(uint64_t func) const {
  const isa::Module* m = ctx_.kernel->module;
  const uint64_t index = (func - isa::kKernelAddressBase) / 16;
  if (!m || func < isa::kKernelAddressBase || (func - isa::kKernelAddressBase) % 16 || index >= m->kernels.size())
    return nullptr;
  return m->kernels[index].get();
}

const isa::Kernel& WarpExecutor::queried_kernel(const Warp& w, uint32_t lane, uint32_t pc, uint64_t func,
                                                const char* call) const {
  // The GPU reads the function's descriptor at the address: anything else is an illegal
  // address (an H200, docs/measurements/h200_device_query_faults_2026-11-28.txt).
  const isa::Kernel* k = kernel_at(func);
  if (!k) fault(w, lane, pc, fmt::format("{}: {:#x} is not the address of a kernel of this module", call, func));
  return *k;
}

uint64_t WarpExecutor::parameter_buffer(Warp& w, uint32_t lane, uint32_t pc, const uint8_t* params,
                                        const isa::CallSite& cs) {
  uint64_t func = 0;
  uint32_t shared = 0;
  std::memcpy(&func, params + cs.arg_offsets[0], 8);
  std::memcpy(&shared, params + cs.arg_offsets[3], 4);
  const isa::Kernel* kp = kernel_at(func);
  if (!kp) {
    ctx_.device_runtime->last_errors[thread_key(w, lane)] = kInvalidDeviceFunction;
    return 0;
  }
  const isa::Kernel& k = *kp;
  if (!ctx_.heap) fault(w, lane, pc, "cudaGetParameterBuffer: this launch has no device heap");
  const uint64_t buffer = ctx_.heap->allocate(std::max<uint64_t>(k.param_bytes, 16));
  if (!buffer) {
    ctx_.device_runtime->last_errors[thread_key(w, lane)] = kMemoryAllocation;
    return 0;
  }
  ctx_.device_runtime->param_buffers[buffer] = {&k, read_dim3(params + cs.arg_offsets[1]),
                                                 read_dim3(params + cs.arg_offsets[2]), shared};
  return buffer;
}

uint32_t WarpExecutor::device_launch(Warp& w, uint32_t lane, uint32_t pc, uint64_t buffer, uint64_t stream) {
  DeviceLaunchSupport& rt = *ctx_.device_runtime;
  auto it = rt.param_buffers.find(buffer);
  if (it == rt.param_buffers.end()) return kInvalidValue;
  if (!rt.runs_work)
    fault(w, lane, pc,
          fmt::format("a launch of '{}' from a kernel (dynamic parallelism) needs the CUDA runtime: build the "
                      "program with nvcc -rdc=true -cudart shared and run it with warpsim exec",
                      it->second.kernel->name),
          KernelFault::Kind::Trap);
  const DeviceLaunchSupport::PendingLaunch p = it->second;
  rt.param_buffers.erase(it);
  std::vector<uint8_t> bytes(p.kernel->param_bytes);
  if (!bytes.empty()) {
    auto* al = ctx_.gmem->find(buffer, bytes.size());
    if (!al) fault(w, lane, pc, fmt::format("cudaLaunchDevice: parameter buffer {:#x} is gone", buffer));
    ctx_.gmem->read(*al, buffer, bytes.data(), bytes.size());
  }
  ctx_.heap->release(buffer);
  // A configuration the device refuses is cudaErrorInvalidConfiguration from a kernel, too
  // many threads or too much shared memory alike (an H200, dynamic_parallelism.expected).
  if (rt.check && !rt.check(*p.kernel, p.grid, p.block, p.shared).empty()) return kInvalidConfiguration;
  if (rt.pending + rt.launched >= rt.pending_limit) return kLaunchPendingCountExceeded;
  ++rt.launched;
  DeviceWork work;
  work.kind = DeviceWork::Kind::Launch;
  work.kernel = p.kernel;
  work.grid = p.grid;
  work.block_dim = p.block;
  work.shared = p.shared;
  work.params = std::move(bytes);
  add_device_work(w, lane, stream, std::move(work));
  return kSuccess;
}

void WarpExecutor::add_device_work(const Warp& w, uint32_t lane, uint64_t stream, DeviceWork&& work) {
  work.block = w.block->linear;
  work.seq = w.block->device_calls++;
  work.thread = w.index * 32u + lane;
  work.stream = stream;
  const Dim3 b = w.block->idx;
  work.origin = fmt::format("kernel {}, block ({},{},{}), thread {}", ctx_.kernel->name, b.x, b.y, b.z,
                            thread_name(w, lane));
  ctx_.device_runtime->work.push_back(std::move(work));
}

void WarpExecutor::device_runtime_call(Warp& w, const isa::CallSite& cs, uint32_t pc, uint32_t mask) {
  using B = isa::Builtin;
  exec::for_lanes(mask, [&](int lane_) {
    const uint32_t lane = static_cast<uint32_t>(lane_);
    DeviceLaunchSupport& rt = device_runtime(w, lane, pc, "a device runtime call");
    uint8_t* params = call_params(w, lane);
    auto arg64 = [&](size_t i) {
      uint64_t v = 0;
      std::memcpy(&v, params + cs.arg_offsets[i], 8);
      return v;
    };
    auto arg32 = [&](size_t i) {
      uint32_t v = 0;
      std::memcpy(&v, params + cs.arg_offsets[i], 4);
      return v;
    };
    auto put = [&](uint64_t address, const void* value, uint32_t n, const char* call) {
      if (!write_generic(w, lane, address, value, n))
        fault(w, lane, pc,
              fmt::format("{}: its result cannot be written at {:#x} ({})", call, address,
                          ctx_.gmem->describe(address, n)));
    };
    auto handle = [&] { return kHandleBase + ++rt.handles; };
    uint64_t ret = kSuccess;
    auto fails = [&](uint32_t code) {
      if (code != kSuccess) rt.last_errors[thread_key(w, lane)] = code;
      ret = code;
    };
    auto stream_work = [&](DeviceWork work, uint64_t stream) {
      if (!rt.runs_work)
        fault(w, lane, pc, fmt::format("{} in a kernel needs the CUDA runtime: run the program with warpsim exec",
                                       work.call),
              KernelFault::Kind::Trap);
      add_device_work(w, lane, stream, std::move(work));
    };
    // 2D and 3D: checked when asked, as an H200 checks (check_rows).
    auto rows_work = [&](DeviceWork work, uint64_t stream, uint32_t kind) {
      if (const uint32_t code = check_rows(work, kind); code != kSuccess) fails(code);
      else stream_work(std::move(work), stream);
    };
    switch (cs.builtin) {
      case B::CdpGetParameterBuffer: ret = parameter_buffer(w, lane, pc, params, cs); break;
      case B::CdpLaunchDevice: fails(device_launch(w, lane, pc, arg64(0), arg64(1))); break;
      case B::CdpGetLastError: {
        auto it = rt.last_errors.find(thread_key(w, lane));
        if (it != rt.last_errors.end()) {
          ret = it->second;
          rt.last_errors.erase(it);
        }
        break;
      }
      case B::CdpPeekAtLastError: {
        auto it = rt.last_errors.find(thread_key(w, lane));
        ret = it == rt.last_errors.end() ? kSuccess : it->second;
        break;
      }
      case B::CdpGetErrorString:
      case B::CdpGetErrorName: {
        const bool name = cs.builtin == B::CdpGetErrorName;
        const uint32_t code = arg32(0);
        ret = device_string(rt.error_text ? rt.error_text(code, name)
                                          : name ? fmt::format("cudaError_{}", code) : "unknown error");
        break;
      }
      case B::CdpStreamCreate:
      case B::CdpEventCreate: {
        const uint64_t h = handle();
        put(arg64(0), &h, 8, cs.builtin == B::CdpStreamCreate ? "cudaStreamCreateWithFlags" : "cudaEventCreateWithFlags");
        break;
      }
      case B::CdpStreamDestroy:
      case B::CdpStreamWaitEvent:  // a block's work runs in its order: every event it records has happened
      case B::CdpEventRecord:
      case B::CdpEventDestroy: break;
      case B::CdpMemcpyAsync: {
        DeviceWork work;
        work.kind = DeviceWork::Kind::Memcpy;
        work.call = "cudaMemcpyAsync";
        work.dst = arg64(0);
        work.src = arg64(1);
        work.bytes = arg64(2);
        stream_work(std::move(work), arg64(4));
        break;
      }
      case B::CdpMemsetAsync: {
        DeviceWork work;
        work.kind = DeviceWork::Kind::Memset;
        work.call = "cudaMemsetAsync";
        work.dst = arg64(0);
        work.value = static_cast<uint8_t>(arg32(1));
        work.bytes = arg64(2);
        stream_work(std::move(work), arg64(3));
        break;
      }
      case B::CdpMemcpy2DAsync: {
        DeviceWork work;
        work.kind = DeviceWork::Kind::Memcpy;
        work.call = "cudaMemcpy2DAsync";
        work.dst = arg64(0);
        work.dst_pitch = arg64(1);
        work.src = arg64(2);
        work.src_pitch = arg64(3);
        work.bytes = arg64(4);
        work.rows = arg64(5);
        rows_work(std::move(work), arg64(7), arg32(6));
        break;
      }
      case B::CdpMemset2DAsync: {
        DeviceWork work;
        work.kind = DeviceWork::Kind::Memset;
        work.call = "cudaMemset2DAsync";
        work.dst = arg64(0);
        work.dst_pitch = arg64(1);
        work.value = static_cast<uint8_t>(arg32(2));
        work.bytes = arg64(3);
        work.rows = arg64(4);
        rows_work(std::move(work), arg64(5), 0);
        break;
      }
      case B::CdpMemcpy3DAsync: {
        // struct cudaMemcpy3DParms (160 bytes): srcArray, srcPos, srcPtr, dstArray, dstPos,
        // dstPtr, extent, kind. Arrays are not device memory a kernel can name.
        uint64_t p[20] = {};
        if (!read_generic(w, lane, arg64(0), p, sizeof p))
          fault(w, lane, pc, fmt::format("cudaMemcpy3DAsync: its parameters cannot be read at {:#x}", arg64(0)));
        if (p[0] || p[8]) {
          fails(kInvalidValue);
          break;
        }
        // Pos {x, y, z} at 1 and 9; PitchedPtr {ptr, pitch, xsize, ysize} at 4 and 12; Extent at 16.
        DeviceWork work;
        work.kind = DeviceWork::Kind::Memcpy;
        work.call = "cudaMemcpy3DAsync";
        work.src = pitched_at(p + 4, p + 1, work.src_pitch, work.src_slice);
        work.dst = pitched_at(p + 12, p + 9, work.dst_pitch, work.dst_slice);
        work.bytes = p[16];
        work.rows = p[17];
        work.slices = p[18];
        rows_work(std::move(work), arg64(1), static_cast<uint32_t>(p[19]));
        break;
      }
      case B::CdpMemset3DAsync: {
        uint64_t ptr[4], extent[3];  // cudaPitchedPtr and cudaExtent, by value
        std::memcpy(ptr, params + cs.arg_offsets[0], sizeof ptr);
        std::memcpy(extent, params + cs.arg_offsets[2], sizeof extent);
        DeviceWork work;
        work.kind = DeviceWork::Kind::Memset;
        work.call = "cudaMemset3DAsync";
        const uint64_t origin[3] = {0, 0, 0};
        work.dst = pitched_at(ptr, origin, work.dst_pitch, work.dst_slice);
        work.value = static_cast<uint8_t>(arg32(1));
        work.bytes = extent[0];
        work.rows = extent[1];
        work.slices = extent[2];
        rows_work(std::move(work), arg64(3), 0);
        break;
      }
      case B::CdpMalloc: {
        if (!ctx_.heap) fault(w, lane, pc, "cudaMalloc: this launch has no device heap");
        const uint64_t bytes = arg64(1);
        const uint64_t p = bytes ? ctx_.heap->allocate(bytes) : 0;
        put(arg64(0), &p, 8, "cudaMalloc");
        if (bytes && !p) fails(kMemoryAllocation);
        break;
      }
      case B::CdpFree: {
        const uint64_t p = arg64(0);
        if (p && (!ctx_.heap || !ctx_.heap->release(p))) fails(kInvalidValue);
        break;
      }
      case B::CdpGetDevice: {
        const int32_t device = 0;
        put(arg64(0), &device, 4, "cudaGetDevice");
        break;
      }
      case B::CdpRuntimeGetVersion: {
        const int32_t version = rt.runtime_version;
        put(arg64(0), &version, 4, "cudaRuntimeGetVersion");
        break;
      }
      case B::CdpGetDeviceCount: {
        const int32_t count = 1;
        put(arg64(0), &count, 4, "cudaGetDeviceCount");
        break;
      }
      // The queries: answered by the host's runtime (DeviceQueries); what a refused call
      // writes is what an H200's writes (nothing, SIZE_MAX for a limit, 0 blocks).
      case B::CdpDeviceGetAttribute: {
        // Another device's attribute is 0 in a kernel (an H200 answers so; there is one device).
        int32_t value = 0;
        const int32_t device = static_cast<int32_t>(arg32(2));
        const uint32_t code = device != 0             ? kSuccess
                              : !rt.queries.attribute ? kNotSupported
                                                      : rt.queries.attribute(static_cast<int>(arg32(1)), &value);
        if (code == kSuccess) put(arg64(0), &value, 4, "cudaDeviceGetAttribute");
        fails(code);
        break;
      }
      case B::CdpDeviceGetLimit: {
        uint64_t value = 0;
        const uint32_t code =
            rt.queries.limit ? rt.queries.limit(static_cast<int>(arg32(1)), &value) : kNotSupported;
        if (code != kNotSupported) put(arg64(0), &value, 8, "cudaDeviceGetLimit");
        fails(code);
        break;
      }
      case B::CdpDeviceGetCacheConfig: {
        put(arg64(0), &rt.queries.cache_config, 4, "cudaDeviceGetCacheConfig");
        break;
      }
      case B::CdpDeviceGetSharedMemConfig: {
        const int32_t four_byte_banks = 1;  // cudaSharedMemBankSizeFourByte, as the host's call says
        put(arg64(0), &four_byte_banks, 4, "cudaDeviceGetSharedMemConfig");
        break;
      }
      case B::CdpFuncGetAttributes: {
        const isa::Kernel& k = queried_kernel(w, lane, pc, arg64(1), "cudaFuncGetAttributes");
        std::vector<uint8_t> bytes;
        const uint32_t code = rt.queries.func_attributes ? rt.queries.func_attributes(k, &bytes) : kNotSupported;
        if (code == kSuccess) put(arg64(0), bytes.data(), static_cast<uint32_t>(bytes.size()), "cudaFuncGetAttributes");
        fails(code);
        break;
      }
      case B::CdpOccupancy:
      case B::CdpOccupancyWithFlags: {
        // The count is written whatever the answer (0 with cudaErrorInvalidValue for a block of
        // 0 threads on an H200).
        const isa::Kernel& k = queried_kernel(w, lane, pc, arg64(1), "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
        int32_t blocks = 0;
        const uint32_t code = rt.queries.occupancy ? rt.queries.occupancy(k, static_cast<int32_t>(arg32(2)), arg64(3),
                                                                          &blocks)
                                                   : kNotSupported;
        if (code != kSuccess) blocks = 0;
        put(arg64(0), &blocks, 4, "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
        fails(code);
        break;
      }
      default: fault(w, lane, pc, "internal error: not a device-runtime call");
    }
    if (!cs.ret_offsets.empty()) std::memcpy(params + cs.ret_offsets[0], &ret, cs.ret_sizes[0] == 8 ? 8 : 4);
  });
}

}  // namespace warpsim::sm
