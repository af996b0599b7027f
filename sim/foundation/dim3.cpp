#include "sim/foundation/dim3.hpp"

#include <fmt/format.h>

namespace warpsim {

std::string Dim3::str() const { return fmt::format("({},{},{})", x, y, z); }

}  // namespace warpsim
