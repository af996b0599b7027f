#include "sim/engine/device.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <thread>

#include <sched.h>

#include "sim/foundation/error.hpp"
#include "sim/engine/block_placement.hpp"
#include "sim/engine/functional_parallel.hpp"
#include "sim/engine/functional_runner.hpp"
#include "sim/engine/kernel_params.hpp"
#include "sim/isa/register_storage.hpp"
#include "sim/engine/launch_validation.hpp"
#include "sim/engine/limit_guard.hpp"
#include "sim/memory/memory_counter.hpp"
#include "sim/engine/timeline.hpp"
#include "sim/engine/cluster_placement.hpp"
#include "sim/engine/sampling.hpp"
#include "sim/engine/sm_phase.hpp"
#include "sim/engine/timing_runner.hpp"
#include "sim/isa/if_conversion.hpp"
#include "sim/isa/load_scheduling.hpp"
#include "sim/isa/loop_unrolling.hpp"
#include "sim/isa/shared_load_merging.hpp"
#include "sim/isa/ptx_parser.hpp"
#include "sim/memory/global_memory.hpp"
#include "sim/memory/device_heap.hpp"
#include "sim/memory/memory_system.hpp"
#include "sim/sm/warp_executor.hpp"

namespace warpsim {

struct Device::Impl {
  DeviceSpec spec;
  mem::GlobalMemory gmem;
  mem::DeviceHeap heap{gmem};
  sm::TextureTable textures;
  std::vector<std::unique_ptr<isa::Module>> modules;
  // The register-storage plan of each kernel of `modules`, applied (made at its first
  // launch; those kernels live as long as the device, so their addresses are never reused).
  std::map<const isa::Kernel*, std::unique_ptr<const isa::Kernel>> compacted;
  // The caches and DRAM as the last launch left them (LaunchOptions::cache_control): the
  // timed memory system and the functional L2 slices. A launch that faults mid-way leaves
  // no memory system (the next starts cold).
  std::unique_ptr<mem::MemorySystem> memory;
  std::vector<mem::Cache> functional_l2;
  // The functional L1s of the last functional launch and the spec they were made for: the
  // next launch with that spec remakes only those it used (MemoryCounter), instead of one
  // per SM (132 on the H100), which dominated programs that launch small kernels often.
  std::vector<mem::Cache> functional_l1;
  const DeviceSpec* functional_l1_spec = nullptr;
  // The spec of each L1/shared split launches have used (with_shared_capacity), made at
  // first use; the memory system refers to them, so they live as long as the device.
  std::map<uint32_t, std::unique_ptr<const DeviceSpec>> splits;
  // The timed launches' worker threads and phase chooser (engine/sm_phase.hpp).
  TimingThreads timing_threads;
  // host_cores(), asked once: a system call per launch cost a program of thousands of small
  // launches several percent of its time.
  uint32_t host_cores = 0;

  // `spec` itself where it already has this split (Fixed policy, or the config's own).
  // The spec a launch runs with: the L1/shared split the device's carveout rules choose
  // for its block.
  const DeviceSpec& launch_spec(const isa::Kernel& kernel, Dim3 block, uint32_t dynamic_shared_bytes,
                                const LaunchOptions& options) {
    return spec_with_capacity(launch_shared_capacity(spec, kernel, block, dynamic_shared_bytes,
                                                     options.registers_per_thread, options.shared_preference));
  }

  const DeviceSpec& spec_with_capacity(uint32_t shared_bytes) {
    const bool own_l1 = !spec.has_l1 || spec.l1.size_bytes + shared_bytes == spec.carveout.unified_bytes;
    if (spec.carveout.policy == sm::CarveoutPolicy::Fixed || (shared_bytes == spec.sm.shared_memory && own_l1))
      return spec;
    auto& s = splits[shared_bytes];
    if (!s) s = std::make_unique<const DeviceSpec>(with_shared_capacity(spec, shared_bytes));
    return *s;
  }

