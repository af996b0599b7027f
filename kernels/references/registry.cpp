#include <fmt/format.h>

#include "kernels/references/reference.hpp"

namespace warpsim::ref {

std::map<std::string, ReferenceFn> reference_registry() {
  return {
      {"vecadd", vecadd},
      {"pointer_chase", pointer_chase},
      {"scattered_stores", scattered_stores},
      {"block_index", block_index},
      {"matmul", matmul},
      {"block_sums", block_sums},
      {"block_sums_2x", block_sums_2x},
      {"grid_stride_sums", grid_stride_sums},
      {"ex5_12_as_compiled", ex5_12_as_compiled},
      {"copy", copy},
      {"offset_copy", offset_copy},
      {"stride_copy", stride_copy},
      {"aos_soa_bar", aos_soa_bar},
      {"aos_keys", aos_keys},
      {"soa_keys", soa_keys},
      {"mem_access_contiguous", mem_access_contiguous},
      {"mem_access_strided", mem_access_strided},
      {"divergence_odd_even", divergence_odd_even},
      {"divergence_half_warps", divergence_half_warps},
      {"divergence_warps", divergence_warps},
      {"per_thread_sum", per_thread_sum},
      {"greyscale", greyscale},
      {"transpose", transpose},
      {"fma_chains_k1", fma_chains<1>},
      {"fma_chains_k2", fma_chains<2>},
      {"fma_chains_k4", fma_chains<4>},
      {"fma_chains_k8", fma_chains<8>},
      {"fma_chains_k16", fma_chains<16>},
  };
}

void run_reference(const std::string& name, ReferenceContext& ctx) {
  auto registry = reference_registry();
  auto it = registry.find(name);
  if (it == registry.end()) {
    std::string names;
    for (const auto& [n, fn] : registry) names += (names.empty() ? "" : ", ") + n;
    throw ConfigError(fmt::format("{}: check.reference: unknown reference '{}' (valid: {})", ctx.spec().path, name,
                                  names));
  }
  it->second(ctx);
}

}  // namespace warpsim::ref
