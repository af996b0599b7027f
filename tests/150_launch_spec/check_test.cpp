#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "sim/engine/device.hpp"
#include "sim/spec/device_spec.hpp"
#include "spec_fixture.hpp"

using spec_test::SpecFolder;
using warpsim::ElemType;
using warpsim::HostBuffer;
using warpsim::Json;

namespace {

warpsim::LaunchSpec spec_with_outputs(const SpecFolder& f, double tolerance) {
  Json doc = spec_test::minimal_spec();
  doc["buffers"]["I"] = {{"type", "s32"}, {"count", 4}};
  doc["check"] = {{"reference", "vecadd"}, {"outputs", Json::array({"C", "I"})}, {"tolerance", tolerance}};
  doc["vars"]["n"] = 4;
  return f.load(doc);
}

HostBuffer floats(std::vector<float> v) {
  HostBuffer b(ElemType::F32, v.size());
  std::memcpy(b.bytes.data(), v.data(), v.size() * 4);
  return b;
}

HostBuffer ints(std::vector<int32_t> v) {
  HostBuffer b(ElemType::S32, v.size());
  std::memcpy(b.bytes.data(), v.data(), v.size() * 4);
  return b;
}

warpsim::Device make_device() { return warpsim::Device(warpsim::load_device_spec(WARPSIM_SOURCE_DIR "/configs/c2070.json")); }

}  // namespace

TEST_CASE("compare_outputs: equal images pass", "[launch_spec][check]") {
  SpecFolder f;
  auto spec = spec_with_outputs(f, 0);
  std::map<std::string, HostBuffer> got = {{"C", floats({1, 2, 3, 4})}, {"I", ints({5, 6, 7, 8})}};
  auto r = warpsim::compare_outputs(spec, got, got);
  CHECK(r.checked);
  CHECK(r.passed);
  CHECK(r.compared == 8);
  CHECK(r.mismatches == 0);
  CHECK(r.first.empty());
  CHECK_THAT(r.message, Catch::StartsWith("passed"));
}

TEST_CASE("compare_outputs: mismatches report buffer, index, got and want", "[launch_spec][check]") {
  SpecFolder f;
  auto spec = spec_with_outputs(f, 0);
  std::map<std::string, HostBuffer> want = {{"C", floats({1, 2, 3, 4})}, {"I", ints({5, 6, 7, 8})}};
  std::map<std::string, HostBuffer> got = {{"C", floats({1, 2.5f, 3, 4})}, {"I", ints({5, 6, 7, -8})}};
  auto r = warpsim::compare_outputs(spec, got, want);
  CHECK_FALSE(r.passed);
  CHECK(r.mismatches == 2);
  REQUIRE(r.first.size() == 2);
  CHECK(r.first[0].buffer == "C");
  CHECK(r.first[0].index == 1);
  CHECK(r.first[0].got == "2.5");
  CHECK(r.first[0].want == "2");
  CHECK(r.first[1].buffer == "I");
  CHECK(r.first[1].index == 3);
  CHECK(r.first[1].got == "-8");
  CHECK(r.first[1].want == "8");
  CHECK_THAT(r.message, Catch::StartsWith("FAILED") && Catch::Contains("C: 1 of 4 elements differ") &&
                            Catch::Contains("C[1]: got 2.5, want 2") && Catch::Contains("I[3]: got -8, want 8"));
}

