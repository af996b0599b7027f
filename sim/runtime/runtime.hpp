// The CUDA runtime on a simulated device: what a program's calls to libcudart mean here.
// One Runtime is one CUDA context (device 0). The C entry points in api/ translate each
// call into a method; everything here is ordinary, testable C++ that throws ApiError.
// Launches are queued and run, in the order they were made, at the program's next call
// that is not itself stream work (a synchronisation, a blocking copy, any query): one
// legal schedule of CUDA's in-order streams. A fault in a kernel becomes the sticky error
// later calls return, as on hardware.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "sim/engine/device.hpp"
#include "sim/engine/launch_sampling.hpp"
#include "sim/runtime/cuda_abi.hpp"
#include "sim/runtime/fatbin.hpp"
#include "sim/runtime/launch_json_spill.hpp"
#include "sim/runtime/mem_pool.hpp"
#include "sim/runtime/runtime_graph.hpp"
#include "sim/runtime/runtime_error.hpp"
#include "sim/runtime/runtime_options.hpp"

namespace warpsim::runtime {

struct IpcTable;  // runtime_ipc.hpp

// One kernel launch as the program made it, with its statistics.
struct LaunchRecord {
  std::string kernel;           // mangled name
  std::string module;           // the program the fatbinary came from
  Dim3 grid, block;
  uint32_t dynamic_shared = 0;
  double start_ns = 0;          // simulated time at launch
  LaunchStats stats;
  const isa::Kernel* source = nullptr;  // for per-line reports (lives as long as the Runtime)
};

// A launch's simulated time in ns (0 in functional mode): what the exit summary adds up and
// ranks launches by.
inline double simulated_ns(const LaunchStats& s) { return s.timing.valid ? s.timing.duration_ns : 0; }

// One copy or memset the program made, in simulated time (nvprof's "[CUDA memcpy HtoD]").
struct CopyRecord {
  std::string kind;            // "HtoD", "DtoH", "DtoD" or "memset"
  uint64_t bytes = 0;
  double start_ns = 0;
  double duration_ns = 0;      // bytes over the host link (HtoD/DtoH) or DRAM; 0 in functional mode
};

// A launch stopped by a kernel fault (it has no LaunchRecord).
struct FaultRecord {
  std::string kernel;
  std::string kind;     // "memory_access", "deadlock", "limit_exceeded", "trap", "assert"
  std::string message;  // warpsim's message: kernel, block, thread, PTX and source line
};

// The options of cudaLibraryLoadData/cuLibraryLoadData and their FromFile forms (the two
// APIs' enums have the same numbers): JIT options change nothing in a simulation; library
// options are 0 (a host table of universal functions) and 1 (the code is preserved, a
// memory hint, not for a file). ApiError cudaErrorInvalidValue for anything else.
void check_library_options(const char* call, unsigned n_jit, const int* jit, void** jit_values, unsigned n_lib,
                           const int* lib, void** lib_values, bool file);

class Runtime {
 public:
  explicit Runtime(RuntimeOptions options);
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  const RuntimeOptions& options() const { return options_; }
  // cudaLimitStackSize: the per-thread stack of device-function calls.
  uint32_t stack_bytes() const { return stack_bytes_; }
  void set_stack_bytes(uint64_t bytes);
  // cudaDeviceSetLimit/GetLimit and cuCtxSetLimit/GetLimit (the same cudaLimit numbers).
  void set_limit(int limit, uint64_t value, const char* call);
  uint64_t limit(int limit) const;
  Device& device() { return *device_; }
  const DeviceSpec& spec() const { return device_->spec(); }

  // --- L2 access control (runtime_l2_access.cpp) ---
  // cudaLimitPersistingL2CacheSize: the L2 set aside for persisting lines (clamped to the
  // device's persistingL2CacheMaxSize).
  void set_persisting_l2_bytes(uint64_t bytes);
  uint64_t persisting_l2_bytes() const { return persisting_l2_bytes_; }
  // cudaStreamSetAttribute/GetAttribute(cudaStreamAttributeAccessPolicyWindow); a window is
  // checked as CUDA checks it (size, hitRatio, properties) before it is kept.
  void set_stream_window(const void* stream, const cuda::AccessPolicyWindow& w, const char* call);
  cuda::AccessPolicyWindow stream_window(const void* stream) const;
  mem::AccessPolicyWindow checked_window(const cuda::AccessPolicyWindow& w, const char* call) const;
  mem::AccessPolicyWindow stream_policy_window(const void* stream) const;  // none: an empty window
  // cudaStreamSetAttribute/GetAttribute/CopyAttributes and the driver's (runtime_stream_attributes.cpp):
  // the access policy window above, the synchronization policy (-1 until set, as an H200
  // answers; how the host waits, which changes nothing here), the priority (the stream's,
  // clamped to the device's range) and the memory synchronization domain and its map.
  // Another attribute is cudaErrorInvalidValue.
  void set_stream_attribute(const void* stream, int attr, const cuda::LaunchAttributeValue& v, const char* call);
  cuda::LaunchAttributeValue stream_attribute(const void* stream, int attr, const char* call) const;
  // Every attribute above; from the null stream, its defaults.
  void copy_stream_attributes(const void* dst, const void* src, const char* call);
  // --- User objects (runtime_user_objects.cpp) ---
  // cudaUserObjectCreate: an object with `refs` references whose destructor runs, with
  // `ptr`, when the last is released: by the program, a graph, a clone or an executable
  // graph (each holds its own, released when it is destroyed). ApiError cudaErrorInvalidValue
  // for what an H200 refuses (flags other than cudaUserObjectNoDestructorSync, no
  // references, no destructor) and for releasing more references than are held.
  void* create_user_object(void* ptr, void (*destroy)(void*), unsigned refs, unsigned flags, const char* call);
  void retain_user_object(const void* object, unsigned count, const char* call);
  void release_user_object(const void* object, unsigned count, const char* call);
  // cudaGraphRetainUserObject (flags 0, or cudaGraphUserObjectMove: the caller's references
  // move to the graph) and cudaGraphReleaseUserObject.
  void graph_retain_user_object(const void* graph, const void* object, unsigned count, unsigned flags,
                                const char* call);
  void graph_release_user_object(const void* graph, const void* object, unsigned count, const char* call);
  // The destructors due since the last take: the API layer runs them outside the runtime's lock.
  std::vector<std::pair<void (*)(void*), void*>> take_due_destructors() { return std::move(due_destructors_); }
  // cudaCtxResetPersistingL2Cache.
  void reset_persisting_l2() { device_->demote_persisting_l2(); }

  // --- Registration (nvcc's generated host code, before main) ---
  // Returns the handle later registration calls pass back.
  void** register_fatbin(const void* wrapper);
  void register_function(void** handle, const void* host_fn, const char* device_name);
  void register_var(void** handle, const void* host_var, const char* device_name, uint64_t size, bool constant,
                    bool managed);
  void unregister_fatbin(void** handle);
  // __cudaInitModule, which nvcc's code calls before the host first uses a __managed__
  // variable: loads the module now, so that the variables have their host storage.
  void init_module(void** handle);