  bool owns(const isa::Kernel& k) const {
    for (const auto& m : modules)
      for (const auto& mk : m->kernels)
        if (mk.get() == &k) return true;
    return false;
  }
};

Device::Device(DeviceSpec spec) : impl_(std::make_unique<Impl>()) {
  impl_->spec = std::move(spec);
  impl_->gmem.set_capacity(impl_->spec.memory_bytes);
}
Device::~Device() = default;

const DeviceSpec& Device::spec() const { return impl_->spec; }
sm::TextureTable& Device::textures() { return impl_->textures; }

DevPtr Device::malloc(uint64_t bytes) { return impl_->gmem.allocate(bytes); }

void Device::free(DevPtr ptr) {
  if (impl_->heap.owns(ptr))
    throw LaunchError(fmt::format("free of {:#x}: a block that malloc allocated in a kernel (only a kernel's free() "
                                  "releases it)",
                                  ptr));
  if (!impl_->gmem.release(ptr))
    throw LaunchError(fmt::format("free of {:#x}: not the start of a live allocation", ptr));
}

uint32_t host_cores() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return static_cast<uint32_t>(std::max(1, CPU_COUNT(&set)));
  return std::max(1u, std::thread::hardware_concurrency());
}

uint32_t parse_thread_count(const std::string& text, const std::string& what) {
  if (text == "auto") return kAutoThreads;
  uint32_t n = 0;
  size_t used = 0;
  try {
    const unsigned long v = std::stoul(text, &used);
    n = v <= 256 ? static_cast<uint32_t>(v) : 0;
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || n < 1 || n > 256 || text[0] == '-' || text[0] == '+')
    throw ConfigError(fmt::format("{}=\"{}\": expected auto (every core the process may use, at most 8) "
                                  "or 1 to 256 host threads",
                                  what, text));
  return n;
}

void Device::map_external(DevPtr at, void* storage, uint64_t bytes, const std::string& label) {
  if (!impl_->gmem.map_external(at, static_cast<uint8_t*>(storage), bytes, label))
    throw LaunchError(fmt::format("cannot map {} bytes at {:#x} into device memory: the range is empty or overlaps an "
                                  "allocation ({})",
                                  bytes, at, impl_->gmem.describe(at, std::max<uint64_t>(bytes, 1))));
}

DevPtr Device::map_external_anywhere(void* storage, uint64_t bytes, const std::string& label) {
  const DevPtr at = impl_->gmem.map_external_anywhere(static_cast<uint8_t*>(storage), bytes, label);
  if (!at) throw LaunchError(fmt::format("cannot map {} bytes into device memory", bytes));
  return at;
}

void Device::share_allocation(DevPtr base, void* storage) {
  if (!impl_->gmem.share(base, static_cast<uint8_t*>(storage)))
    throw LaunchError(fmt::format("{:#x} is not the start of a device allocation", base));
}

