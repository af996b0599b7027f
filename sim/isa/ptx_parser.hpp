// Loader for the PTX subset: text -> decoded Module. Accepts what `nvcc -ptx` emits for
// textbook kernels and hand-written PTX in the same syntax. Anything outside the subset
// is rejected with "file:line: unsupported PTX: <text>"; malformed input gets
// "file:line:col: parse error: ...". Never a crash.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "sim/isa/ir.hpp"

namespace warpsim::isa {

// Called once per module-scope .global/.const variable, in declaration order, as soon as it
// is parsed (its initialiser may take the address of an earlier one); returns the variable's
// global-memory address. Without one (parse-only use) variables get deterministic
// placeholder addresses from kPlaceholderVarBase up, which no device allocation uses.
using VarAllocator = std::function<uint64_t(const ModuleVar&)>;
constexpr uint64_t kPlaceholderVarBase = 0x0000'7D00'0000'0000ull;

std::unique_ptr<Module> parse_ptx(std::string_view source, const std::string& file,
                                  const VarAllocator& allocate = {});
std::unique_ptr<Module> load_ptx_file(const std::string& path, const VarAllocator& allocate = {});

}  // namespace warpsim::isa
