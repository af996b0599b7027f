// The host API: a simulated GPU that tests, the command-line tool and the grader use.
// Nothing outside sim/ reaches into the simulator's internals; it goes through Device.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sim/memory/l2_access_policy.hpp"
#include "sim/spec/device_spec.hpp"
#include "sim/foundation/dim3.hpp"
#include "sim/foundation/launch_stats.hpp"
#include "sim/isa/ir.hpp"
#include "sim/sm/device_work.hpp"
#include "sim/sm/texture_objects.hpp"

namespace warpsim {

struct FunctionalParallelReport;  // engine/functional_parallel.hpp

using DevPtr = uint64_t;

// A kernel argument as the host gives it; converted to the type of the kernel's .param
// at launch (pointers and integers to .u64/.s32/..., reals to .f32/.f64).
struct KernelArg {
  enum class Kind { Pointer, Int, Real, Bytes };
  Kind kind = Kind::Int;
  uint64_t u = 0;
  int64_t i = 0;
  double f = 0;
  std::vector<uint8_t> bytes;  // Kind::Bytes: raw by-value struct

  static KernelArg ptr(DevPtr p) { KernelArg a; a.kind = Kind::Pointer; a.u = p; return a; }
  static KernelArg integer(int64_t v) { KernelArg a; a.kind = Kind::Int; a.i = v; return a; }
  static KernelArg real(double v) { KernelArg a; a.kind = Kind::Real; a.f = v; return a; }
};

enum class SimMode { Functional, Timing };

// What a launch finds in the caches and DRAM (the timed memory system; in functional mode
// the L2 slices that count hits):
// - Flush: empty caches and idle DRAM, as Nsight Compute measures a kernel by default
//   (`--cache-control all`) and as a single kernel run alone starts;
// - Keep: what the device's previous launch in the same mode left there (L2 contents with
//   their dirty lines, open DRAM rows, the refresh schedule), as kernels launched one after
//   another find it on hardware. L1s start empty either way: the GPU invalidates them at
//   a kernel's start. Host copies and functional-only launches leave the caches alone.
enum class CacheControl { Flush, Keep };

// Resource limits for one launch (0 = unlimited). Hitting one stops the launch with a
// KernelFault of kind LimitExceeded naming the limit.
struct Limits {
  uint64_t max_cycles = 0;             // simulated SM cycles (timing mode)
  uint64_t max_warp_instructions = 0;  // warp instructions executed
  double max_host_seconds = 0;         // wall-clock time of the simulation
};

struct TraceRequest {
  uint32_t block = 0;  // linear block index
  uint32_t warp = 0;   // warp index within the block
};

// LaunchOptions::threads for "as many as pay": every core this process may run on (at most
// kMaxAutoThreads). A functional launch runs its blocks on them; a timed launch ticks its SMs
// on them in the cycles where that measures faster than one thread (engine/phase_chooser.hpp:
// a cycle of many SMs, as on the H100 config, gains; one of few, as on the C2070's, would
// lose to the exchange between threads, and stays serial; docs/performance.md).
inline constexpr uint32_t kAutoThreads = 0;
inline constexpr uint32_t kMaxAutoThreads = 8;
// The cores this process may run on (its CPU affinity: taskset, cgroups, Slurm), at least 1.
uint32_t host_cores();
// A thread count as users write it: "auto" (kAutoThreads) or 1 to 256; anything else is a
// ConfigError naming `what` (e.g. "--threads" or "WARPSIM_THREADS").
uint32_t parse_thread_count(const std::string& text, const std::string& what);
// The longest epoch LaunchOptions::epoch_cycles may ask for.
inline constexpr uint32_t kMaxEpochCycles = 64;

struct LaunchOptions {
  SimMode mode = SimMode::Timing;
  uint32_t registers_per_thread = 0;   // 0: the loader's liveness estimate
  Limits limits;
  std::vector<TraceRequest> trace_warps;  // per-warp memory traces
  uint32_t trace_limit = 4096;            // records per traced warp
  std::string timeline_path;              // Chrome trace file ("" = none)
  uint64_t timeline_window_cycles = 200000;
  // Share register storage between virtual registers that are never live together
  // (isa/register_storage.hpp): same results, a smaller working set. Off only to check that.
  bool compact_registers = true;
  // Sampled timing (engine/sampling.hpp): time the first `sample_waves` waves of blocks, run
  // the rest functionally and extrapolate the time. 0: every block is timed.
  uint32_t sample_waves = 0;
  // Timing mode: the SMs and the memory system exchange requests and responses every
  // `epoch_cycles` cycles (engine/sm_phase.hpp, "Epochs"): faster, and the same statistics
  // for any thread count, but times that differ from 1's (every cycle) by a few cycles per
  // memory round trip (docs/performance.md). 1 to kMaxEpochCycles.
  uint32_t epoch_cycles = 1;
  CacheControl cache_control = CacheControl::Flush;
  // The program's L1/shared preferences (CUDA's cache configuration and carveout), from which
  // the device's "carveout" rules choose this launch's split.
  sm::SharedPreference shared_preference;
  // Functional mode: simulate the caches for their hit counts. Off for a launch whose
  // cache counters are taken from elsewhere (engine/launch_sampling.hpp).
  bool functional_caches = true;
  // Functional mode without the L1/L2 model at all (`--no-caches`): every count execution
  // produces is the same, memory-bound kernels run faster, and the launch has no cache
  // statistics (LaunchStats::mem.has_l1/has_l2 false: its hit rates are absent, not zero).
  bool no_caches = false;
  // Per-thread stack for device-function calls (CUDA's cudaLimitStackSize, 1 KiB by default):
  // a call that would go past it stops the launch with a stack-overflow fault.
  uint32_t stack_bytes = 1024;
  // Host threads. A timed launch ticks its SMs on them (engine/sm_phase.hpp); a functional
  // one with 2 or more runs its blocks on them where the kernel allows
  // (engine/functional_parallel.hpp) and its caches on a thread of their own
  // (memory/cache_replay.hpp). Statistics and results are the same for any count; a
  // timeline or warp traces run with one. kAutoThreads: as many as pay (above).
  uint32_t threads = 1;
  // Receives what a functional launch with threads did (tests, benchmarks); null: nothing.
  FunctionalParallelReport* parallel_report = nullptr;
  // Tests: the clock the device's phase chooser measures timed launches with
  // (engine/phase_chooser.hpp), in place of the host's; set, the chooser starts afresh at
  // this launch. Lets a test make it switch between serial and parallel phases on cue.
  uint64_t (*phase_clock)() = nullptr;
  // false: every cycle that may tick in parallel does, even while the host is too busy for
  // it to pay (SmPhase::set_adaptive), and a parallel functional launch deals its chunks of
  // blocks to the threads in turn (tests that must exercise the parallel path).
  bool threads_adaptive = true;
  // Receives each device printf's text (one call per printf and thread) when the launch
  // ends, ordered by block (linear index), warp, the warp's printf calls, then lane, in
  // both modes. Empty: written to stdout and flushed. Output of a faulting launch is
  // delivered before the fault is thrown.
  std::function<void(std::string_view)> printf_sink;
  // A cooperative launch (cudaLaunchCooperativeKernel): every block is resident at once, the
  // grid has a workspace for cooperative_groups' grid.sync(), and functional mode runs the
  // blocks interleaved so that a block spinning at the grid barrier lets the others reach it.
  // The grid must fit the device at once (else LaunchError "cooperative launch too large").
  bool cooperative = false;
  // Thread block clusters (cc 9.0, spec.clusters): `cluster` is the launch's cluster shape
  // (cudaLaunchAttributeClusterDimension) if `cluster_given`, else the kernel's
  // __cluster_dims__ if it has them, else none. cluster_non_portable allows clusters past
  // spec.clusters.portable_size (cudaFuncAttributeNonPortableClusterSizeAllowed). A
  // cluster's blocks run at once on distinct SMs of one GPC and share their shared memory;
  // an impossible one is LaunchError "invalid cluster size: ..." (launch_cluster_shape).
  bool cluster_given = false;
  Dim3 cluster;
  bool cluster_non_portable = false;
  // L2 access control (CUDA's access policy window of the stream or the launch, and the
  // persisting set-aside of cudaLimitPersistingL2CacheSize; sim/memory/l2_access_policy.hpp).
  // None by default: every line normal.
  mem::AccessPolicyWindow l2_window;
  uint64_t l2_persisting_bytes = 0;
  // Dynamic parallelism (sm/device_work.hpp): receives the launches, copies and sets the
  // grid asked the device runtime for, in the order they are to run, when it ends without a
  // fault (the receiver runs them). Null: a launch from the device faults, naming why.
  std::function<void(std::vector<sm::DeviceWork>&&)> device_work_sink;
  // Device-launched grids not complete as this one starts, and the most there may be
  // (cudaLimitDevRuntimePendingLaunchCount; sm::DeviceLaunchSupport).
  uint64_t device_launches_pending = 0;
  uint64_t device_launch_pending_limit = 2048;
  // cudaGetErrorString (false) / cudaGetErrorName (true) for kernels that call them, and
  // cudaRuntimeGetVersion's value in a kernel.
  std::function<std::string(uint32_t code, bool name)> cuda_error_text;
  int device_runtime_version = 0;
  // The device runtime's queries (attributes, limits, kernels' attributes and occupancy).
  sm::DeviceQueries device_queries;
};

class Device {
 public:
  explicit Device(DeviceSpec spec);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const DeviceSpec& spec() const;

