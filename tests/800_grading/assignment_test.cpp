// Assignment files: defaults, and every error naming the file and the key path.
#include <catch2/catch.hpp>

#include "grading_fixture.hpp"

using namespace warpsim::grading;
using grading_test::load_error;
using grading_test::sample_dir;
using grading_test::Scratch;
using grading_test::small_assignment;
using warpsim::Json;

TEST_CASE("assignment: defaults", "[grading][assignment]") {
  Scratch s;
  Json doc = small_assignment();
  doc.erase("mode");
  doc.erase("limits");
  Assignment a = grading_test::load(s, doc);
  CHECK(a.mode == warpsim::SimMode::Timing);
  REQUIRE(a.configs.size() == 1);
  CHECK(a.configs[0].label == "c2070");
  CHECK(a.configs[0].device.name.find("C2070") != std::string::npos);
  CHECK(a.correctness.against == Correctness::Against::Spec);
  CHECK(a.limits.max_warp_instructions == 100'000'000);
  CHECK(a.limits.max_cycles == 100'000'000);
  CHECK(a.limits.max_device_memory_bytes == (uint64_t(512) << 20));
  CHECK(a.limits.max_host_seconds == 60);
  CHECK(a.limits.max_address_space_bytes == (uint64_t(8) << 30));
  CHECK(a.wall_seconds() == 30 + 2 * 60);  // compile allowance + 2 x host seconds per run
  REQUIRE(a.specs.size() == 1);
  CHECK(a.specs[0].spec.kernel == "reduce");
  CHECK(a.max_score() == 15);
  CHECK(a.part_names() == std::vector<std::string>{"correctness", "loads"});
  CHECK(a.criteria[0].requirement() == "gld_transactions_per_request <= 1");
}

TEST_CASE("assignment: specs with vars and configs with overrides get labels", "[grading][assignment]") {
  Scratch s;
  Json doc = small_assignment();
  doc["specs"] = Json::array({sample_dir() + "/reduce_16k.json",
                              Json{{"spec", sample_dir() + "/reduce_16k.json"}, {"vars", {{"n", 4096}}}}});
  doc["configs"] = Json::array({"c2070", Json{{"config", "fx5800"}, {"set", {"sm.count=2"}}}});
  Assignment a = grading_test::load(s, doc);
  REQUIRE(a.specs.size() == 2);
  CHECK(a.specs[1].label == sample_dir() + "/reduce_16k.json[n=4096]");
  CHECK(a.specs[1].spec.vars.at("n") == 4096);
  REQUIRE(a.configs.size() == 2);
  CHECK(a.configs[1].label == "fx5800[sm.count=2]");
  CHECK(a.configs[1].device.sm.count == 2);
  CHECK(a.runs() == 4);
}