TEST_CASE("compare_outputs: floats within tolerance * max(1, |want|), integers exact", "[launch_spec][check]") {
  SpecFolder f;
  auto spec = spec_with_outputs(f, 1e-3);
  std::map<std::string, HostBuffer> want = {{"C", floats({0.0f, 1000.0f, 0.5f, 2.0f})}, {"I", ints({1, 2, 3, 4})}};
  // 0 vs 0.0009: absolute 1e-3 (|want| < 1); 1000 vs 1000.9: relative 1e-3; 0.5 vs 0.5011 fails.
  std::map<std::string, HostBuffer> got = {{"C", floats({0.0009f, 1000.9f, 0.5011f, 2.0f})}, {"I", ints({1, 2, 3, 5})}};
  auto r = warpsim::compare_outputs(spec, got, want);
  CHECK(r.mismatches == 2);
  REQUIRE(r.first.size() == 2);
  CHECK(r.first[0].index == 2);
  CHECK(r.first[1].buffer == "I");  // an integer off by one fails whatever the tolerance
  CHECK_THAT(r.message, Catch::Contains("tolerance 0.001"));

  // NaN matches only NaN.
  want["C"] = floats({NAN, 1, 1, 1});
  got["C"] = floats({NAN, NAN, 1, 1});
  got["I"] = want["I"];
  r = warpsim::compare_outputs(spec, got, want);
  CHECK(r.mismatches == 1);
  CHECK(r.first[0].index == 1);
}

TEST_CASE("compare_outputs: at most ten mismatches are listed, all are counted", "[launch_spec][check]") {
  SpecFolder f;
  Json doc = spec_test::minimal_spec();
  auto spec = f.load(doc);
  std::map<std::string, HostBuffer> want = {{"C", HostBuffer(ElemType::F32, 1003)}};
  HostBuffer bad(ElemType::F32, 1003);
  for (uint64_t i = 0; i < 1003; i += 2) bad.set_real(i, 1.0);
  std::map<std::string, HostBuffer> got = {{"C", bad}};
  auto r = warpsim::compare_outputs(spec, got, want);
  CHECK(r.mismatches == 502);
  CHECK(r.first.size() == 10);
  CHECK(r.first[9].index == 18);
  CHECK_THAT(r.message, Catch::Contains("... and 492 more"));
}

TEST_CASE("check_outputs: runs the reference on the initial contents and reads the device", "[launch_spec][check][device]") {
  SpecFolder f;
  auto device = make_device();
  auto spec = f.load(spec_test::minimal_spec(), {{"n", 100}});
  auto prepared = warpsim::prepare(device, spec, nullptr);
  REQUIRE(prepared.buffers.size() == 3);
  REQUIRE(prepared.args.size() == 4);
  CHECK(prepared.args[0].u == prepared.buffer("A").ptr);
  CHECK(prepared.options().registers_per_thread == 0);

  // The buffers hold their initial contents on the device.
  std::vector<float> b(100);
  device.copy_from_device(b.data(), prepared.buffer("B").ptr, 400);
  CHECK(b[99] == 99.0f);

  // Nothing ran: C is still zero, so the check fails at every element but where A+B == 0.
  auto before = warpsim::check_outputs(device, prepared);
  CHECK(before.checked);
  CHECK_FALSE(before.passed);

  // Do the kernel's work by hand, with one wrong element.
  const auto& A = prepared.buffer("A").initial;
  const auto& B = prepared.buffer("B").initial;
  std::vector<float> c(100);
  for (int i = 0; i < 100; ++i) c[i] = A.as<float>()[i] + B.as<float>()[i];
  c[42] += 1;
  device.copy_to_device(prepared.buffer("C").ptr, c.data(), 400);
  auto after = warpsim::check_outputs(device, prepared);
  CHECK(after.mismatches == 1);
  REQUIRE(after.first.size() == 1);
  CHECK(after.first[0].index == 42);
  c[42] -= 1;
  device.copy_to_device(prepared.buffer("C").ptr, c.data(), 400);
  CHECK(warpsim::check_outputs(device, prepared).passed);
}