  // Global memory. Addresses are 256-byte aligned like cudaMalloc's; allocations are sparse
  // (pages are materialised on first touch) and separated by unmapped guard space.
  DevPtr malloc(uint64_t bytes);
  void free(DevPtr ptr);
  void copy_to_device(DevPtr dst, const void* src, uint64_t bytes);
  void copy_from_device(void* dst, DevPtr src, uint64_t bytes) const;
  void memset(DevPtr dst, uint8_t value, uint64_t bytes);
  uint64_t bytes_allocated() const;
  // Device memory size (the config's memory.size_bytes); allocations beyond it fail.
  void set_memory_capacity(uint64_t bytes);
  uint64_t memory_capacity() const;
  // The live allocation (base, size) containing `ptr`, if any.
  std::optional<std::pair<DevPtr, uint64_t>> allocation_containing(DevPtr ptr) const;
  // Names a buffer so that out-of-bounds reports can say "past the end of buffer 'C'".
  void set_label(DevPtr ptr, const std::string& label);
  // Maps memory the caller owns at device address `at` (the runtime's mapped, pinned host
  // memory: kernels read and write it in place). It does not count against the capacity;
  // unmap it with free(). Throws LaunchError if the range overlaps an allocation.
  void map_external(DevPtr at, void* storage, uint64_t bytes, const std::string& label);
  // The same where the next allocation would go; returns the address (CUDA IPC's imports).
  DevPtr map_external_anywhere(void* storage, uint64_t bytes, const std::string& label);
  // Keeps the bytes of the allocation starting at `base` in `storage` from now on (see
  // mem::GlobalMemory::share); throws LaunchError if `base` is not such an allocation.
  void share_allocation(DevPtr base, void* storage);
  // Virtual memory management (CUDA's cuMemCreate/cuMemAddressReserve/cuMemMap/cuMemSetAccess,
  // mem::GlobalMemory): each returns "" or why it refused, changing nothing then. Physical
  // allocations count against the capacity; a mapping has no access until set_access.
  static uint64_t vmm_granularity();
  std::string create_physical(uint64_t bytes, uint64_t* id);
  // A physical allocation kept in storage the caller owns (mem::GlobalMemory::create_physical_external).
  std::string create_physical_external(uint64_t bytes, void* storage, std::function<void()> release, bool counted,
                                       uint64_t* id);
  std::string release_physical(uint64_t id);
  std::string retain_physical(uint64_t id);
  uint64_t physical_bytes(uint64_t id) const;  // 0: not a live handle
  std::string reserve(uint64_t bytes, uint64_t alignment, DevPtr hint, DevPtr* base);
  std::string unreserve(DevPtr base, uint64_t bytes);
  std::string map_physical(DevPtr base, uint64_t bytes, uint64_t id);
  std::string unmap(DevPtr base, uint64_t bytes);
  std::string set_access(DevPtr base, uint64_t bytes, bool accessible);
  bool in_reservation(DevPtr ptr) const;  // inside address space cuMemAddressReserve reserved
  // The mapping containing `ptr`: its physical allocation and whether it has access.
  std::optional<std::pair<uint64_t, bool>> mapping_at(DevPtr ptr) const;
  // Bytes from `ptr` to the end of the accessible memory it is in (a run of mappings end to
  // end counts as one); 0 outside.
  uint64_t accessible_from(DevPtr ptr) const;
  // The heap of malloc/new in kernels (cudaLimitMallocHeapSize): set_heap_limit returns
  // false, changing nothing, once a kernel has allocated from it.
  bool set_heap_limit(uint64_t bytes);
  uint64_t heap_limit() const;
  // Drops the caches and DRAM state that LaunchOptions::cache_control Keep carries to the
  // next launch (the next starts cold), and the memory it holds.
  void forget_caches();
  // cudaCtxResetPersistingL2Cache: the persisting lines the caches keep become normal.
  void demote_persisting_l2();