TEST_CASE("assignment: errors name the key path", "[grading][assignment]") {
  auto with = [](const std::function<void(Json&)>& edit) {
    Json doc = small_assignment();
    edit(doc);
    return load_error(doc);
  };
  using Catch::Contains;
  CHECK_THAT(with([](Json& d) { d["bogus"] = 1; }), Contains("assignment.json: bogus: unknown key"));
  // Found by fuzz_assignment (2026-11-25): a name the OS refuses as too long threw
  // filesystem_error out of the reader; now it is a missing file at its key.
  CHECK_THAT(with([](Json& d) { d["solution"] = std::string(5000, 's') + ".ptx"; }), Contains("solution"));
  CHECK_THAT(with([](Json& d) { d.erase("kernel"); }), Contains("kernel: missing required key"));
  CHECK_THAT(with([](Json& d) { d["mode"] = "fast"; }), Contains("mode: \"fast\" is not one of: timing, functional"));
  CHECK_THAT(with([](Json& d) { d["criteria"][0]["where"] = {{"lines", {1, 2}}}; }),
             Contains("criteria[0].where.lines: unknown key"));
  CHECK_THAT(with([](Json& d) { d["criteria"][0]["where"] = {{"source_lines", {5, 2}}}; }),
             Contains("criteria[0].where.source_lines: expected [FIRST, LAST]"));
  CHECK_THAT(with([](Json& d) { d["criteria"][0]["where"] = {{"ptx_text", "("}}; }),
             Contains("criteria[0].where.ptx_text: not a valid regular expression"));
  // Found by fuzz_assignment (2026-11-25, 30-minute run): a 30 KB region name overflowed the
  // stack in std::regex_match (it recurses per character). Names and patterns are bounded,
  // and region names are checked without a regex.
  CHECK_THAT(with([](Json& d) { d["criteria"][0]["where"] = {{"region", std::string(30000, 'L')}}; }),
             Contains("criteria[0].where.region: a region name is letters, digits, '_', '.', '-', at most 128"));
  CHECK_THAT(with([](Json& d) { d["criteria"][0]["where"] = {{"region", "9lives"}}; }),
             Contains("criteria[0].where.region: a region name is"));
  CHECK_THAT(with([](Json& d) { d["criteria"][0]["where"] = {{"ptx_text", std::string(30000, '(')}}; }),
             Contains("criteria[0].where.ptx_text: a pattern of 30000 characters; at most 256"));
  CHECK_THAT(with([](Json& d) { d["criteria"][0]["metric"] = "gld_speed"; }),
             Contains("criteria[0].metric: unknown metric 'gld_speed' (valid: inst_executed,"));
  CHECK_THAT(with([](Json& d) { d["criteria"][0]["metric"] = "elapsed_cycles_sm"; }),
             Contains("criteria[0].metric: 'elapsed_cycles_sm' is measured in timing mode only"));
  CHECK_THAT(with([](Json& d) { d["criteria"][0]["op"] = "=<"; }), Contains("criteria[0].op: \"=<\" is not one of"));
  CHECK_THAT(with([](Json& d) { d["criteria"][0]["where"] = {{"region", "loop"}}; d["criteria"][0]["metric"] = "l1_hit_rate"; }),
             Contains("criteria[0].where: 'l1_hit_rate' is not counted per instruction"));
  CHECK_THAT(with([](Json& d) { d["criteria"].push_back(d["criteria"][0]); }),
             Contains("criteria[1].name: 'loads' names two criteria"));
  CHECK_THAT(with([](Json& d) { d["criteria"][0]["name"] = "correctness"; }), Contains("criteria[0].name:"));
  CHECK_THAT(with([](Json& d) { d["criteria"][0]["points"] = -1; }), Contains("criteria[0].points: must not be negative"));
  CHECK_THAT(with([](Json& d) { d["criteria"][0]["better"] = "higher"; }),
             Contains("criteria[0].better: only with \"op\": \"within_factor_of_reference\""));
  CHECK_THAT(with([](Json& d) { d["criteria"][0]["configs"] = {"fx5800"}; }),
             Contains("criteria[0].configs[0]: 'fx5800' is none of the assignment's (c2070)"));
  CHECK_THAT(with([](Json& d) { d["criteria"][0]["op"] = "within_factor_of_reference"; }),
             Contains("solution: missing: a within_factor_of_reference criterion needs the reference solution"));
  CHECK_THAT(with([](Json& d) { d["limits"]["max_cycles"] = 0; }), Contains("limits.max_cycles: expected a positive"));
  CHECK_THAT(with([](Json& d) { d["limits"]["max_device_memory_bytes"] = 1000; }),
             Contains("specs[0]: its buffers take 66048 bytes, more than limits.max_device_memory_bytes (1000)"));
  CHECK_THAT(with([](Json& d) { d["limits"]["max_address_space_bytes"] = 1000; }),
             Contains("limits.max_address_space_bytes: less than 256 MiB"));
  CHECK_THAT(with([](Json& d) { d["limits"]["max_seconds"] = 1; }), Contains("limits.max_seconds: unknown key"));
  CHECK_THAT(with([](Json& d) { d["configs"] = {"c2071"}; }), Contains("configs[0]: no device config named 'c2071'"));
  CHECK_THAT(with([](Json& d) { d["configs"] = {Json{{"config", "c2070"}, {"set", {"sm.nope=1"}}}}; }),
             Contains("configs[0]: ") && Contains("sm.nope"));
  CHECK_THAT(with([](Json& d) { d["configs"] = {"c2070", "c2070"}; }), Contains("configs[1]: config 'c2070' appears twice"));
  CHECK_THAT(with([](Json& d) { d["specs"] = {"missing.json"}; }), Contains("specs[0]: no such file:"));
  CHECK_THAT(with([](Json& d) { d["specs"] = Json::array(); }), Contains("specs: expected an array of one or more"));
  CHECK_THAT(with([](Json& d) { d["specs"] = {Json{{"spec", sample_dir() + "/reduce_16k.json"}, {"vars", {{"m", 1}}}}}; }),
             Contains("specs[0]: ") && Contains("cannot override 'm'"));
  CHECK_THAT(with([](Json& d) { d["correctness"]["outputs"] = {"Out"}; }),
             Contains("correctness.outputs: only with \"against\": \"solution\""));
  CHECK_THAT(with([](Json& d) { d["correctness"]["against"] = "solution"; }),
             Contains("correctness.against: \"solution\" needs the assignment's \"solution\" module"));
  CHECK_THAT(with([](Json& d) {
               d["solution"] = sample_dir() + "/solution/reduce.cu";
               d["correctness"] = {{"points", 1}, {"against", "solution"}, {"outputs", {"Nope"}}};
             }),
             Contains("correctness.outputs[0]: 'Nope' is not a buffer of"));
  CHECK_THAT(with([](Json& d) { d["solution"] = "nowhere.cu"; }), Contains("solution: no such file"));
  CHECK_THAT(with([](Json& d) {
               d["correctness"]["points"] = 0;
               d["criteria"][0]["points"] = 0;
             }),
             Contains("correctness.points: the assignment gives no points at all"));
}

