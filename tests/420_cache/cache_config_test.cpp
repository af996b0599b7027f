// Parsing the l1 / l2 sections: the C2070 values, and errors that name the key path.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <string>

#include "sim/foundation/config_reader.hpp"
#include "sim/foundation/error.hpp"
#include "sim/memory/cache_spec.hpp"

using namespace warpsim;
using namespace warpsim::mem;

namespace {

Json c2070_l1() {
  return Json::parse(R"({
    "size_bytes": 16384, "line_bytes": 128, "sector_bytes": 128, "ways": 4,
    "replacement": "lru", "index": "fermi_hash",
    "write_policy": "write_through", "local_write_policy": "write_back",
    "write_allocate": false, "invalidate_on_write": true,
    "hit_latency": 35, "mshr_entries": 32, "mshr_max_merge": 8,
    "notes": {"ways": "GPGPU-Sim TeslaC2050 -gpgpu_cache:dl1 32:128:4"}
  })");
}

Json c2070_l2() {
  return Json::parse(R"({
    "size_bytes": 786432, "slices_per_channel": 2, "line_bytes": 128, "sector_bytes": 32,
    "ways": 8, "replacement": "lru", "index": "xor", "write_policy": "write_back", "write_allocate": true,
    "hit_latency": 120, "mshr_entries": 32, "mshr_max_merge": 4
  })");
}

