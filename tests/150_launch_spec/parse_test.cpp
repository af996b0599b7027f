#include <catch2/catch.hpp>

#include "spec_fixture.hpp"

using spec_test::minimal_spec;
using spec_test::SpecFolder;
using warpsim::ArgSpec;
using warpsim::BufferInit;
using warpsim::ElemType;
using warpsim::Json;

TEST_CASE("a valid spec loads with expressions evaluated and paths resolved", "[launch_spec]") {
  SpecFolder f;
  auto spec = f.load(minimal_spec());
  CHECK(spec.path == f.path("spec.json"));
  CHECK(spec.description == "test");
  CHECK(spec.module_path == f.path("k.ptx"));
  CHECK_FALSE(spec.module_is_cu);
  CHECK(spec.kernel == "vecAddKernel");
  CHECK(spec.vars.at("n") == 1003);
  CHECK(spec.grid == warpsim::Dim3{16, 1, 1});   // Kirk: 1003 elements, 64-thread blocks
  CHECK(spec.block == warpsim::Dim3{64, 1, 1});
  CHECK(spec.shared_bytes == 0);
  CHECK(spec.registers == 0);
  REQUIRE(spec.buffers.size() == 3);
  CHECK(spec.buffers[0].name == "A");
  CHECK(spec.buffers[0].type == ElemType::F32);
  CHECK(spec.buffers[0].count == 1003);
  CHECK(spec.buffers[0].init.kind == BufferInit::Kind::Random);
  CHECK(spec.buffers[1].init.kind == BufferInit::Kind::Iota);
  CHECK(spec.buffers[2].init.kind == BufferInit::Kind::Zero);
  REQUIRE(spec.args.size() == 4);
  CHECK(spec.args[0].kind == ArgSpec::Kind::Buffer);
  CHECK(spec.args[0].buffer == "A");
  CHECK(spec.args[3].kind == ArgSpec::Kind::Int);
  CHECK(spec.args[3].integer == 1003);
  CHECK(spec.check.present);
  CHECK(spec.check.reference == "vecadd");
  CHECK(spec.check.outputs == std::vector<std::string>{"C"});
  CHECK(spec.check.tolerance == Approx(1e-6));
}

TEST_CASE("variable overrides change every expression that uses them", "[launch_spec]") {
  SpecFolder f;
  auto spec = f.load(minimal_spec(), {{"n", 100}, {"bs", 32}});
  CHECK(spec.vars.at("n") == 100);
  CHECK(spec.grid.x == 4);
  CHECK(spec.block.x == 32);
  CHECK(spec.buffers[0].count == 100);
  CHECK(spec.args[3].integer == 100);
  CHECK_THAT(f.error(minimal_spec(), {{"size", 5}}),
             Catch::Contains("vars: cannot override 'size'") && Catch::Contains("variables: bs, n"));
}

TEST_CASE("grid, block, shared_bytes and registers accept numbers and expressions", "[launch_spec]") {
  SpecFolder f;
  Json doc = minimal_spec();
  doc["grid"] = Json::array({"n/100", 3, "2*2"});
  doc["block"] = 8;
  doc["shared_bytes"] = "bs*4";
  doc["registers"] = 12;
  auto spec = f.load(doc);
  CHECK(spec.grid == warpsim::Dim3{10, 3, 4});
  CHECK(spec.block == warpsim::Dim3{8, 1, 1});
  CHECK(spec.shared_bytes == 256);
  CHECK(spec.registers == 12);
}

TEST_CASE("unknown keys are errors naming their key path", "[launch_spec]") {
  SpecFolder f;
  Json doc = minimal_spec();
  doc["gird"] = Json::array({1});
  CHECK_THAT(f.error(doc), Catch::Contains("spec.json: gird:") && Catch::Contains("unknown key"));

  doc = minimal_spec();
  doc["buffers"]["A"]["size"] = 4;
  CHECK_THAT(f.error(doc), Catch::Contains("buffers.A.size") && Catch::Contains("unknown key"));

  doc = minimal_spec();
  doc["buffers"]["A"]["init"]["random"]["mean"] = 0;
  CHECK_THAT(f.error(doc), Catch::Contains("buffers.A.init.random.mean"));

  doc = minimal_spec();
  doc["check"]["tolerence"] = 1e-3;
  CHECK_THAT(f.error(doc), Catch::Contains("check.tolerence"));

  doc = minimal_spec();
  doc["buffers"]["C"]["init"] = {{"iota", {{"start", 1}, {"stride", 2}}}};
  CHECK_THAT(f.error(doc), Catch::Contains("buffers.C.init.iota.stride"));
}