TEST_CASE("assignment: a spec without a check needs correctness against the solution", "[grading][assignment]") {
  Scratch s;
  Json spec = warpsim::load_json_file(sample_dir() + "/reduce_16k.json");
  spec.erase("check");
  spec["ptx"] = sample_dir() + "/solution/reduce.ptx";
  std::string spec_path = s.write("nocheck.json", spec.dump());
  Json doc = small_assignment();
  doc["specs"] = {spec_path};
  std::string err = load_error(doc);
  CHECK_THAT(err, Catch::Contains("specs[0]: ") && Catch::Contains("has no \"check\""));

  doc["solution"] = sample_dir() + "/solution/reduce.cu";
  doc["correctness"] = {{"points", 10}, {"against", "solution"}};
  CHECK_THAT(load_error(doc), Catch::Contains("correctness.outputs: missing"));
  doc["correctness"]["outputs"] = {"Out"};
  Assignment a = grading_test::load(s, doc);
  CHECK(a.specs[0].spec.check.outputs == std::vector<std::string>{"Out"});
  CHECK(a.specs[0].spec.check.reference.empty());
}

TEST_CASE("assignment: metric names by mode", "[grading][assignment]") {
  auto functional = metric_names(warpsim::SimMode::Functional);
  auto timing = metric_names(warpsim::SimMode::Timing);
  auto has = [](const std::vector<std::string>& v, const char* n) { return std::find(v.begin(), v.end(), n) != v.end(); };
  CHECK(has(functional, "divergent_branch"));
  CHECK(has(functional, "gld_transactions_per_request"));
  CHECK(has(functional, "shared_bank_conflicts"));
  CHECK_FALSE(has(functional, "elapsed_cycles_sm"));
  CHECK(has(timing, "elapsed_cycles_sm"));
  CHECK(has(timing, "ipc"));
  for (const auto& m : scoped_metric_names()) CHECK(has(functional, m.c_str()));
}
