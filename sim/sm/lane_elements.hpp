// One lane's element of a memory access, read into or written from a 64-bit register lane
// (sign- or zero-extended), with fixed-size copies: a variable-size memcpy would be a
// library call per lane. Shared by warp_memory_ops.cpp and warp_shared_ops.cpp.
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

}  // namespace warpsim::sm::detail