  // --- Modules the program loads itself (the driver API; runtime_loaded_modules.cpp) ---
  // A module from an image in memory: PTX text, a fatbinary or nvcc's wrapper of one (its
  // newest PTX runs), parsed now, so bad PTX is an error here (CUDA_ERROR_INVALID_PTX). A
  // cubin (SASS only) is refused with how to keep PTX. `name` names it in messages.
  // Returns the CUmodule handle.
  void* load_module(const void* image, const std::string& name, const char* call);
  void* load_module_file(const std::string& path, const char* call);
  void unload_module(void* module, const char* call);
  // A CUfunction: a handle that launch(), func_attributes() and the other kernel calls
  // accept as they accept a host stub. The same name gives the same handle.
  void* module_function(void* module, const char* name, const char* call);
  std::pair<DevPtr, uint64_t> module_global(void* module, const char* name, const char* call);
  // cuModuleEnumerateFunctions: the module's CUfunctions in the PTX's order, as CUDA lists them.
  std::vector<void*> module_functions(void* module, const char* call);
  // cuFuncGetModule: the module a kernel handle's kernel is in.
  void* function_module(const void* function, const char* call);

  // --- Libraries (cudaLibrary*/cuLibrary*, CUDA 12's context-independent loading;
  // runtime_libraries.cpp) ---
  // A library keeps a copy of its code and loads it at first use, as CUDA loads lazily:
  // code that is not PTX or a fatbinary holding PTX (or PTX that does not parse) loads here
  // without complaint and fails every later call that needs it. Returns the handle.
  // `limit`: the bytes there are (a file's size); code in memory is trusted as CUDA trusts it.
  void* load_library(const void* code, const char* call, uint64_t limit = UINT64_MAX);
  void* load_library_file(const std::string& path, const char* call);
  void unload_library(void* library, const char* call);
  // Its kernels, in the order CUDA enumerates them (the PTX's, last first); 0 for a
  // library whose code does not load.
  unsigned library_kernel_count(void* library, const char* call);
  std::vector<void*> library_kernels(void* library, const char* call);
  // A kernel handle (cudaKernel_t, CUkernel): a handle of its own that every call taking a
  // host stub or a CUfunction takes, standing for its module's CUfunction, so attributes set
  // through either are one kernel's. ErrorSymbolNotFound when the library has no such kernel.
  void* library_kernel(void* library, const char* name, const char* call);
  // A __device__ (or, with `managed`, a __managed__) variable: its address and size.
  std::pair<DevPtr, uint64_t> library_global(void* library, const char* name, bool managed, const char* call);
  void* library_module(void* library, const char* call);  // cuLibraryGetModule
  // cudaLibraryGetUnifiedFunction: the simulated device has no unified function pointers.
  void library_unified_function(void* library, const char* symbol, const char* call);
  // cuKernelGetLibrary: the library a kernel handle came from.
  void* kernel_library(const void* kernel, const char* call);
  // cuKernelGetFunction: a kernel handle's CUfunction (a host stub or CUfunction is its own).
  void* kernel_function(const void* kernel, const char* call);

  // --- Launch ---
  void push_call_configuration(cuda::Dim3 grid, cuda::Dim3 block, uint64_t shared, void* stream);
  void pop_call_configuration(cuda::Dim3* grid, cuda::Dim3* block, uint64_t* shared, void** stream);
  // Kernel handles (cudaKernel_t) are the host stub's address, checked against the registry.
  const void* kernel_handle(const void* host_fn);
  // cooperative: cudaLaunchCooperativeKernel (grid.sync(); the grid must be resident at once).
  // window: the launch's own access policy window (cudaLaunchKernelEx), else the stream's.
  // cluster: the launch's thread block cluster shape (cudaLaunchAttributeClusterDimension), if any.
  void launch(const void* host_fn, cuda::Dim3 grid, cuda::Dim3 block, void** args, uint64_t shared, void* stream,
              bool cooperative = false, const mem::AccessPolicyWindow* window = nullptr,
              const cuda::Dim3* cluster = nullptr);
  // cudaOccupancyMaxActiveClusters / cudaOccupancyMaxPotentialClusterSize (runtime_launch.cpp).
  int max_active_clusters(const void* host_fn, const cuda::LaunchConfig* config);
  int max_potential_cluster_size(const void* host_fn, const cuda::LaunchConfig* config);
  // cudaLaunchKernelExC: the launch with its attributes, and CUDA's error codes for this call.
  void launch_ex(const cuda::LaunchConfig* config, const void* host_fn, void** args);
  const isa::Kernel& kernel_for(const void* host_fn, const char* call);
  void func_attributes(cuda::FuncAttributes* attr, const void* host_fn);
  int occupancy_blocks_per_sm(const void* host_fn, int block_size, uint64_t dynamic_shared);
  // cudaOccupancyAvailableDynamicSMemPerBlock: the dynamic shared memory each of `blocks`
  // blocks of `block_size` threads may have with all of them on one SM (runtime_functions.cpp).
  uint64_t available_dynamic_shared(const void* host_fn, int blocks, int block_size);
  // cudaFuncGetName: the kernel's (mangled) name, valid while its module is loaded.
  const char* function_name(const void* host_fn);
  // cudaFuncGetParamInfo: parameter `index`'s offset and size in the kernel's parameter buffer.
  std::pair<uint64_t, uint64_t> param_info(const void* host_fn, uint64_t index,
                                           const char* call = "cudaFuncGetParamInfo");
  // The shared-memory bank size (cudaSharedMemConfig): the device's, fixed; asking for
  // another is accepted and changes nothing, as on devices without a configurable one.
  int shared_mem_config() const;
  void set_shared_mem_config(const void* host_fn, int config, const char* call);  // host_fn null: device-wide
  // cuOccupancyMaxPotentialBlockSize: {the grid that fills the device, the block size with
  // the most resident threads}; `dynamic_shared` gives the shared memory a block size needs.
  std::pair<int, int> max_potential_block_size(const void* host_fn, const std::function<uint64_t(int)>& dynamic_shared,
                                               int block_size_limit);

