// The "shared" config object: strict parsing of the bank parameters.
#include <catch2/catch.hpp>

#include "sim/sm/shared_banks.hpp"

using warpsim::ConfigError;
using warpsim::ConfigReader;
using warpsim::Json;
using namespace warpsim::sm;

namespace {
SharedBankSpec parse(const char* text) {
  Json doc = Json::parse(text);
  ConfigReader top(doc, "test.json");
  ConfigReader r = top.child("shared");
  return parse_shared_bank_spec(r);
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

TEST_CASE("shared bank spec: the FX5800 and C2070 sections", "[banks][config]") {
  auto fx = parse(R"({"shared": {"rules": "cc1", "banks": 16, "bank_width": 4, "partition": 16}})");
  CHECK(fx.rules == BankRules::Cc1);
  CHECK(fx.banks == 16);
  CHECK(fx.bank_width == 4);
  CHECK(fx.partition == 16);
  auto c = parse(R"({"shared": {"rules": "cc2", "banks": 32, "bank_width": 4, "partition": 32,
                                "notes": {"banks": "PG"}}})");
  CHECK(c.rules == BankRules::Cc2);
  CHECK(c.banks == 32);
  CHECK(c.partition == 32);
}

TEST_CASE("shared bank spec: errors name the key", "[banks][config]") {
  CHECK_THAT(parse_error(R"({"shared": {"banks": 16, "bank_width": 4, "partition": 16}})"),
             Catch::Contains("shared.rules: missing required key"));
  CHECK_THAT(parse_error(R"({"shared": {"rules": "cc3", "banks": 16, "bank_width": 4, "partition": 16}})"),
             Catch::Contains("shared.rules"));
  CHECK_THAT(parse_error(R"({"shared": {"rules": "cc1", "banks": 12, "bank_width": 4, "partition": 16}})"),
             Catch::Contains("shared.banks") && Catch::Contains("power of two"));
  CHECK_THAT(parse_error(R"({"shared": {"rules": "cc1", "banks": 16, "bank_width": 4, "partition": 64}})"),
             Catch::Contains("shared.partition"));
  CHECK_THAT(parse_error(R"({"shared": {"rules": "cc1", "banks": 16, "partition": 16}})"),
             Catch::Contains("shared.bank_width: missing required key"));
  CHECK_THAT(
      parse_error(R"({"shared": {"rules": "cc1", "banks": 16, "bank_width": 4, "partition": 16, "ways": 2}})"),
      Catch::Contains("shared.ways: unknown key"));
}
