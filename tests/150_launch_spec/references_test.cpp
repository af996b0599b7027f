// CPU references on small, hand-computed cases (the kernel tests check them against the
// engine; these check them against arithmetic done by hand).
#include <catch2/catch.hpp>

#include "kernels/references/reference.hpp"
#include "spec_fixture.hpp"

using spec_test::SpecFolder;
using warpsim::HostBuffer;
using warpsim::Json;

namespace {

struct RefCase {
  warpsim::LaunchSpec spec;
  std::map<std::string, HostBuffer> memory;
};

// A spec whose buffers and args are given; memory starts from the buffers' init.
RefCase make_case(const SpecFolder& f, const Json& buffers, const Json& args, const Json& grid, const Json& block,
                  const std::string& reference) {
  Json doc = spec_test::minimal_spec();
  doc["vars"] = Json::object();
  doc["buffers"] = buffers;
  doc["args"] = args;
  doc["grid"] = grid;
  doc["block"] = block;
  doc["check"] = {{"reference", reference}, {"outputs", Json::array({buffers.begin().key()})}};
  RefCase c{f.load(doc), {}};
  for (const auto& b : c.spec.buffers) c.memory.emplace(b.name, warpsim::initial_contents(c.spec, b));
  warpsim::ref::ReferenceContext ctx(c.spec, c.memory);
  warpsim::ref::run_reference(reference, ctx);
  return c;
}

template <class T>
std::vector<T> values(const RefCase& c, const std::string& name) {
  auto s = c.memory.at(name).as<T>();
  return {s.begin(), s.end()};
}

}  // namespace

TEST_CASE("reference block_sums and block_sums_2x on iota data", "[references]") {
  SpecFolder f;
  Json bufs = {{"Out", {{"type", "s32"}, {"count", 3}}}, {"In", {{"type", "s32"}, {"count", 24}, {"init", "iota"}}}};
  // sections of 8: 0..7, 8..15, 16..23
  auto c = make_case(f, bufs, Json::array({"In", "Out"}), 3, 8, "block_sums");
  CHECK(values<int32_t>(c, "Out") == std::vector<int32_t>{28, 92, 156});
  // sections of 2*4 with 3 blocks of 4 threads: the same sums
  auto d = make_case(f, bufs, Json::array({"In", "Out"}), 3, 4, "block_sums_2x");
  CHECK(values<int32_t>(d, "Out") == std::vector<int32_t>{28, 92, 156});
}

TEST_CASE("reference grid_stride_sums: chunks b, b + gridDim.x, ...", "[references]") {
  SpecFolder f;
  Json bufs = {{"Out", {{"type", "s32"}, {"count", 2}}}, {"In", {{"type", "s32"}, {"count", 12}, {"init", "iota"}}}};
  // blockDim 2 -> chunks of 4: [0..3] [4..7] [8..11]; 2 blocks: block 0 gets chunks 0 and 2.
  auto c = make_case(f, bufs, Json::array({"In", "Out", 12}), 2, 2, "grid_stride_sums");
  CHECK(values<int32_t>(c, "Out") == std::vector<int32_t>{6 + 38, 22});
}

TEST_CASE("reference ex5_12_as_compiled: p0+p16+p8+p4+p2+p1, not the sum", "[references]") {
  SpecFolder f;
  Json bufs = {{"Y", {{"type", "f32"}, {"count", 1}}}, {"X", {{"type", "f32"}, {"count", 64}, {"init", "iota"}}}};
  // 64 elements 0..63: p[j] = j + (j + 32); p0+p16+p8+p4+p2+p1 = 32+64+48+40+36+34 = 254 (the sum is 2016).
  auto c = make_case(f, bufs, Json::array({"X", "Y", 64}), 1, 64, "ex5_12_as_compiled");
  CHECK(values<float>(c, "Y") == std::vector<float>{254.0f});
}