  // --- Memory ---
  void* malloc(uint64_t bytes, const char* call = "cudaMalloc");
  void* malloc_managed(uint64_t bytes);
  void* malloc_pitch(uint64_t* pitch, uint64_t width, uint64_t height);
  // cudaMalloc3D: height x depth rows of cudaMallocPitch's pitch; a null pointer for nothing.
  cuda::PitchedPtr malloc_3d(const cuda::Extent& e);
  void free(void* ptr);
  // Pinned host memory (cudaMallocHost, cudaHostAlloc, cudaHostRegister). With unified
  // addressing it is mapped: kernels read and write it in place at the host address, which
  // is also its device pointer (cudaHostGetDevicePointer).
  void* malloc_host(uint64_t bytes, unsigned flags, const char* call);
  void free_host(void* ptr);
  void host_register(void* ptr, uint64_t bytes, unsigned flags);
  void host_unregister(void* ptr);
  void* host_device_pointer(void* host, unsigned flags) const;
  unsigned host_flags(const void* host) const;
  void memcpy(void* dst, const void* src, uint64_t bytes, cuda::MemcpyKind kind, const char* call);
  // cudaMemcpyAsync: between device, managed and pinned memory it queues behind the
  // launches waiting (its errors then come from the call that runs the queue); with
  // pageable host memory on either side it waits for them and copies now, as CUDA does.
  void memcpy_async(void* dst, const void* src, uint64_t bytes, cuda::MemcpyKind kind, const char* call);
  void memcpy_2d(void* dst, uint64_t dpitch, const void* src, uint64_t spitch, uint64_t width, uint64_t height,
                 cuda::MemcpyKind kind);
  void memset(void* dst, int value, uint64_t bytes);
  void memset_2d(void* dst, uint64_t pitch, int value, uint64_t width, uint64_t height);
  // cudaMemset3D: e.width bytes of e.height rows of e.depth slices (slices p.pitch * p.ysize apart).
  void memset_3d(const cuda::PitchedPtr& p, int value, const cuda::Extent& e, const char* call);
  // Its argument checks alone (a captured cudaMemset3DAsync).
  void check_memset_3d(const cuda::PitchedPtr& p, const cuda::Extent& e, const char* call) const;
  // cuMemsetD8/D16/D32 and their 2D forms: `height` rows of `width` elements of 1, 2 or 4
  // bytes, each set to the low bytes of `value`, rows `pitch` bytes apart.
  void memset_elements(void* dst, uint64_t pitch, uint32_t value, unsigned element_bytes, uint64_t width,
                       uint64_t height, const char* call);
  void mem_get_info(uint64_t* free_bytes, uint64_t* total_bytes) const;
  // --- Managed memory's advice (runtime_managed_advice.cpp) ---
  // The location CUDA 12's device-numbered hints mean (cudaMemAdvise, cuMemPrefetchAsync):
  // -1 (cudaCpuDeviceId, CU_DEVICE_CPU) the host, another number that device.
  static cuda::MemLocation device_location(int device);
  // Kept per 4 KB page of a managed allocation, the granularity an H200 showed
  // (programs/memory_advice_batches.cu); the data is coherent whatever the advice says.
  // cudaMemAdvise: advice 1-6 for the device or the host, on pages of one managed allocation.
  void mem_advise(const void* ptr, uint64_t bytes, int advice, cuda::MemLocation where, const char* call);
  // cudaMemPrefetchAsync: checked; on managed memory, the pages' last prefetch location.
  void mem_prefetch(const void* ptr, uint64_t bytes, cuda::MemLocation where, unsigned flags, const char* call);
  // cudaMemRangeGetAttribute: `attr` (cudaMemRangeAttribute 1-8) of the pages, into `data`.
  void mem_range_attribute(void* data, uint64_t data_size, int attr, const void* ptr, uint64_t bytes,
                           const char* call);
  // cudaMemRangeGetAttributes: `n` of them at once.
  void mem_range_attributes(void** data, const size_t* data_sizes, const int* attrs, size_t n, const void* ptr,
                            uint64_t bytes, const char* call);
  void pointer_attributes(cuda::PointerAttributes* attr, const void* ptr) const;
  // Device address and size of a registered __device__/__constant__ variable.
  std::pair<DevPtr, uint64_t> symbol(const void* host_var, const char* call);
  void memcpy_to_symbol(const void* host_var, const void* src, uint64_t bytes, uint64_t offset,
                        cuda::MemcpyKind kind);
  void memcpy_from_symbol(void* dst, const void* host_var, uint64_t bytes, uint64_t offset, cuda::MemcpyKind kind);
  // The device address of `bytes` at `offset` in a __device__/__constant__ variable, for a
  // copy of `kind` to it (to_symbol) or from it: cudaErrorInvalidSymbol for something else,
  // cudaErrorInvalidValue past its end, cudaErrorInvalidMemcpyDirection the other way.
  DevPtr symbol_span(const void* host_var, uint64_t bytes, uint64_t offset, bool to_symbol, cuda::MemcpyKind kind,
                     const char* call);
  // A graph memcpy node to or from a variable: a 1D copy to or from its address.
  GraphNode symbol_copy_node(bool to_symbol, void* ptr, const void* host_var, uint64_t bytes, uint64_t offset,
                             cuda::MemcpyKind kind, const char* call);

  // --- Stream-ordered allocation and graph memory (runtime_pools.cpp) ---
  // cudaMallocAsync/cudaFreeAsync run the queued launches, then take effect at once; pools
  // keep what the driver keeps (chunks, the release threshold, used/reserved high marks).
  void* default_pool();
  void* current_pool();
  void set_current_pool(void* pool, const char* call);
  void* create_pool(const cuda::MemPoolProps* props, const char* call);
  void destroy_pool(void* pool, const char* call);
  MemPool& pool(void* handle, const char* call);
  // pool null: the device's current pool. In a capture, an allocation node of the capture.
  void* malloc_async(uint64_t bytes, void* pool, void* stream, const char* call);
  void free_async(void* ptr, void* stream, const char* call);
  void pool_set_attribute(void* pool, int attr, const void* value, const char* call);
  void pool_get_attribute(void* pool, int attr, void* value, const char* call);
  void pool_trim(void* pool, uint64_t keep, const char* call);
  void pool_set_access(void* pool, const cuda::MemAccessDesc* descs, size_t count, const char* call);
  int pool_get_access(void* pool, const cuda::MemLocation* location, const char* call);
  // cudaStreamSynchronize, cudaEventSynchronize, cudaDeviceSynchronize: pools holding more
  // than their release threshold give back chunks with nothing live in them.
  void release_pool_memory();
  // Graph memory nodes. The allocation's address is fixed when the node is made (and
  // written to params->dptr); a node after the free node of an earlier allocation of the
  // same graph reuses its address, as CUDA does.
  GraphNode* add_mem_alloc_node(void* graph, void* const* deps, size_t ndeps, cuda::MemAllocNodeParams* params);
  GraphNode* add_mem_free_node(void* graph, void* const* deps, size_t ndeps, void* ptr);
  // cudaGraphLaunch checks that no allocation of the graph is still live from a launch before.
  void check_graph_allocations(const GraphExec& e) const;
  void graph_memory_allocated(GraphAllocation& a);
  void graph_memory_freed(void* ptr, const char* call);
  void graph_memory_trim();
  uint64_t graph_memory_attribute(int attr) const;
  void set_graph_memory_attribute(int attr, uint64_t value);

