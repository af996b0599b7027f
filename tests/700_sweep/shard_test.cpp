// Sharded sweeps: each shard runs every N-th point, and --merge gives back, byte for byte,
// the CSV one unsharded run writes. End-to-end cases run the shards as separate processes.
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "sim/sweep/shards.hpp"
#include "sweep_fixture.hpp"

using namespace warpsim;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream f(path);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

std::string warpsim_binary() { return std::string(WARPSIM_BINARY_DIR) + "/tools/warpsim"; }

int run(const std::string& args, std::string* err = nullptr) {
  sweep_test::TempFile e("shard.err");
  int raw = std::system((warpsim_binary() + " " + args + " 2>" + e.str()).c_str());
  if (err) *err = slurp(e.str());
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}

}  // namespace

TEST_CASE("shards: I/N parsing and which points a shard runs", "[sweep][shard]") {
  CHECK(sweep::parse_shard("0/1").count == 1);
  CHECK(sweep::parse_shard("3/4").index == 3);
  CHECK_THROWS_WITH(sweep::parse_shard("4/4"), Catch::Contains("I must be below N (4)"));
  CHECK_THROWS_WITH(sweep::parse_shard("1/0"), Catch::Contains("N must be at least 1"));
  CHECK_THROWS_WITH(sweep::parse_shard("a/2"), Catch::Contains("not two whole numbers"));
  CHECK_THROWS_WITH(sweep::parse_shard("2"), Catch::Contains("no '/'"));
  std::vector<sweep::Point> all(7);
  for (size_t i = 0; i < all.size(); ++i) all[i].index = i;
  std::vector<size_t> seen;
  for (size_t s = 0; s < 3; ++s)
    for (const auto& p : sweep::shard_points(all, {s, 3})) seen.push_back(p.index);
  CHECK(seen == std::vector<size_t>{0, 3, 6, 1, 4, 2, 5});
}

TEST_CASE("shards: merge restores point order and refuses incomplete or foreign sets", "[sweep][shard]") {
  const std::string a = "sweep_point,x,status\n0/3,a,ok\n2/3,\"c, d\",ok\n";
  const std::string b = "sweep_point,x,status\n1/3,b,ok\n";
  CHECK(sweep::merge_shards({{"a.csv", a}, {"b.csv", b}}) == "x,status\na,ok\nb,ok\n\"c, d\",ok\n");
  CHECK_THROWS_WITH(sweep::merge_shards({{"a.csv", a}}),
                    Catch::Contains("1 of 3 points are missing (points 1)"));
  CHECK_THROWS_WITH(sweep::merge_shards({{"a.csv", a}, {"b.csv", b}, {"b2.csv", b}}),
                    Catch::Contains("b2.csv: point 1 is also in b.csv"));
  CHECK_THROWS_WITH(sweep::merge_shards({{"a.csv", a}, {"c.csv", "sweep_point,y,status\n1/3,b,ok\n"}}),
                    Catch::Contains("c.csv: its columns differ from a.csv's"));
  CHECK_THROWS_WITH(sweep::merge_shards({{"a.csv", a}, {"d.csv", "sweep_point,x,status\n1/4,b,ok\n"}}),
                    Catch::Contains("a sweep of 4 points, but a.csv has 3"));
  CHECK_THROWS_WITH(sweep::merge_shards({{"e.csv", "x,status\na,ok\n"}}), Catch::Contains("e.csv: not a shard file"));
  CHECK_THROWS_WITH(sweep::merge_shards({{"f.csv", "sweep_point,x\n7/3,a\n"}}),
                    Catch::Contains("'7/3' is not a point index"));
}

