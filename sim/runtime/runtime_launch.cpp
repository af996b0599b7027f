// Kernel launches: the <<<>>> call configuration, arguments from the host stub, faults
// turned into CUDA's error codes, and the kernel queries (attributes, occupancy).
#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <type_traits>

#include "sim/engine/cluster_placement.hpp"
#include "sim/engine/launch_validation.hpp"
#include "sim/runtime/error_text.hpp"
#include "sim/runtime/runtime.hpp"
#include "sim/runtime/runtime_module.hpp"
#include "sim/sm/occupancy.hpp"

namespace warpsim::runtime {

namespace {

Dim3 to_dim3(cuda::Dim3 d) { return Dim3{d.x, d.y, d.z}; }

// CUDA's code for a launch the device refuses, from the refusal's wording.
cuda::Error launch_error_code(const std::string& msg) {
  if (msg.find("cooperative launch too large") != std::string::npos) return cuda::ErrorCooperativeLaunchTooLarge;
  if (msg.find("invalid cluster size") != std::string::npos) return cuda::ErrorInvalidClusterSize;
  if (msg.find("too many resources") != std::string::npos) return cuda::ErrorLaunchOutOfResources;
  if (msg.find("invalid configuration") != std::string::npos) return cuda::ErrorInvalidConfiguration;
  if (msg.find("no kernel image is available") != std::string::npos) return cuda::ErrorNoKernelImageForDevice;
  return cuda::ErrorInvalidValue;
}

const char* fault_kind_name(KernelFault::Kind kind) {
  switch (kind) {
    case KernelFault::Kind::MemoryAccess: return "memory_access";
    case KernelFault::Kind::Deadlock: return "deadlock";
    case KernelFault::Kind::LimitExceeded: return "limit_exceeded";
    case KernelFault::Kind::Trap: return "trap";
    case KernelFault::Kind::Assert: return "assert";
  }
  return "unknown";
}

cuda::Error fault_code(KernelFault::Kind kind) {
  switch (kind) {
    case KernelFault::Kind::MemoryAccess: return cuda::ErrorIllegalAddress;
    case KernelFault::Kind::LimitExceeded: return cuda::ErrorLaunchTimeout;
    case KernelFault::Kind::Deadlock: return cuda::ErrorLaunchFailure;
    case KernelFault::Kind::Trap: return cuda::ErrorLaunchFailure;
    case KernelFault::Kind::Assert: return cuda::ErrorAssert;
    default: return cuda::ErrorLaunchFailure;
  }
}

}  // namespace

void Runtime::push_call_configuration(cuda::Dim3 grid, cuda::Dim3 block, uint64_t shared, void* stream) {
  call_stack_.push_back({grid, block, shared, stream});
}

void Runtime::pop_call_configuration(cuda::Dim3* grid, cuda::Dim3* block, uint64_t* shared, void** stream) {
  if (call_stack_.empty())
    throw ApiError(cuda::ErrorInvalidConfiguration, "__cudaPopCallConfiguration: no <<<>>> configuration was pushed");
  CallConfig c = call_stack_.back();
  call_stack_.pop_back();
  *grid = c.grid;
  *block = c.block;
  *shared = c.shared;
  *stream = c.stream;
}

void Runtime::launch(const void* host_fn, cuda::Dim3 grid, cuda::Dim3 block, void** args, uint64_t shared,
                     void* stream, bool cooperative, const mem::AccessPolicyWindow* window,
                     const cuda::Dim3* cluster) {
  check_stream(stream, "cudaLaunchKernel");
  if (capturing(stream)) {  // recorded into the capture's graph, not run, with its attributes
    cuda::KernelNodeParams p{const_cast<void*>(host_fn), grid, block, uint32_t(std::min<uint64_t>(shared, UINT32_MAX)),
                             args, nullptr};
    GraphNode n = kernel_node(&p, "cudaLaunchKernel");
    cuda::LaunchAttributeValue v{};
    if (cooperative) {
      v.cooperative = 1;
      set_node_attribute(n, cuda::LaunchAttributeCooperative, v, "cudaLaunchCooperativeKernel");
    }
    if (cluster) {
      v = {};
      v.clusterDim = {cluster->x, cluster->y, cluster->z};
      set_node_attribute(n, cuda::LaunchAttributeClusterDimension, v, "cudaLaunchKernelEx");
    }
    // A window is the launch's own (cudaLaunchKernelEx records it itself) or the stream's,
    // which applies when the graph runs on its stream.
    capture(stream, std::move(n));
    return;
  }
  const isa::Kernel& kernel = kernel_for(host_fn, "cudaLaunchKernel");
  const KernelEntry& entry = this->entry(host_fn);
  const std::optional<Dim3> cluster_shape = effective_cluster(entry, kernel, cluster, "cudaLaunchKernel");
  if (const uint64_t most = max_dynamic_shared(entry, kernel); shared > most)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("launch of {}: {} bytes of dynamic shared memory exceed its limit of {} ({}; "
                               "cudaFuncSetAttribute with cudaFuncAttributeMaxDynamicSharedMemorySize raises it up to "
                               "{} per block)",
                               kernel.name, shared, most,
                               entry.max_dynamic_shared >= 0
                                   ? "as set with cudaFuncAttributeMaxDynamicSharedMemorySize"
                                   : fmt::format("{} per block less {} of static shared memory",
                                                 shared_per_block_limit(false), kernel.static_shared_bytes),
                               shared_per_block_limit(true)));
  std::vector<KernelArg> kargs(kernel.params.size());
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    if (!args || !args[i])
      throw ApiError(cuda::ErrorInvalidValue,
                     fmt::format("launch of {}: argument {} ('{}') is missing", kernel.name, i, kernel.params[i].name));
    kargs[i].kind = KernelArg::Kind::Bytes;
    const auto* p = static_cast<const uint8_t*>(args[i]);
    kargs[i].bytes.assign(p, p + kernel.params[i].size);
  }
  // After a kernel fault the context is broken, as on hardware: later kernels do not run
  // (no second fault, no side effects) and the sticky error stays the first fault's.
  if (sticky_ != cuda::Success) {
    ++dropped_launches_;
    return;
  }
  GridLaunch g;
  g.kernel = &kernel;
  g.preference = shared_preference(entry);
  g.grid = to_dim3(grid);
  g.block = to_dim3(block);
  g.shared = static_cast<uint32_t>(shared);
  g.args = std::move(kargs);
  g.cooperative = cooperative;
  g.cluster = cluster_shape;
  g.cluster_non_portable = entry.cluster_non_portable;
  g.window = window ? *window : stream_policy_window(stream);
  if (!queueing_ || options_.launch_blocking) {
    drain();
    run_grid(g);
    return;
  }
  // Queued: CUDA's launch-time checks now, the grid at the next drain (unless a kernel
  // queued before it faults: then it is dropped, as above).
  LaunchOptions check;
  check.shared_preference = g.preference;
  check.cooperative = g.cooperative;
  check.cluster_given = g.cluster.has_value();
  check.cluster = g.cluster.value_or(Dim3{});
  check.cluster_non_portable = g.cluster_non_portable;
  try {
    device_->check_launch(kernel, g.grid, g.block, g.shared, check);
  } catch (const LaunchError& e) {
    throw ApiError(launch_error_code(e.what()), e.what());
  }
  queue_.push_back({[this, g = std::move(g)] {
                      if (sticky_ != cuda::Success) {
                        ++dropped_launches_;
                        return;
                      }
                      run_grid(g);
                    },
                    true});
  ++queued_launches_;
}