  // --- CUDA arrays, texture and surface objects (runtime_textures.cpp) ---
  // cudaMallocArray (extent.depth 0) and cudaMalloc3DArray: texels stored densely in device
  // memory. Returns the cudaArray_t handle.
  void* malloc_array(const cuda::ChannelFormatDesc* desc, cuda::Extent extent, unsigned flags, const char* call);
  void free_array(void* array);
  void array_info(cuda::ChannelFormatDesc* desc, cuda::Extent* extent, unsigned* flags, const void* array) const;
  // Every copy to, from or between arrays (cudaMemcpy2DToArray, ...FromArray, cudaMemcpy3D):
  // one side is an array (array non-null; x in bytes) or linear memory (ptr with its pitch
  // and rows per slice), the box is width bytes x height rows x depth slices.
  struct CopySide {
    void* array = nullptr;
    uint64_t x = 0, y = 0, z = 0;  // start (x in bytes)
    void* ptr = nullptr;
    uint64_t pitch = 0, rows = 0;  // linear memory: bytes per row, rows per slice
  };
  void copy_box(const CopySide& dst, const CopySide& src, uint64_t width, uint64_t height, uint64_t depth,
                cuda::MemcpyKind kind, const char* call);
  void memcpy_3d(const cuda::Memcpy3DParms* p, const char* call);
  uint64_t create_texture(const cuda::ResourceDesc* res, const cuda::TextureDesc* tex, const void* view);
  uint64_t create_surface(const cuda::ResourceDesc* res);
  void destroy_texture(uint64_t handle, bool surface);
  void texture_resource_desc(cuda::ResourceDesc* out, uint64_t handle, bool surface) const;
  void texture_desc(cuda::TextureDesc* out, uint64_t handle) const;

  // --- Device ---
  void device_properties(cuda::DeviceProp* prop) const;
  int device_attribute(int attr) const;
  void set_cache_config(const void* host_fn, int config);  // host_fn null: device-wide
  int device_cache_config() const { return device_cache_config_; }
  // cudaFuncSetAttribute: the dynamic shared-memory opt-in and the carveout preference.
  void set_func_attribute(const void* host_fn, int attr, int value, const char* call = "cudaFuncSetAttribute");
  // The most shared memory a block may have (static + dynamic): CUDA's 48 KB, or with
  // `optin` the device's largest (cudaDevAttrMaxSharedMemoryPerBlockOptin).
  uint32_t shared_per_block_limit(bool optin) const;

  // --- CUDA graphs and stream capture (runtime_graphs.cpp) ---
  Graph* create_graph();
  void destroy_graph(const void* graph);
  Graph& graph(const void* handle, const char* call);
  bool owns_node(const GraphNode* n) const;  // a node of some live graph
  // Adds `node` after the given dependencies (nodes of the same graph); returns its handle.
  GraphNode* add_node(const void* graph, GraphNode node, void* const* deps, size_t ndeps, const char* call);
  GraphNode kernel_node(const cuda::KernelNodeParams* p, const char* call);
  GraphNode memcpy_node(const cuda::Memcpy3DParms* p, const char* call) const;
  GraphNode memset_node(const cuda::MemsetParams* p, const char* call) const;
  GraphNode linear_copy_node(void* dst, const void* src, uint64_t bytes, cuda::MemcpyKind kind) const;
  GraphNode host_node(void (*fn)(void*), void* user, const char* call) const;
  Graph* clone_graph(const void* graph);
  GraphExec* instantiate(const void* graph, unsigned long long flags = 0);
  void destroy_exec(const void* exec);
  GraphExec& exec(const void* handle, const char* call);
  void exec_set_kernel_params(const void* exec, const void* node, const cuda::KernelNodeParams* p);
  // cudaGraphExecUpdate: takes the graph's parameters when its nodes match the executable
  // graph's one for one (same kinds, same dependencies); else says which node differs.
  cuda::GraphExecUpdateResult exec_update(const void* exec, const void* graph, const void** error_node);
  // `mode`: the cudaStreamCaptureMode it began with (runtime_capture_modes.cpp).
  void begin_capture(const void* stream, int mode = 0);
  Graph* end_capture(const void* stream);
  bool capturing(const void* stream) const;
  // For the stream operations capture does not record: cudaErrorStreamCaptureUnsupported,
  // and the capture is invalidated, as CUDA's is: what is captured after it fails with
  // cudaErrorStreamCaptureInvalidated, and so does cudaStreamEndCapture, with no graph.
  void no_capture(const void* stream, const char* call);
  void invalidate_capture(const void* stream);
  bool capture_invalidated(const void* stream) const;
  void capture(const void* stream, GraphNode node);
  void capture_event(const void* event, const void* stream);  // cudaEventRecord in a capture
  void join_capture(const void* stream, const void* event);   // cudaStreamWaitEvent on one
  // Runs a kernel, memcpy, memset or conditional node on `stream` (host nodes are called by
  // the API layer, outside the runtime's lock, since they may call the runtime).
  void run_node(const GraphNode& n, void* stream);

  // --- Graphs inspected and edited (runtime_graph_edit.cpp) ---
  struct NodeRef {
    Graph* graph;
    GraphNode* node;
  };
  NodeRef find_node(const void* node, const char* call);  // a live graph's node, else cudaErrorInvalidValue
  // The node if it is of `kind`, else cudaErrorInvalidValue (the Get/SetParams calls).
  GraphNode& node_of_kind(const void* node, GraphNode::Kind kind, const char* call);
  // cudaGraphKernelNodeGetAttribute/SetAttribute/CopyAttributes (runtime_graph_attributes.cpp):
  // the launch attributes a kernel node may have, checked as a launch checks them (a window
  // as checked_window, a priority clamped to the device's range); another attribute, or a
  // node that is not a kernel, is cudaErrorInvalidValue.
  cuda::LaunchAttributeValue kernel_node_attribute(const void* node, int attr, const char* call);
  void set_kernel_node_attribute(const void* node, int attr, const cuda::LaunchAttributeValue& v, const char* call);
  void copy_kernel_node_attributes(const void* dst, const void* src, const char* call);
  // A launch attribute's value checked as CUDA checks it, whatever takes it (a node, a
  // stream, a launch): a window as checked_window, the policies and domains in their ranges,
  // a priority clamped to the device's range, cooperative as 0 or 1. Returns it normalised.
  cuda::LaunchAttributeValue checked_launch_attribute(int attr, const cuda::LaunchAttributeValue& v,
                                                      const char* call) const;
  // The same check for one attribute of a node being made (a captured cudaLaunchKernelEx).
  void set_node_attribute(GraphNode& n, int attr, const cuda::LaunchAttributeValue& v, const char* call) const;
  // Replaces a node's parameters with those of `fresh` (same kind), keeping its edges.
  void set_node_params(const void* node, GraphNode fresh, const char* call);
  // The graph whose edges the call changes: not being captured, arrays there if count > 0.
  Graph& edge_graph(const void* graph, void* const* from, void* const* to, size_t count, const char* call);
  void add_dependencies(const void* graph, void* const* from, void* const* to, const cuda::GraphEdgeData* edges,
                        size_t n, const char* call);
  void remove_dependencies(const void* graph, void* const* from, void* const* to, const cuda::GraphEdgeData* edges,
                           size_t n, const char* call);
  void destroy_node(const void* node);
  // Edges of a graph in creation order of the node they lead to, then of their adding.
  std::vector<std::pair<const GraphNode*, const GraphNode*>> graph_edges(const void* graph, const char* call);
  std::vector<const GraphNode*> dependents(const Graph& g, const GraphNode* n) const;
  // An executable graph's copy of a node of the graph it was made from (of any kind, or if
  // of `kind`), else cudaErrorInvalidValue.
  GraphNode& exec_copy(const void* exec, const void* node, const char* call);
  GraphNode& exec_node(const void* exec, const void* node, GraphNode::Kind kind, const char* call);
  void exec_set_node_params(const void* exec, const void* node, GraphNode fresh, const char* call);
  // Kernel, memcpy and memset nodes can be switched off and on in an executable graph.
  GraphNode& switchable_exec_node(const void* exec, const void* node, const char* call);
  GraphNode* find_in_clone(const void* original, const void* clone);
  // cudaGraphDebugDotPrint: the graph in Graphviz's DOT language, a node per line with what
  // it does, child graphs and conditional bodies as clusters.
  std::string graph_dot(const void* graph, const char* call);
  // A child graph node: embeds a copy of `child` (without memory or conditional nodes).
  GraphNode child_node(const void* child, const char* call);
  // cudaGraphChildGraphOwnershipMove: `child` itself, unless it is `parent` or holds it.
  GraphNode child_node_moved(void* child, const void* parent, const char* call);
  // A kernel, memcpy, memset, host or event node from cudaGraphNodeParams (cudaGraphAddNode,
  // cudaGraphNodeSetParams, cudaGraphExecNodeSetParams); other types: cudaErrorNotSupported.
  GraphNode params_node(cuda::GraphNodeParams* p, const char* call);
  GraphNode event_node(GraphNode::Kind kind, void* event, const char* call) const;
  // cudaGraphExecChildGraphNodeSetParams: the child's instantiation takes `child`'s
  // parameters if its nodes match one for one, else cudaErrorGraphExecUpdateFailure.
  void exec_set_child_graph(const void* exec, const void* node, const void* child);