TEST_CASE("shards: three shard processes merge to the unsharded CSV byte for byte", "[sweep][shard][cli]") {
  if (!std::filesystem::exists(warpsim_binary())) {
    WARN("warpsim is not built in " << WARPSIM_BINARY_DIR << ": the CLI is not exercised");
    return;
  }
  const std::string spec = sweep_test::source_path("kernels/vecadd/vecadd_1003.json");
  const std::string sweep_args = "sweep " + spec +
                                 " --vary var:n=100,300,1003 --vary sm.count=1,2,14 --vary sm.scheduler_policy=lrr,gto "
                                 "--max-cycles 2000000";
  sweep_test::TempFile whole("whole.csv"), s0("s0.csv"), s1("s1.csv"), s2("s2.csv"), merged("merged.csv");
  REQUIRE(run(sweep_args + " --jobs 2 --csv " + whole.str()) == 0);
  std::string err;
  REQUIRE(run(sweep_args + " --shard 0/3 --csv " + s0.str(), &err) == 0);
  CHECK_THAT(err, Catch::Contains("shard 0/3 of 18 points") && Catch::Contains("left"));
  REQUIRE(run(sweep_args + " --shard 1/3 --csv " + s1.str()) == 0);
  REQUIRE(run(sweep_args + " --shard 2/3 --jobs 2 --csv " + s2.str()) == 0);
  CHECK(slurp(s0.str()).rfind("sweep_point,var:n,sm.count,", 0) == 0);  // the index, then the axes
  REQUIRE(run("sweep --merge " + s2.str() + " " + s0.str() + " " + s1.str() + " --csv " + merged.str()) == 0);
  const std::string expected = slurp(whole.str());
  CHECK(expected.size() > 100);
  CHECK(slurp(merged.str()) == expected);
  // A missing shard is an error naming the points, not a short CSV.
  CHECK(run("sweep --merge " + s0.str() + " " + s1.str() + " --csv " + merged.str(), &err) == 1);
  CHECK_THAT(err, Catch::Contains("6 of 18 points are missing"));
}

TEST_CASE("shards: the Slurm array script, run task by task without Slurm", "[sweep][shard][cli]") {
  if (!std::filesystem::exists(warpsim_binary())) {
    WARN("warpsim is not built in " << WARPSIM_BINARY_DIR << ": the CLI is not exercised");
    return;
  }
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("warpsim_slurm_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string script = sweep_test::source_path("tools/slurm/sweep.sbatch");
  const std::string env = "WARPSIM=" + warpsim_binary() + " WARPSIM_HOME=" + WARPSIM_SOURCE_DIR + " ";
  auto sh = [](const std::string& cmd) {
    int raw = std::system((cmd + " >/dev/null 2>&1").c_str());
    return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  };
  // Sweep: three tasks and the merge give the unsharded CSV.
  const std::string sweep = " " + sweep_test::source_path("kernels/vecadd/vecadd_1003.json") +
                            " --functional --vary var:n=100,200,300,400,1003";
  const std::string out = (dir / "sweep.csv").string();
  for (int task = 0; task < 3; ++task)
    REQUIRE(sh(env + "N=3 SLURM_ARRAY_TASK_ID=" + std::to_string(task) + " " + script + " sweep " + out + sweep) == 0);
  REQUIRE(sh(env + "N=3 MERGE_ONLY=1 " + script + " sweep " + out) == 0);
  REQUIRE(run("sweep" + sweep + " --csv " + (dir / "whole.csv").string()) == 0);
  CHECK(slurp(out) == slurp((dir / "whole.csv").string()));
  // Grading: the pairs NAME.cu/NAME.ptx stay together; the joined gradebook equals one run's.
  const std::string assignment = sweep_test::source_path("kernels/assignments/reduction/assignment.json");
  const std::string subs = sweep_test::source_path("kernels/assignments/reduction/submissions");
  const std::string grades = (dir / "grades.csv").string();
  for (int task = 0; task < 2; ++task)
    REQUIRE(sh(env + "N=2 SLURM_ARRAY_TASK_ID=" + std::to_string(task) + " " + script + " grade " + grades + " " +
               assignment + " " + subs) == 0);
  REQUIRE(sh(env + "N=2 MERGE_ONLY=1 " + script + " grade " + grades + " " + assignment + " " + subs) == 0);
  REQUIRE(run("grade " + assignment + " " + subs + " --gradebook " + (dir / "whole_grades.csv").string()) == 0);
  CHECK(slurp(grades) == slurp((dir / "whole_grades.csv").string()));
  CHECK(slurp(grades).find("slow,60,100,criteria_failed") != std::string::npos);
  fs::remove_all(dir);
}
