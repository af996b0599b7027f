// Loader for the PTX subset: text -> decoded Module. Accepts what `nvcc -ptx` emits for
// textbook kernels and hand-written PTX in the same syntax. Anything outside the subset
// is rejected with "file:line: unsupported PTX: <text>"; malformed input gets
// "file:line:col: parse error: ...". Never a crash.
#pragma once
#include <memory>
#include <string>
#include <string_view>

#include "sim/isa/ir.hpp"

namespace warpsim::isa {

std::unique_ptr<Module> parse_ptx(std::string_view source, const std::string& file);
std::unique_ptr<Module> load_ptx_file(const std::string& path);

}  // namespace warpsim::isa
