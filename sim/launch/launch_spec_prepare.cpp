// Preparing a launch spec on a device: module, buffers, arguments; and running it.
#include <fmt/format.h>

#include <algorithm>

#include "sim/foundation/error.hpp"
#include "sim/launch/launch_spec.hpp"

namespace warpsim {

PreparedLaunch::~PreparedLaunch() {
  if (!device_) return;
  for (const auto& b : buffers) {
    try {
      device_->free(b.ptr);
    } catch (...) {
      // A destructor must not throw; the device reclaims everything when it goes away.
    }
  }
}

PreparedLaunch::PreparedLaunch(PreparedLaunch&& other) noexcept
    : kernel(other.kernel),
      buffers(std::move(other.buffers)),
      args(std::move(other.args)),
      device_(other.device_),
      spec_(std::move(other.spec_)) {
  other.buffers.clear();
  other.device_ = nullptr;
}

const PreparedLaunch::Buffer& PreparedLaunch::buffer(const std::string& name) const {
  for (const auto& b : buffers)
    if (b.name == name) return b;
  throw ConfigError(fmt::format("{}: no buffer '{}'", spec_.path, name));
}

LaunchOptions PreparedLaunch::options(LaunchOptions base) const {
  if (base.registers_per_thread == 0) base.registers_per_thread = spec_.registers;
  if (base.shared_preference == sm::SharedPreference{}) {
    base.shared_preference.function_cache = spec_.cache_config;
    base.shared_preference.carveout_percent = spec_.shared_carveout_percent;
  }
  return base;
}

namespace {

// A buffer that does not fit in the device memory left is a LaunchError naming the buffer
// and the sizes (cudaMalloc would fail with cudaErrorMemoryAllocation).
void check_fits(const Device& device, const LaunchSpec& spec, const BufferSpec& b) {
  const uint64_t bytes = std::max<uint64_t>(1, b.bytes());
  const uint64_t capacity = device.memory_capacity(), used = device.bytes_allocated();
  if (bytes <= capacity && used <= capacity - bytes) return;
  throw LaunchError(fmt::format("{}: buffers.{}: {} bytes ({} x {}) do not fit in device memory: capacity {} bytes "
                                "({}), {} bytes already allocated, {} bytes free",
                                spec.path, b.name, bytes, b.count, elem_name(b.type), capacity, device.spec().name,
                                used, used < capacity ? capacity - used : 0));
}

}  // namespace

PreparedLaunch prepare(Device& device, const LaunchSpec& spec, const isa::Kernel* kernel) {
  PreparedLaunch prepared(device, spec);
  prepared.kernel = kernel;
  std::map<std::string, DevPtr> ptrs;
  for (const auto& b : spec.buffers) {
    // Checked before the host copy exists: a buffer larger than the device must not cost
    // host memory (or end in bad_alloc) first.
    check_fits(device, spec, b);
    PreparedLaunch::Buffer buf;
    buf.name = b.name;
    buf.initial = initial_contents(spec, b);
    buf.ptr = device.malloc(buf.initial.bytes.size());
    prepared.buffers.push_back(buf);  // owned (and freed) from here on
    device.set_label(buf.ptr, b.name);  // faults then say "buffer 'C'"
    device.copy_to_device(buf.ptr, buf.initial.bytes.data(), buf.initial.bytes.size());
    ptrs[b.name] = buf.ptr;
  }
  prepared.args = build_kernel_args(spec, ptrs, kernel ? &kernel->params : nullptr);
  return prepared;
}

PreparedLaunch prepare(Device& device, const LaunchSpec& spec) {
  const isa::Module& module = load_spec_module(device, spec);
  const isa::Kernel* kernel = nullptr;
  try {
    kernel = &module.kernel(spec.kernel);
  } catch (const Error& e) {
    throw ConfigError(fmt::format("{}: kernel: {}", spec.path, e.what()));
  }
  return prepare(device, spec, kernel);
}

LaunchStats launch(Device& device, const PreparedLaunch& prepared, const LaunchOptions& options) {
  const LaunchSpec& spec = prepared.spec();
  if (!prepared.kernel)
    throw ConfigError(fmt::format("{}: prepared without a kernel; use prepare(device, spec) to load it", spec.path));
  return device.launch(*prepared.kernel, spec.grid, spec.block, spec.shared_bytes, prepared.args,
                       prepared.options(options));
}

}  // namespace warpsim