bool Runtime::launch_grid(const GridLaunch& g, std::vector<sm::DeviceWork>& work) {
  const isa::Kernel& kernel = *g.kernel;
  const LaunchShape shape{&kernel, g.grid, g.block, g.shared, g.preference};
  const bool timed = options_.mode == SimMode::Timing && sampler_.time_next(shape);
  LaunchOptions lo;
  lo.mode = timed ? SimMode::Timing : SimMode::Functional;
  lo.sample_waves = timed ? options_.sample_waves : 0;
  lo.functional_caches = timed || options_.mode == SimMode::Functional;  // else the timed launch's
  lo.no_caches = !timed && !options_.caches;
  lo.cache_control = options_.cache_control;
  lo.threads = options_.threads;
  lo.epoch_cycles = options_.epoch_cycles;
  lo.limits = options_.limits;
  lo.stack_bytes = stack_bytes_;
  lo.shared_preference = g.preference;
  lo.cooperative = g.cooperative;
  lo.cluster_given = g.cluster.has_value();
  lo.cluster = g.cluster.value_or(Dim3{});
  lo.cluster_non_portable = g.cluster_non_portable;
  lo.l2_window = g.window;
  lo.l2_persisting_bytes = persisting_l2_bytes_;
  lo.device_work_sink = [&work](std::vector<sm::DeviceWork>&& w) { work = std::move(w); };
  lo.device_launches_pending = pending_device_grids_;
  lo.device_launch_pending_limit = pending_launch_limit_;
  lo.cuda_error_text = [](uint32_t code, bool name) {
    return std::string(name ? cuda_error_name(int(code)) : cuda_error_string(int(code)));
  };
  lo.device_runtime_version = cuda::kDeviceRuntimeVersion;
  lo.device_queries = device_queries();
  if (drop_printf_) lo.printf_sink = [](std::string_view) {};

  sync_managed_to_device();
  LaunchRecord rec;
  rec.kernel = kernel.name;
  rec.grid = g.grid;
  rec.block = g.block;
  rec.dynamic_shared = g.shared;
  rec.start_ns = sim_time_ns_;
  rec.source = &kernel;
  try {
    rec.stats = device_->launch(kernel, rec.grid, rec.block, rec.dynamic_shared, g.args, lo);
  } catch (const LaunchError& e) {
    throw ApiError(launch_error_code(e.what()), e.what());
  } catch (const KernelFault& e) {
    sync_managed_to_host();
    kernel_fault(kernel.name, e);
    return false;
  }
  sync_managed_to_host();
  if (timed) sampler_.on_timed(shape, rec.stats, launches_.size());
  else if (options_.mode == SimMode::Timing) sampler_.estimate(shape, rec.stats, spec());
  sim_time_ns_ += simulated_ns(rec.stats);
  record_launch(std::move(rec));
  return true;
}

