// Compiling a submitted .cu to PTX with nvcc (the flags of tools/regen_ptx.sh), keeping
// nvcc's messages so a compile error can be shown to the student.
#pragma once
#include <string>
#include <vector>

namespace warpsim::grading {

struct CompileResult {
  bool ok = false;
  bool refused = false;  // nvcc never ran: `log` says why (an include that is not allowed)
  std::string ptx_path;  // ok: the PTX written
  std::string program_path;  // compile_program: the program built
  std::string log;       // nvcc's stdout + stderr
};

// Runs `nvcc` on `cu`, writing the PTX into `out_dir` (which must exist). For trusted
// sources (the reference solution); submissions go through compile_submission.
CompileResult compile_cu(const std::string& nvcc, const std::string& cu, const std::string& out_dir);

// Compiles a submitted .cu: its includes are checked first (grading_includes.hpp; a refusal
// names the include and nvcc never runs), then nvcc compiles a copy in the scratch folder
// OUT_DIR/src, which holds only the submission and the assignment's `headers`, so no
// include can reach the submission's original folder. Diagnostics are brief (no quoted
// source lines).
CompileResult compile_submission(const std::string& nvcc, const std::string& cu, const std::string& out_dir,
                                 const std::vector<std::string>& headers);

// Builds a whole-program submission (a .cu with main()) like compile_submission (checked
// includes, a scratch copy), with nvcc_program_flags(), into OUT_DIR/program.
CompileResult compile_program(const std::string& nvcc, const std::string& cu, const std::string& out_dir,
                              const std::vector<std::string>& headers);
// -cudart shared (warpsim's runtime stands in for libcudart.so.13), -arch=sm_75 (keeps
// compute_75 PTX in the fatbinary), -lineinfo.
const std::vector<std::string>& nvcc_program_flags();

// A short form of an nvcc log for feedback: its error lines (at most `max_lines`, with a
// count of the rest), paths shortened to the file name; the whole log when it has none.
std::string summarize_nvcc_log(const std::string& log, size_t max_lines = 8);

// A fresh private folder under the system's temporary directory, removed by the destructor.
class TempDir {
 public:
  explicit TempDir(const std::string& prefix);
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace warpsim::grading