uint64_t Device::vmm_granularity() { return mem::GlobalMemory::kGranularity; }
std::string Device::create_physical(uint64_t bytes, uint64_t* id) { return impl_->gmem.create_physical(bytes, id); }
std::string Device::create_physical_external(uint64_t bytes, void* storage, std::function<void()> release,
                                             bool counted, uint64_t* id) {
  return impl_->gmem.create_physical_external(bytes, static_cast<uint8_t*>(storage), std::move(release), counted, id);
}
std::string Device::release_physical(uint64_t id) { return impl_->gmem.release_physical(id); }
std::string Device::retain_physical(uint64_t id) { return impl_->gmem.retain_physical(id); }
uint64_t Device::physical_bytes(uint64_t id) const { return impl_->gmem.physical_bytes(id); }
std::string Device::reserve(uint64_t bytes, uint64_t alignment, DevPtr hint, DevPtr* base) {
  return impl_->gmem.reserve(bytes, alignment, hint, base);
}
std::string Device::unreserve(DevPtr base, uint64_t bytes) { return impl_->gmem.unreserve(base, bytes); }
std::string Device::map_physical(DevPtr base, uint64_t bytes, uint64_t id) {
  return impl_->gmem.map_physical(base, bytes, id);
}
std::string Device::unmap(DevPtr base, uint64_t bytes) { return impl_->gmem.unmap(base, bytes); }
std::string Device::set_access(DevPtr base, uint64_t bytes, bool accessible) {
  return impl_->gmem.set_access(base, bytes, accessible);
}
std::optional<std::pair<uint64_t, bool>> Device::mapping_at(DevPtr ptr) const {
  const auto* a = impl_->gmem.mapping_at(ptr);
  if (!a) return std::nullopt;
  return std::make_pair(a->physical, a->accessible);
}
bool Device::in_reservation(DevPtr ptr) const { return impl_->gmem.in_reservation(ptr); }
uint64_t Device::accessible_from(DevPtr ptr) const { return impl_->gmem.accessible_from(ptr); }

bool Device::set_heap_limit(uint64_t bytes) { return impl_->heap.set_limit(bytes); }
uint64_t Device::heap_limit() const { return impl_->heap.limit(); }

void Device::forget_caches() {
  impl_->memory.reset();
  std::vector<mem::Cache>().swap(impl_->functional_l2);
  std::vector<mem::Cache>().swap(impl_->functional_l1);
  impl_->functional_l1_spec = nullptr;
}

void Device::demote_persisting_l2() {
  if (impl_->memory) impl_->memory->demote_persisting_l2();
  for (mem::Cache& slice : impl_->functional_l2) slice.demote_persisting();
}

void Device::set_label(DevPtr ptr, const std::string& label) {
  if (!impl_->gmem.set_label(ptr, label))
    throw LaunchError(fmt::format("label '{}' for {:#x}: not the start of a live allocation", label, ptr));
}

namespace {

mem::GlobalMemory::Allocation& checked(mem::GlobalMemory& gm, DevPtr p, uint64_t n, const char* what) {
  auto* a = gm.find(p, n);
  if (!a)
    throw LaunchError(fmt::format("{} of {} bytes at {:#x}: outside any allocation ({})", what, n, p, gm.describe(p, n)));
  return *a;
}

// Copies and memsets may run over mappings that follow each other end to end (virtual
// memory management): `f(allocation, address, bytes)` for each allocation in turn, once the
// whole range is known to be there (nothing is written before an error).
template <class F>
void for_each_piece(mem::GlobalMemory& gm, DevPtr at, uint64_t bytes, const char* what, F&& f) {
  for (bool apply : {false, true}) {
    for (DevPtr p = at, n = bytes; n;) {
      auto* a = gm.find(p, 1);
      const uint64_t piece = a ? std::min(n, a->base + a->size - p) : 0;
      if (!a || (piece < n && !a->physical)) checked(gm, p, n, what);  // throws, naming the place
      if (apply) f(*a, p, piece);
      p += piece;
      n -= piece;
    }
  }
}

}  // namespace

void Device::copy_to_device(DevPtr dst, const void* src, uint64_t bytes) {
  auto* in = static_cast<const uint8_t*>(src);
  for_each_piece(impl_->gmem, dst, bytes, "copy to device", [&](auto& a, DevPtr p, uint64_t n) {
    impl_->gmem.write(a, p, in, n);
    in += n;
  });
}

void Device::copy_from_device(void* dst, DevPtr src, uint64_t bytes) const {
  auto* out = static_cast<uint8_t*>(dst);
  for_each_piece(impl_->gmem, src, bytes, "copy from device", [&](auto& a, DevPtr p, uint64_t n) {
    impl_->gmem.read(a, p, out, n);
    out += n;
  });
}

