// --vary parsing: keys, spec variables, linked keys, and the errors for malformed lists.
#include "sweep_fixture.hpp"

using warpsim::ConfigError;
using warpsim::sweep::Axis;
using warpsim::sweep::parse_axes;
using warpsim::sweep::parse_vary;

TEST_CASE("a config key and its values", "[sweep][vary]") {
  Axis a = parse_vary("dram.banks=1,2,4,8");
  CHECK(a.kind == Axis::Kind::Config);
  CHECK(a.key == "dram.banks");
  CHECK(a.column == "dram.banks");
  CHECK(a.values == std::vector<std::string>{"1", "2", "4", "8"});
  CHECK(a.link == -1);
  // Spaces around values are dropped; string values stay as written.
  Axis b = parse_vary("sm.scheduler_policy= lrr , gto,two_level");
  CHECK(b.values == std::vector<std::string>{"lrr", "gto", "two_level"});
  Axis c = parse_vary("dram.timing.tRCD=12");
  CHECK(c.values.size() == 1);
}

TEST_CASE("a spec variable is written var:NAME and takes integers", "[sweep][vary]") {
  Axis a = parse_vary("var:n=128,0x100,512");
  CHECK(a.kind == Axis::Kind::Var);
  CHECK(a.key == "n");
  CHECK(a.column == "var:n");
  CHECK(a.values == std::vector<std::string>{"128", "0x100", "512"});
  CHECK_THROWS_WITH(parse_vary("var:n=128,1.5"), "--vary \"var:n=128,1.5\": '1.5' is not an integer (spec variables are integers)");
  CHECK_THROWS_WITH(parse_vary("var:2n=1"), "--vary \"var:2n=1\": '2n' is not a spec variable name");
  CHECK_THROWS_WITH(parse_vary("var:=1"), "--vary \"var:=1\": '' is not a spec variable name");
}

TEST_CASE("malformed --vary arguments are errors that quote the argument", "[sweep][vary]") {
  CHECK_THROWS_WITH(parse_vary("dram.banks"),
                    "--vary \"dram.banks\": expected KEY=V1,V2,... (e.g. dram.banks=4,8,16 or var:n=1024,4096)");
  CHECK_THROWS_WITH(parse_vary("=1,2"), "--vary \"=1,2\": missing the key before '='");
  CHECK_THROWS_WITH(parse_vary("dram.banks="), "--vary \"dram.banks=\": empty value in the list (values are separated by single commas)");
  CHECK_THROWS_WITH(parse_vary("dram.banks=1,,2"), Catch::Contains("empty value in the list"));
  CHECK_THROWS_WITH(parse_vary("dram.banks=1,2,"), Catch::Contains("empty value in the list"));
  CHECK_THROWS_WITH(parse_vary("dram.banks=4,8,4"), "--vary \"dram.banks=4,8,4\": value '4' is listed twice");
  CHECK_THROWS_WITH(parse_vary("dram..banks=4"), Catch::Contains("'dram..banks' is not a config key path"));
  CHECK_THROWS_WITH(parse_vary("dram.banks[0]=4"), Catch::Contains("is not a config key path"));
  CHECK_THROWS_AS(parse_vary("x"), ConfigError);
}

TEST_CASE("a linked key follows another axis value by value", "[sweep][vary]") {
  auto axes = parse_axes({"dram.banks=4,8", "var:n=64,128,256", "dram.address_map.bits@dram.banks=A,B"});
  REQUIRE(axes.size() == 3);
  CHECK(axes[2].key == "dram.address_map.bits");
  CHECK(axes[2].column == "dram.address_map.bits@dram.banks");
  CHECK(axes[2].link == 0);
  CHECK(axes[0].link == -1);
  // A link may name a later axis too.
  auto later = parse_axes({"dram.bank_groups@dram.banks=1,2", "dram.banks=4,8"});
  CHECK(later[0].link == 1);
}

TEST_CASE("axis errors: nothing varied, twice the same key, a bad link", "[sweep][vary]") {
  CHECK_THROWS_WITH(parse_axes({}), "nothing to sweep: give at least one --vary KEY=V1,V2,...");
  CHECK_THROWS_WITH(parse_axes({"dram.banks=4,8", "dram.banks=16"}),
                    "--vary \"dram.banks=16\": dram.banks is varied twice");
  CHECK_THROWS_WITH(parse_axes({"var:n=1,2", "var:n=3"}), "--vary \"var:n=3\": var:n is varied twice");
  CHECK_THROWS_WITH(parse_axes({"dram.banks=4,8", "dram.address_map.bits@dram.channels=A,B"}),
                    "--vary \"dram.address_map.bits@dram.channels=A,B\": '@dram.channels' names no other --vary axis "
                    "(it must be an unlinked one)");
  CHECK_THROWS_WITH(parse_axes({"dram.banks=4,8", "dram.address_map.bits@dram.banks=A,B,C"}),
                    "--vary \"dram.address_map.bits@dram.banks=A,B,C\": 3 values, but dram.banks has 2");
  CHECK_THROWS_WITH(parse_vary("dram.bits@=A"), Catch::Contains("missing the followed axis after '@'"));
  // Linking to a linked axis is refused (links do not chain).
  CHECK_THROWS_WITH(parse_axes({"a.b=1,2", "c.d@a.b=3,4", "e.f@c.d@a.b=5,6"}), Catch::Contains("names no other --vary axis"));
}