  // --- Conditional nodes and capture into a graph (runtime_conditionals.cpp) ---
  // cudaGraphConditionalHandleCreate: a 32-bit word of device memory, 0 until set, and
  // with cudaGraphCondAssignDefault set to `default_value` at each launch of a graph that
  // uses it; kernels set it with cudaGraphSetConditional (an ISA builtin).
  uint64_t create_condition(const void* graph, unsigned default_value, unsigned flags);
  // cudaGraphAddNode's parameters as a node of `graph` (kernel, empty or conditional; a
  // conditional node's bodies are made here and returned through p->conditional).
  GraphNode node_from_params(const void* graph, cuda::GraphNodeParams* p, const char* call);
  // At a launch's start: the conditions the executable graph uses with AssignDefault.
  void reset_conditions(const GraphExec& e);
  void begin_capture_to_graph(const void* stream, const void* graph, void* const* deps, size_t ndeps, int mode = 0);
  // --- Capture modes (runtime_capture_modes.cpp) ---
  // cudaThreadExchangeStreamCaptureMode: sets the calling thread's mode and returns the one
  // before (cudaStreamCaptureModeGlobal, 0, until first set; any number is taken, as on an
  // H200, and one that is not thread-local or relaxed counts as global).
  int exchange_capture_mode(int mode);
  // A call an H200 refuses during capture as potentially unsafe (allocating, freeing,
  // synchronising with or querying other work: programs/capture_modes.cu):
  // cudaErrorStreamCaptureUnsupported, and the captures that forbid it invalidated, when
  // the calling thread's mode is not relaxed and it captures in a mode that is not relaxed,
  // or its mode is global and another thread captures in global mode.
  void check_unsafe_during_capture(const char* call);
  // cudaDeviceSynchronize: the same, and refused too while the calling thread captures in
  // relaxed mode (it would wait for the capturing stream).
  void check_device_sync_during_capture(const char* call);
  // cudaStreamGetCaptureInfo: the status, and while capturing its id, graph and the nodes
  // the next captured operation will depend on (valid until the next call for the stream).
  cuda::StreamCaptureStatus capture_info(const void* stream, uint64_t* id, void** graph, const void* const** deps,
                                         size_t* ndeps);
  void update_capture_dependencies(const void* stream, void* const* deps, size_t ndeps, unsigned flags);

  // --- Streams and events (simulated time) ---
  // The special stream handles: the null stream (0), cudaStreamLegacy (1) and
  // cudaStreamPerThread (2); they stand for the device's default stream and are never made.
  static constexpr uintptr_t kPerThreadStream = 2;
  static bool special_stream(const void* stream) { return reinterpret_cast<uintptr_t>(stream) <= kPerThreadStream; }
  // The key of what a stream keeps (its window, its attributes): the default stream has one
  // set whichever name a program uses for it.
  static const void* stream_key(const void* stream) { return special_stream(stream) ? nullptr : stream; }
  // The stream a _ptsz form's argument stands for: its null stream is the per-thread one.
  static void* per_thread_default(void* stream) {
    return stream ? stream : reinterpret_cast<void*>(kPerThreadStream);
  }
  // What a stream says about itself (cudaStreamGetFlags/Priority/Id).
  struct StreamProperties {
    unsigned flags = 0;  // cudaStreamNonBlocking or not
    int priority = 0;    // within stream_priority_range()
    uint64_t id = 0;     // unique and increasing in creation order; the null and legacy streams share one
  };
  // `flags` (0 or cudaStreamNonBlocking; checked by the caller) and `priority`, clamped to
  // the device's range as CUDA does.
  void* create_stream(unsigned flags = 0, int priority = 0);
  // The special streams (null, legacy, per-thread) answer flags 0 and priority 0.
  StreamProperties stream_properties(const void* stream, const char* call) const;
  // cudaDeviceGetStreamPriorityRange: {least, greatest} (runtime_device.cpp).
  std::pair<int, int> stream_priority_range() const;
  void destroy_stream(void* stream);
  void check_stream(const void* stream, const char* call) const;
  // cudaStreamAttachMemAsync: checks only, since managed memory is always coherent here.
  void attach_managed(const void* stream, const void* ptr, unsigned flags) const;
  // cudaEventCreateWithFlags' flags (Default, BlockingSync, DisableTiming, Interprocess),
  // checked as CUDA checks them: an interprocess event must disable timing.
  void* create_event(unsigned flags = 0);
  void destroy_event(void* event);
  void record_event(void* event, void* stream);
  // cudaStreamWaitEvent, cudaEventSynchronize, cudaEventQuery. Work of this process is
  // complete when the queue has run; an interprocess event opened from another process's
  // handle waits for that process's record (runtime_ipc.cpp).
  void wait_event(void* stream, void* event);
  void synchronize_event(void* event);
  bool event_done(void* event);
  float elapsed_ms(void* start, void* end) const;
  void check_event(const void* event, const char* call) const;
  double now_ns() const { return sim_time_ns_; }

