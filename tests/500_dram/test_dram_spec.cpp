// DRAM spec parsing: the two presets, derived figures, and validation errors naming key paths.
#include <catch2/catch.hpp>

#include "dram_test_util.hpp"
#include "sim/foundation/error.hpp"
#include "sim/memory/dram_scheduler.hpp"
#include "sim/memory/dram_timing.hpp"

using namespace dramtest;
using Catch::Matchers::Contains;

namespace {

uint32_t latency_of(const std::vector<TimingConstraint>& t, std::string_view name, DramCommand prev,
                    DramCommand next) {
  for (const auto& c : t)
    if (c.name == name && c.prev == prev && c.next == next) return c.latency;
  FAIL("no constraint " << name);
  return 0;
}

// Parse `dram` after `edit` changed it; return the ConfigError message ("" if it parsed).
template <class Edit>
std::string error_after(const std::string& preset_name, Edit edit) {
  Json doc = preset_json(preset_name);
  edit(doc["dram"]);
  try {
    parse(doc["dram"]);
  } catch (const warpsim::ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("FX5800 preset: GDDR3 geometry and 102.4 GB/s peak", "[dram][spec]") {
  DramSpec s = preset("fx5800");
  CHECK(s.channels == 8);
  CHECK(s.transfers_per_clock == 2);
  CHECK(s.atom_bytes() == 32);
  CHECK(s.burst_cycles() == 2);
  CHECK(s.banks == 8);
  CHECK(s.bank_groups == 1);
  CHECK(s.channels * s.chips_per_channel * s.chip_width_bits == 512);
  CHECK(s.peak_bandwidth_gbps() == Approx(102.4).epsilon(1e-12));
  CHECK(s.queue_size == 16);
  CHECK(s.scheduler == "fr-fcfs");
  CHECK(s.page_policy == PagePolicy::Open);
  CHECK(s.address_map.interleave_bytes == 256);
  CHECK(s.timing.tRCD == 12);
  CHECK(s.timing.tRC == 35);
  CHECK(s.timing.tFAW == 0);
  CHECK(s.timing.tREFI == 0);
}

TEST_CASE("C2070 preset: GDDR5 with bank groups and 144 GB/s peak", "[dram][spec]") {
  DramSpec s = preset("c2070");
  CHECK(s.channels == 6);
  CHECK(s.transfers_per_clock == 4);
  CHECK(s.atom_bytes() == 64);
  CHECK(s.burst_cycles() == 2);
  CHECK(s.banks == 16);
  CHECK(s.bank_groups == 4);
  CHECK(s.banks_per_group() == 4);
  CHECK(s.channels * s.chips_per_channel * s.chip_width_bits == 384);
  CHECK(s.peak_bandwidth_gbps() == Approx(144.0).epsilon(1e-12));
  CHECK(s.timing.tCCDL == 3);
  CHECK(s.timing.tRTP == 2);
  CHECK(s.address_map.channel_hash == ChannelHash::Xor);
}

TEST_CASE("Derived command spacings match GPGPU-Sim's formulas", "[dram][spec][timing]") {
  using C = DramCommand;
  {
    DramSpec s = preset("fx5800");  // BL/ratio = 4/2 = 2
    auto t = build_timing_table(s);
    CHECK(latency_of(t, "tWTR", C::WR, C::RD) == 7 + 2 + 6);       // WL + BL/2 + CDLR
    CHECK(latency_of(t, "tRTW", C::RD, C::WR) == 10 + 2 + 2 - 7);   // CL + BL/2 + 2 - WL
    CHECK(latency_of(t, "tWR", C::WR, C::PRE) == 7 + 2 + 11);       // tWTP = WL + BL/2 + WR
    CHECK(latency_of(t, "tRCDWR", C::ACT, C::WR) == 12 - (7 + 1));  // tRCD - (WL + 1)
  }
  {
    DramSpec s = preset("c2070");  // BL/ratio = 8/4 = 2
    auto t = build_timing_table(s);
    CHECK(latency_of(t, "tWTR", C::WR, C::RD) == 4 + 2 + 5);
    CHECK(latency_of(t, "tRTW", C::RD, C::WR) == 12 + 2 + 2 - 4);
    CHECK(latency_of(t, "tWR", C::WR, C::PRE) == 4 + 2 + 12);
    CHECK(latency_of(t, "tRCDWR", C::ACT, C::WR) == 12 - (4 + 1));
    CHECK(latency_of(t, "tCCDL", C::RD, C::RD) == 3);
  }
}

TEST_CASE("Overrides: --set adds optional keys, typos are rejected", "[dram][spec]") {
  DramSpec s = preset("c2070", {"dram.timing.tFAW=18", "dram.timing.tREFI=2925",
                                "dram.timing.tRFC=83", "dram.scheduler=fcfs"});
  CHECK(s.timing.tFAW == 18);
  CHECK(s.timing.tREFI == 2925);
  CHECK(s.scheduler == "fcfs");
  CHECK_THROWS_WITH(preset("c2070", {"dram.timing.tFAX=18"}),
                    Contains("c2070.json: dram.timing.tFAX: unknown key"));
  CHECK_THROWS_WITH(preset("c2070", {"dram.nosuch.x=1"}), Contains("dram.nosuch: --set: no such key"));
}

TEST_CASE("Validation errors name the file and the key path", "[dram][spec]") {
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["channels"] = 0; }),
             Contains("test.json: dram.channels: expected a positive integer"));
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["banks"] = 6; }),
             Contains("dram.banks: expected a power of two"));
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["banks"] = 16; }),
             Contains("dram.address_map.bits: has 3 bank (B) bits, but banks = 16 needs 4"));
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["columns"] = 128; }),
             Contains("dram.address_map.bits: has 6 column (C) bits, but columns = 128 needs 7"));
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["burst_length"] = 8; }),
             Contains("dram.address_map.bits: has 5 byte-in-atom (S) bits"));
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["timing"]["tRC"] = 30; }),
             Contains("dram.timing.tRC: 30 is shorter than tRAS + tRP = 25 + 10 = 35"));
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["timing"]["tRAS"] = 11; d["timing"]["tRC"] = 40; }),
             Contains("dram.timing.tRAS: 11 is shorter than tRCD = 12"));
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["timing"]["tCCD"] = 1; }),
             Contains("dram.timing.tCCD: 1 is shorter than one burst (2 cycles"));
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["timing"]["tCCDL"] = 3; }),
             Contains("dram.timing.tCCDL: only meaningful with bank_groups > 1"));
  CHECK_THAT(error_after("c2070", [](Json& d) { d["timing"]["tCCDL"] = 1; }),
             Contains("dram.timing.tCCDL: 1 is shorter than tCCD = 2"));
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["timing"]["tREFI"] = 3000; }),
             Contains("dram.timing.tRFC: refresh needs both tREFI and tRFC"));
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["timing"]["tRCD"] = "12"; }),
             Contains("dram.timing.tRCD: expected a positive integer"));
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["timing"].erase("tRP"); }),
             Contains("dram.timing.tRP: missing required key"));
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["scheduler"] = "frfcfs"; }),
             Contains("dram.scheduler: unknown DRAM scheduler \"frfcfs\"; valid: fr-fcfs, fr-fcfs-wd, fcfs"));
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["page_policy"] = "adaptive"; }),
             Contains("dram.page_policy: \"adaptive\" is not one of: open, closed"));
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["data_rate"] = "ODR"; }),
             Contains("dram.data_rate: \"ODR\" is not one of: SDR, DDR, QDR"));
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["burst_length"] = 3; }),
             Contains("dram.burst_length: 3 transfers is not a whole number of command cycles"));
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["chips_per_channel"] = 3; }),
             Contains("dram.burst_length: the access atom"));
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["bogus"] = 1; }),
             Contains("dram.bogus: unknown key"));
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["notes"]["bogus"] = "x"; }),
             Contains("dram.notes.bogus: note for a key that this object does not have"));
}

