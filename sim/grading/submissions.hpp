// Finding submissions: one file as given, or every submission in a folder.
#pragma once
#include <string>
#include <vector>

namespace warpsim::grading {

struct Submission {
  std::string name;                // display name and gradebook key
  std::string path;                // the module to grade (.cu or .ptx; anything else is refused)
  std::vector<std::string> notes;  // how it was chosen, e.g. "nvcc not found: graded x.ptx"
  // Non-empty: graded as a bad submission with this message and nothing read (a symbolic
  // link that leads out of the submissions folder).
  std::string refused;
};

// A file given on the command line, graded as it is: name = its file name.
Submission submission_from_file(const std::string& path);

// The module to grade for `path`: a .cu when nvcc is available (`have_nvcc`), else the
// .ptx beside it when there is one, else `path` itself. `note` says when it switched.
std::string pick_module(const std::string& path, bool have_nvcc, std::string* note = nullptr);

// The submissions in a folder, sorted by name:
//   NAME.cu and/or NAME.ptx      -> submission NAME (the pair is one submission; see pick_module)
//   NAME/ with one module inside -> submission NAME (a folder per student)
// Other files are ignored; a folder without exactly one module (pair) becomes a submission
// whose path is the folder, which grading reports as a bad submission. Symbolic links are
// followed only while they stay inside `dir` (a student's folder: inside that folder); a
// link leading elsewhere becomes a submission with `refused` set, its target never opened.
// Throws Error when `dir` is not a folder.
std::vector<Submission> list_submissions(const std::string& dir, bool have_nvcc);

}  // namespace warpsim::grading