TEST_CASE("check_outputs: expected files", "[launch_spec][check][device]") {
  SpecFolder f;
  auto device = make_device();
  f.write_raw<int32_t>("want.bin", {3, 1, 4, 1});
  Json doc = spec_test::minimal_spec();
  doc["buffers"]["I"] = {{"type", "s32"}, {"count", 4}, {"init", {{"file", "want.bin"}}}};
  doc["check"] = {{"expected", {{"I", "want.bin"}}}};
  auto prepared = warpsim::prepare(device, f.load(doc), nullptr);
  CHECK(warpsim::check_outputs(device, prepared).passed);
  int32_t five = 5;
  device.copy_to_device(prepared.buffer("I").ptr + 8, &five, 4);
  auto r = warpsim::check_outputs(device, prepared);
  CHECK(r.mismatches == 1);
  CHECK(r.first[0].index == 2);
  CHECK(r.first[0].got == "5");
  CHECK(r.first[0].want == "4");
}

TEST_CASE("prepare: the spec's register count goes into the launch options", "[launch_spec][device]") {
  SpecFolder f;
  auto device = make_device();
  Json doc = spec_test::minimal_spec();
  doc["registers"] = 12;
  auto prepared = warpsim::prepare(device, f.load(doc), nullptr);
  CHECK(prepared.options().registers_per_thread == 12);
  warpsim::LaunchOptions mine;
  mine.registers_per_thread = 20;
  CHECK(prepared.options(mine).registers_per_thread == 20);
  CHECK_THROWS_AS(warpsim::launch(device, prepared), warpsim::ConfigError);  // no kernel loaded
}

TEST_CASE("prepare: a moved PreparedLaunch keeps its buffers, and frees them once", "[launch_spec][device]") {
  SpecFolder f;
  auto device = make_device();
  uint64_t before = device.bytes_allocated();
  {
    auto a = warpsim::prepare(device, f.load(spec_test::minimal_spec()), nullptr);
    CHECK(device.bytes_allocated() >= before + 3 * 1003 * 4);
    warpsim::PreparedLaunch b(std::move(a));
    CHECK(b.buffers.size() == 3);
  }
  CHECK(device.bytes_allocated() == before);
}

TEST_CASE("the loader's nvcc flags are the ones tools/regen_ptx.sh uses", "[launch_spec]") {
  std::ifstream in(WARPSIM_SOURCE_DIR "/tools/regen_ptx.sh");
  std::string line, flags_line;
  while (std::getline(in, line))
    if (line.rfind("NVCC_PTX_FLAGS=(", 0) == 0) flags_line = line;
  REQUIRE_FALSE(flags_line.empty());
  std::string inner = flags_line.substr(flags_line.find('(') + 1);
  inner = inner.substr(0, inner.find(')'));
  std::istringstream ss(inner);
  std::vector<std::string> script_flags;
  for (std::string flag; ss >> flag;) script_flags.push_back(flag);
  CHECK(script_flags == warpsim::nvcc_ptx_flags());
}

TEST_CASE("nvcc is searched in $NVCC, PATH and the fallback folders", "[launch_spec]") {
  SpecFolder f;
  std::string fake = f.write("nvcc", "#!/bin/sh\n");
  std::filesystem::permissions(fake, std::filesystem::perms::owner_all);
  std::string dir = std::filesystem::path(fake).parent_path().string();
  CHECK(warpsim::find_nvcc_in(nullptr, "/nonexistent:/also/not", {}) == "");
  CHECK(warpsim::find_nvcc_in(nullptr, ("/nonexistent:" + dir).c_str(), {}) == fake);
  CHECK(warpsim::find_nvcc_in(fake.c_str(), "/nonexistent", {}) == fake);
  CHECK(warpsim::find_nvcc_in("/nonexistent/nvcc", nullptr, {"/nonexistent", dir}) == fake);
  f.write("k.cu", "__global__ void k() {}\n");
  Json doc = spec_test::minimal_spec();
  doc.erase("ptx");
  doc["cu"] = "k.cu";
  auto spec = f.load(doc);
  CHECK(spec.module_is_cu);
  std::string msg = warpsim::nvcc_missing_message(spec);
  CHECK_THAT(msg, Catch::Contains("spec.json: cu: compiling") && Catch::Contains("k.cu needs nvcc") &&
                      Catch::Contains("$NVCC, PATH, /usr/local/cuda/bin"));
}