namespace {
uint64_t launches_in(const std::vector<sm::DeviceWork>& work) {
  return static_cast<uint64_t>(std::count_if(work.begin(), work.end(), [](const sm::DeviceWork& w) {
    return w.kind == sm::DeviceWork::Kind::Launch;
  }));
}
}  // namespace

// A grid, then its device-runtime work in the order it runs (sm::order_device_work), depth
// first: a launched grid runs with all its own work before the next item of its parent's,
// as a grid is complete only when its children are. Copies and sets run when their turn
// comes. After a fault the rest is dropped, as the context is broken. An explicit stack: a
// chain of nested grids may be 2048 deep.
void Runtime::run_grid(const GridLaunch& g) {
  std::vector<sm::DeviceWork> work;
  if (!launch_grid(g, work) || work.empty()) return;
  struct Level {
    std::vector<sm::DeviceWork> work;
    size_t next = 0;
    uint32_t depth = 0;
    const isa::Kernel* kernel = nullptr;
    mem::AccessPolicyWindow window;
  };
  std::vector<Level> stack;
  pending_device_grids_ += launches_in(work);
  stack.push_back({std::move(work), 0, g.depth, g.kernel, g.window});
  while (!stack.empty()) {
    Level& top = stack.back();
    if (top.next == top.work.size()) {
      if (top.depth > 0) --pending_device_grids_;  // the device-launched grid of this work is complete
      stack.pop_back();
      continue;
    }
    sm::DeviceWork w = std::move(top.work[top.next++]);
    if (w.kind != sm::DeviceWork::Kind::Launch) {
      if (sticky_ == cuda::Success) run_stream_work(w, *top.kernel);
      continue;
    }
    if (sticky_ != cuda::Success) {
      ++dropped_launches_;
      --pending_device_grids_;
      continue;
    }
    GridLaunch child;
    child.kernel = w.kernel;
    for (const auto& [fn, entry] : kernels_)
      if (entry.module && entry.module->module == w.kernel->module && entry.name == w.kernel->name)
        child.preference = shared_preference(entry);
    child.grid = w.grid;
    child.block = w.block_dim;
    child.shared = w.shared;
    child.args.resize(w.kernel->params.size());
    for (size_t i = 0; i < w.kernel->params.size(); ++i) {
      const isa::Param& p = w.kernel->params[i];
      child.args[i].kind = KernelArg::Kind::Bytes;
      child.args[i].bytes.assign(w.params.begin() + p.offset, w.params.begin() + p.offset + p.size);
    }
    child.window = top.window;
    child.depth = top.depth + 1;
    std::vector<sm::DeviceWork> child_work;
    try {
      launch_grid(child, child_work);
    } catch (const ApiError& e) {  // refused when it was made, so this is warpsim's own check
      kernel_fault(top.kernel->name, KernelFault(KernelFault::Kind::Trap,
                                                 fmt::format("a launch of {} from a kernel ({}) failed: {}",
                                                             w.kernel->name, w.origin, e.what())));
    }
    if (child_work.empty()) {
      --pending_device_grids_;  // complete
      continue;
    }
    pending_device_grids_ += launches_in(child_work);
    stack.push_back({std::move(child_work), 0, child.depth, child.kernel, child.window});
  }
}

// A copy or set a kernel asked for in a stream (cudaMemcpyAsync/cudaMemsetAsync and their 2D
// and 3D forms in a kernel), row by row; an address outside device memory is the launching
// kernel's fault.
void Runtime::run_stream_work(const sm::DeviceWork& w, const isa::Kernel& asker) {
  sync_managed_to_device();  // managed memory's device copy is what kernels see
  try {
    if (w.bytes > device_->memory_capacity())
      throw LaunchError(fmt::format("{} bytes are more than the device's memory", w.bytes));
    // CUDA 13.0's device runtime sets zeros whatever the value (an H200, driver 580:
    // docs/measurements/h200_device_memset_2026-11-28.txt, and device_copies_2d.expected for
    // the 2D and 3D sets); warpsim does what the GPU does.
    if (w.kind == sm::DeviceWork::Kind::Memset && w.value != 0 && !memset_noted_) {
      memset_noted_ = true;
      fmt::print(stderr,
                 "warpsim: note: {} in a kernel ({}) writes zeros, not {:#x}, as CUDA 13.0's device runtime does on "
                 "the GPU\n",
                 w.call, w.origin, w.value);
    }
    std::vector<uint8_t> bytes(w.kind == sm::DeviceWork::Kind::Memcpy ? w.bytes : 0);
    for (uint64_t z = 0; z < w.slices; ++z)
      for (uint64_t y = 0; y < w.rows; ++y) {
        const uint64_t dst = w.dst + z * w.dst_slice + y * w.dst_pitch;
        if (w.kind == sm::DeviceWork::Kind::Memcpy) {
          device_->copy_from_device(bytes.data(), w.src + z * w.src_slice + y * w.src_pitch, w.bytes);
          device_->copy_to_device(dst, bytes.data(), w.bytes);
        } else {
          device_->memset(dst, 0, w.bytes);
        }
      }
  } catch (const LaunchError& e) {
    kernel_fault(asker.name,
                 KernelFault(KernelFault::Kind::MemoryAccess, fmt::format("{} in a kernel ({}): {}", w.call, w.origin,
                                                                          e.what())));
  }
  sync_managed_to_host();
}

