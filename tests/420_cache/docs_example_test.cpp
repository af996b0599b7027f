// The JSON examples in docs/memory-hierarchy.md parse with the real parsers (notes
// included), so the documented C2070 / FX5800 sections cannot drift from the schema.
#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sim/foundation/config_reader.hpp"
#include "sim/memory/cache_spec.hpp"
#include "sim/memory/interconnect_spec.hpp"

using namespace warpsim;
using namespace warpsim::mem;

namespace {

// Each ```json block of the page, wrapped in braces (the blocks are object members).
std::vector<Json> doc_examples() {
  std::ifstream in(std::string(WARPSIM_SOURCE_DIR) + "/docs/memory-hierarchy.md");
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  std::string text = ss.str();
  std::vector<Json> out;
  const std::string open = "```json\n", close = "```";
  for (size_t p = text.find(open); p != std::string::npos; p = text.find(open, p)) {
    size_t b = p + open.size();
    size_t e = text.find(close, b);
    REQUIRE(e != std::string::npos);
    std::string object = "{";  // built in place: GCC 12 warns falsely on "{" + std::string&&
    object.append(text, b, e - b).append("}");
    out.push_back(Json::parse(object));
    p = e + close.size();
  }
  return out;
}

}  // namespace

TEST_CASE("documented C2070 l1, l2 and interconnect sections parse", "[cache][config][docs]") {
  std::vector<Json> ex = doc_examples();
  REQUIRE(ex.size() == 2);
  const Json& c2070 = ex[0];

  ConfigReader l1r(c2070.at("l1"), "docs", "l1");
  CacheSpec l1 = parse_cache_spec(l1r);
  l1r.finish();
  CHECK(l1.sets == 32);
  CHECK(l1.ways == 4);
  CHECK(l1.index == IndexFunction::FermiHash);
  CHECK(l1.write_policy == WritePolicy::WriteThrough);
  CHECK(l1.local_write_policy == WritePolicy::WriteBack);
  CHECK(l1.invalidate_on_write);
  CHECK(l1.hit_latency == 35);

  ConfigReader l2r(c2070.at("l2"), "docs", "l2");
  L2Spec l2 = parse_l2_spec(l2r, 6);
  l2r.finish();
  CHECK(l2.slices == 12);
  CHECK(l2.slice.size_bytes == 65536);
  CHECK(l2.slice.sets == 64);
  CHECK(l2.slice.ways == 8);
  CHECK(l2.slice.sectors_per_line() == 4);
  CHECK(l2.slice.index == IndexFunction::XorFold);
  CHECK(l2.slice.write_policy == WritePolicy::WriteBack);
  CHECK(l2.slice.write_allocate);
  CHECK(l2.slice.hit_latency == 120);
  CHECK(l2.slice.mshr_max_merge == 4);

  ConfigReader ir(c2070.at("interconnect"), "docs", "interconnect");
  InterconnectSpec icnt = parse_interconnect_spec(ir);
  ir.finish();
  CHECK(icnt.flit_bytes == 32);
  CHECK(icnt.cycles_per_flit == 2);
  CHECK(icnt.ports_for_sms(14) == 14);
}

TEST_CASE("documented FX5800 interconnect section parses", "[icnt][config][docs]") {
  std::vector<Json> ex = doc_examples();
  REQUIRE(ex.size() == 2);
  const Json& fx = ex[1];
  CHECK_FALSE(fx.contains("l1"));
  CHECK_FALSE(fx.contains("l2"));
  ConfigReader ir(fx.at("interconnect"), "docs", "interconnect");
  InterconnectSpec icnt = parse_interconnect_spec(ir);
  ir.finish();
  CHECK(icnt.ports_for_sms(30) == 10);
}
