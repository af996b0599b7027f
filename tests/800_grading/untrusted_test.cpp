// Submissions are untrusted: a symbolic link out of the submissions folder is never
// followed, and a .cu may include only the toolkit's, the standard library's and the
// assignment's headers (checked before nvcc runs; nvcc compiles a copy in a scratch folder).
#include <catch2/catch.hpp>

#include "grading_fixture.hpp"
#include "sim/grading/compile.hpp"
#include "sim/grading/includes.hpp"
#include "sim/grading/submissions.hpp"
#include "sim/launch/launch_spec.hpp"

using namespace warpsim::grading;
using grading_test::read_text;
using grading_test::sample_submission;
using grading_test::Scratch;
using grading_test::small_assignment;
using warpsim::Json;

namespace {

namespace fs = std::filesystem;

const Submission* find(const std::vector<Submission>& subs, const std::string& name) {
  for (const auto& s : subs)
    if (s.name == name) return &s;
  return nullptr;
}

GradeResult grade(const Assignment& a, const Submission& s, const RunnerOptions& o = {}) {
  return score_submission(a, run_submission(a, s, o), nullptr);
}

const IncludePolicy kPolicy{"", {"common.cuh"}};

std::string includes(const std::string& source) { return check_includes(source, "sub.cu", kPolicy); }

}  // namespace

TEST_CASE("untrusted: symbolic links out of the submissions folder are not followed", "[grading][untrusted]") {
  Scratch s;
  // Outside the class folder: a file that must never be read, and a folder.
  s.write("private/passwd.ptx", "root:x:0:0:SECRET-CONTENTS\n");
  s.write("private/folder/mallory.ptx", "SECRET-CONTENTS\n");
  s.copy_sample("submissions/correct.ptx", "class/dave.ptx");
  fs::create_symlink(s.path("private/passwd.ptx"), s.path("class/alice.ptx"));
  fs::create_symlink("../private/folder", s.path("class/bob"));
  fs::create_directories(s.path("class/carol"));
  fs::create_symlink("../../private/passwd.ptx", s.path("class/carol/reduce.ptx"));
  fs::create_symlink("dave.ptx", s.path("class/erin.ptx"));  // inside the folder: followed

  auto subs = list_submissions(s.path("class"), false);
  const std::string cls = s.path("class");
  REQUIRE(find(subs, "alice"));
  CHECK(find(subs, "alice")->refused ==
        cls + "/alice.ptx: a symbolic link leading out of " + cls + "; it was not followed (submit the file itself)");
  REQUIRE(find(subs, "bob"));
  CHECK(find(subs, "bob")->refused ==
        cls + "/bob: a symbolic link leading out of " + cls + "; it was not followed (submit the folder itself)");
  REQUIRE(find(subs, "carol"));
  CHECK(find(subs, "carol")->refused == cls + "/carol/reduce.ptx: a symbolic link leading out of " + cls +
                                            "/carol; it was not followed (submit the file itself)");
  REQUIRE(find(subs, "erin"));
  CHECK(find(subs, "erin")->refused.empty());

  Assignment a = grading_test::load(s, small_assignment());
  for (const char* name : {"alice", "bob", "carol"}) {
    GradeResult g = grade(a, *find(subs, name));
    CHECK(g.verdict == Verdict::BadSubmission);
    CHECK(g.detail == find(subs, name)->refused);
    CHECK(g.detail.find("SECRET") == std::string::npos);
  }
  CHECK(grade(a, *find(subs, "erin")).verdict == Verdict::Passed);
  CHECK(grade(a, *find(subs, "dave")).verdict == Verdict::Passed);
}

TEST_CASE("untrusted: a .ptx beside a .cu is not taken from a link out of the folder", "[grading][untrusted]") {
  Scratch s;
  s.write("private/x.ptx", "SECRET\n");
  s.write("class/frank.cu", "__global__ void reduce(const int* In, int* Out) {}\n");
  fs::create_symlink(s.path("private/x.ptx"), s.path("class/frank.ptx"));
  auto subs = list_submissions(s.path("class"), /*have_nvcc=*/false);
  REQUIRE(find(subs, "frank"));
  CHECK(find(subs, "frank")->path == s.path("class/frank.cu"));
  CHECK(find(subs, "frank")->refused.empty());
}

