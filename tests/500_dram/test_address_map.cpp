// Address mapping: the textbook's interleaved distribution, GPGPU-Sim layouts, channel
// modulo for 6 channels, partition camping and the XOR hashes, one-to-one decoding.
#include <catch2/catch.hpp>

#include <algorithm>
#include <tuple>

#include "dram_test_util.hpp"
#include "sim/memory/address_map.hpp"

using namespace dramtest;

namespace {

std::tuple<uint32_t, uint32_t, uint64_t, uint32_t> key(const DramAddress& a) {
  return {a.channel, a.bank, a.row, a.column};
}

// Every atom in [0, bytes) decodes to a different (channel, bank, row, column).
bool one_to_one(const DramSpec& s, uint64_t bytes) {
  AddressMap m(s);
  std::vector<std::tuple<uint32_t, uint32_t, uint64_t, uint32_t>> keys;
  for (uint64_t a = 0; a < bytes; a += s.atom_bytes()) keys.push_back(key(m.decode(a)));
  std::sort(keys.begin(), keys.end());
  return std::adjacent_find(keys.begin(), keys.end()) == keys.end();
}

}  // namespace

TEST_CASE("Kirk & Hwu interleaved distribution: 4 channels, 2 banks, 8-byte bursts",
          "[dram][address]") {
  // 8-byte atom: one x16 chip, burst of 4 at DDR. Channel interleave = one burst.
  Json j = Json::parse(R"({
    "channels": 4, "chips_per_channel": 1, "chip_width_bits": 16, "data_rate": "DDR",
    "command_clock_mhz": 1000, "burst_length": 4, "banks": 2, "columns": 64, "queue_size": 8,
    "address_map": {"channel_interleave_bytes": 8, "scheme": "row_column_bank"},
    "timing": {"tRCD": 1, "tRP": 1, "tRAS": 1, "tRC": 2, "tCL": 1, "tWL": 1, "tCCD": 2,
               "tRRD": 1, "tWTR": 1, "tWR": 1}
  })");
  DramSpec s = parse(j);
  REQUIRE(s.atom_bytes() == 8);
  AddressMap m(s);
  auto at = [&](uint64_t element) { return m.decode(element * 4); };  // M[element], 4-byte floats
  for (uint64_t e : {0, 1}) CHECK((at(e).channel == 0 && at(e).bank == 0));
  for (uint64_t e : {2, 3}) CHECK((at(e).channel == 1 && at(e).bank == 0));
  for (uint64_t e : {4, 5}) CHECK((at(e).channel == 2 && at(e).bank == 0));
  for (uint64_t e : {6, 7}) CHECK((at(e).channel == 3 && at(e).bank == 0));
  for (uint64_t e : {8, 9}) CHECK((at(e).channel == 0 && at(e).bank == 1));
  for (uint64_t e : {10, 11}) CHECK((at(e).channel == 1 && at(e).bank == 1));
  for (uint64_t e : {14, 15}) CHECK((at(e).channel == 3 && at(e).bank == 1));
  for (uint64_t e : {16, 17}) CHECK((at(e).channel == 0 && at(e).bank == 0));
  CHECK(at(0).column == 0);
  CHECK(at(16).column == 1);  // next burst of bank 0's open row
  CHECK(at(0).row == at(16).row);
  CHECK(m.channel_of(4 * 6) == 3);
}

TEST_CASE("FX5800: GPGPU-Sim layout with the channel at bit 8", "[dram][address]") {
  DramSpec s = preset("fx5800");
  AddressMap m(s);
  // Rest of the address (channel removed): S = bits 0-4, C = 5-10, B = 11-13, R = 14-27.
  CHECK(m.decode(0x0) == DramAddress{0, 0, 0, 0, 0});
  CHECK(m.decode(0x20) == DramAddress{0, 0, 0, 0, 1});
  CHECK(m.decode(0xFF) == DramAddress{0, 0, 0, 0, 7});
  CHECK(m.decode(0x100) == DramAddress{1, 0, 0, 0, 0});
  CHECK(m.decode(0x700) == DramAddress{7, 0, 0, 0, 0});
  // Partition camping: 2,048 bytes apart is the same partition (column bits above it).
  CHECK(m.decode(0x800) == DramAddress{0, 0, 0, 0, 8});
  CHECK(m.decode(0x4000) == DramAddress{0, 0, 1, 0, 0});    // rest bit 11: bank 1
  CHECK(m.decode(0x20000) == DramAddress{0, 0, 0, 1, 0});   // rest bit 14: row 1
  CHECK(m.decode(0x20000 + 0x300 + 0x4000 * 5 + 0x40) == DramAddress{3, 0, 5, 1, 2});
  for (uint64_t k = 0; k < 16; ++k) CHECK(m.channel_of(k * 2048 + 100) == 0);
  // GPGPU-Sim's padding 0s are dropped: above 2 GiB the row keeps counting (14 R bits).
  CHECK(s.address_map.layout == "RRRRRRRRRRRRRRBBBCCCCCCSSSSS");
  CHECK(m.decode((uint64_t(1) << 31) + 0x20) == DramAddress{0, 0, 0, 1u << 14, 1});
  CHECK(one_to_one(s, 4 << 20));
}

