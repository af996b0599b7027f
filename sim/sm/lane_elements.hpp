// One lane's element of a memory access, read into or written from a 64-bit register lane
// (sign- or zero-extended), with fixed-size copies: a variable-size memcpy would be a
// library call per lane. Shared by warp_memory_ops.cpp and warp_shared_ops.cpp; and runs of
// words widened into lanes (widen_u32).
#pragma once
#include <cstdint>
#include <cstring>

namespace warpsim::sm::detail {

template <int EB>
inline uint64_t read_elem(const uint8_t* p, bool sgn) {
  if constexpr (EB == 1) {
    uint8_t v;
    std::memcpy(&v, p, 1);
    return sgn ? uint64_t(int64_t(int8_t(v))) : v;
  } else if constexpr (EB == 2) {
    uint16_t v;
    std::memcpy(&v, p, 2);
    return sgn ? uint64_t(int64_t(int16_t(v))) : v;
  } else if constexpr (EB == 4) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return sgn ? uint64_t(int64_t(int32_t(v))) : v;
  } else {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
  }
}
template <int EB>
inline void write_elem(uint8_t* p, uint64_t v) {
  if constexpr (EB == 1) {
    uint8_t x = uint8_t(v);
    std::memcpy(p, &x, 1);
  } else if constexpr (EB == 2) {
    uint16_t x = uint16_t(v);
    std::memcpy(p, &x, 2);
  } else if constexpr (EB == 4) {
    uint32_t x = uint32_t(v);
    std::memcpy(p, &x, 4);
  } else {
    std::memcpy(p, &v, 8);
  }
}

// n consecutive 4-byte words from src, zero-extended into n register lanes; the pointers
// alias nothing, so that the loop vectorises (inlined into the callers' x86-64-v3 clones:
// four lanes a store). Shared by the shared loads' runs and the global half-warp copy.
[[gnu::always_inline]] inline void widen_u32(uint64_t* __restrict out, const uint8_t* __restrict src, int n) {
  for (int k = 0; k < n; ++k) {
    uint32_t x;
    std::memcpy(&x, src + 4 * k, 4);
    out[k] = x;
  }
}

}  // namespace warpsim::sm::detail
