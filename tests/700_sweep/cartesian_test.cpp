// The cartesian product: its size, its order (first axis slowest) and linked axes.
#include "sweep_fixture.hpp"

using warpsim::sweep::cartesian;
using warpsim::sweep::describe;
using warpsim::sweep::parse_axes;

TEST_CASE("points are ordered like nested loops in --vary order", "[sweep][cartesian]") {
  auto axes = parse_axes({"dram.channels=2,4", "var:n=10,20,30"});
  auto points = cartesian(axes);
  REQUIRE(points.size() == 6);
  std::vector<std::string> got;
  for (const auto& p : points) got.push_back(describe(axes, p));
  CHECK(got == std::vector<std::string>{"dram.channels=2 var:n=10", "dram.channels=2 var:n=20",
                                        "dram.channels=2 var:n=30", "dram.channels=4 var:n=10",
                                        "dram.channels=4 var:n=20", "dram.channels=4 var:n=30"});
  for (size_t i = 0; i < points.size(); ++i) CHECK(points[i].index == i);
}

TEST_CASE("three axes: 2 x 3 x 2 points, the last one fastest", "[sweep][cartesian]") {
  auto axes = parse_axes({"a.x=1,2", "b.y=p,q,r", "c.z=7,8"});
  auto points = cartesian(axes);
  REQUIRE(points.size() == 12);
  CHECK(points[0].value_index == std::vector<size_t>{0, 0, 0});
  CHECK(points[1].value_index == std::vector<size_t>{0, 0, 1});
  CHECK(points[2].value_index == std::vector<size_t>{0, 1, 0});
  CHECK(points[6].value_index == std::vector<size_t>{1, 0, 0});
  CHECK(points[11].value_index == std::vector<size_t>{1, 2, 1});
}

TEST_CASE("a linked axis adds no dimension and takes its axis' index", "[sweep][cartesian]") {
  auto axes = parse_axes({"dram.banks=4,8,16", "var:n=1,2", "dram.address_map.bits@dram.banks=A,B,C"});
  auto points = cartesian(axes);
  REQUIRE(points.size() == 6);
  for (const auto& p : points) CHECK(p.value_index[2] == p.value_index[0]);
  CHECK(describe(axes, points[5]) == "dram.banks=16 var:n=2 dram.address_map.bits@dram.banks=C");
}

TEST_CASE("progress lines shorten long values to head...tail", "[sweep][cartesian]") {
  auto axes = parse_axes({"dram.address_map.bits=dramid@8;0000RRRR.RRRRRRRR.BBBCCCCB.CCSSSSSS,short"});
  auto points = cartesian(axes);
  CHECK(describe(axes, points[0], 20) == "dram.address_map.bits=drami...CCB.CCSSSSSS");
  CHECK(describe(axes, points[1], 20) == "dram.address_map.bits=short");
  CHECK(describe(axes, points[0]).size() == 22 + 44);
}

TEST_CASE("a single axis with a single value is one point", "[sweep][cartesian]") {
  auto axes = parse_axes({"sm.count=14"});
  auto points = cartesian(axes);
  REQUIRE(points.size() == 1);
  CHECK(describe(axes, points[0]) == "sm.count=14");
}