// As on hardware the launch itself succeeds; the fault is the sticky error that every later
// call returns. warpsim's message names the kernel, block, thread and line.
void Runtime::kernel_fault(const std::string& kernel, const KernelFault& e) {
  if (sticky_ == cuda::Success) {
    sticky_ = fault_code(e.kind());
    sticky_message_ = e.what();
  }
  ++faulted_launches_;
  faults_.push_back({kernel, fault_kind_name(e.kind()), e.what()});
  fmt::print(stderr, "warpsim: {}: kernel fault: {}\n", options_.program, e.what());
}

void Runtime::record_launch(LaunchRecord&& rec) {
  if (!options_.json_out.empty()) json_launches_.add(rec);
  // What the exit summary does not read is dropped (launches()). Under --by-line the
  // summary prints each kernel's costliest launch by line, the first of the longest as
  // format_exec_summary picks it: that launch keeps its per-line statistics until a longer
  // one of the same kernel replaces it.
  const auto release = [](auto& v) { std::decay_t<decltype(v)>().swap(v); };
  const auto drop_lines = [&](LaunchStats& st) {
    release(st.per_pc);
    release(st.branches);
  };
  LaunchStats& s = rec.stats;
  release(s.dram.channels);
  release(s.exec.round_robin_sm_instructions);
  release(s.traces);
  bool keep_lines = false;
  if (options_.by_line) {
    auto [it, first] = costliest_.emplace(rec.kernel, launches_.size());
    if (!first && simulated_ns(s) > simulated_ns(launches_[it->second].stats)) {
      drop_lines(launches_[it->second].stats);
      it->second = launches_.size();
    }
    keep_lines = it->second == launches_.size();
  }
  if (!keep_lines) drop_lines(s);
  launches_.push_back(std::move(rec));
}

void Runtime::set_stack_bytes(uint64_t bytes) {
  if (bytes > 512 * 1024)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("cudaDeviceSetLimit(cudaLimitStackSize, {}): more than 512 KiB per thread", bytes));
  stack_bytes_ = static_cast<uint32_t>(bytes);
}

void Runtime::synchronize() {
  if (sticky_ == cuda::Success) return;
  fault_visible_ = true;
  throw ApiError(sticky_, "");  // its message was printed when the kernel faulted
}

void Runtime::func_attributes(cuda::FuncAttributes* attr, const void* host_fn) {
  if (!attr) throw ApiError(cuda::ErrorInvalidValue, "cudaFuncGetAttributes: attr is NULL");
  const isa::Kernel& k = kernel_for(host_fn, "cudaFuncGetAttributes");
  const SmSpec& sm = spec().sm;
  std::memset(attr, 0, sizeof(*attr));
  attr->sharedSizeBytes = k.static_shared_bytes;
  attr->constSizeBytes = 0;
  attr->localSizeBytes = k.local_bytes;
  attr->numRegs = static_cast<int>(std::min(k.estimated_registers, sm.max_registers_per_thread));
  uint32_t max_threads = sm.max_threads_per_block;
  if (k.maxntid[0]) max_threads = std::min(max_threads, k.maxntid[0] * std::max(1u, k.maxntid[1]) * std::max(1u, k.maxntid[2]));
  // The most threads a block may have given the kernel's registers.
  while (max_threads > 0) {
    try {
      sm::compute_occupancy(sm, max_threads, static_cast<uint32_t>(attr->numRegs),
                            sm::block_shared_bytes(sm, k.static_shared_bytes, 0));
      break;
    } catch (const LaunchError&) {
      max_threads = max_threads > sm.warp_size ? max_threads - sm.warp_size : 0;
    }
  }
  attr->maxThreadsPerBlock = static_cast<int>(max_threads);
  // ptxVersion is the virtual architecture the PTX was made for (.target sm_75: 75), not
  // the PTX ISA version: CUB picks its tuning by it, and a value it was not built for makes
  // every Thrust call fail with cudaErrorInvalidDeviceFunction.
  const std::string& target = k.module ? k.module->target : std::string();
  const size_t sm_at = target.find("sm_");
  int arch = 0;
  if (sm_at != std::string::npos && std::sscanf(target.c_str() + sm_at + 3, "%d", &arch) == 1) attr->ptxVersion = arch;
  attr->binaryVersion = spec().cc_major() * 10 + spec().cc_minor();
  const KernelEntry& e = entry(host_fn);
  attr->maxDynamicSharedSizeBytes = static_cast<int>(max_dynamic_shared(e, k));
  attr->preferredShmemCarveout = e.carveout_percent;
  // Thread block clusters: the shape compiled in (__cluster_dims__, which also makes the
  // cluster a must, as on an H200: clusters.expected) or set, and the attributes set.
  const bool compiled = k.cluster_dims[0] != 0;
  attr->clusterDimMustBeSet = compiled || k.explicit_cluster || e.cluster_must_be_set;
  attr->requiredClusterWidth = static_cast<int>(compiled ? k.cluster_dims[0] : e.required_cluster[0]);
  attr->requiredClusterHeight = static_cast<int>(compiled ? k.cluster_dims[1] : e.required_cluster[1]);
  attr->requiredClusterDepth = static_cast<int>(compiled ? k.cluster_dims[2] : e.required_cluster[2]);
  attr->clusterSchedulingPolicyPreference = e.cluster_policy;
  attr->nonPortableClusterSizeAllowed = e.cluster_non_portable;
}

