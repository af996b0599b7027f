// Running sweeps: validation before anything runs, CSV identical for any number of jobs,
// failing points recorded in the status column while the sweep goes on.
#include <nlohmann/json.hpp>

#include "sim/foundation/config_reader.hpp"
#include "sweep_fixture.hpp"

using namespace warpsim;
using sweep_test::functional_settings;
using sweep_test::sweep_csv;

TEST_CASE("the CSV is the same whatever the number of jobs", "[sweep][run]") {
  auto s = functional_settings({"var:n=100,1003,2000", "var:block_size=32,64", "sm.count=2,14"});
  std::string one = sweep_csv(s, 1);
  std::string two = sweep_csv(s, 2);
  std::string four = sweep_csv(s, 4);
  CHECK(one == two);
  CHECK(one == four);
  csv::Table t = csv::parse(one, "sweep");
  REQUIRE(t.rows.size() == 12);
  CHECK(t.header.front() == "var:n");
  CHECK(t.header.back() == "status");
  for (const auto& row : t.rows) CHECK(row.back() == "ok");
  // n = 1003 with 64-thread blocks: 32 warps; the vecadd kernel executes 22 warp instructions per
  // full warp (704 = 32 x 22, as `warpsim run kernels/vecadd/vecadd_1003.json` reports).
  CHECK(t.rows[6][0] == "1003");
  CHECK(t.rows[6][1] == "64");
  CHECK(t.rows[6][3] == "704");
}

TEST_CASE("rows arrive in point order while points finish in any order", "[sweep][run]") {
  auto s = functional_settings({"var:n=3000,10,2000,20"});
  auto points = sweep::cartesian(s.axes);
  std::vector<size_t> ordered, done;
  auto results = sweep::run(
      s, points, 2, [&](const sweep::Progress& p) {
        done.push_back(p.point->index);
        CHECK(p.done == done.size());
        CHECK(p.total == 4);
      },
      [&](const sweep::Point& p, const sweep::PointResult&) { ordered.push_back(p.index); });
  CHECK(ordered == std::vector<size_t>{0, 1, 2, 3});
  std::sort(done.begin(), done.end());
  CHECK(done == std::vector<size_t>{0, 1, 2, 3});
  REQUIRE(results.size() == 4);
  for (const auto& r : results) CHECK(r.ok);
}

TEST_CASE("an invalid config value fails its point only, naming the key", "[sweep][run]") {
  auto s = functional_settings({"sm.count=14,0,2"});
  auto points = sweep::cartesian(s.axes);
  auto results = sweep::run(s, points, 2);
  REQUIRE(results.size() == 3);
  CHECK(results[0].ok);
  CHECK(results[2].ok);
  CHECK_FALSE(results[1].ok);
  CHECK_THAT(results[1].status, Catch::Contains("c2070.json: sm.count: "));
  auto row = sweep::csv_row(s, points[1], results[1]);
  CHECK(row.front() == "0");
  CHECK(row.back() == results[1].status);
  for (size_t k = 1; k + 1 < row.size(); ++k) CHECK(row[k].empty());
}

TEST_CASE("a wrong result is recorded with its metrics", "[sweep][run]") {
  // vecadd checked against an expected file of zeros: C = A + B differs from it.
  sweep_test::TempFile zeros("zeros.bin", std::string(1003 * 4, '\0'));
  Json doc = load_json_file(sweep_test::source_path("kernels/vecadd/vecadd_1003.json"));
  doc["ptx"] = sweep_test::source_path("kernels/vecadd/vecadd.ptx");
  doc["check"] = {{"expected", {{"C", zeros.str()}}}, {"tolerance", 0}};
  sweep_test::TempFile spec("wrong_vecadd.json", doc.dump());
  auto s = functional_settings({"var:block_size=64,128"});
  s.spec_path = spec.str();
  auto points = sweep::cartesian(s.axes);
  auto results = sweep::run(s, points, 1);
  for (const auto& r : results) {
    CHECK_FALSE(r.ok);
    CHECK_THAT(r.status, Catch::StartsWith("wrong result: "));
    CHECK(r.status.find('\n') == std::string::npos);
    REQUIRE(r.values[0].has_value());  // inst_executed
    CHECK(*r.values[0] == 704);
  }
}

TEST_CASE("validation: unknown keys and variables are errors before anything runs", "[sweep][run]") {
  auto s = functional_settings({"dram.bankz=4,8"});
  CHECK_THROWS_WITH(sweep::validate(s), Catch::Contains("--vary dram.bankz: ") && Catch::Contains("has no key dram.bankz"));
  s = functional_settings({"dram.timing.tXYZ=4"});
  CHECK_THROWS_WITH(sweep::validate(s), Catch::Contains("has no key dram.timing.tXYZ"));
  s = functional_settings({"dram.timing=4"});
  CHECK_THROWS_WITH(sweep::validate(s), Catch::Contains("dram.timing is an object in"));
  s = functional_settings({"sm.max_block_dim=4"});
  CHECK_THROWS_WITH(sweep::validate(s), Catch::Contains("sm.max_block_dim is an array in"));
  s = functional_settings({"var:width=4"});
  CHECK_THROWS_WITH(sweep::validate(s), Catch::Contains("defines no variable 'width' (variables: block_size, n)"));
  s = functional_settings({"var:n=4", "dram.banks=4"});
  s.metrics = {"ipc"};
  CHECK_THROWS_WITH(sweep::validate(s), "--metrics: ipc needs timing mode (drop --functional)");
  s = functional_settings({"var:n=4", "dram.banks=4"});
  CHECK_NOTHROW(sweep::validate(s));
  // --set is applied first, so a key it reaches is checked in the overridden document.
  s.sets = {"dram.banks=8"};
  CHECK_NOTHROW(sweep::validate(s));
}

TEST_CASE("a linked key makes a DRAM bank sweep valid at every point", "[sweep][run]") {
  // The C2070's address map has 4 bank bits: each bank count needs its own layout.
  const std::string head = "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.";
  auto s = functional_settings({"dram.banks=4,16", "dram.address_map.bits@dram.banks=" + head + "RRBCCCCB.CCSSSSSS," +
                                                       head + "BBBCCCCB.CCSSSSSS"});
  CHECK_NOTHROW(sweep::validate(s));
  auto results = sweep::run(s, sweep::cartesian(s.axes), 1);
  for (const auto& r : results) CHECK(r.status == "ok");
  // Without the link the layout does not match 4 banks.
  auto bad = functional_settings({"dram.banks=4"});
  auto r = sweep::run(bad, sweep::cartesian(bad.axes), 1);
  CHECK_THAT(r[0].status, Catch::EndsWith("dram.address_map.bits: has 4 bank (B) bits, but banks = 4 needs 2"));
}
