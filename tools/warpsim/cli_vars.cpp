#include "tools/warpsim/cli_vars.hpp"

#include <fmt/format.h>

#include <stdexcept>

#include "sim/foundation/error.hpp"

namespace warpsim::cli {

std::map<std::string, int64_t> parse_var_overrides(const std::vector<std::string>& vars) {
  std::map<std::string, int64_t> out;
  for (const auto& v : vars) {
    auto eq = v.find('=');
    if (eq == std::string::npos || eq == 0) throw ConfigError(fmt::format("--var \"{}\": expected NAME=INTEGER", v));
    std::string value = v.substr(eq + 1);
    try {
      size_t used = 0;
      int64_t x = std::stoll(value, &used, 0);
      if (used != value.size()) throw std::invalid_argument("trailing characters");
      out[v.substr(0, eq)] = x;
    } catch (const std::exception&) {
      throw ConfigError(fmt::format("--var \"{}\": '{}' is not an integer", v, value));
    }
  }
  return out;
}

}  // namespace warpsim::cli