  // --- Interprocess memory and events (runtime_ipc.cpp): CUDA IPC between processes that
  // each run under warpsim. `handle` is a cudaIpcMemHandle_t or cudaIpcEventHandle_t (64
  // bytes). Exported device memory moves into a memfd that the other process opens through
  // /proc and maps, so both simulated devices see the same bytes.
  void ipc_get_mem_handle(void* handle, const void* ptr, const char* call = "cudaIpcGetMemHandle");
  void* ipc_open_mem_handle(const void* handle, unsigned flags, const char* call = "cudaIpcOpenMemHandle");
  void ipc_close_mem_handle(void* ptr, const char* call = "cudaIpcCloseMemHandle");
  void ipc_get_event_handle(void* handle, void* event, const char* call = "cudaIpcGetEventHandle");
  void* ipc_open_event_handle(const void* handle, const char* call = "cudaIpcOpenEventHandle");
  // Memory pools shared through a POSIX file descriptor (runtime_ipc_pools.cpp):
  // cudaMemPoolExportToShareableHandle (an int descriptor in *handle), ImportFromShareableHandle,
  // ExportPointer and ImportPointer (64-byte cudaMemPoolPtrExportData).
  void ipc_pool_export(void* handle, void* pool, int handle_type, unsigned flags, const char* call);
  void* ipc_pool_import(void* shareable, int handle_type, unsigned flags, const char* call);
  void ipc_pool_export_pointer(void* data, void* ptr, const char* call);
  void* ipc_pool_import_pointer(void* pool, const void* data, const char* call);
  // The driver API's shareable physical allocations (runtime_ipc_vmm.cpp): cuMemCreate
  // with CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR keeps one in a memfd;
  // cuMemExportToShareableHandle gives a descriptor for it, cuMemImportFromShareableHandle
  // makes a physical allocation of another process's. Each returns a physical id or fd.
  uint64_t vmm_create_shareable(uint64_t bytes);
  bool vmm_shareable(uint64_t id) const;
  int vmm_export(uint64_t id);
  uint64_t vmm_import(int fd);

  // Told of what free(), free_host() and unload_module() release (null: everything, at
  // reset()), so that the driver layer's record of what each context owns stays true.
  void set_release_observer(std::function<void(const void*)> f) { release_observer_ = std::move(f); }

  // --- Work queued in streams (runtime_streams.cpp) ---
  // While `queueing` is on (the runtime API's stream-ordered calls: launches, event
  // records, stream waits and memory hints), a launch is checked as CUDA checks it when it
  // is made and then queued; drain() runs the queue in order. The API layer drains before
  // every other call, so host code between a launch and the next such call runs before the
  // simulated GPU starts, as it may on a GPU (a kernel may wait for a flag the host sets
  // after launching it). CUDA_LAUNCH_BLOCKING=1 runs every launch when it is made.
  void set_queueing(bool on) { queueing_ = on; }
  bool queueing() const { return queueing_; }
  // Runs the queued work. The first launch error CUDA would have refused at the launch
  // (warpsim's launch-time check missed it) is thrown after the rest has run.
  void drain();
  // Launches waiting in the queue (the exit report says when a program never waited).
  uint64_t queued_launches() const { return queued_launches_; }
  // At exit: runs what is queued so that the report counts it, with its device printf
  // output dropped, as a GPU drops it (CUDA flushes that output only at synchronising
  // calls, not at exit: docs/measurements/h200_stream_order_2026-11-29.txt).
  void drain_at_exit();

  // --- Errors ---
  // A kernel fault is asynchronous, as on hardware: the launch succeeds, and the fault
  // surfaces at the next call that waits for the device (synchronize(): cudaDevice/
  // Stream/EventSynchronize, the blocking copies, cudaFree, the queries). From then on it
  // is sticky: sticky_error() is what every call returns until cudaDeviceReset.
  void synchronize();
  cuda::Error sticky_error() const { return fault_visible_ ? sticky_ : cuda::Success; }
  cuda::Error pending_fault() const { return sticky_; }
  const std::string& sticky_message() const { return sticky_message_; }
  void reset();  // cudaDeviceReset: frees everything, clears the sticky error

  // Every launch with its counts and time. The per-channel DRAM, per-SM and per-line detail
  // of a launch goes into json_launches() as it ends (when a JSON report is asked for) and
  // is then dropped, but for each kernel's costliest launch under --by-line: a program's
  // thousands of launches would otherwise keep ~150 KB each on the H100 config.
  const std::vector<LaunchRecord>& launches() const { return launches_; }
  const LaunchJsonSpill& json_launches() const { return json_launches_; }
  const std::vector<CopyRecord>& copies() const { return copies_; }
  const std::vector<FaultRecord>& faults() const { return faults_; }
  uint64_t faulted_launches() const { return faulted_launches_; }
  uint64_t dropped_launches() const { return dropped_launches_; }  // after a fault: not run

 private:
  struct Module;
  struct Library {
    std::string name;        // for messages
    std::string code;        // a copy of what the program gave (PTX text, a fatbinary, a cubin's magic)
    void* module = nullptr;  // the module's handle after the first use
    std::map<std::string, std::unique_ptr<char>> kernels;  // kernel handles by name (the storage behind them)
  };
  Library& library(void* handle, const char* call);
  Module& library_module_of(Library& lib, const char* call);  // loads it on first use
  struct KernelEntry {
    Module* module = nullptr;
    std::string name;
    int cache_config = 0;
    int carveout_percent = -1;        // cudaFuncAttributePreferredSharedMemoryCarveout
    int64_t max_dynamic_shared = -1;  // cudaFuncAttributeMaxDynamicSharedMemorySize; -1: the default
    // Thread block clusters: cudaFuncAttributeNonPortableClusterSizeAllowed,
    // ...ClusterSchedulingPolicyPreference, ...ClusterDimMustBeSet and the required shape
    // (...RequiredClusterWidth/Height/Depth; 0: none) set at run time.
    bool cluster_non_portable = false;
    int cluster_policy = 0;
    bool cluster_must_be_set = false;
    uint32_t required_cluster[3] = {0, 0, 0};
  };
  // The cluster shape a launch of `k` runs with: `given`, or the required one (compiled or
  // set); ApiError cudaErrorInvalidClusterSize where they differ. nullopt: none given.
  std::optional<Dim3> effective_cluster(const KernelEntry& e, const isa::Kernel& k, const cuda::Dim3* given,
                                        const char* call) const;
  // The dynamic shared memory a launch of `k` may ask for, and the preferences it runs with.
  uint64_t max_dynamic_shared(const KernelEntry& e, const isa::Kernel& k) const;
  // The host stub (or CUfunction) registered for a loaded kernel, or null.
  const void* host_function_of(const isa::Kernel& k) const;
  // What kernels' cudaDeviceGetAttribute, cudaDeviceGetLimit, cudaFuncGetAttributes and
  // occupancy calls answer (dynamic parallelism): the host calls' answers.
  sm::DeviceQueries device_queries();
  sm::SharedPreference shared_preference(const KernelEntry& e) const;
  struct VarEntry {
    Module* module = nullptr;
    std::string name;
    uint64_t size = 0;
    bool constant = false;
    bool managed = false;
  };
  struct Managed {
    uint64_t bytes = 0;
    bool variable = false;  // a module's __managed__ variable (cudaFree refuses it)
  };
  // The registered variable `host_var` names: its shadow's address, or for a __managed__
  // variable also the variable's own address; null if none.
  const VarEntry* var_entry(const void* host_var) const;
  // A freshly loaded module's __managed__ variables: host memory mapped at each one's
  // device address with its initial value, and the registered host pointers set to it.
  void map_managed_variables(Module& m);
  struct HostAlloc {
    uint64_t bytes = 0;
    unsigned flags = 0;
    bool registered = false;  // cudaHostRegister (the program owns it) rather than allocated here
  };
  struct ArrayEntry {
    DevPtr base = 0;
    cuda::ChannelFormatDesc desc{};
    cuda::Extent extent{};  // as given (height 0: 1D; depth 0: not 3D)
    unsigned flags = 0;
    sm::TexResource res;    // how the texture unit reads it
  };
  struct TextureEntry {
    cuda::ResourceDesc res{};
    cuda::TextureDesc tex{};
  };
  const ArrayEntry& array_entry(const void* array, const char* call) const;
  sm::TexResource texture_resource(const cuda::ResourceDesc* res, const char* call) const;