TEST_CASE("Address-map validation", "[dram][spec][address]") {
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["address_map"]["scheme"] = "zigzag"; d["address_map"].erase("bits"); }),
             Contains("dram.address_map.scheme: unknown address-mapping scheme \"zigzag\"; valid: "
                      "row_bank_column, row_column_bank, bits"));
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["address_map"]["channel_interleave_bytes"] = 512; }),
             Contains("dram.address_map.bits: dramid@8 means 256-byte channel interleaving, but "
                      "channel_interleave_bytes is 512"));
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["address_map"]["channel_interleave_bytes"] = 300; }),
             Contains("dram.address_map.channel_interleave_bytes: expected a power of two"));
  CHECK_THAT(error_after("fx5800", [](Json& d) {
               d["address_map"]["bits"] = "DDDRRRR.RRRRRRRR.RRBBBCCC.CCCSSSSS";
             }),
             Contains("dram.address_map.bits: explicit channel bits (D) are not supported"));
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["address_map"]["bits"] = "RRRRXBBBCCCCCCSSSSS"; }),
             Contains("dram.address_map.bits: invalid character 'X'"));
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["address_map"]["scheme"] = "row_bank_column"; }),
             Contains("dram.address_map.bits: only used with scheme \"bits\""));
  CHECK_THAT(error_after("fx5800", [](Json& d) {
               d["address_map"].erase("bits");
               d["address_map"].erase("channel_interleave_bytes");
               d["address_map"]["scheme"] = "row_bank_column";
             }),
             Contains("dram.address_map.channel_interleave_bytes: missing required key"));
  CHECK_THAT(error_after("fx5800", [](Json& d) {
               d["address_map"]["bits"] = "RRRRBBBCCCCCCSSSSS";
               d["address_map"]["channel_interleave_bytes"] = 16;
             }),
             Contains("channel_interleave_bytes: 16 bytes is smaller than the 32-byte access atom"));
  CHECK_THAT(error_after("fx5800", [](Json& d) { d["address_map"]["channel_hash"] = "ipoly"; }),
             Contains("dram.address_map.channel_hash: \"ipoly\" is not one of: none, xor"));
  // The layout without the GPGPU-Sim prefix and padding is accepted when the interleave is given.
  CHECK(error_after("fx5800", [](Json& d) {
          d["address_map"]["bits"] = "RRRR.RRRRRRRR.RRBBBCCC.CCCSSSSS";
        }) == "");
}