TEST_CASE("missing and malformed values are errors naming their key path", "[launch_spec]") {
  SpecFolder f;
  Json doc = minimal_spec();
  doc.erase("kernel");
  CHECK_THAT(f.error(doc), Catch::Contains("kernel: missing required key"));

  doc = minimal_spec();
  doc["ptx"] = "missing.ptx";
  CHECK_THAT(f.error(doc), Catch::Contains("ptx: no such file"));

  doc = minimal_spec();
  doc["cu"] = "k.cu";
  CHECK_THAT(f.error(doc), Catch::Contains("exactly one of \"ptx\" and \"cu\""));

  doc = minimal_spec();
  doc["grid"] = Json::array({"n/0"});
  CHECK_THAT(f.error(doc), Catch::Contains("spec.json: grid[0]: division by zero"));

  doc = minimal_spec();
  doc["block"] = Json::array({"bs", "nope"});
  CHECK_THAT(f.error(doc), Catch::Contains("block[1]: unknown variable 'nope'"));

  doc = minimal_spec();
  doc["grid"] = Json::array({1, 1, 1, 1});
  CHECK_THAT(f.error(doc), Catch::Contains("grid: expected 1 to 3 dimensions"));

  doc = minimal_spec();
  doc["grid"] = Json::array({"n - 1003"});
  CHECK_THAT(f.error(doc), Catch::Contains("grid[0]: 0 is out of range"));

  doc = minimal_spec();
  doc["buffers"]["A"]["type"] = "float";
  CHECK_THAT(f.error(doc), Catch::Contains("buffers.A.type: unknown type 'float'") && Catch::Contains("f32"));

  doc = minimal_spec();
  doc["buffers"]["A"]["count"] = "n - 2000";
  CHECK_THAT(f.error(doc), Catch::Contains("buffers.A.count"));

  doc = minimal_spec();
  doc["buffers"]["A"]["count"] = "(n";
  CHECK_THAT(f.error(doc), Catch::Contains("buffers.A.count: expected ')'"));

  doc = minimal_spec();
  doc["vars"]["w"] = 1.5;
  CHECK_THAT(f.error(doc), Catch::Contains("vars.w: expected an integer"));

  doc = minimal_spec();
  doc["buffers"]["n"] = {{"type", "s32"}, {"count", 1}};
  CHECK_THAT(f.error(doc), Catch::Contains("buffers.n: 'n' is also a variable"));
}

TEST_CASE("init values must suit the buffer type", "[launch_spec]") {
  SpecFolder f;
  Json doc = minimal_spec();
  doc["buffers"]["D"] = {{"type", "u8"}, {"count", 4}, {"init", {{"value", 256}}}};
  CHECK_THAT(f.error(doc), Catch::Contains("buffers.D.init.value: 256 is out of range for u8 (0 to 255)"));

  doc["buffers"]["D"] = {{"type", "s32"}, {"count", 4}, {"init", {{"value", 0.5}}}};
  CHECK_THAT(f.error(doc), Catch::Contains("buffers.D.init.value: 0.5 is not an integer"));

  doc["buffers"]["D"] = {{"type", "s32"}, {"count", 4}, {"init", {{"random", {{"seed", 1}, {"min", 5}, {"max", 4}}}}}};
  CHECK_THAT(f.error(doc), Catch::Contains("buffers.D.init.random.max: max is less than min"));

  doc["buffers"]["D"] = {{"type", "s32"}, {"count", 4}, {"init", {{"random", {{"seed", 1}, {"min", 0}, {"max", 4}, {"integers", false}}}}}};
  CHECK_THAT(f.error(doc), Catch::Contains("buffers.D.init.random.integers"));

  doc["buffers"]["D"] = {{"type", "f32"}, {"count", 4}, {"init", {{"offsets", {{"seed", 1}, {"min", 0}, {"max", 4}}}}}};
  CHECK_THAT(f.error(doc), Catch::Contains("offsets need an integer buffer type"));

  doc["buffers"]["D"] = {{"type", "s32"}, {"count", 4}, {"init", "ones"}};
  CHECK_THAT(f.error(doc), Catch::Contains("buffers.D.init: unknown init 'ones'"));

  doc["buffers"]["D"] = {{"type", "s32"}, {"count", 4}, {"init", {{"value", 1}, {"iota", Json::object()}}}};
  CHECK_THAT(f.error(doc), Catch::Contains("buffers.D.init: expected"));

  f.write_raw<int32_t>("three.bin", {1, 2, 3});
  doc["buffers"]["D"] = {{"type", "s32"}, {"count", 4}, {"init", {{"file", "three.bin"}}}};
  CHECK_THAT(f.error(doc), Catch::Contains("buffers.D.init.file") && Catch::Contains("has 12 bytes, the buffer needs 16"));
}