std::optional<Dim3> Runtime::effective_cluster(const KernelEntry& e, const isa::Kernel& k, const cuda::Dim3* given,
                                               const char* call) const {
  const bool compiled = k.cluster_dims[0] != 0;
  const bool required = compiled || e.required_cluster[0] != 0;
  const Dim3 want = compiled ? Dim3{k.cluster_dims[0], k.cluster_dims[1], k.cluster_dims[2]}
                             : Dim3{e.required_cluster[0], e.required_cluster[1], e.required_cluster[2]};
  if (given) {
    const Dim3 g = to_dim3(*given);
    if (required && !(g == want))
      throw ApiError(cuda::ErrorInvalidClusterSize,
                     fmt::format("{} of {}: clusters of {}x{}x{} blocks, and the kernel requires {}x{}x{} ({})", call,
                                 k.name, g.x, g.y, g.z, want.x, want.y, want.z,
                                 compiled ? "__cluster_dims__" : "cudaFuncAttributeRequiredClusterWidth/Height/Depth"));
    return g;
  }
  if (required) return want;
  if (e.cluster_must_be_set)
    throw ApiError(cuda::ErrorInvalidClusterSize,
                   fmt::format("{} of {}: the kernel must be launched in clusters (cudaFuncAttributeClusterDimMustBeSet) "
                               "and no cluster shape was given",
                               call, k.name));
  return std::nullopt;
}

namespace {
// The cluster shape of a cudaLaunchConfig_t (its cudaLaunchAttributeClusterDimension), or null.
const cuda::Dim3* config_cluster(const cuda::LaunchConfig* config, cuda::Dim3& storage) {
  for (unsigned i = 0; config->attrs && i < config->numAttrs; ++i)
    if (config->attrs[i].id == cuda::LaunchAttributeClusterDimension) {
      storage = {config->attrs[i].val.clusterDim.x, config->attrs[i].val.clusterDim.y, config->attrs[i].val.clusterDim.z};
      return &storage;
    }
  return nullptr;
}
}  // namespace

int Runtime::max_active_clusters(const void* host_fn, const cuda::LaunchConfig* config) {
  const char* call = "cudaOccupancyMaxActiveClusters";
  if (!config) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: config is NULL", call));
  const isa::Kernel& k = kernel_for(host_fn, call);
  const KernelEntry& e = entry(host_fn);
  cuda::Dim3 storage;
  const std::optional<Dim3> c = effective_cluster(e, k, config_cluster(config, storage), call);
  const ClusterSpec& cs = spec().clusters;
  if (!c) throw ApiError(cuda::ErrorInvalidClusterSize, fmt::format("{} of {}: no cluster shape given", call, k.name));
  const uint64_t size = c->count();
  if (!spec().has_clusters() || size == 0 || size > cs.max_size || (size > cs.portable_size && !e.cluster_non_portable))
    throw ApiError(cuda::ErrorInvalidClusterSize,
                   fmt::format("{} of {}: clusters of {}x{}x{} blocks ({}; {} without "
                               "cudaFuncAttributeNonPortableClusterSizeAllowed)",
                               call, k.name, c->x, c->y, c->z,
                               spec().has_clusters() ? fmt::format("at most {}", cs.max_size) : "the device has none",
                               cs.portable_size));
  const int per_sm = occupancy_blocks_per_sm(host_fn, static_cast<int>(to_dim3(config->blockDim).count()),
                                             config->dynamicSmemBytes);
  const uint32_t bps = std::min<uint32_t>(static_cast<uint32_t>(per_sm), cs.max_blocks_per_sm);
  return static_cast<int>(warpsim::max_active_clusters(spec(), static_cast<uint32_t>(size), bps));
}