TEST_CASE("C2070: 6 channels by address / 256 mod 6, split bank field", "[dram][address]") {
  DramSpec s = preset("c2070", {"dram.address_map.channel_hash=none"});
  AddressMap m(s);
  for (uint64_t k = 0; k < 24; ++k) CHECK(m.channel_of(k * 256) == k % 6);
  // Rest: S = 0-5, C = 6-7, B0 = 8, C = 9-12, B1..B3 = 13-15, R = 16-27.
  CHECK(m.decode(1536) == DramAddress{0, 0, 1, 0, 0});        // rest 256: bank bit 0
  CHECK(m.decode(3072) == DramAddress{0, 0, 0, 0, 4});        // rest 512: column bit 2
  CHECK(m.decode(64) == DramAddress{0, 0, 0, 0, 1});
  CHECK(m.decode(1536 * 32) == DramAddress{0, 0, 2, 0, 0});   // rest bit 13: bank 2, group 0
  CHECK(m.decode(1536 * 64) == DramAddress{0, 1, 4, 0, 0});   // rest bit 14: bank 4, group 1
  CHECK(m.decode(1536 * 256) == DramAddress{0, 0, 0, 1, 0});  // rest bit 16: row 1
  CHECK(one_to_one(s, 6 << 20));
}

TEST_CASE("XOR channel hash breaks partition camping and stays one-to-one", "[dram][address]") {
  SECTION("power-of-two channels (FX5800)") {
    DramSpec s = preset("fx5800", {"dram.address_map.channel_hash=xor"});
    AddressMap m(s);
    std::vector<uint32_t> ch;
    for (uint64_t k = 0; k < 8; ++k) ch.push_back(m.channel_of(k * 2048));
    std::sort(ch.begin(), ch.end());
    CHECK(ch == std::vector<uint32_t>{0, 1, 2, 3, 4, 5, 6, 7});
    // Below the hashed bits nothing moves: consecutive 256-byte chunks still rotate.
    for (uint64_t k = 0; k < 8; ++k) CHECK(m.channel_of(k * 256) == k);
    CHECK(one_to_one(s, 4 << 20));
  }
  SECTION("six channels (C2070 preset)") {
    DramSpec s = preset("c2070");
    AddressMap m(s);
    std::vector<uint32_t> ch;
    for (uint64_t k = 0; k < 6; ++k) ch.push_back(m.channel_of(k * 1536));
    std::sort(ch.begin(), ch.end());
    CHECK(ch == std::vector<uint32_t>{0, 1, 2, 3, 4, 5});
    // Large power-of-two strides spread over channels too.
    std::vector<int> count(6, 0);
    for (uint64_t k = 0; k < 600; ++k) ++count[m.channel_of(k * 65536)];
    for (int c : count) CHECK(c >= 60);
    CHECK(one_to_one(s, 6 << 20));
  }
}

TEST_CASE("XOR bank hash permutes banks by the row's low bits", "[dram][address]") {
  DramSpec plain = preset("fx5800");
  DramSpec hashed = preset("fx5800", {"dram.address_map.bank_hash=xor"});
  AddressMap a(plain), b(hashed);
  const uint64_t row1 = 0x20000, bank3 = 0x4000 * 3;
  CHECK(a.decode(row1).bank == 0);
  CHECK(b.decode(row1).bank == 1);
  CHECK(b.decode(row1 * 5 + bank3).bank == (3 ^ 5));
  CHECK(b.decode(row1 * 5 + bank3).row == 5);
  CHECK(one_to_one(hashed, 4 << 20));
}

TEST_CASE("Generated layouts: row_bank_column keeps a row's atoms together", "[dram][address]") {
  Json j = distinct_timing_json();  // 1 channel, 8 banks, 64 columns of 32 B
  DramSpec s = parse(j);
  AddressMap m(s);
  CHECK(s.address_map.layout == "BBBCCCCCCSSSSS");
  CHECK(m.decode(32 * 63) == DramAddress{0, 0, 0, 0, 63});
  CHECK(m.decode(2048) == DramAddress{0, 0, 1, 0, 0});
  CHECK(m.decode(2048 * 4) == DramAddress{0, 1, 4, 0, 0});  // 2 groups of 4 banks
  CHECK(m.decode(2048 * 8) == DramAddress{0, 0, 0, 1, 0});  // bits above the layout: row
  CHECK(m.decode(2048 * 8 * 1000 + 2048 * 7 + 96) == DramAddress{0, 1, 7, 1000, 3});
}