void Device::memset(DevPtr dst, uint8_t value, uint64_t bytes) {
  std::vector<uint8_t> chunk(std::min<uint64_t>(bytes, mem::GlobalMemory::kPageSize), value);
  for_each_piece(impl_->gmem, dst, bytes, "memset", [&](auto& a, DevPtr p, uint64_t n) {
    for (uint64_t done = 0; done < n;) {
      uint64_t k = std::min<uint64_t>(chunk.size(), n - done);
      impl_->gmem.write(a, p + done, chunk.data(), k);
      done += k;
    }
  });
}

uint64_t Device::bytes_allocated() const { return impl_->gmem.bytes_allocated(); }
void Device::set_memory_capacity(uint64_t bytes) { impl_->gmem.set_capacity(bytes); }
uint64_t Device::memory_capacity() const { return impl_->gmem.capacity(); }

std::optional<std::pair<DevPtr, uint64_t>> Device::allocation_containing(DevPtr ptr) const {
  const auto* a = impl_->gmem.find(ptr, 1);
  if (!a) return std::nullopt;
  return std::make_pair(a->base, a->size);
}

namespace {

// Places a module's .global/.const variables in global memory while it is parsed; when the
// parse fails, what was placed is released again.
class VarPlacer {
 public:
  explicit VarPlacer(mem::GlobalMemory& gm, const std::map<std::string, DevPtr>* at = nullptr) : gm_(gm), at_(at) {}
  ~VarPlacer() {
    for (uint64_t p : placed_) gm_.release(p);
  }
  uint64_t operator()(const isa::ModuleVar& v) {
    if (v.align > 256)
      throw PtxError(fmt::format("line {}: unsupported PTX: alignment {} of '{}' (at most 256)", v.decl_line, v.align,
                                 v.name));
    const auto wanted = at_ ? at_->find(v.name) : std::map<std::string, DevPtr>::const_iterator{};
    uint64_t p = 0;
    if (at_ && wanted != at_->end() && gm_.allocate_at(wanted->second, v.size)) p = wanted->second;
    else p = gm_.allocate(std::max<uint64_t>(v.size, 1));
    placed_.push_back(p);
    gm_.set_label(p, v.name);
    auto* a = gm_.find(p, 1);
    if (!v.init.empty()) gm_.write(*a, p, v.init.data(), v.init.size());  // untouched pages read as zeros
    return p;
  }
  void keep() { placed_.clear(); }

 private:
  mem::GlobalMemory& gm_;
  const std::map<std::string, DevPtr>* at_;
  std::vector<uint64_t> placed_;
};

}  // namespace

const isa::Module& Device::load_ptx_file(const std::string& path) {
  VarPlacer placer(impl_->gmem);
  impl_->modules.push_back(isa::load_ptx_file(path, std::ref(placer)));
  placer.keep();
  return adopt(*impl_->modules.back());
}

const isa::Module& Device::load_ptx(const std::string& text, const std::string& name,
                                    const std::map<std::string, DevPtr>* at) {
  VarPlacer placer(impl_->gmem, at);
  impl_->modules.push_back(isa::parse_ptx(text, name, std::ref(placer)));
  placer.keep();
  return adopt(*impl_->modules.back());
}

const isa::Module& Device::adopt(isa::Module& m) {
  // The code generator's scheduling this device's config asks for (the register estimate
  // stays the one of PTX order).
  if (impl_->spec.issue.if_convert)
    for (auto& k : m.kernels) isa::if_convert_skips(*k);
  if (impl_->spec.issue.unroll_loops > 1)
    for (auto& k : m.kernels) isa::unroll_loops(*k, impl_->spec.issue.unroll_loops);
  if (impl_->spec.issue.merge_shared_loads)
    for (auto& k : m.kernels) isa::merge_shared_loads(*k);
  if (impl_->spec.issue.hoist_loads)
    for (auto& k : m.kernels) isa::schedule_loads_first(*k);
  return m;
}