int Runtime::max_potential_cluster_size(const void* host_fn, const cuda::LaunchConfig* config) {
  const char* call = "cudaOccupancyMaxPotentialClusterSize";
  if (!config) throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: config is NULL", call));
  const isa::Kernel& k = kernel_for(host_fn, call);
  const KernelEntry& e = entry(host_fn);
  if (!spec().has_clusters()) return 0;
  const ClusterSpec& cs = spec().clusters;
  const int per_sm = occupancy_blocks_per_sm(host_fn, static_cast<int>(to_dim3(config->blockDim).count()),
                                             config->dynamicSmemBytes);
  const uint32_t bps = std::min<uint32_t>(static_cast<uint32_t>(per_sm), cs.max_blocks_per_sm);
  const std::optional<Dim3> required = effective_cluster(e, k, nullptr, call);
  uint32_t size = required ? static_cast<uint32_t>(required->count())
                           : (e.cluster_non_portable ? cs.max_size : cs.portable_size);
  while (size > 0 && warpsim::max_active_clusters(spec(), size, bps) == 0) --size;
  return static_cast<int>(size);
}

const void* Runtime::host_function_of(const isa::Kernel& k) const {
  for (const auto& [fn, e] : kernels_)
    if (e.module && e.module->module == k.module && e.name == k.name) return fn;
  return nullptr;
}

sm::DeviceQueries Runtime::device_queries() {
  // Each answers what the host's call answers; a refusal is that call's error code.
  auto code = [](const std::function<void()>& body) -> uint32_t {
    try {
      body();
    } catch (const ApiError& e) {
      return static_cast<uint32_t>(e.code());
    }
    return cuda::Success;
  };
  sm::DeviceQueries q;
  // Attribute 0 is 0 in a kernel, where the host refuses it (an H200,
  // docs/measurements/h200_device_query_faults_2026-11-28.txt).
  q.attribute = [this, code](int attr, int32_t* value) {
    return code([&] { *value = attr == 0 ? 0 : device_attribute(attr); });
  };
  // A limit past cudaLimitPersistingL2CacheSize reads past the H200's own table (it answered
  // 232448 for 7); here it is refused as on the host.
  q.limit = [this, code](int which, uint64_t* value) {
    const uint32_t c = code([&] { *value = limit(which); });
    if (c != cuda::Success) *value = ~uint64_t(0);  // what an H200's kernel finds after a refused limit
    return c;
  };
  // The struct's first seven fields only (sizes, threads, registers, versions): a kernel's
  // call leaves cacheModeCA and the rest as they were, as on an H200 (device_queries.expected).
  q.func_attributes = [this, code](const isa::Kernel& k, std::vector<uint8_t>* bytes) -> uint32_t {
    const void* fn = host_function_of(k);
    if (!fn) return cuda::ErrorInvalidDeviceFunction;
    cuda::FuncAttributes a{};
    const uint32_t c = code([&] { func_attributes(&a, fn); });
    const auto* first = reinterpret_cast<const uint8_t*>(&a);
    bytes->assign(first, first + offsetof(cuda::FuncAttributes, cacheModeCA));
    return c;
  };
  q.occupancy = [this, code](const isa::Kernel& k, int block_size, uint64_t shared, int32_t* blocks) -> uint32_t {
    const void* fn = host_function_of(k);
    if (!fn) return cuda::ErrorInvalidDeviceFunction;
    return code([&] { *blocks = occupancy_blocks_per_sm(fn, block_size, shared); });
  };
  q.cache_config = device_cache_config_;
  return q;
}

uint64_t Runtime::max_dynamic_shared(const KernelEntry& e, const isa::Kernel& k) const {
  if (e.max_dynamic_shared >= 0) return uint64_t(e.max_dynamic_shared);
  const uint32_t limit = shared_per_block_limit(false);
  return limit - std::min(limit, k.static_shared_bytes);
}

sm::SharedPreference Runtime::shared_preference(const KernelEntry& e) const {
  return {e.cache_config, device_cache_config_, e.carveout_percent};
}

