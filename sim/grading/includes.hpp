// What a submitted .cu may #include, checked before nvcc sees it. nvcc's diagnostics come
// back to the student as feedback, so an include of an arbitrary file would show its
// contents; only these are allowed:
//   <name>  a header of the CUDA toolkit (found under its include folder) or of the C/C++
//           standard library (a fixed list of names);
//   "name"  one of the assignment's headers (by file name), or a toolkit/standard header.
// Absolute names, "..", backslashes, and includes whose name comes from a macro
// (#include SOME_MACRO) are refused, as are #include_next, #import and #embed.
#pragma once
#include <string>
#include <vector>

namespace warpsim::grading {

struct IncludePolicy {
  std::string toolkit_include_dir;             // e.g. /usr/local/cuda/include ("" when unknown)
  std::vector<std::string> assignment_headers;  // file names ("common.cuh")
};

// The toolkit's include folder for an nvcc path: NVCC_DIR/../include (or "" when absent).
std::string toolkit_include_dir(const std::string& nvcc);

// Checks every include directive of `source` (the text of `file_name`). Returns "" when
// all are allowed, else one message naming the file, the line and the include, e.g.
//   reduce.cu:3: #include "/etc/passwd" is not allowed: ...
// Backslash-newline continuations and comments are handled the way the preprocessor does.
std::string check_includes(const std::string& source, const std::string& file_name, const IncludePolicy& policy);

}  // namespace warpsim::grading
