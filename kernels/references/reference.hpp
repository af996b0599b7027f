// CPU references for the textbook kernels. A reference receives the memory image of a
// launch (every buffer's initial contents) and applies the kernel's effect to it; the
// launch-spec checker then compares the spec's output buffers on the device with it.
// References read the kernel's arguments by position, as the kernel does, so a spec may
// name its buffers freely. Floating-point references repeat the kernel's operation order
// (including the fused multiply-adds nvcc emits) wherever that makes them exact.
#pragma once
#include <fmt/format.h>

#include <map>
#include <span>
#include <string>

#include "sim/foundation/error.hpp"
#include "sim/launch/host_buffer.hpp"
#include "sim/launch/launch_spec.hpp"

namespace warpsim::ref {

class ReferenceContext {
 public:
  ReferenceContext(const LaunchSpec& spec, std::map<std::string, HostBuffer>& memory)
      : spec_(spec), memory_(memory) {}

  const LaunchSpec& spec() const { return spec_; }
  Dim3 grid() const { return spec_.grid; }
  Dim3 block() const { return spec_.block; }
  uint64_t threads() const { return spec_.grid.count() * spec_.block.count(); }

  // Fails unless the kernel takes exactly `n` arguments.
  void expect_args(size_t n) const;

  // The buffer passed as argument `arg`, as elements of T (the buffer's type must match).
  template <class T>
  std::span<T> buffer(size_t arg) {
    HostBuffer& b = buffer_at(arg, elem_type_of<T>());
    return b.as<T>();
  }
  // The element type of the buffer passed as argument `arg`.
  ElemType buffer_type(size_t arg);
  // The buffer whose pointer is field `field` of the struct passed as argument `arg`.
  template <class T>
  std::span<T> struct_buffer(size_t arg, size_t field) {
    HostBuffer& b = struct_buffer_at(arg, field, elem_type_of<T>());
    return b.as<T>();
  }
  int64_t integer(size_t arg) const;
  double real(size_t arg) const;

  [[noreturn]] void fail(const std::string& msg) const;
  void require(bool ok, const std::string& msg) const {
    if (!ok) fail(msg);
  }

 private:
  const ArgSpec& arg_at(size_t arg) const;
  HostBuffer& named_buffer(const std::string& name, const std::string& what, ElemType want);
  HostBuffer& buffer_at(size_t arg, ElemType want);
  HostBuffer& struct_buffer_at(size_t arg, size_t field, ElemType want);

  const LaunchSpec& spec_;
  std::map<std::string, HostBuffer>& memory_;
};

using ReferenceFn = void (*)(ReferenceContext&);

// Every reference by name: the one place that lists them.
std::map<std::string, ReferenceFn> reference_registry();

// Runs the named reference; an unknown name is a ConfigError listing the valid names.
void run_reference(const std::string& name, ReferenceContext& ctx);

// The references, one family per file.
void vecadd(ReferenceContext& ctx);
void pointer_chase(ReferenceContext& ctx);
void scattered_stores(ReferenceContext& ctx);
void block_index(ReferenceContext& ctx);
void matmul(ReferenceContext& ctx);
void block_sums(ReferenceContext& ctx);
void block_sums_2x(ReferenceContext& ctx);
void grid_stride_sums(ReferenceContext& ctx);
void ex5_12_as_compiled(ReferenceContext& ctx);
void copy(ReferenceContext& ctx);
void offset_copy(ReferenceContext& ctx);
void stride_copy(ReferenceContext& ctx);
void aos_soa_bar(ReferenceContext& ctx);
void aos_keys(ReferenceContext& ctx);
void soa_keys(ReferenceContext& ctx);
void mem_access_contiguous(ReferenceContext& ctx);
void mem_access_strided(ReferenceContext& ctx);
void divergence_odd_even(ReferenceContext& ctx);
void divergence_half_warps(ReferenceContext& ctx);
void divergence_warps(ReferenceContext& ctx);
void per_thread_sum(ReferenceContext& ctx);
void greyscale(ReferenceContext& ctx);
void transpose(ReferenceContext& ctx);
template <int K>
void fma_chains(ReferenceContext& ctx);

}  // namespace warpsim::ref
