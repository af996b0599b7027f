// `warpsim sweep` end to end: stdout holds only the CSV, progress goes to stderr, and the
// exit status says whether a point failed. Skipped when the warpsim binary is not built.
#include <sys/wait.h>

#include <fstream>
#include <sstream>

#include "sweep_fixture.hpp"

namespace {

struct Result {
  int status = -1;
  std::string out, err;
};

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string warpsim_binary() { return std::string(WARPSIM_BINARY_DIR) + "/tools/warpsim"; }

Result run_warpsim(const std::string& args) {
  sweep_test::TempFile out("cli.out"), err("cli.err");
  std::string command = warpsim_binary() + " " + args + " >" + out.str() + " 2>" + err.str();
  int raw = std::system(command.c_str());
  Result r;
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(out.str());
  r.err = slurp(err.str());
  return r;
}

}  // namespace

TEST_CASE("warpsim sweep: CSV on stdout, progress on stderr, exit 3 when a point fails", "[sweep][cli]") {
  if (!std::filesystem::exists(warpsim_binary())) {
    WARN("warpsim is not built in " << WARPSIM_BINARY_DIR << ": the CLI is not exercised");
    return;
  }
  std::string spec = sweep_test::source_path("kernels/vecadd/vecadd_1003.json");
  Result ok = run_warpsim("sweep " + spec + " --functional --vary var:n=100,200 --metrics inst_executed --jobs 2");
  CHECK(ok.status == 0);
  CHECK(ok.out == "var:n,inst_executed,status\n100,88,ok\n200,165,ok\n");
  CHECK_THAT(ok.err, Catch::Contains("[2/2] var:n="));
  CHECK_THAT(ok.err, Catch::Contains("... done in"));

  Result bad = run_warpsim("sweep " + spec + " --functional --vary sm.count=14,0 --metrics inst_executed");
  CHECK(bad.status == 3);
  warpsim::csv::Table t = warpsim::csv::parse(bad.out, "stdout");
  REQUIRE(t.rows.size() == 2);
  CHECK(t.rows[0] == std::vector<std::string>{"14", "704", "ok"});
  CHECK(t.rows[1][1].empty());
  CHECK_THAT(t.rows[1][2], Catch::Contains("sm.count"));
  CHECK_THAT(bad.err, Catch::Contains("FAILED"));
  CHECK_THAT(bad.err, Catch::Contains("1 of 2 points failed"));

  sweep_test::TempFile file("cli.csv");
  Result to_file = run_warpsim("sweep " + spec + " --functional --vary var:n=100 --metrics inst_executed --csv " +
                               file.str());
  CHECK(to_file.status == 0);
  CHECK(to_file.out.empty());
  CHECK(slurp(file.str()) == "var:n,inst_executed,status\n100,88,ok\n");

  // Each --vary takes one argument, so the spec may follow it.
  Result order = run_warpsim("sweep --vary var:n=100 --metrics inst_executed " + spec + " --functional");
  CHECK(order.status == 0);
  CHECK(order.out == "var:n,inst_executed,status\n100,88,ok\n");

  Result syntax = run_warpsim("sweep " + spec + " --vary dram.banks");
  CHECK(syntax.status == 1);
  CHECK_THAT(syntax.err, Catch::Contains("warpsim: error: --vary \"dram.banks\": expected KEY=V1,V2,..."));
  CHECK(syntax.out.empty());
}

TEST_CASE("warpsim occupancy --shared-config: the occupancy of one L1/shared split", "[occupancy][cli]") {
  if (!std::filesystem::exists(warpsim_binary())) {
    WARN("warpsim binary not built; skipped");
    return;
  }
  // The C2070 with PreferL1's 16 KB of shared memory: 6 KB blocks fit twice, not six times.
  Result l1 = run_warpsim("occupancy --threads 256 --smem 6144 --shared-config 16384 --json");
  REQUIRE(l1.status == 0);
  CHECK_THAT(l1.out, Catch::Contains("\"blocks_per_sm\": 2"));
  CHECK_THAT(l1.out, Catch::Contains("\"shared_memory_per_sm\": 16384"));
  Result def = run_warpsim("occupancy --threads 256 --smem 6144 --json");
  CHECK_THAT(def.out, Catch::Contains("\"blocks_per_sm\": 6"));
  CHECK_THAT(def.out, Catch::Contains("\"shared_memory_per_sm\": 49152"));
  Result bad = run_warpsim("occupancy --threads 256 --shared-config 1000");
  CHECK(bad.status != 0);
  CHECK_THAT(bad.err, Catch::Contains("--shared-config 1000: the Tesla C2070 has the shared-memory sizes 16384, 49152"));
  Result fx = run_warpsim("occupancy --config fx5800 --threads 256 --shared-config 8192");
  CHECK_THAT(fx.err, Catch::Contains("the Quadro FX5800 has one shared-memory size, 16384 bytes"));
}
