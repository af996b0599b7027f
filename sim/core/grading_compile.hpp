// Compiling a submitted .cu to PTX with nvcc (the flags of tools/regen_ptx.sh), keeping
// nvcc's messages so a compile error can be shown to the student.
#pragma once
#include <string>

namespace warpsim::grading {

struct CompileResult {
  bool ok = false;
  std::string ptx_path;  // ok: the PTX written
  std::string log;       // nvcc's stdout + stderr
};

// Runs `nvcc` on `cu`, writing the PTX into `out_dir` (which must exist).
CompileResult compile_cu(const std::string& nvcc, const std::string& cu, const std::string& out_dir);

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