  // Texture and surface objects (the runtime's cudaCreateTextureObject/SurfaceObject);
  // kernels name them by handle. Their texels live in this device's global memory.
  sm::TextureTable& textures();

  // PTX modules stay alive as long as the device (kernels point into them). Loading places
  // the module's .global/.const variables in global memory (one allocation per variable,
  // named after it, initialised); each loaded module has its own.

  const isa::Module& load_ptx_file(const std::string& path);
  // `at`: variables to place at these addresses where they are free (a device made by
  // cudaDeviceReset keeps __managed__ variables where the program sees them).
  const isa::Module& load_ptx(const std::string& text, const std::string& name,
                              const std::map<std::string, DevPtr>* at = nullptr);

  // Where a module variable (__device__ / __constant__) of a module loaded on this device
  // lives, as cudaGetSymbolAddress/cudaGetSymbolSize would say; nullopt if no such variable.
  struct SymbolInfo {
    DevPtr address;
    uint64_t size;
  };
  std::optional<SymbolInfo> symbol(const isa::Module& m, const std::string& name) const;

  // The checks launch() makes before anything runs, alone: throws LaunchError for a launch
  // CUDA would refuse (dimensions, per-block resources with the carveout the launch would
  // get, a cooperative grid that cannot be resident at once) and otherwise returns the
  // launch's occupancy. A runtime that queues a launch checks it with this when it is made.
  OccupancyStats check_launch(const isa::Kernel& kernel, Dim3 grid, Dim3 block, uint32_t dynamic_shared_bytes,
                              const LaunchOptions& options = {});

  // Runs one kernel to completion. Throws LaunchError for launches CUDA would refuse and
  // KernelFault for faults during execution; the device stays usable afterwards.
  LaunchStats launch(const isa::Kernel& kernel, Dim3 grid, Dim3 block, uint32_t dynamic_shared_bytes,
                     std::span<const KernelArg> args, const LaunchOptions& options = {});

  struct Impl;

 private:
  const isa::Module& adopt(isa::Module& m);  // per-device treatment of a freshly parsed module

  std::unique_ptr<Impl> impl_;
};

}  // namespace warpsim