  // Device memory of `bytes`, within the device's capacity, else cudaErrorMemoryAllocation
  // naming `call` and the sizes.
  DevPtr allocate_device(uint64_t bytes, std::string_view call);
  Module& module_of(void** handle, const char* call);
  Module* program_module(void* handle, const char* call);  // a live module from load_module
  Module& loaded(Module& m);  // parses the module's PTX on first use
  std::optional<std::pair<DevPtr, uint64_t>> device_allocation(const void* ptr) const;
  bool is_managed(const void* ptr) const;
  // The pinned host allocation or registration containing ptr, if any.
  const std::pair<const uint64_t, HostAlloc>* host_alloc(const void* ptr) const;
  void map_host(uint64_t base, const HostAlloc& h);  // into the current device
  void sync_managed_to_device();
  void sync_managed_to_host();
  void copy_device_to_device(DevPtr dst, DevPtr src, uint64_t bytes);
  // The copy itself; returns the direction it took (cudaMemcpyDefault resolved).
  cuda::MemcpyKind transfer(void* dst, const void* src, uint64_t bytes, cuda::MemcpyKind kind, const char* call);
  // Advances simulated time by a copy's duration and records it (timing mode).
  void account_copy(cuda::MemcpyKind kind, uint64_t bytes);
  void account_memset(uint64_t bytes);
  // The memset itself, checked against its allocation.
  void fill(void* dst, int value, uint64_t bytes, const char* call);