TEST_CASE("arguments: buffers, integer expressions, reals and structs", "[launch_spec]") {
  SpecFolder f;
  Json doc = minimal_spec();
  doc["args"] = Json::array({"A", "n*2", 7, 0.5, Json{{"struct", Json::array({"A", "B", Json{{"s32", "bs"}}})}}});
  auto spec = f.load(doc);
  REQUIRE(spec.args.size() == 5);
  CHECK(spec.args[0].kind == ArgSpec::Kind::Buffer);
  CHECK(spec.args[1].kind == ArgSpec::Kind::Int);
  CHECK(spec.args[1].integer == 2006);
  CHECK(spec.args[2].integer == 7);
  CHECK(spec.args[3].kind == ArgSpec::Kind::Real);
  CHECK(spec.args[3].real == 0.5);
  REQUIRE(spec.args[4].kind == ArgSpec::Kind::Struct);
  REQUIRE(spec.args[4].fields.size() == 3);
  CHECK(spec.args[4].fields[1].buffer == "B");
  CHECK(spec.args[4].fields[2].type == ElemType::S32);
  CHECK(spec.args[4].fields[2].value.integer == 64);

  doc["args"] = Json::array({"A", "Bee"});
  CHECK_THAT(f.error(doc), Catch::Contains("args[1]: unknown variable 'Bee'") && Catch::Contains("buffers: A, B, C"));
  doc["args"] = Json::array({Json{{"struct", Json::array({"Q"})}}});
  CHECK_THAT(f.error(doc), Catch::Contains("args[0].struct[0]: 'Q' is not a buffer"));
  doc["args"] = Json::array({Json::array({1})});
  CHECK_THAT(f.error(doc), Catch::Contains("args[0]: expected a buffer name"));
}

TEST_CASE("check: reference names are validated against the registry", "[launch_spec]") {
  SpecFolder f;
  Json doc = minimal_spec();
  doc["check"]["reference"] = "vec_add";
  std::string e = f.error(doc);
  CHECK_THAT(e, Catch::Contains("check.reference: unknown reference 'vec_add'"));
  CHECK_THAT(e, Catch::Contains("valid:") && Catch::Contains("vecadd") && Catch::Contains("matmul"));

  doc = minimal_spec();
  doc["check"]["outputs"] = Json::array({"D"});
  CHECK_THAT(f.error(doc), Catch::Contains("check.outputs[0]: \"D\" is not a buffer"));

  doc = minimal_spec();
  doc["check"] = {{"tolerance", 0}};
  CHECK_THAT(f.error(doc), Catch::Contains("check: give exactly one of \"reference\" and \"expected\""));

  doc = minimal_spec();
  f.write_raw<float>("c.bin", std::vector<float>(1003, 1.0f));
  doc["check"] = {{"expected", {{"C", "c.bin"}}}};
  auto spec = f.load(doc);
  CHECK(spec.check.reference.empty());
  CHECK(spec.check.outputs == std::vector<std::string>{"C"});
  CHECK(spec.check.expected_files.at("C") == f.path("c.bin"));
}

TEST_CASE("the checked-in specs all load", "[launch_spec]") {
  namespace fs = std::filesystem;
  int count = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(WARPSIM_SOURCE_DIR) / "kernels")) {
    if (entry.path().extension() != ".json") continue;
    // Grading assignments (kernels/assignments) have their own format and tests.
    if (entry.path().string().find("/kernels/assignments/") != std::string::npos) continue;
    INFO(entry.path().string());
    auto spec = warpsim::load_launch_spec(entry.path().string());
    CHECK(spec.check.present);
    CHECK(spec.registers > 0);
    ++count;
  }
  CHECK(count >= 13);
}
