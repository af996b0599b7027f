// Launch specs (docs/launch-spec.md): a JSON file naming a kernel, its launch shape, its
// buffers and how to check the result. Three steps, each usable on its own:
//
//   LaunchSpec spec = load_launch_spec("kernels/vecadd/vecadd_1003.json", {{"n", 5000}});
//   PreparedLaunch run = prepare(device, spec);        // module, buffers, arguments
//   LaunchStats stats = launch(device, run, options);  // registers from the spec
//   CheckResult result = check_outputs(device, run);   // CPU reference or expected files
//
// Every spec error is a ConfigError "<spec file>: <key path>: <message>".
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/engine/device.hpp"
#include "sim/foundation/dim3.hpp"
#include "sim/launch/host_buffer.hpp"
#include "sim/launch/int_expr.hpp"

namespace warpsim {

// A JSON number as written: integers stay exact.
struct SpecNumber {
  bool is_integer = true;
  int64_t integer = 0;
  double real = 0;
  double as_real() const { return is_integer ? static_cast<double>(integer) : real; }
};

struct BufferInit {
  enum class Kind { Zero, Value, Iota, Random, File, Offsets };
  Kind kind = Kind::Zero;
  SpecNumber value;                 // Value
  SpecNumber start, step;           // Iota: element k = start + k * step
  uint64_t seed = 0;                // Random, Offsets
  SpecNumber min, max;              // Random: uniform in [min, max] (inclusive for integers);
                                    // Offsets: segment lengths in [min, max]
  bool integers = false;            // Random on a float buffer: whole numbers only
  std::string file;                 // File: resolved path
};

// The largest buffer a spec may declare (256 TiB, beyond any device): count x element size
// then never overflows. Device memory (DeviceSpec::memory_bytes) is the real bound.
inline constexpr uint64_t kMaxBufferBytes = uint64_t(1) << 48;

struct BufferSpec {
  std::string name;
  ElemType type = ElemType::F32;
  uint64_t count = 0;
  BufferInit init;

  uint64_t bytes() const { return count * elem_size(type); }
};

// One member of a by-value struct argument: a buffer's pointer or a typed scalar.
struct StructField {
  std::string buffer;               // non-empty: an 8-byte device pointer
  ElemType type = ElemType::S32;    // scalar field type
  SpecNumber value;                 // scalar field value
};

struct ArgSpec {
  enum class Kind { Buffer, Int, Real, Struct };
  Kind kind = Kind::Int;
  std::string buffer;               // Buffer
  int64_t integer = 0;              // Int
  double real = 0;                  // Real
  std::vector<StructField> fields;  // Struct, laid out with natural alignment
};

struct CheckSpec {
  bool present = false;
  std::string reference;                    // empty: compare with expected files
  std::vector<std::string> outputs;         // buffers compared
  std::map<std::string, std::string> expected_files;  // buffer -> resolved path
  double tolerance = 0;
};

struct LaunchSpec {
  std::string path;                 // the spec file (for messages)
  std::string description;
  std::string module_path;          // resolved .ptx or .cu path
  bool module_is_cu = false;
  std::string kernel;
  IntVars vars;                     // after overrides
  Dim3 grid, block;
  uint32_t shared_bytes = 0;
  uint32_t registers = 0;           // 0: the loader's estimate
  // The L1/shared preferences a program would set (cudaFuncSetCacheConfig, the carveout
  // attribute): a cudaFuncCache value (0 none, 1 shared, 2 L1, 3 equal) and a percentage or -1.
  int cache_config = 0;
  int shared_carveout_percent = -1;
  std::vector<BufferSpec> buffers;  // in name order
  std::vector<ArgSpec> args;
  CheckSpec check;