std::optional<Device::SymbolInfo> Device::symbol(const isa::Module& m, const std::string& name) const {
  bool ours = false;
  for (const auto& mod : impl_->modules) ours |= mod.get() == &m;
  if (!ours) return std::nullopt;  // placeholder addresses of a module parsed elsewhere mean nothing here
  for (size_t i = 0; i < m.globals.size(); ++i)
    if (m.globals[i].name == name) return SymbolInfo{m.global_addresses[i], m.globals[i].size};
  return std::nullopt;
}

namespace {
// The cluster shape LaunchOptions give a launch of `kernel` (launch_cluster_shape).
std::optional<Dim3> options_cluster_shape(const DeviceSpec& spec, const isa::Kernel& kernel, Dim3 grid,
                                          const LaunchOptions& options) {
  return launch_cluster_shape(spec, kernel, grid,
                              options.cluster_given ? std::optional<Dim3>(options.cluster) : std::nullopt,
                              options.cluster_non_portable);
}
}  // namespace

OccupancyStats Device::check_launch(const isa::Kernel& kernel, Dim3 grid, Dim3 block, uint32_t dynamic_shared_bytes,
                                   const LaunchOptions& options) {
  validate_launch(impl_->spec, kernel, grid, block, dynamic_shared_bytes);
  const DeviceSpec& spec = impl_->launch_spec(kernel, block, dynamic_shared_bytes, options);
  OccupancyStats occupancy = launch_occupancy(spec, kernel, block, dynamic_shared_bytes, options.registers_per_thread);
  const std::optional<Dim3> cluster = options_cluster_shape(spec, kernel, grid, options);
  if (cluster && occupancy.blocks_per_sm > spec.clusters.max_blocks_per_sm) {  // the cluster scheduler's limit
    occupancy.blocks_per_sm = spec.clusters.max_blocks_per_sm;
    occupancy.limiter = "clusters";
    occupancy.active_warps_per_sm = occupancy.blocks_per_sm * occupancy.warps_per_block;
    occupancy.theoretical_occupancy =
        occupancy.max_warps_per_sm ? double(occupancy.active_warps_per_sm) / occupancy.max_warps_per_sm : 0;
  }
  if (cluster && max_active_clusters(spec, cluster->count(), occupancy.blocks_per_sm) == 0)
    throw LaunchError(fmt::format("invalid cluster size: no GPC of the {} can hold a cluster of {} blocks of kernel '{}' "
                                  "at once ({} per SM)",
                                  spec.name, cluster->count(), kernel.name, occupancy.blocks_per_sm));
  if (options.cooperative) {
    const uint64_t fits = uint64_t(spec.sm.count) * occupancy.blocks_per_sm;
    if (grid.count() > fits)
      throw LaunchError(fmt::format("cooperative launch too large: {} blocks, and at most {} ({} per SM on {} SMs) can "
                                    "be resident at once (kernel '{}')",
                                    grid.count(), fits, occupancy.blocks_per_sm, spec.sm.count, kernel.name));
  }
  return occupancy;
}

