#include "sim/engine/launch_validation.hpp"

#include <fmt/format.h>

#include "sim/foundation/error.hpp"
#include "sim/isa/param_limits.hpp"
#include "sim/sm/carveout.hpp"
#include "sim/sm/occupancy.hpp"

namespace warpsim {

void validate_launch(const DeviceSpec& spec, const isa::Kernel& k, Dim3 grid, Dim3 block, uint32_t dyn) {
  const SmSpec& sm = spec.sm;
  auto dims = [&](const char* what, Dim3 d, const uint32_t* max) {
    const uint32_t v[3] = {d.x, d.y, d.z};
    const char* axis = "xyz";
    for (int i = 0; i < 3; ++i) {
      if (v[i] == 0)
        throw LaunchError(fmt::format("invalid configuration argument: {} dimension {} is 0 (kernel '{}')", what,
                                      axis[i], k.name));
      if (v[i] > max[i])
        throw LaunchError(fmt::format("invalid configuration argument: {}.{} = {} exceeds the {} maximum of {} "
                                      "(kernel '{}')",
                                      what, axis[i], v[i], spec.name, max[i], k.name));
    }
  };
  dims("grid", grid, sm.max_grid_dim);
  dims("block", block, sm.max_block_dim);
  if (block.count() > sm.max_threads_per_block)
    throw LaunchError(fmt::format("invalid configuration argument: {} threads per block exceed the {} maximum of {} "
                                  "(kernel '{}')",
                                  block.count(), spec.name, sm.max_threads_per_block, k.name));
  if (k.reqntid[0] && (block.x != k.reqntid[0] || block.y != k.reqntid[1] || block.z != k.reqntid[2]))
    throw LaunchError(fmt::format("invalid configuration argument: kernel '{}' requires a block of {}x{}x{} (.reqntid)",
                                  k.name, k.reqntid[0], k.reqntid[1], k.reqntid[2]));
  if (k.maxntid[0] && block.count() > uint64_t(k.maxntid[0]) * k.maxntid[1] * k.maxntid[2])
    throw LaunchError(fmt::format("invalid configuration argument: kernel '{}' allows at most {} threads per block "
                                  "(.maxntid)",
                                  k.name, uint64_t(k.maxntid[0]) * k.maxntid[1] * k.maxntid[2]));
  // Kernel parameters: 32,764 bytes on Volta and later (CUDA 12.1), 4 KB before.
  const uint32_t max_params = spec.cc_major() >= 7 ? isa::kMaxKernelParamBytes : isa::kMaxKernelParamBytesBeforeVolta;
  if (k.param_bytes > max_params)
    throw LaunchError(fmt::format("kernel '{}' takes {} bytes of parameters; the {} (cc {}.{}) allows {} ({} needs cc "
                                  "7.0 or later and CUDA 12.1)",
                                  k.name, k.param_bytes, spec.name, spec.cc_major(), spec.cc_minor(), max_params,
                                  isa::kMaxKernelParamBytes));
  // Tensor-core instructions need a device with tensor cores (cc 7.0 and later): as with a
  // binary built for a newer GPU, CUDA has no image of the kernel for the device.
  if (!spec.issue.has_tensor_cores())
    for (size_t pc = 0; pc < k.code.size(); ++pc) {
      const isa::Op op = k.code[pc].op;
      if (op == isa::Op::WmmaLoad || op == isa::Op::WmmaStore || op == isa::Op::WmmaMma)
        throw LaunchError(fmt::format("no kernel image is available for execution on the device: kernel '{}' uses "
                                      "tensor cores (`{}`, PTX line {}), which the {} (cc {}.{}) does not have; "
                                      "wmma needs cc 7.0 or later (--config h100)",
                                      k.name, k.text.size() > pc ? k.text[pc] : std::string(isa::op_name(op)),
                                      k.code[pc].ptx_line, spec.name, spec.cc_major(), spec.cc_minor()));
    }
  // mbarrier objects and the reserved shared memory exist from cc 8.0 on, bulk copies from
  // cc 9.0: CUDA has no image of such a kernel for an older device either.
  auto too_old = [&](const std::string& what, size_t pc, int major) {
    throw LaunchError(fmt::format("no kernel image is available for execution on the device: kernel '{}' uses {} "
                                  "(`{}`, PTX line {}), which the {} (cc {}.{}) does not have; it needs cc {}.0 or "
                                  "later (--config h100)",
                                  k.name, what, k.text.size() > pc ? k.text[pc] : std::string(isa::op_name(k.code[pc].op)),
                                  k.code[pc].ptx_line, spec.name, spec.cc_major(), spec.cc_minor(), major));
  };
  for (size_t pc = 0; pc < k.code.size(); ++pc) {
    const isa::Instr& in = k.code[pc];
    if (in.op == isa::Op::CpAsyncBulk && spec.cc_major() < 9) too_old("a bulk asynchronous copy", pc, 9);
    if (isa::is_mbarrier_op(in.op) && spec.cc_major() < 8) too_old("mbarrier objects", pc, 8);
    if (spec.cc_major() < 8)
      for (const isa::SpecialSlot& sp : k.specials)
        if (isa::is_reserved_smem(sp.which) &&
            ((in.a.kind == isa::Operand::Kind::Reg && in.a.reg == sp.slot) ||
             (in.b.kind == isa::Operand::Kind::Reg && in.b.reg == sp.slot)))
          too_old("the reserved shared memory", pc, 8);
  }
  if (dyn && !k.has_dynamic_shared) {
    // CUDA accepts it; the bytes are simply unused. Nothing to check.
  }
}

uint32_t launch_shared_capacity(const DeviceSpec& spec, const isa::Kernel& k, Dim3 block, uint32_t dyn, uint32_t regs,
                                const sm::SharedPreference& preference) {
  if (regs == 0) regs = std::min(k.estimated_registers, spec.sm.max_registers_per_thread);
  return sm::launch_shared_capacity(spec.sm, spec.carveout, static_cast<uint32_t>(block.count()), regs,
                                    sm::block_shared_bytes(spec.sm, k.static_shared_bytes, dyn), preference);
}

OccupancyStats launch_occupancy(const DeviceSpec& spec, const isa::Kernel& k, Dim3 block, uint32_t dyn,
                                uint32_t regs) {
  bool estimated = regs == 0;
  if (estimated) regs = std::min(k.estimated_registers, spec.sm.max_registers_per_thread);
  uint32_t smem = sm::block_shared_bytes(spec.sm, k.static_shared_bytes, dyn);
  try {
    OccupancyStats o = sm::compute_occupancy(spec.sm, static_cast<uint32_t>(block.count()), regs, smem);
    o.registers_estimated = estimated;
    return o;
  } catch (const LaunchError& e) {
    throw LaunchError(fmt::format("kernel '{}' on {}: {}{}", k.name, spec.name, e.what(),
                                  estimated ? fmt::format(" (registers per thread: {}, estimated from the PTX; give "
                                                          "the real count from ptxas -v)",
                                                          regs)
                                            : ""));
  }
}

}  // namespace warpsim