void Runtime::set_func_attribute(const void* host_fn, int attr, int value, const char* call) {
  const isa::Kernel& k = kernel_for(host_fn, call);
  KernelEntry& e = entry(host_fn);
  switch (attr) {
    case cuda::FuncAttrMaxDynamicSharedMemorySize: {
      const uint32_t optin = shared_per_block_limit(true);
      const uint64_t most = optin - std::min(optin, k.static_shared_bytes);
      if (value < 0 || uint64_t(value) > most)
        throw ApiError(cuda::ErrorInvalidValue,
                       fmt::format("{}({}, cudaFuncAttributeMaxDynamicSharedMemorySize, {}): at most "
                                   "{} bytes ({} per block less {} of static shared memory)",
                                   call, k.name, value, most, optin, k.static_shared_bytes));
      e.max_dynamic_shared = value;
      return;
    }
    case cuda::FuncAttrPreferredSharedMemoryCarveout:
      if (value < -1 || value > 100)
        throw ApiError(cuda::ErrorInvalidValue,
                       fmt::format("{}({}, cudaFuncAttributePreferredSharedMemoryCarveout, {}): a "
                                   "percentage from 0 to 100, or -1 for no preference",
                                   call, k.name, value));
      e.carveout_percent = value;
      return;
    case cuda::FuncAttrNonPortableClusterSizeAllowed:
    case cuda::FuncAttrClusterDimMustBeSet:
      if (value != 0 && value != 1)
        throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}({}, {}, {}): 0 or 1", call, k.name, attr, value));
      (attr == cuda::FuncAttrClusterDimMustBeSet ? e.cluster_must_be_set : e.cluster_non_portable) = value != 0;
      return;
    case cuda::FuncAttrClusterSchedulingPolicyPreference:
      if (value < 0 || value > 2)
        throw ApiError(cuda::ErrorInvalidValue,
                       fmt::format("{}({}, cudaFuncAttributeClusterSchedulingPolicyPreference, {}): "
                                   "0 (default), 1 (spread) or 2 (load balancing)",
                                   call, k.name, value));
      e.cluster_policy = value;  // a scheduling hint: warpsim places clusters one way (engine/cluster_placement.hpp)
      return;
    case cuda::FuncAttrRequiredClusterWidth:
    case cuda::FuncAttrRequiredClusterHeight:
    case cuda::FuncAttrRequiredClusterDepth:
      if (k.cluster_dims[0])
        throw ApiError(cuda::ErrorNotPermitted,
                       fmt::format("{}({}, {}): the kernel's cluster shape was compiled in "
                                   "(__cluster_dims__)",
                                   call, k.name, attr));
      if (value < 0)
        throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}({}, {}, {})", call, k.name, attr, value));
      e.required_cluster[attr - cuda::FuncAttrRequiredClusterWidth] = static_cast<uint32_t>(value);
      return;
    default:
      if (attr > cuda::FuncAttrPreferredSharedMemoryCarveout && attr < cuda::FuncAttrMax) return;
      throw ApiError(cuda::ErrorInvalidValue, fmt::format("{}: {} is not a settable attribute", call, attr));
  }
}

int Runtime::occupancy_blocks_per_sm(const void* host_fn, int block_size, uint64_t dynamic_shared) {
  const isa::Kernel& k = kernel_for(host_fn, "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
  if (block_size <= 0)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("cudaOccupancyMaxActiveBlocksPerMultiprocessor: block size {}", block_size));
  const KernelEntry& e = entry(host_fn);
  // Past the per-block limit (the opt-in's where the kernel has one) no block runs.
  const bool optin = e.max_dynamic_shared >= 0;
  if ((optin && dynamic_shared > uint64_t(e.max_dynamic_shared)) ||
      k.static_shared_bytes + dynamic_shared > shared_per_block_limit(optin))
    return 0;
  SmSpec sm = spec().sm;
  const uint32_t regs = std::min(k.estimated_registers, sm.max_registers_per_thread);
  const uint32_t block_shared = sm::block_shared_bytes(sm, k.static_shared_bytes, static_cast<uint32_t>(dynamic_shared));
  // The capacity the program's preferences give (the largest without one).
  sm.shared_memory = sm::occupancy_api_shared_capacity(sm, spec().carveout, block_shared, shared_preference(e));
  try {
    OccupancyStats o = sm::compute_occupancy(sm, static_cast<uint32_t>(block_size), regs, block_shared);
    return static_cast<int>(o.blocks_per_sm);
  } catch (const LaunchError&) {
    return 0;  // CUDA answers 0 blocks for a block that cannot run at all
  }
}

std::pair<int, int> Runtime::max_potential_block_size(const void* host_fn, const std::function<uint64_t(int)>& dynamic_shared,
                                                      int block_size_limit) {
  // CUDA's own search (cudaOccupancyMaxPotentialBlockSize in cuda_runtime.h, the driver's
  // cuOccupancyMaxPotentialBlockSize): from the largest block down, a warp at a time, the
  // block size with the most resident threads per SM; the first such on a tie.
  cuda::FuncAttributes attr{};
  func_attributes(&attr, host_fn);
  const SmSpec& sm = spec().sm;
  int max_block = attr.maxThreadsPerBlock;
  if (block_size_limit > 0) max_block = std::min(max_block, block_size_limit);
  const int granularity = static_cast<int>(sm.warp_size);
  int best_block = 0, best_blocks = 0, best_threads = 0;
  for (int aligned = (max_block + granularity - 1) / granularity * granularity; aligned > 0; aligned -= granularity) {
    const int block = std::min(max_block, aligned);
    const int blocks = occupancy_blocks_per_sm(host_fn, block, dynamic_shared(block));
    if (block * blocks > best_threads) {
      best_block = block;
      best_blocks = blocks;
      best_threads = block * blocks;
    }
    if (best_threads == static_cast<int>(sm.max_threads)) break;
  }
  return {best_blocks * static_cast<int>(sm.count), best_block};
}