  RuntimeOptions options_;
  uint32_t stack_bytes_ = 1024;
  uint64_t persisting_l2_bytes_ = 0;
  std::map<const void*, std::pair<cuda::AccessPolicyWindow, mem::AccessPolicyWindow>> stream_windows_;
  std::unique_ptr<Device> device_;
  std::vector<std::unique_ptr<Device>> retired_devices_;  // before cudaDeviceReset
  std::vector<std::unique_ptr<Module>> modules_;
  std::map<const void*, KernelEntry> kernels_;   // by host stub address (or CUfunction handle)
  // A library's kernel handles (CUkernel, cudaKernel_t): distinct from its module's
  // CUfunctions, as CUDA's are, and the same kernel: by kernel handle, the CUfunction.
  std::map<const void*, const void*> kernel_aliases_;
  KernelEntry* find_entry(const void* handle);  // a host stub, CUfunction or CUkernel; null if none
  KernelEntry& entry(const void* handle);       // std::out_of_range if none
  bool is_kernel(const void* handle) { return find_entry(handle) != nullptr; }
  std::map<const void*, std::unique_ptr<Library>> libraries_;  // by handle (the Library's address)
  uint64_t libraries_loaded_ = 0;  // names them in messages
  std::map<const void*, VarEntry> vars_;         // by host shadow variable address
  struct CallConfig {
    cuda::Dim3 grid, block;
    uint64_t shared;
    void* stream;
  };
  std::vector<CallConfig> call_stack_;
  std::map<uint64_t, Managed> managed_;          // by address (device == host)
  struct PageAdvice {
    bool read_mostly = false;
    int8_t preferred = -3;       // -3 none, -1 the host, 0 the device
    uint8_t accessed_by = 0;     // bit 0 the device, bit 1 the host
    int8_t last_prefetch = -3;   // as preferred
  };
  std::map<uint64_t, std::vector<PageAdvice>> managed_advice_;  // by allocation, once advised or prefetched
  // The pages of [ptr, ptr + bytes) in their allocation's advice (made on first use);
  // ApiError cudaErrorInvalidValue unless the range is non-empty managed memory of one allocation.
  std::pair<PageAdvice*, size_t> advice_pages(const void* ptr, uint64_t bytes, const char* call);
  std::map<uint64_t, HostAlloc> host_allocs_;    // by host address (== device address)
  uint64_t next_host_hint_ = uint64_t(0x2000) << 32;  // where cudaMallocHost asks the kernel to map
  std::map<const void*, ArrayEntry> arrays_;     // by cudaArray_t handle
  std::map<uint64_t, TextureEntry> texture_descs_;  // by object handle: what the program passed
  // Pools (the default pool among them) by handle; a pool destroyed while allocations from
  // it were live stays in doomed_pools_ until they are freed. Declared before the graphs:
  // graph allocations give their addresses back through graph_allocations_ when destroyed.
  std::map<const void*, std::unique_ptr<MemPool>> pools_;
  std::vector<std::unique_ptr<MemPool>> doomed_pools_;
  MemPool* default_pool_ = nullptr;
  MemPool* current_pool_ = nullptr;
  // The first pool (live, then destroyed-but-not-empty) for which pred(pool) holds, or null.
  MemPool* find_pool(const std::function<bool(const MemPool&)>& pred);
  MemPool::Unreserve free_chunk();  // gives a pool's chunk back to the device
  // Frees a pool allocation, or a pointer imported from another process's pool: true if
  // `ptr` is one; throws cudaErrorInvalidValue for any other address in a pool's chunks
  // (freed already, or inside an allocation).
  bool free_pool_allocation(uint64_t ptr, const char* call);
  struct GraphAllocationRecord {
    GraphAllocation* nodes = nullptr;  // the nodes' shared state; null once no node refers to it
    uint64_t bytes = 0;
    bool live = false;  // allocated by a launch, not freed yet (by a free node or cudaFree)
  };
  std::map<uint64_t, GraphAllocationRecord> graph_allocations_;  // by address
  uint64_t graph_in_use_ = 0, graph_reserved_ = 0, graph_used_high_ = 0, graph_reserved_high_ = 0;
  std::shared_ptr<GraphAllocation> new_graph_allocation(Graph& g, const GraphNode& node, uint64_t bytes,
                                                        const char* call);
  // Gives `node`, just added as the last node of `g`, its allocation of `bytes` (address in
  // node->dst); on failure removes the node again.
  void attach_graph_allocation(Graph& g, GraphNode& node, uint64_t bytes, const char* call);
  std::map<const void*, std::unique_ptr<Graph>> graphs_;
  std::map<const void*, std::unique_ptr<GraphExec>> execs_;
  struct UserObject {
    void* ptr = nullptr;
    void (*destroy)(void*) = nullptr;
    uint64_t refs = 0;
  };
  std::map<const void*, std::unique_ptr<UserObject>> user_objects_;  // by handle (the object's address)
  std::vector<std::pair<void (*)(void*), void*>> due_destructors_;
  UserObject& user_object(const void* handle, const char* call);
  void drop_user_object(const void* handle, uint64_t count);  // its destructor is due at 0
  void hold_user_objects(const std::map<const void*, uint64_t>& held);  // a clone's or instantiation's
  void drop_user_objects(const std::map<const void*, uint64_t>& held);  // a destroyed graph's
  std::set<const Graph*> invalidated_captures_;  // captures an unsupported operation ended (no_capture)
  std::set<const Graph*> capture_made_;          // graphs cudaStreamBeginCapture made (not ...ToGraph's)
  std::map<const void*, Graph*> capturing_;        // stream -> the graph its work is recorded into
  std::map<const Graph*, const void*> capture_origin_;  // graph being captured -> the stream that began it
  struct CaptureOwner {
    std::thread::id thread;  // the thread that began it
    int mode = 0;            // the cudaStreamCaptureMode it began with
  };
  std::map<const Graph*, CaptureOwner> capture_owners_;
  std::map<std::thread::id, int> thread_capture_modes_;  // cudaThreadExchangeStreamCaptureMode's, by thread
  std::map<const void*, Graph*> captured_events_;  // event recorded in a capture -> that capture's graph
  // A capturing stream's next dependencies, where the program set them (capture into a
  // graph, cudaStreamUpdateCaptureDependencies); else the capture's last node.
  std::map<const void*, std::vector<const GraphNode*>> capture_deps_;
  // What the stream's next captured operation depends on: the set above, else the
  // capture's last node.
  std::vector<const GraphNode*> next_capture_deps(const void* stream, const Graph& g) const;
  std::map<const void*, uint64_t> capture_ids_;
  uint64_t next_capture_id_ = 1;
  struct Condition {
    unsigned default_value = 0;
    bool assign_default = false;
  };
  std::map<uint64_t, Condition> conditions_;  // by handle (device address)
  uint64_t condition_chunk_ = 0;              // device memory for the next handles
  uint32_t conditions_in_chunk_ = 0;
  std::unique_ptr<GraphExec> build_exec(const Graph& g, bool body);
  // Whether `g`'s nodes match `e`'s one for one (kinds, dependencies, kernels, memory
  // nodes, child graphs' nodes); error_node names the first that does not.
  cuda::GraphExecUpdateResult update_check(const GraphExec& e, const Graph& g, const void** error_node);
  void run_conditional(const GraphNode& n, void* stream);
  std::function<void(const void*)> release_observer_;
  void released(const void* p) {
    if (release_observer_) release_observer_(p);
  }
  struct QueuedWork {
    std::function<void()> run;
    bool launch = false;
  };
  std::deque<QueuedWork> queue_;
  uint64_t queued_launches_ = 0;
  bool queueing_ = false;
  bool draining_ = false;
  bool drop_printf_ = false;  // drain_at_exit()
  std::map<const void*, StreamProperties> streams_;
  struct StreamAttributes {
    int sync_policy = -1;
    int mem_sync_domain = 0;
    unsigned char domain_map_default = 0, domain_map_remote = 1;
  };
  std::map<const void*, StreamAttributes> stream_attributes_;  // by stream (special streams: null)
  uint64_t next_stream_id_ = 3;  // 1: the null (legacy) stream, 2: the per-thread stream
  std::map<const void*, double> events_;         // recorded simulated time (< 0: never recorded)
  std::map<const void*, unsigned> event_flags_;  // cudaEventCreateWithFlags' flags
  std::unique_ptr<IpcTable> ipc_;                // exported and opened IPC memory and events
  bool ipc_event(const void* event) const;
  void ipc_record(const void* event);  // an interprocess event: runs the queue, then completes the record
  uint64_t ipc_wait_target(const void* event) const;  // the other process's last record, as of now
  void ipc_wait(const void* event, uint64_t target, const char* call);
  void ipc_forget_event(const void* event);
  // cudaFree of `base`: false if it is IPC memory opened here (cudaIpcCloseMemHandle frees
  // that); an exported allocation's shared object goes once the device has released it.
  bool ipc_may_free(DevPtr base) const;
  void ipc_freed(DevPtr base);
  void ipc_reset();  // cudaDeviceReset
  void ipc_pool_created(MemPool& p, int handle_types, const char* call);  // a shareable pool: its memfd
  // A shareable pool's new chunk at `base` moves into its memfd (malloc_async's reserve).
  void ipc_pool_chunk_reserved(const MemPool& p, DevPtr base, uint64_t bytes);
  void ipc_pool_chunk_freed(DevPtr base);  // free_chunk()
  // free_pool_allocation of an imported pool pointer: true if `p` was one (then freed).
  bool ipc_pool_free_imported(DevPtr p, const char* call);
  void ipc_pool_destroyed(const MemPool& p);  // cudaMemPoolDestroy, before the pool goes
  std::deque<std::unique_ptr<char>> handles_;    // storage behind stream/event handles
  std::vector<LaunchRecord> launches_;
  LaunchJsonSpill json_launches_;
  std::map<std::string, size_t> costliest_;  // kernel -> its costliest launch (--by-line keeps its lines)
  void record_launch(LaunchRecord&& rec);
  // Runs one grid (the launch checked, the sticky error clear), then, depth first, the work
  // it asked the device runtime for (dynamic parallelism, sm/device_work.hpp).
  struct GridLaunch {
    const isa::Kernel* kernel = nullptr;
    sm::SharedPreference preference;
    Dim3 grid, block;
    uint32_t shared = 0;
    std::vector<KernelArg> args;
    bool cooperative = false;
    std::optional<Dim3> cluster;  // a launch in thread block clusters
    bool cluster_non_portable = false;
    mem::AccessPolicyWindow window;
    uint32_t depth = 0;  // 0: launched by the host
  };
  void run_grid(const GridLaunch& g);
  bool launch_grid(const GridLaunch& g, std::vector<sm::DeviceWork>& work);  // false: it faulted
  void run_stream_work(const sm::DeviceWork& w, const isa::Kernel& asker);
  void kernel_fault(const std::string& kernel, const KernelFault& e);
  uint64_t pending_device_grids_ = 0;   // device-launched grids not complete
  uint64_t pending_launch_limit_ = 2048;  // cudaLimitDevRuntimePendingLaunchCount
  bool memset_noted_ = false;             // said once that device-side memsets write zeros
  std::string linked_program_ptx(const cuda::FatbinWrapper& wrapper, Fatbin& first);
  LaunchSampler sampler_;                          // --sample-launches
  LaunchSampler fresh_sampler() const {            // launch sampling only in timing mode
    return LaunchSampler(options_.mode == SimMode::Timing ? options_.sample_launches : 0);
  }
  std::vector<CopyRecord> copies_;
  std::vector<FaultRecord> faults_;
  double sim_time_ns_ = 0;
  cuda::Error sticky_ = cuda::Success;
  uint64_t dropped_launches_ = 0;  // launched after a fault, not run
  bool fault_visible_ = false;
  uint64_t faulted_launches_ = 0;
  std::string sticky_message_;
  int device_cache_config_ = 0;
};

}  // namespace warpsim::runtime