LaunchStats Device::launch(const isa::Kernel& kernel, Dim3 grid, Dim3 block, uint32_t dynamic_shared_bytes,
                           std::span<const KernelArg> args, const LaunchOptions& options) {
  const OccupancyStats occupancy = check_launch(kernel, grid, block, dynamic_shared_bytes, options);
  const DeviceSpec& spec = impl_->launch_spec(kernel, block, dynamic_shared_bytes, options);
  LaunchStats stats;
  stats.kernel = kernel.name;
  stats.device = spec.name;
  stats.grid = grid;
  stats.block = block;
  stats.dynamic_shared_bytes = dynamic_shared_bytes;
  stats.timing_mode = options.mode == SimMode::Timing;
  stats.l1_bytes = spec.has_l1 ? static_cast<uint32_t>(spec.l1.size_bytes) : 0;
  stats.occupancy = occupancy;

  // Device functions share the kernel's register file across calls, which the storage
  // plan's liveness does not follow: kernels that call keep one slot per register.
  // The plan is made once per kernel of a loaded module (a program launches the same kernel
  // thousands of times) and per launch for a kernel from elsewhere.
  std::optional<isa::Kernel> own_copy;
  const isa::Kernel* exec_kernel = &kernel;
  if (options.compact_registers && kernel.functions.empty()) {
    auto compact = [&] { return isa::with_register_storage(kernel, isa::plan_register_storage(kernel)); };
    auto it = impl_->compacted.find(&kernel);
    if (it != impl_->compacted.end()) exec_kernel = it->second.get();
    else if (impl_->owns(kernel))
      exec_kernel = impl_->compacted.emplace(&kernel, std::make_unique<const isa::Kernel>(compact())).first->second.get();
    else exec_kernel = &own_copy.emplace(compact());
  }
  sm::LaunchContext ctx;
  ctx.kernel = exec_kernel;
  ctx.source_kernel = &kernel;
  ctx.grid = grid;
  ctx.block = block;
  ctx.dynamic_shared = dynamic_shared_bytes;
  for (const isa::SpecialSlot& sp : exec_kernel->specials)
    if (isa::is_reserved_smem(sp.which)) ctx.reserved_shared = spec.sm.shared_reserved_per_block;
  ctx.warp_size = spec.sm.warp_size;
  ctx.threads_per_block = static_cast<uint32_t>(block.count());
  ctx.warps_per_block = (ctx.threads_per_block + ctx.warp_size - 1) / ctx.warp_size;
  ctx.num_sms = spec.sm.count;
  const std::vector<uint32_t> fill_order = first_pass_order(spec, grid.count());
  ctx.sm_fill_order = &fill_order;
  ctx.params = build_param_buffer(kernel, args);
  ctx.gmem = &impl_->gmem;
  ctx.heap = &impl_->heap;
  ctx.textures = &impl_->textures;
  sm::set_local_layout(ctx, kernel, options.stack_bytes);
  ctx.ns_per_cycle = spec.clock_mhz > 0 ? 1000.0 / spec.clock_mhz : 1.0;
  sm::DeviceLaunchSupport device_runtime;
  device_runtime.runs_work = static_cast<bool>(options.device_work_sink);
  device_runtime.pending = options.device_launches_pending;
  device_runtime.pending_limit = options.device_launch_pending_limit;
  device_runtime.check = [this](const isa::Kernel& k, Dim3 g, Dim3 b, uint32_t shared) -> std::string {
    try {
      validate_launch(impl_->spec, k, g, b, shared);
      launch_occupancy(impl_->spec, k, b, shared, 0);  // a block that fits no SM: "too many resources"
    } catch (const LaunchError& e) {
      return e.what();
    }
    return "";
  };
  device_runtime.error_text = options.cuda_error_text;
  device_runtime.runtime_version = options.device_runtime_version;
  device_runtime.queries = options.device_queries;
  ctx.device_runtime = &device_runtime;

  // The grid barrier's workspace: { wsSize, barrier } as the driver lays it out, zeroed.
  struct Workspace {
    Device* d;
    DevPtr at = 0;
    ~Workspace() {
      if (at) d->free(at);
    }
  } workspace{this};
  if (options.cooperative) {  // (its size checked by check_launch)
    workspace.at = malloc(16);
    const uint32_t header[4] = {16, 0, 0, 0};
    copy_to_device(workspace.at, header, sizeof header);
    ctx.grid_workspace = workspace.at;
  }
  // Thread block clusters: a table of the resident clusters wherever the kernel can reach
  // one (a launch in clusters, or cluster instructions: then clusters of one block).
  const std::optional<Dim3> cluster = options_cluster_shape(spec, kernel, grid, options);  // (check_launch took it)
  std::optional<sm::ClusterTable> clusters;
  if (cluster || uses_cluster_instructions(*exec_kernel)) {
    ctx.cluster = cluster.value_or(Dim3{});
    ctx.explicit_cluster = cluster.has_value();
    ctx.tpc_sms = spec.gpc_tpc_sms;
    ctx.clusters = &clusters.emplace(grid, ctx.cluster, ctx.threads_per_block);
  }

  stats.exec.warp_size = ctx.warp_size;
  stats.exec.blocks = grid.count();
  stats.exec.warps = grid.count() * ctx.warps_per_block;
  stats.exec.threads = grid.count() * ctx.threads_per_block;

  LimitGuard limits(options.limits, kernel.name);
  sm::WarpExecutor executor(ctx, stats);
  const bool timing = options.mode == SimMode::Timing;
  const bool keep = options.cache_control == CacheControl::Keep;
  const bool model_caches = !timing && options.functional_caches && !options.no_caches;
  if (model_caches && !keep) impl_->functional_l2.clear();
  if (model_caches && impl_->functional_l1_spec != &spec) {
    impl_->functional_l1.clear();
    impl_->functional_l1_spec = &spec;
  }
  MemoryCounter counter(spec, stats, ctx.threads_per_block, stats.exec.threads, model_caches,
                        model_caches ? &impl_->functional_l2 : nullptr,
                        model_caches ? &impl_->functional_l1 : nullptr);
  counter.place_blocks(ctx.sm_fill_order);
  // With threads, a functional launch runs its blocks on them where the kernel allows
  // (engine/functional_parallel.hpp; the caches then take turns with the blocks), else its
  // caches on a thread of their own.
  // Auto threads: every core (at most kMaxAutoThreads) for functional blocks (a functional
  // launch's, or the untimed ones of a sampled timing run) and for the timed SMs, whose
  // parallel phases run only where they measure faster (engine/phase_chooser.hpp).
  if (options.threads == kAutoThreads && !impl_->host_cores) impl_->host_cores = host_cores();
  const uint32_t threads =
      options.threads != kAutoThreads ? options.threads : std::min(impl_->host_cores, kMaxAutoThreads);
  // (Not while some memory has two addresses: blocks touching it through both would not be
  // seen to meet.)
  const bool blocks_parallel = threads > 1 && !options.cooperative && !ctx.clusters && options.trace_warps.empty() &&
                               blocks_may_run_in_parallel(*exec_kernel) && !impl_->gmem.has_aliased_mappings();
  const bool parallel_blocks = !timing && blocks_parallel;
  if (model_caches && threads > 1 && !parallel_blocks) counter.replay_caches_on_thread();
  mem::L2AccessPolicy l2_policy;
  if (spec.has_l2) {
    l2_policy.window = options.l2_window;
    l2_policy.persisting_ways =
        mem::persisting_ways(options.l2_persisting_bytes, spec.l2.total_bytes, spec.l2.slice.ways);
    l2_policy.persisting_kept_share = static_cast<float>(spec.l2.persisting_kept_share);
  }
  counter.set_l2_access_policy(l2_policy);
  if (!options.trace_warps.empty()) {
    std::vector<std::pair<uint32_t, uint32_t>> traced;
    for (const auto& t : options.trace_warps) {
      if (t.block >= grid.count())
        throw LaunchError(fmt::format("--trace-warp {},{}: block {} does not exist (the grid has {} blocks, numbered "
                                      "x + y*grid.x + z*grid.x*grid.y)",
                                      t.block, t.warp, t.block, grid.count()));
      if (t.warp >= ctx.warps_per_block)
        throw LaunchError(fmt::format("--trace-warp {},{}: warp {} does not exist (a block has {} warps)", t.block,
                                      t.warp, t.warp, ctx.warps_per_block));
      traced.push_back({t.block, t.warp});
    }
    counter.trace_warps(traced, options.trace_limit);
  }
  if (!options.timeline_path.empty() && !timing)
    throw LaunchError("a timeline needs timing mode (drop --functional)");
  if (options.epoch_cycles < 1 || options.epoch_cycles > kMaxEpochCycles)
    throw LaunchError(fmt::format("an epoch of {} cycles: expected 1 (every cycle) to {}", options.epoch_cycles,
                                  kMaxEpochCycles));
  // Device printf output, delivered when the launch ends (or faults).
  auto flush_printf = [&] {
    std::vector<std::string> out = executor.take_printf_output();
    for (const std::string& text : out) {
      if (options.printf_sink) options.printf_sink(text);
      else std::fwrite(text.data(), 1, text.size(), stdout);
    }
    if (!out.empty() && !options.printf_sink) std::fflush(stdout);
  };
  try {
    if (timing) {
      std::unique_ptr<Timeline> timeline;
      if (!options.timeline_path.empty())
        timeline = std::make_unique<Timeline>(spec, options.timeline_window_cycles);
      const uint64_t per_wave = uint64_t(spec.sm.count) * std::max<uint32_t>(1, stats.occupancy.blocks_per_sm);
      // (A launch in clusters is timed whole: its untimed rest would run block by block.)
      const uint64_t timed = cluster ? grid.count() : blocks_to_time(grid.count(), per_wave, options.sample_waves);
      if (!keep) impl_->memory.reset();  // before a new one is built: one at a time in memory
      if (!impl_->memory) impl_->memory = std::make_unique<mem::MemorySystem>(spec);
      impl_->memory->set_l2_access_policy(l2_policy);
      if (options.phase_clock) impl_->timing_threads.chooser = PhaseChooser(options.phase_clock);
      try {
        // Clusters share memory and a barrier across SMs: their SMs tick on one thread,
        // every cycle, so that each sees the others' progress in the same order every run.
        run_timing(spec, executor, counter, stats, limits, timeline.get(), timed, ctx.clusters ? 1 : threads,
                   options.threads_adaptive, impl_->memory.get(), &impl_->timing_threads,
                   ctx.clusters ? 1 : options.epoch_cycles);
      } catch (...) {
        impl_->memory.reset();  // stopped mid-launch: requests in flight, misses outstanding
        throw;
      }
      if (timed < grid.count()) {
        const TimedWork at_end = timed_work(stats);
        if (blocks_parallel)
          run_functional_parallel(executor, limits, counter, spec, stats, threads, timed,
                                  stats.exec.inst_executed, options.parallel_report, !options.threads_adaptive);
        else run_functional(executor, limits, &counter, timed, stats.exec.inst_executed);
        extrapolate_timing(stats, spec, at_end, grid.count());
      }
      if (timeline) timeline->write(options.timeline_path, kernel.name);
    } else {
      if (options.cooperative) run_functional_cooperative(executor, limits, &counter);
      else if (cluster) run_functional_clusters(executor, limits, &counter);
      else if (parallel_blocks)
        run_functional_parallel(executor, limits, counter, spec, stats, threads, 0, 0, options.parallel_report,
                                !options.threads_adaptive);
      else run_functional(executor, limits, &counter);
      counter.finish();
      if (options.no_caches) stats.mem.has_l1 = stats.mem.has_l2 = stats.mem.l2_partitioned = false;
    }
  } catch (const KernelFault&) {
    flush_printf();
    throw;
  }
  flush_printf();
  // Parameter buffers the grid took and did not launch go back to the heap.
  for (const auto& [buffer, pending] : device_runtime.param_buffers) impl_->heap.release(buffer);
  if (options.device_work_sink && !device_runtime.work.empty()) {
    sm::order_device_work(device_runtime.work);
    options.device_work_sink(std::move(device_runtime.work));
  }
  stats.host_seconds = limits.elapsed_seconds();
  return stats;
}

}  // namespace warpsim
