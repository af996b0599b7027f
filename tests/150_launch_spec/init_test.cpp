#include <catch2/catch.hpp>

#include "sim/launch/splitmix64.hpp"
#include "spec_fixture.hpp"

using spec_test::SpecFolder;
using warpsim::HostBuffer;
using warpsim::Json;

namespace {
// The initial contents of buffer "X" declared as `buffer` in an otherwise minimal spec.
HostBuffer contents(const SpecFolder& f, const Json& buffer) {
  Json doc = spec_test::minimal_spec();
  doc["buffers"]["X"] = buffer;
  auto spec = f.load(doc);
  return warpsim::initial_contents(spec, *spec.find_buffer("X"));
}
}  // namespace

TEST_CASE("SplitMix64 matches the published generator", "[launch_spec][init]") {
  warpsim::SplitMix64 rng(0);
  CHECK(rng.next() == 0xE220A8397B1DCDAFull);  // first output for seed 0 (Vigna's splitmix64.c)
  warpsim::SplitMix64 a(7), b(7);
  for (int i = 0; i < 100; ++i) CHECK(a.next() == b.next());
}

TEST_CASE("init zero and value", "[launch_spec][init]") {
  SpecFolder f;
  auto z = contents(f, {{"type", "s32"}, {"count", 5}});
  CHECK(z.count == 5);
  CHECK(z.bytes.size() == 20);
  for (auto v : z.as<int32_t>()) CHECK(v == 0);

  auto zs = contents(f, {{"type", "u16"}, {"count", 3}, {"init", "zero"}});
  for (auto v : zs.as<uint16_t>()) CHECK(v == 0);

  auto v = contents(f, {{"type", "f32"}, {"count", 3}, {"init", {{"value", 2.5}}}});
  for (auto x : v.as<float>()) CHECK(x == 2.5f);

  auto vi = contents(f, {{"type", "s8"}, {"count", 2}, {"init", {{"value", -128}}}});
  for (auto x : vi.as<int8_t>()) CHECK(x == -128);

  auto ve = contents(f, {{"type", "u64"}, {"count", 2}, {"init", {{"value", "n * 1000000000"}}}});
  for (auto x : ve.as<uint64_t>()) CHECK(x == 1003000000000ull);
}

TEST_CASE("init iota", "[launch_spec][init]") {
  SpecFolder f;
  auto a = contents(f, {{"type", "s32"}, {"count", 4}, {"init", "iota"}});
  CHECK(std::vector<int32_t>(a.as<int32_t>().begin(), a.as<int32_t>().end()) == std::vector<int32_t>{0, 1, 2, 3});

  auto b = contents(f, {{"type", "s32"}, {"count", 4}, {"init", {{"iota", {{"start", 10}, {"step", -3}}}}}});
  CHECK(std::vector<int32_t>(b.as<int32_t>().begin(), b.as<int32_t>().end()) == std::vector<int32_t>{10, 7, 4, 1});

  auto c = contents(f, {{"type", "f32"}, {"count", 3}, {"init", {{"iota", {{"start", 0.5}, {"step", 0.25}}}}}});
  CHECK(std::vector<float>(c.as<float>().begin(), c.as<float>().end()) == std::vector<float>{0.5f, 0.75f, 1.0f});

  auto d = contents(f, {{"type", "u8"}, {"count", 300}, {"init", "iota"}});
  CHECK(d.as<uint8_t>()[255] == 255);
  CHECK(d.as<uint8_t>()[256] == 0);  // wraps to the element width
}

TEST_CASE("init random: deterministic, in range, integers inclusive", "[launch_spec][init]") {
  SpecFolder f;
  Json ints = {{"type", "s32"}, {"count", 4}, {"init", {{"random", {{"seed", 7}, {"min", -100}, {"max", 100}}}}}};
  auto a = contents(f, ints);
  // Golden values: the same on every machine and standard library.
  CHECK(std::vector<int32_t>(a.as<int32_t>().begin(), a.as<int32_t>().end()) == std::vector<int32_t>{-22, -97, 81, 17});

  Json floats = {{"type", "f32"}, {"count", 3}, {"init", {{"random", {{"seed", 7}, {"min", -1}, {"max", 1}}}}}};
  auto b = contents(f, floats);
  CHECK(b.as<float>()[0] == -0.220340505f);
  CHECK(b.as<float>()[1] == -0.966423392f);
  CHECK(b.as<float>()[2] == 0.801521361f);

  // Both ends of an integer range occur; nothing outside it.
  auto c = contents(f, {{"type", "u8"}, {"count", 2000}, {"init", {{"random", {{"seed", 3}, {"min", 2}, {"max", 5}}}}}});
  int seen[8] = {};
  for (auto v : c.as<uint8_t>()) {
    REQUIRE(v >= 2);
    REQUIRE(v <= 5);
    ++seen[v];
  }
  CHECK(seen[2] > 0);
  CHECK(seen[5] > 0);

  // Whole numbers stored in a float buffer.
  auto d = contents(f, {{"type", "f32"}, {"count", 500}, {"init", {{"random", {{"seed", 9}, {"min", -8}, {"max", 8}, {"integers", true}}}}}});
  bool saw_min = false, saw_max = false;
  for (float v : d.as<float>()) {
    REQUIRE(v == std::floor(v));
    REQUIRE(v >= -8);
    REQUIRE(v <= 8);
    saw_min |= v == -8;
    saw_max |= v == 8;
  }
  CHECK(saw_min);
  CHECK(saw_max);

  // Different seeds give different data.
  Json other = ints;
  other["init"]["random"]["seed"] = 8;
  auto e = contents(f, other);
  CHECK(e.bytes != a.bytes);
}

TEST_CASE("init offsets: a prefix sum of random segment lengths", "[launch_spec][init]") {
  SpecFolder f;
  auto o = contents(f, {{"type", "s32"}, {"count", 4}, {"init", {{"offsets", {{"seed", 3}, {"min", 0}, {"max", 10}}}}}});
  CHECK(std::vector<int32_t>(o.as<int32_t>().begin(), o.as<int32_t>().end()) == std::vector<int32_t>{0, 1, 8, 14});

  auto p = contents(f, {{"type", "s32"}, {"count", 1000}, {"init", {{"offsets", {{"seed", 4}, {"min", 2}, {"max", 6}}}}}});
  auto v = p.as<int32_t>();
  CHECK(v[0] == 0);
  for (size_t i = 1; i < v.size(); ++i) {
    REQUIRE(v[i] - v[i - 1] >= 2);
    REQUIRE(v[i] - v[i - 1] <= 6);
  }
}

TEST_CASE("init file: raw little-endian contents", "[launch_spec][init]") {
  SpecFolder f;
  f.write_raw<int16_t>("x.bin", {1, -2, 300});
  auto x = contents(f, {{"type", "s16"}, {"count", 3}, {"init", {{"file", "x.bin"}}}});
  CHECK(std::vector<int16_t>(x.as<int16_t>().begin(), x.as<int16_t>().end()) == std::vector<int16_t>{1, -2, 300});
}
