// How evenly the lines of one contiguous buffer spread over the L2 sets that one SM uses
// (its partition's slices on a partitioned L2): for footprints of 8 to 64 MB, the share of
// lines that fall in a set holding more lines than it has ways. A cyclic pass over the
// buffer misses on every one of those lines under LRU, so this is the miss floor of the
// capacity curve of docs/calibration.md ("L2 partitions"). Simulated structure, not host speed.
//   build/tools/bench_l2_spread [CONFIG.json] [BASE_ADDRESS]
#include <fmt/format.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "sim/memory/address_map.hpp"
#include "sim/memory/memory_path.hpp"
#include "sim/spec/device_spec.hpp"

using namespace warpsim;

int main(int argc, char** argv) {
  const std::string config = argc > 1 ? argv[1] : std::string(WARPSIM_SOURCE_DIR) + "/configs/h100.json";
  const uint64_t base = argc > 2 ? std::strtoull(argv[2], nullptr, 0) : 0x7f0000000000ull;
  const DeviceSpec d = load_device_spec(config);
  if (!d.has_l2) {
    fmt::print("{}: no L2\n", config);
    return 1;
  }
  const auto shared_map = std::make_shared<const mem::AddressMap>(d.dram);
  const mem::AddressMap& map = *shared_map;
  const mem::SetIndex set_of = mem::l2_set_index(d, shared_map);
  const uint32_t line = d.l2.slice.line_bytes, sets = d.l2.slice.sets, ways = d.l2.slice.ways;
  fmt::print("{}: {} slices of {} sets x {} ways, {} partition(s); SM 0's view, buffer at 0x{:x}\n", config,
             d.l2.slices, sets, ways, d.l2.partitions, base);
  for (uint32_t mb = 8; mb <= 64; mb += 8) {
    std::vector<uint32_t> count(size_t(d.l2.slices) * sets, 0);
    const uint64_t lines = (uint64_t(mb) << 20) / line;
    for (uint64_t i = 0; i < lines; ++i) {
      const uint64_t a = base + i * line;
      const uint32_t slice = d.l2.near_slice(mem::l2_slice_of(d, map, a), 0);
      ++count[size_t(slice) * sets + set_of(a)];
    }
    uint64_t over = 0;
    uint32_t most = 0;
    for (uint32_t c : count) {
      if (c > ways) over += c;
      most = std::max(most, c);
    }
    fmt::print("{:3} MB: {:5.1f} % of the lines in sets with more lines than ways (most in one set: {})\n", mb,
               100.0 * double(over) / double(lines), most);
  }
  return 0;
}
