// CSV quoting and reading back.
#include "sweep_fixture.hpp"

using namespace warpsim;

TEST_CASE("fields are quoted only when they must be", "[sweep][csv]") {
  CHECK(csv::quote("dram.banks") == "dram.banks");
  CHECK(csv::quote("") == "");
  CHECK(csv::quote("1,2") == "\"1,2\"");
  CHECK(csv::quote("say \"hi\"") == "\"say \"\"hi\"\"\"");
  CHECK(csv::quote("two\nlines") == "\"two\nlines\"");
  CHECK(csv::quote(" padded") == "\" padded\"");
  CHECK(csv::quote("dramid@8;0000RRRR.BBBCCCCB") == "dramid@8;0000RRRR.BBBCCCCB");
  CHECK(csv::format_row({"a", "b,c", ""}) == "a,\"b,c\",\n");
}

TEST_CASE("a table reads back exactly what was written", "[sweep][csv]") {
  std::vector<std::vector<std::string>> rows = {
      {"dram.banks", "status"}, {"4", "ok"}, {"3", "c.json: dram.banks: expected a power of two, got 3"},
      {"x,y", "he said \"no\"\nthen left"}, {"", ""}};
  std::string text;
  for (const auto& r : rows) text += csv::format_row(r);
  csv::Table t = csv::parse(text, "t.csv");
  CHECK(t.header == rows[0]);
  REQUIRE(t.rows.size() == 4);
  for (size_t i = 0; i < 4; ++i) CHECK(t.rows[i] == rows[i + 1]);
  CHECK(t.column("status") == 1);
  CHECK(t.column("nope") == -1);
}

TEST_CASE("CRLF line ends, a missing final newline and blank lines are accepted", "[sweep][csv]") {
  csv::Table t = csv::parse("a,b\r\n1,2\r\n\r\n3,\"4\"", "t.csv");
  REQUIRE(t.rows.size() == 2);
  CHECK(t.rows[1] == std::vector<std::string>{"3", "4"});
}

TEST_CASE("malformed CSV is an error naming the line", "[sweep][csv]") {
  CHECK_THROWS_WITH(csv::parse("a,b\n1,2,3\n", "t.csv"), "t.csv:2: 3 fields, but the header has 2");
  CHECK_THROWS_WITH(csv::parse("a,b\n1,\"2\n", "t.csv"), "t.csv:2: unterminated quoted field");
  CHECK_THROWS_WITH(csv::parse("a,b\n1,x\"y\"\n", "t.csv"), "t.csv:2: a quote inside an unquoted field");
  CHECK_THROWS_WITH(csv::parse("", "t.csv"), "t.csv: empty CSV (no header)");
  CHECK_THROWS_WITH(csv::read_file("/nonexistent/x.csv"), "/nonexistent/x.csv: cannot open file");
}