  const BufferSpec* find_buffer(const std::string& name) const;
};

// Parses and validates a spec. `var_overrides` replace values of `vars`; naming a variable
// the spec does not define is an error.
LaunchSpec load_launch_spec(const std::string& path, const std::map<std::string, int64_t>& var_overrides = {});
// The same from a parsed document; `path` locates relative files and names the spec in errors.
LaunchSpec parse_launch_spec(const Json& doc, const std::string& path,
                             const std::map<std::string, int64_t>& var_overrides = {});

// The initial contents of one buffer (deterministic for a spec on every machine).
HostBuffer initial_contents(const LaunchSpec& spec, const BufferSpec& buffer);

// The kernel's module: a .ptx is loaded as is; a .cu is compiled with nvcc first.
const isa::Module& load_spec_module(Device& device, const LaunchSpec& spec);
// Where nvcc is: $NVCC, then PATH, then /usr/local/cuda/bin; "" when not found.
std::string find_nvcc();
// The same search over given values: `nvcc_env` ($NVCC, may be null), `path_env` ($PATH,
// may be null), then each of `fallback_dirs`.
std::string find_nvcc_in(const char* nvcc_env, const char* path_env, const std::vector<std::string>& fallback_dirs);
// The error for a "cu" spec when nvcc is missing: names the spec, the source and the
// places searched.
std::string nvcc_missing_message(const LaunchSpec& spec);
// The nvcc flags of "cu" specs (the same as tools/regen_ptx.sh).
const std::vector<std::string>& nvcc_ptx_flags();

// Buffers allocated and initialised on a device, and the argument list for the kernel.
// Frees its buffers when destroyed; the device must outlive it.
class PreparedLaunch {
 public:
  struct Buffer {
    std::string name;
    DevPtr ptr = 0;
    HostBuffer initial;             // what was copied to the device
  };

  PreparedLaunch(Device& device, LaunchSpec spec) : device_(&device), spec_(std::move(spec)) {}
  ~PreparedLaunch();
  PreparedLaunch(PreparedLaunch&& other) noexcept;
  PreparedLaunch& operator=(PreparedLaunch&&) = delete;
  PreparedLaunch(const PreparedLaunch&) = delete;
  PreparedLaunch& operator=(const PreparedLaunch&) = delete;

  const LaunchSpec& spec() const { return spec_; }
  const isa::Kernel* kernel = nullptr;  // null when prepared without a module
  std::vector<Buffer> buffers;          // in spec order
  std::vector<KernelArg> args;

  const Buffer& buffer(const std::string& name) const;
  // The launch options for this spec: `base` with registers_per_thread from the spec
  // when `base` leaves it 0.
  LaunchOptions options(LaunchOptions base = {}) const;

 private:
  Device* device_;
  LaunchSpec spec_;
};

// Loads the module, finds the kernel, allocates and initialises the buffers, and builds
// the arguments, checked against the kernel's parameters.
PreparedLaunch prepare(Device& device, const LaunchSpec& spec);
// The same for a given kernel (or none: no module, arguments not checked against
// parameters), for callers that load modules themselves.
PreparedLaunch prepare(Device& device, const LaunchSpec& spec, const isa::Kernel* kernel);

// The arguments of `spec` for a kernel with `params` (null: unchecked); `buffer_ptr` maps
// buffer names to device pointers.
std::vector<KernelArg> build_kernel_args(const LaunchSpec& spec, const std::map<std::string, DevPtr>& buffer_ptr,
                                         const std::vector<isa::Param>* params);

// Runs the prepared kernel.
LaunchStats launch(Device& device, const PreparedLaunch& prepared, const LaunchOptions& options = {});

struct Mismatch {
  std::string buffer;
  uint64_t index = 0;
  std::string got, want;
};

struct CheckResult {
  bool checked = false;             // false: the spec has no "check"
  bool passed = true;
  uint64_t compared = 0;            // elements compared
  uint64_t mismatches = 0;          // elements that differ
  std::vector<Mismatch> first;      // the first few, in buffer then index order
  std::string message;              // one-line summary plus the first mismatches
};

// Compares the output buffers on the device with the spec's CPU reference (run on the
// initial contents) or expected files.
CheckResult check_outputs(Device& device, const PreparedLaunch& prepared);
// The comparison alone: `got` and `want` are buffer images by name.
CheckResult compare_outputs(const LaunchSpec& spec, const std::map<std::string, HostBuffer>& got,
                            const std::map<std::string, HostBuffer>& want);

}  // namespace warpsim