namespace warpsim {

bool uses_cluster_instructions(const isa::Kernel& k) {
  for (const isa::Instr& in : k.code)
    if (in.op == isa::Op::ClusterArrive || in.op == isa::Op::ClusterWait || in.op == isa::Op::Mapa ||
        in.op == isa::Op::GetCtaRank)
      return true;
  return false;
}

std::optional<Dim3> launch_cluster_shape(const DeviceSpec& spec, const isa::Kernel& k, Dim3 grid,
                                         std::optional<Dim3> given, bool non_portable) {
  auto fail = [&](const std::string& why) {
    throw LaunchError(fmt::format("invalid cluster size: {} (kernel '{}')", why, k.name));
  };
  const bool compiled = k.cluster_dims[0] != 0;
  const Dim3 fixed{k.cluster_dims[0], k.cluster_dims[1], k.cluster_dims[2]};
  if (given && compiled && !(*given == fixed))
    fail(fmt::format("the launch asks for clusters of {}x{}x{} blocks and the kernel was compiled for {}x{}x{} "
                     "(__cluster_dims__, .reqnctapercluster)",
                     given->x, given->y, given->z, fixed.x, fixed.y, fixed.z));
  if (!given && !compiled) {
    if (k.explicit_cluster) fail("the kernel must be launched in clusters (.explicitcluster) and none was given");
    return std::nullopt;
  }
  const Dim3 c = given ? *given : fixed;
  if (c.x == 0 || c.y == 0 || c.z == 0) fail(fmt::format("a cluster of {}x{}x{} blocks", c.x, c.y, c.z));
  if (!spec.has_clusters())
    fail(fmt::format("the {} (cc {}) has no thread block clusters (cc 9.0 and later; --config h100)", spec.name,
                     spec.compute_capability));
  const uint64_t size = c.count();
  const ClusterSpec& cs = spec.clusters;
  if (size > cs.max_size)
    fail(fmt::format("a cluster of {} blocks ({}x{}x{}); the {} runs at most {}", size, c.x, c.y, c.z, spec.name,
                     cs.max_size));
  if (size > cs.portable_size && !non_portable)
    fail(fmt::format("a cluster of {} blocks ({}x{}x{}) is more than the portable {}: set "
                     "cudaFuncAttributeNonPortableClusterSizeAllowed to 1 first",
                     size, c.x, c.y, c.z, cs.portable_size));
  if (k.max_cluster_rank && size > k.max_cluster_rank)
    fail(fmt::format("a cluster of {} blocks; the kernel allows {} (.maxclusterrank)", size, k.max_cluster_rank));
  if (grid.x % c.x || grid.y % c.y || grid.z % c.z)
    fail(fmt::format("the grid {}x{}x{} is not a whole number of {}x{}x{} clusters", grid.x, grid.y, grid.z, c.x, c.y,
                     c.z));
  return c;
}

}  // namespace warpsim
