// The --var NAME=INTEGER options that run, sweep and roofline pass to a launch spec.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace warpsim::cli {

// Parses each "NAME=INTEGER" (decimal, 0x hex or 0 octal); throws ConfigError naming the
// option for a missing '=', an empty name or a value that is not a whole integer.
std::map<std::string, int64_t> parse_var_overrides(const std::vector<std::string>& vars);

}  // namespace warpsim::cli
