#pragma once
#include <cstdint>
#include <string>

namespace warpsim {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t(x) * y * z; }
  bool operator==(const Dim3&) const = default;
  std::string str() const;
};

}  // namespace warpsim