TEST_CASE("Scheduler registry: names and factory", "[dram][spec][scheduler]") {
  CHECK(dram_scheduler_names() == "fr-fcfs, fr-fcfs-wd, fcfs");
  CHECK(make_dram_scheduler("fcfs") != nullptr);
  CHECK(find_dram_scheduler("fr-fcfs") != nullptr);
  CHECK(find_dram_scheduler("FR-FCFS") == nullptr);
  CHECK_THROWS_AS(make_dram_scheduler("lifo"), warpsim::ConfigError);
  CHECK_THROWS_WITH(make_dram_scheduler("lifo"),
                    Contains("unknown DRAM scheduler \"lifo\"; valid: fr-fcfs, fr-fcfs-wd, fcfs"));
}

TEST_CASE("Device configs carry the same DRAM as the presets", "[dram][spec]") {
  // warpsim dram --config c2070 reads only the `dram` object of a full device config.
  for (const char* name : {"fx5800", "c2070"}) {
    INFO(name);
    DramSpec dev = load_dram_spec(std::string(WARPSIM_SOURCE_DIR) + "/configs/" + name + ".json");
    DramSpec pre = preset(name);
    CHECK(dev.peak_bandwidth_gbps() == pre.peak_bandwidth_gbps());
    // Same decoding (the device config may write the preset's layout string as a scheme).
    AddressMap dm(dev), pm(pre);
    for (uint64_t a = 0; a < (uint64_t(64) << 20); a += 4096 + 96) CHECK(dm.decode(a) == pm.decode(a));
    CHECK(dev.timing.tRC == pre.timing.tRC);
    CHECK(dev.timing.tWTR == pre.timing.tWTR);
  }
  CHECK_THROWS_WITH(load_dram_spec(std::string(WARPSIM_SOURCE_DIR) + "/configs/nope.json"),
                    Contains("nope.json: cannot open file"));
}
