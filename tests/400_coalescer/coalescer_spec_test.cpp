// The "coalescer" config object: strict parsing, required rule name, rule-specific keys.
#include <catch2/catch.hpp>

#include "sim/memory/coalescer.hpp"

using warpsim::ConfigError;
using warpsim::ConfigReader;
using warpsim::Json;
using namespace warpsim::mem;

namespace {
CoalescerSpec parse(const char* text) {
  Json doc = Json::parse(text);
  ConfigReader top(doc, "test.json");
  ConfigReader r = top.child("coalescer");
  return parse_coalescer_spec(r);
}

std::string parse_error(const char* text) {
  try {
    parse(text);
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}
}  // namespace

TEST_CASE("coalescer spec: the FX5800 and C2070 sections", "[coalescer][config]") {
  auto fx = parse(R"({"coalescer": {"rules": "cc1.3", "subwarp_size": 16, "notes": {"rules": "PG"}}})");
  CHECK(fx.rules == CoalescerRules::Cc13);
  CHECK(fx.subwarp_size == 16);
  auto c2070 = parse(
      R"({"coalescer": {"rules": "cc2.0", "subwarp_size": 32, "l1_caching": true, "l2_only_transactions": "segment32"}})");
  CHECK(c2070.rules == CoalescerRules::Cc20);
  CHECK(c2070.subwarp_size == 32);
  CHECK(c2070.l1_caching);
  CHECK(c2070.l2_only == L2OnlyTransactions::Segment32);
  auto seg = parse(R"({"coalescer": {"rules": "segments", "subwarp_size": 16, "segment_bytes": 64}})");
  CHECK(seg.rules == CoalescerRules::Segments);
  CHECK(seg.segment_bytes == 64);
  CHECK(rules_name(CoalescerRules::Sector32) == "sector32");
}

TEST_CASE("coalescer spec: errors name the key", "[coalescer][config]") {
  CHECK_THAT(parse_error(R"({"coalescer": {"subwarp_size": 16}})"),
             Catch::Contains("coalescer.rules: missing required key"));
  CHECK_THAT(parse_error(R"({"coalescer": {"rules": "cc3.0", "subwarp_size": 16}})"),
             Catch::Contains("coalescer.rules") && Catch::Contains("not one of"));
  CHECK_THAT(parse_error(R"({"coalescer": {"rules": "cc1.3", "subwarp_size": 16, "l1_caching": true}})"),
             Catch::Contains("coalescer.l1_caching: only applies to rules \"cc2.0\""));
  CHECK_THAT(parse_error(R"({"coalescer": {"rules": "cc1.0", "subwarp_size": 8}})"),
             Catch::Contains("coalescer.subwarp_size"));
  CHECK_THAT(parse_error(R"({"coalescer": {"rules": "cc1.3", "subwarp_size": 12}})"),
             Catch::Contains("power of two"));
  CHECK_THAT(parse_error(R"({"coalescer": {"rules": "cc1.3", "subwarp_size": 64}})"),
             Catch::Contains("coalescer.subwarp_size"));
  CHECK_THAT(parse_error(R"({"coalescer": {"rules": "cc2.0", "subwarp_size": 32, "l1_caching": true}})"),
             Catch::Contains("coalescer.l2_only_transactions: missing required key"));
  CHECK_THAT(parse_error(R"({"coalescer": {"rules": "segments", "subwarp_size": 16}})"),
             Catch::Contains("coalescer.segment_bytes: missing required key"));
  CHECK_THAT(parse_error(R"({"coalescer": {"rules": "sector32", "subwarp_size": 32, "segment_bytes": 32}})"),
             Catch::Contains("only applies to rules \"segments\""));
  CHECK_THAT(parse_error(R"({"coalescer": {"rules": "cc1.3", "subwarp_size": 16, "lines": 4}})"),
             Catch::Contains("coalescer.lines: unknown key"));
}