TEST_CASE("untrusted: includes a submission may use", "[grading][untrusted]") {
  CHECK(includes("#include <stdio.h>\n#include <cstdint>\n#include \"common.cuh\"\n__global__ void k() {}\n") == "");
  CHECK(includes("// #include \"/etc/passwd\" in a line comment\n") == "");
  CHECK(includes("#include \"/etc/passwd\"\n") ==
        "sub.cu:1: #include \"/etc/passwd\" is not allowed: only relative header names are allowed");
  CHECK(includes("\n#  include <../../../../etc/shadow>\n") ==
        "sub.cu:2: #include <../../../../etc/shadow> is not allowed: \"..\" is not allowed in a header name");
  CHECK(includes("#include \"helper.h\"\n") ==
        "sub.cu:1: #include \"helper.h\" is not allowed: a submission may include only the CUDA toolkit's headers, "
        "the C/C++ standard library's and the assignment's own (common.cuh)");
  CHECK(includes("#define F \"/etc/passwd\"\n#include F\n") ==
        "sub.cu:2: #include F is not allowed: the file name must be written out as <name> or \"name\", not come "
        "from a macro");
  CHECK(includes("#include_next <stdio.h>\n") ==
        "sub.cu:1: #include_next <stdio.h> is not allowed: #include_next is not supported in submissions");
  // Spellings the preprocessor accepts: continuation lines, comments, digraphs.
  CHECK(includes("#inc\\\nlude \"x.h\"\n").starts_with("sub.cu:1: #include \"x.h\" is not allowed"));
  CHECK(includes("/* a comment\n */ #include \"x.h\"\n").starts_with("sub.cu:2: #include \"x.h\" is not allowed"));
  CHECK(includes("# /* c */ include \"x.h\"\n").starts_with("sub.cu:1: #include \"x.h\" is not allowed"));
  CHECK(includes("%:include \"x.h\"\n").starts_with("sub.cu:1: #include \"x.h\" is not allowed"));
  CHECK(includes("# /* goes on\n */ include \"x.h\"\n") ==
        "sub.cu:1: #/* goes on is not allowed: a comment that goes on past the line inside a directive");
  // The toolkit's headers are those in its include folder.
  Scratch s;
  s.write("cuda/include/cuda_runtime.h", "");
  IncludePolicy toolkit{s.path("cuda/include"), {}};
  CHECK(check_includes("#include <cuda_runtime.h>\n#include \"cuda_runtime.h\"\n", "k.cu", toolkit) == "");
  CHECK(check_includes("#include <nvml_secret.h>\n", "k.cu", toolkit).starts_with("k.cu:1: #include <nvml_secret.h> is not allowed"));
}

TEST_CASE("untrusted: a refused include is a compile verdict naming it, nvcc never runs", "[grading][untrusted]") {
  Scratch s;
  Assignment a = grading_test::load(s, small_assignment());
  s.write("private/secret.h", "SECRET-CONTENTS\n");
  std::string cu = s.write("class/greg.cu", "#include \"" + s.path("private/secret.h") +
                                                "\"\n__global__ void reduce(const int* In, int* Out) {}\n");
  RunnerOptions fake;
  fake.nvcc = s.write("bin/nvcc", "");  // never executed: the include check comes first
  GradeResult g = grade(a, Submission{"greg", cu, {}, {}}, fake);
  CHECK(g.verdict == Verdict::CompileError);
  CHECK(g.detail == "greg.cu:1: #include \"" + s.path("private/secret.h") +
                        "\" is not allowed: only relative header names are allowed");
  CHECK(g.detail.find("SECRET-CONTENTS") == std::string::npos);
}

TEST_CASE("untrusted: nvcc compiles a copy with only the assignment's headers (when nvcc is installed)",
          "[grading][untrusted][nvcc]") {
  if (warpsim::find_nvcc().empty()) {
    WARN("nvcc not found: the scratch-folder compile of submissions is not tested");
    return;
  }
  Scratch s;
  s.write("common.cuh", "#define WARPSIM_TEST_HEADER 1\n");
  Json doc = small_assignment();
  doc["headers"] = Json::array({"common.cuh"});
  Assignment a = grading_test::load(s, doc);
  REQUIRE(a.headers.size() == 1);
  std::string correct = read_text(sample_submission("correct.cu"));
  // The assignment's header is found beside the copy.
  std::string ok = s.write("class/hana.cu", "#include \"common.cuh\"\n#include <cstdint>\n" + correct);
  GradeResult g = grade(a, Submission{"hana", ok, {}, {}});
  CHECK(g.verdict == Verdict::Passed);
  // Without the assignment's header, the same include is refused before nvcc runs, even
  // with a file of that name beside the submission.
  Assignment bare = grading_test::load(s, small_assignment());
  s.write("class/common.cuh", "#error SECRET-CONTENTS\n");
  GradeResult h = grade(bare, Submission{"hana", ok, {}, {}});
  CHECK(h.verdict == Verdict::CompileError);
  CHECK(h.detail == "hana.cu:1: #include \"common.cuh\" is not allowed: a submission may include only the CUDA "
                    "toolkit's headers, the C/C++ standard library's and the assignment's own (none)");
}