// Parse `doc` as section `key` of test.json, finishing it like the device parser does;
// returns the error message ("" if none).
std::string l1_error(const Json& doc) {
  try {
    ConfigReader r(doc, "test.json", "l1");
    parse_cache_spec(r);
    r.finish();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("C2070 L1 section parses to 32 sets x 4 ways with the Fermi hash", "[cache][config]") {
  Json doc = c2070_l1();
  ConfigReader r(doc, "test.json", "l1");
  CacheSpec s = parse_cache_spec(r);
  r.finish();
  CHECK(s.size_bytes == 16384);
  CHECK(s.sets == 32);
  CHECK(s.ways == 4);
  CHECK(s.sectors_per_line() == 1);
  CHECK(s.index == IndexFunction::FermiHash);
  CHECK(s.write_policy == WritePolicy::WriteThrough);
  CHECK(s.local_write_policy == WritePolicy::WriteBack);
  CHECK(s.invalidate_on_write);
  CHECK_FALSE(s.write_allocate);
  CHECK(s.hit_latency == 35);
  CHECK(s.mshr_entries == 32);
  CHECK(s.mshr_max_merge == 8);
}

TEST_CASE("48 KB L1 (cudaFuncCachePreferL1) is 64 sets x 6 ways", "[cache][config]") {
  Json doc = c2070_l1();
  doc["size_bytes"] = 49152;
  doc["ways"] = 6;
  ConfigReader r(doc, "test.json", "l1");
  CacheSpec s = parse_cache_spec(r);
  CHECK(s.sets == 64);
}

TEST_CASE("C2070 L2 section: 768 KB over 6 channels x 2 slices = 64 sets x 8 ways each", "[cache][config]") {
  Json doc = c2070_l2();
  ConfigReader r(doc, "test.json", "l2");
  L2Spec l2 = parse_l2_spec(r, 6);
  r.finish();
  CHECK(l2.slices == 12);
  CHECK(l2.total_bytes == 786432);
  CHECK(l2.slice.size_bytes == 65536);
  CHECK(l2.slice.sets == 64);
  CHECK(l2.slice.ways == 8);
  CHECK(l2.slice.sectors_per_line() == 4);
  CHECK(l2.slice.index == IndexFunction::XorFold);
  CHECK(l2.slice.local_write_policy == WritePolicy::WriteBack);
}

TEST_CASE("cache config errors name the file and key path", "[cache][config]") {
  SECTION("sets not a power of two") {
    Json doc = c2070_l1();
    doc["size_bytes"] = 49152;  // with 4 ways: 96 sets
    doc["index"] = "linear";
    CHECK(l1_error(doc) ==
          "test.json: l1.size_bytes: 49152 bytes with line_bytes 128 and ways 4 gives 96 sets; "
          "the set count must be a power of two");
  }
  SECTION("size not a multiple of a set") {
    Json doc = c2070_l1();
    doc["size_bytes"] = 16000;
    CHECK(l1_error(doc) == "test.json: l1.size_bytes: 16000 bytes is not a multiple of line_bytes * ways = 128 * 4");
  }
  SECTION("unknown replacement policy lists the valid names") {
    Json doc = c2070_l1();
    doc["replacement"] = "plru";
    CHECK(l1_error(doc) == "test.json: l1.replacement: \"plru\" is not one of: lru, fifo");
  }
  SECTION("missing key") {
    Json doc = c2070_l1();
    doc.erase("ways");
    CHECK(l1_error(doc) == "test.json: l1.ways: missing required key");
  }
  SECTION("unknown key is reported by finish()") {
    Json doc = c2070_l1();
    doc["assoc"] = 4;
    CHECK(l1_error(doc) == "test.json: l1.assoc: unknown key");
  }
  SECTION("line size must be a power of two") {
    Json doc = c2070_l1();
    doc["line_bytes"] = 96;
    CHECK(l1_error(doc) == "test.json: l1.line_bytes: expected a power of two, got 96");
  }
  SECTION("sector larger than the line") {
    Json doc = c2070_l1();
    doc["sector_bytes"] = 256;
    CHECK(l1_error(doc) == "test.json: l1.sector_bytes: 256 is larger than line_bytes (128)");
  }
  SECTION("ways within the supported range") {
    Json doc = c2070_l1();
    doc["ways"] = 128;
    CHECK(l1_error(doc) == "test.json: l1.ways: 128 ways (1 to 64 are supported)");
  }
  SECTION("fermi_hash needs 32 or 64 sets") {
    Json doc = c2070_l1();
    doc["size_bytes"] = 32768;  // 64 sets x 4 ways is fine ...
    CHECK(l1_error(doc) == "");
    doc["size_bytes"] = 65536;  // ... 128 sets is not
    CHECK(l1_error(doc) ==
          "test.json: l1.index: 65536 bytes with line_bytes 128 and ways 4 gives 128 sets; index fermi_hash needs "
          "128-byte lines and 32 or 64 sets");
  }
  SECTION("slice_xor is for L2 slices") {
    Json doc = c2070_l1();
    doc["index"] = "slice_xor";
    CHECK(l1_error(doc) ==
          "test.json: l1.index: slice_xor numbers a line among the lines of its L2 slice (its address with the "
          "DRAM channel removed); only an l2 section has slices: use xor");
  }
  SECTION("invalidate_on_write needs write-through") {
    Json doc = c2070_l1();
    doc["write_policy"] = "write_back";
    CHECK(l1_error(doc).rfind("test.json: l1.invalidate_on_write: needs write_policy", 0) == 0);
  }
  SECTION("write policy is a choice") {
    Json doc = c2070_l1();
    doc["write_policy"] = "write_around";
    CHECK(l1_error(doc) == "test.json: l1.write_policy: \"write_around\" is not one of: write_back, write_through");
  }
  SECTION("MSHR counts must be positive") {
    Json doc = c2070_l1();
    doc["mshr_entries"] = 0;
    CHECK(l1_error(doc) == "test.json: l1.mshr_entries: expected a positive integer, got 0");
  }
  SECTION("a note for a key that does not exist") {
    Json doc = c2070_l1();
    doc["notes"]["assoc"] = "typo";
    CHECK(l1_error(doc) == "test.json: l1.notes.assoc: note for a key that this object does not have");
  }
}

TEST_CASE("cache_geometry_problem: the rules of a cache section and of a carveout split's L1", "[cache][config]") {
  CacheGeometry g{16384, 128, 128, 4, IndexFunction::FermiHash};  // the C2070 L1: 32 sets
  CHECK_FALSE(cache_geometry_problem(g, "an L1 of 16384 bytes"));
  auto problem = [&] {
    auto p = cache_geometry_problem(g, fmt::format("an L1 of {} bytes", g.size_bytes));
    return p ? std::string(p->key) + ": " + p->why : std::string();
  };
  g.sector_bytes = 2;
  CHECK(problem() == "sector_bytes: 64 sectors per line (line_bytes 128 / sector_bytes 2); at most 32");
  g.sector_bytes = 128, g.ways = 65;
  CHECK(problem() == "ways: 65 ways (1 to 64 are supported)");
  g.ways = 5;
  CHECK(problem() == "size_bytes: an L1 of 16384 bytes is not a multiple of line_bytes * ways = 128 * 5");
  g.ways = 4, g.size_bytes = 49152;
  CHECK(problem() == "size_bytes: an L1 of 49152 bytes with line_bytes 128 and ways 4 gives 96 sets; the set count "
                     "must be a power of two");
  g.size_bytes = 65536;
  CHECK(problem() == "index: an L1 of 65536 bytes with line_bytes 128 and ways 4 gives 128 sets; index fermi_hash "
                     "needs 128-byte lines and 32 or 64 sets");
  g.index = IndexFunction::Linear;
  CHECK(problem() == "");
}

TEST_CASE("L2 errors explain the per-slice arithmetic", "[cache][config]") {
  Json doc = c2070_l2();
  doc["ways"] = 16;  // 65536 / (128 * 16) = 32 sets: fine
  {
    ConfigReader r(doc, "test.json", "l2");
    CHECK(parse_l2_spec(r, 6).slice.sets == 32);
  }
  doc["ways"] = 12;  // 65536 / (128 * 12) is not integral
  ConfigReader r(doc, "test.json", "l2");
  try {
    parse_l2_spec(r, 6);
    FAIL("no error");
  } catch (const ConfigError& e) {
    CHECK(std::string(e.what()) ==
          "test.json: l2.size_bytes: 65536 bytes per slice (786432 / 12 slices (6 channels x 2 "
          "slices_per_channel)) is not a multiple of line_bytes * ways = 128 * 12");
  }
}

TEST_CASE("fetch_bytes: a power of two from sector_bytes to line_bytes, sector_bytes by default", "[cache][config]") {
  Json doc = c2070_l1();
  doc["sector_bytes"] = 32;
  {
    ConfigReader r(doc, "test.json", "l1");
    CHECK(parse_cache_spec(r).fetch_bytes == 32);
  }
  doc["fetch_bytes"] = 64;
  {
    ConfigReader r(doc, "test.json", "l1");
    CHECK(parse_cache_spec(r).fetch_bytes == 64);
  }
  for (int bad : {16, 48, 256}) {
    INFO(bad);
    doc["fetch_bytes"] = bad;
    const std::string e = l1_error(doc);
    CHECK_THAT(e, Catch::Contains("l1.fetch_bytes") && Catch::Contains("power of two from sector_bytes (32)"));
  }
}
