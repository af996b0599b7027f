// slice_xor, the L2 slice set index that numbers a line among its slice's lines: a
// contiguous buffer fills every set of a slice evenly (what one H100 SM's ~25 MB on a second
// pass needs), where xor over the whole address crowds some sets.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sim/memory/address_map.hpp"
#include "sim/memory/memory_path.hpp"
#include "sim/memory/set_index.hpp"
#include "sim/spec/device_spec.hpp"

using namespace warpsim;
using namespace warpsim::mem;

namespace {
DeviceSpec h100(std::vector<std::string> sets = {}) {
  return load_device_spec(std::string(WARPSIM_SOURCE_DIR) + "/configs/h100.json", sets);
}

// Lines of [base, base + bytes) per (slice SM 0 uses, set).
std::vector<uint32_t> lines_per_set(const DeviceSpec& d, uint64_t base, uint64_t bytes, bool home) {
  const auto map = std::make_shared<const AddressMap>(d.dram);
  const SetIndex set_of = l2_set_index(d, map);
  std::vector<uint32_t> count(size_t(d.l2.slices) * d.l2.slice.sets, 0);
  for (uint64_t a = base; a < base + bytes; a += d.l2.slice.line_bytes) {
    const uint32_t h = l2_slice_of(d, *map, a);
    ++count[size_t(home ? h : d.l2.near_slice(h, 0)) * d.l2.slice.sets + set_of(a)];
  }
  return count;
}
}  // namespace

TEST_CASE("420: slice_xor spreads 50 MB at address 0 exactly 10 lines to every set of every slice", "[cache][index]") {
  const DeviceSpec d = h100();
  REQUIRE(d.l2.slice.index == IndexFunction::SliceXor);
  REQUIRE(d.l2.slices == 160);
  REQUIRE(d.l2.slice.sets == 256);
  const std::vector<uint32_t> count = lines_per_set(d, 0, d.l2.total_bytes, true);
  CHECK(*std::min_element(count.begin(), count.end()) == 10);
  CHECK(*std::max_element(count.begin(), count.end()) == 10);
}

TEST_CASE("420: one SM's 24 MB buffer overfills no set with slice_xor, many with xor", "[cache][index]") {
  const uint64_t base = 0x7f0000000000ull, bytes = uint64_t(24) << 20;
  auto overfull_lines = [&](const DeviceSpec& d) {
    uint64_t over = 0;
    for (uint32_t c : lines_per_set(d, base, bytes, false))
      if (c > d.l2.slice.ways) over += c;
    return over;
  };
  CHECK(overfull_lines(h100()) == 0);
  const uint64_t with_xor = overfull_lines(h100({"l2.index=\"xor\""}));
  CHECK(with_xor > bytes / 128 / 3);  // bench_l2_spread: 49 % of the lines
}

TEST_CASE("420: slice_xor needs the address map", "[cache][index]") {
  const DeviceSpec d = h100();
  CHECK_THROWS_AS(SetIndex(d.l2.slice), std::invalid_argument);
  CHECK_THROWS_AS(SetIndex(d.l2.slice, nullptr, 2), std::invalid_argument);
  CHECK_THROWS_AS(d.l2.slice.set_index(0), std::logic_error);
  // The line number inside the slice: consecutive lines of one channel's 256-byte chunk go
  // to its two slices, and the next chunk of the channel is the next line of each slice.
  const auto map = std::make_shared<const AddressMap>(d.dram);
  const SetIndex set_of(d.l2.slice, map, 2);
  const uint64_t a = 0x7f0000000000ull;
  CHECK(set_of(a) == xor_fold_set(map->channel_local(a) / 256, 256));
  CHECK(set_of(a + 128) == set_of(a));
}