namespace {

const char* launch_attribute_name(int id) {
  switch (id) {
    case cuda::LaunchAttributeAccessPolicyWindow: return "cudaLaunchAttributeAccessPolicyWindow (L2 persistence)";
    case cuda::LaunchAttributeSynchronizationPolicy: return "cudaLaunchAttributeSynchronizationPolicy";
    case cuda::LaunchAttributeClusterDimension: return "cudaLaunchAttributeClusterDimension (thread block clusters)";
    case cuda::LaunchAttributeClusterSchedulingPolicyPreference:
      return "cudaLaunchAttributeClusterSchedulingPolicyPreference (thread block clusters)";
    case cuda::LaunchAttributeProgrammaticEvent: return "cudaLaunchAttributeProgrammaticEvent";
    case cuda::LaunchAttributeMemSyncDomainMap: return "cudaLaunchAttributeMemSyncDomainMap";
    case cuda::LaunchAttributeMemSyncDomain: return "cudaLaunchAttributeMemSyncDomain";
    case cuda::LaunchAttributePreferredClusterDimension:
      return "cudaLaunchAttributePreferredClusterDimension (thread block clusters)";
    case cuda::LaunchAttributeLaunchCompletionEvent: return "cudaLaunchAttributeLaunchCompletionEvent";
    case cuda::LaunchAttributeDeviceUpdatableKernelNode: return "cudaLaunchAttributeDeviceUpdatableKernelNode";
    default: return nullptr;
  }
}

}  // namespace

void Runtime::launch_ex(const cuda::LaunchConfig* config, const void* host_fn, void** args) {
  if (!config) throw ApiError(cuda::ErrorInvalidValue, "cudaLaunchKernelExC: config is NULL");
  if (config->numAttrs && !config->attrs)
    throw ApiError(cuda::ErrorInvalidValue,
                   fmt::format("cudaLaunchKernelExC: {} attributes but attrs is NULL", config->numAttrs));
  bool cooperative = false;
  std::optional<mem::AccessPolicyWindow> window;
  std::optional<cuda::Dim3> cluster;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const cuda::LaunchAttribute& a = config->attrs[i];
    switch (a.id) {
      case cuda::LaunchAttributeIgnore: break;
      // Launches run one after another, to the end: a dependent launch that may overlap the
      // one before (programmatic stream serialization) runs after it, which is one legal
      // schedule, and a priority orders nothing when nothing runs concurrently.
      case cuda::LaunchAttributeProgrammaticStreamSerialization: break;
      case cuda::LaunchAttributePriority: break;
      case cuda::LaunchAttributeCooperative: cooperative = a.val.cooperative != 0; break;
      case cuda::LaunchAttributeClusterDimension:
        cluster = cuda::Dim3{a.val.clusterDim.x, a.val.clusterDim.y, a.val.clusterDim.z};
        break;
      // A hint on how to spread a cluster's blocks: warpsim places them one way
      // (engine/cluster_placement.hpp).
      case cuda::LaunchAttributeClusterSchedulingPolicyPreference: break;
      case cuda::LaunchAttributeAccessPolicyWindow:
        window = checked_window(a.val.accessPolicyWindow, "cudaLaunchKernelExC");
        break;
      // A hint, which the H100 (driver 580) did not follow: a launch asking for 50 % got
      // the split of the same launch without it (docs/measurements/
      // h100_launch_ex_carveout_ncu.txt). The function's carveout attribute does count.
      case cuda::LaunchAttributePreferredSharedMemoryCarveout:
        checked_launch_attribute(a.id, a.val, "cudaLaunchKernelExC");
        break;
      default: {
        const char* name = launch_attribute_name(a.id);
        if (!name)
          throw ApiError(cuda::ErrorInvalidValue,
                         fmt::format("cudaLaunchKernelExC: attribute {} is not a cudaLaunchAttributeID", a.id));
        throw ApiError(cuda::ErrorNotSupported,
                       fmt::format("cudaLaunchKernelExC: {} is not supported by warpsim", name));
      }
    }
  }
  // cudaLaunchKernelExC reports a bad function and a bad shape with other codes than
  // cudaLaunchKernel does (an H100: launch_ex.expected).
  try {
    if (capturing(config->stream)) {  // a kernel node with the launch's attributes
      check_stream(config->stream, "cudaLaunchKernelExC");
      cuda::KernelNodeParams p{const_cast<void*>(host_fn), config->gridDim, config->blockDim,
                               uint32_t(std::min<uint64_t>(config->dynamicSmemBytes, UINT32_MAX)), args, nullptr};
      GraphNode n = kernel_node(&p, "cudaLaunchKernelExC");
      for (unsigned i = 0; i < config->numAttrs; ++i) {
        const cuda::LaunchAttribute& a = config->attrs[i];
        if (a.id == cuda::LaunchAttributeIgnore || a.id == cuda::LaunchAttributeProgrammaticStreamSerialization)
          continue;
        set_node_attribute(n, a.id, a.val, "cudaLaunchKernelExC");
      }
      capture(config->stream, std::move(n));
      return;
    }
    launch(host_fn, config->gridDim, config->blockDim, args, config->dynamicSmemBytes, config->stream, cooperative,
           window ? &*window : nullptr, cluster ? &*cluster : nullptr);
  } catch (const ApiError& e) {
    if (e.code() == cuda::ErrorInvalidDeviceFunction) throw ApiError(cuda::ErrorInvalidResourceHandle, e.what());
    if (e.code() == cuda::ErrorInvalidConfiguration) throw ApiError(cuda::ErrorInvalidValue, e.what());
    throw;
  }
}

}  // namespace warpsim::runtime
