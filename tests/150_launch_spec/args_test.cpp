#include <catch2/catch.hpp>

#include <cstring>

#include "spec_fixture.hpp"

using spec_test::SpecFolder;
using warpsim::Json;
using warpsim::KernelArg;
using warpsim::isa::DType;
using warpsim::isa::Param;

namespace {

Param param(const std::string& name, DType type, uint32_t size) {
  Param p;
  p.name = name;
  p.type = type;
  p.size = size;
  p.align = size;
  return p;
}

warpsim::LaunchSpec spec_with_args(const SpecFolder& f, const Json& args) {
  Json doc = spec_test::minimal_spec();
  doc["args"] = args;
  return f.load(doc);
}

const std::map<std::string, warpsim::DevPtr> kPtrs = {{"A", 0x1000}, {"B", 0x2000}, {"C", 0x3000}};

std::string error_of(const warpsim::LaunchSpec& spec, const std::vector<Param>& params) {
  try {
    warpsim::build_kernel_args(spec, kPtrs, &params);
  } catch (const warpsim::ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("args: buffers become pointers and numbers scalars", "[launch_spec][args]") {
  SpecFolder f;
  auto spec = spec_with_args(f, Json::array({"A", "B", "C", "n", 0.75}));
  std::vector<Param> params = {param("p0", DType::U64, 8), param("p1", DType::U64, 8), param("p2", DType::U64, 8),
                               param("p3", DType::S32, 4), param("p4", DType::F32, 4)};
  auto args = warpsim::build_kernel_args(spec, kPtrs, &params);
  REQUIRE(args.size() == 5);
  CHECK(args[0].kind == KernelArg::Kind::Pointer);
  CHECK(args[0].u == 0x1000);
  CHECK(args[2].u == 0x3000);
  CHECK(args[3].kind == KernelArg::Kind::Int);
  CHECK(args[3].i == 1003);
  CHECK(args[4].kind == KernelArg::Kind::Real);
  CHECK(args[4].f == 0.75);

  // Without parameters (no module) the same kinds come out, unchecked.
  auto unchecked = warpsim::build_kernel_args(spec, kPtrs, nullptr);
  CHECK(unchecked[3].kind == KernelArg::Kind::Int);
}

TEST_CASE("args: an integer for a floating-point parameter becomes a real", "[launch_spec][args]") {
  SpecFolder f;
  auto spec = spec_with_args(f, Json::array({"A", 2}));
  std::vector<Param> params = {param("pa", DType::U64, 8), param("b", DType::F32, 4)};
  auto args = warpsim::build_kernel_args(spec, kPtrs, &params);
  CHECK(args[1].kind == KernelArg::Kind::Real);
  CHECK(args[1].f == 2.0);
}

TEST_CASE("args: mismatches with the kernel's parameters are errors", "[launch_spec][args]") {
  SpecFolder f;
  auto spec = spec_with_args(f, Json::array({"A", "n", 0.5}));
  std::vector<Param> three = {param("p0", DType::U64, 8), param("p1", DType::S32, 4), param("p2", DType::F32, 4)};

  std::vector<Param> two = {three[0], three[1]};
  CHECK_THAT(error_of(spec, two), Catch::Contains("args: kernel vecAddKernel takes 2 parameters, the spec passes 3"));

  auto p = three;
  p[0] = param("p0", DType::U32, 4);
  CHECK_THAT(error_of(spec, p), Catch::Contains("args[0]: buffer 'A' is passed as a 64-bit pointer") &&
                                    Catch::Contains(".u32 p0"));

  p = three;
  p[2] = param("p2", DType::S32, 4);
  CHECK_THAT(error_of(spec, p), Catch::Contains("args[2]: 0.5 is not an integer"));

  p = three;
  p[1] = param("p1", DType::U8, 1);
  CHECK_THAT(error_of(spec, p), Catch::Contains("args[1]: 1003 does not fit parameter 1 (.u8 p1)"));

  auto neg = spec_with_args(f, Json::array({"A", "-n", 0.5}));
  p = three;
  p[1] = param("p1", DType::U32, 4);
  CHECK_THAT(error_of(neg, p), Catch::Contains("-1003 does not fit"));
  p[1] = param("p1", DType::S32, 4);
  CHECK(error_of(neg, p) == "(no error)");
}

TEST_CASE("args: structs pack with natural alignment", "[launch_spec][args]") {
  SpecFolder f;
  // The lecture's SoA {int* keys; int* value; int* flag;}: 24 bytes of pointers.
  auto soa = spec_with_args(f, Json::array({Json{{"struct", Json::array({"A", "B", "C"})}}}));
  std::vector<Param> params = {param("soa", DType::B8, 24)};
  auto args = warpsim::build_kernel_args(soa, kPtrs, &params);
  REQUIRE(args[0].kind == KernelArg::Kind::Bytes);
  REQUIRE(args[0].bytes.size() == 24);
  uint64_t ptrs[3];
  std::memcpy(ptrs, args[0].bytes.data(), 24);
  CHECK(ptrs[0] == 0x1000);
  CHECK(ptrs[1] == 0x2000);
  CHECK(ptrs[2] == 0x3000);

  // {int n; float* p;} -> n at 0, pointer at 8, 16 bytes.
  auto mixed = spec_with_args(f, Json::array({Json{{"struct", Json::array({Json{{"s32", -5}}, "B"})}}}));
  params = {param("s", DType::B8, 16)};
  args = warpsim::build_kernel_args(mixed, kPtrs, &params);
  REQUIRE(args[0].bytes.size() == 16);
  int32_t n;
  uint64_t p;
  std::memcpy(&n, args[0].bytes.data(), 4);
  std::memcpy(&p, args[0].bytes.data() + 8, 8);
  CHECK(n == -5);
  CHECK(p == 0x2000);

  params = {param("s", DType::B8, 24)};
  CHECK_THAT(error_of(mixed, params), Catch::Contains("the struct packs to 16 bytes, but parameter 0 (.b8[24] s) is 24 bytes"));
  params = {param("s", DType::U64, 8)};
  CHECK_THAT(error_of(mixed, params), Catch::Contains("is not a struct"));
  auto integer = spec_with_args(f, Json::array({7}));
  params = {param("s", DType::B8, 24)};
  CHECK_THAT(error_of(integer, params), Catch::Contains("args[0]: parameter 0 (.b8[24] s) is a struct"));
}
