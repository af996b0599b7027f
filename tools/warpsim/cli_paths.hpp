// Finding the repo's data files (configs/, kernels/) from wherever warpsim is run:
// the path as given, then relative to the source tree this binary was built from.
#pragma once
#include <string>

namespace warpsim::cli {

// A device config: a path, or a short name such as "c2070" for configs/c2070.json.
std::string resolve_config(const std::string& name_or_path);
// The folder holding warpsim's libcudart.so.13: beside this program's build (<bin>/../lib),
// else where this build put it; "" when neither has it.
std::string cudart_dir();
// Any other input file (spec, trace, assignment): as given, else in the source tree.
std::string resolve_input(const std::string& path);

}  // namespace warpsim::cli