TEST_CASE("reference greyscale truncates 0.21 r + 0.71 g + 0.07 b", "[references]") {
  SpecFolder f;
  f.write_raw<uint8_t>("rgb.bin", {255, 255, 255, 100, 0, 0, 0, 100, 0, 0, 0, 100});
  Json bufs = {{"Pout", {{"type", "u8"}, {"count", 4}}},
               {"Pin", {{"type", "u8"}, {"count", 12}, {"init", {{"file", "rgb.bin"}}}}}};
  auto c = make_case(f, bufs, Json::array({"Pout", "Pin", 2, 2}), Json::array({1, 1}), Json::array({16, 16}), "greyscale");
  // 0.99 * 255 = 252.45 -> 252; 21, 71 and 7 round to whole floats and stay
  auto grey = values<uint8_t>(c, "Pout");
  CHECK(grey == std::vector<uint8_t>{252, 21, 71, 7});
}

TEST_CASE("reference transpose of a 3x2 matrix", "[references]") {
  SpecFolder f;
  Json bufs = {{"odata", {{"type", "f32"}, {"count", 6}}}, {"idata", {{"type", "f32"}, {"count", 6}, {"init", "iota"}}}};
  // idata (height 2, width 3): [0 1 2; 3 4 5] -> odata (3 rows of 2): [0 3; 1 4; 2 5]
  auto c = make_case(f, bufs, Json::array({"odata", "idata", 3, 2, 1}), 1, 1, "transpose");
  CHECK(values<float>(c, "odata") == std::vector<float>{0, 3, 1, 4, 2, 5});
}

TEST_CASE("reference per_thread_sum over segments", "[references]") {
  SpecFolder f;
  f.write_raw<int32_t>("idx.bin", {0, 2, 2, 5});
  Json bufs = {{"sums", {{"type", "f32"}, {"count", 3}}},
               {"indices", {{"type", "s32"}, {"count", 4}, {"init", {{"file", "idx.bin"}}}}},
               {"data", {{"type", "f32"}, {"count", 5}, {"init", {{"iota", {{"start", 1}}}}}}}};
  auto c = make_case(f, bufs, Json::array({"indices", "data", "sums"}), 1, 3, "per_thread_sum");
  CHECK(values<float>(c, "sums") == std::vector<float>{3, 0, 12});
}

TEST_CASE("reference fma_chains: K chains of n fused steps added in order", "[references]") {
  SpecFolder f;
  Json bufs = {{"pa", {{"type", "f32"}, {"count", 2}, {"init", {{"value", 1}}}}}};
  // a = 0 -> 1 -> 1.5 -> 1.75 after 3 steps of a*0.5 + 1; K = 4 chains: 1 + 4*1.75 = 8
  auto c = make_case(f, bufs, Json::array({"pa", 0.5, 1, 3}), 1, 2, "fma_chains_k4");
  CHECK(values<float>(c, "pa") == std::vector<float>{8, 8});
}

TEST_CASE("references check their arguments", "[references]") {
  SpecFolder f;
  Json bufs = {{"Out", {{"type", "f32"}, {"count", 3}}}, {"In", {{"type", "s32"}, {"count", 24}}}};
  CHECK_THROWS_WITH(make_case(f, bufs, Json::array({"In", "Out"}), 3, 8, "block_sums"),
                    Catch::Contains("reference 'block_sums'") && Catch::Contains("argument 1 must be a s32 buffer, got 'Out' (f32)"));
  Json small = {{"Out", {{"type", "s32"}, {"count", 3}}}, {"In", {{"type", "s32"}, {"count", 20}}}};
  CHECK_THROWS_WITH(make_case(f, small, Json::array({"In", "Out"}), 3, 8, "block_sums"),
                    Catch::Contains("need 24 input elements, the buffer has 20"));
  CHECK_THROWS_WITH(make_case(f, bufs, Json::array({"In"}), 3, 8, "vecadd"),
                    Catch::Contains("expects the kernel's 4 arguments, the spec passes 1"));
}

TEST_CASE("every registered reference name is valid in a spec", "[references]") {
  auto registry = warpsim::ref::reference_registry();
  CHECK(registry.size() >= 20);
  for (const auto& [name, fn] : registry) CHECK(fn != nullptr);
}
