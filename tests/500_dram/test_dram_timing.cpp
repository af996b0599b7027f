// The generic timing engine: for each constraint a command one cycle early is refused and
// on the cycle is accepted. The spec has every constraint distinct so each binds alone:
// BL = 2, tRCD 9, tRCDWR 7, tRP 8, tRAS 20, tRC 31, tCL 11, tWL 5, tCCD 3, tCCDL 5, tRRD 4,
// tWTR 6, tWR 10, tRTP 4, tFAW 23, tRFC 50; banks 0-3 are group 0, banks 4-7 group 1.
#include <catch2/catch.hpp>

#include "dram_test_util.hpp"
#include "sim/memory/dram_timing.hpp"

using namespace dramtest;
using C = DramCommand;

namespace {

struct Fixture {
  DramSpec spec = parse(distinct_timing_json());
  std::vector<TimingConstraint> table = build_timing_table(spec);
  TimingEngine e{table, spec.banks, spec.bank_groups};
};

// `c` to `bank` is refused at expected - 1 and accepted at expected.
void boundary(const TimingEngine& e, C c, uint32_t bank, uint64_t expected) {
  INFO(command_name(c) << " to bank " << bank);
  CHECK(e.ready_cycle(c, bank) == expected);
  CHECK_FALSE(e.can_issue(c, bank, expected - 1));
  CHECK(e.can_issue(c, bank, expected));
}

}  // namespace

TEST_CASE("Timing boundaries, one constraint at a time", "[dram][timing]") {
  Fixture f;
  TimingEngine& e = f.e;
  SECTION("tRCD: ACT -> RD") {
    e.issue(C::ACT, 0, 100);
    boundary(e, C::RD, 0, 109);
  }
  SECTION("tRCDWR: ACT -> WR") {
    e.issue(C::ACT, 0, 100);
    boundary(e, C::WR, 0, 107);
  }
  SECTION("tRAS: ACT -> PRE") {
    e.issue(C::ACT, 0, 100);
    boundary(e, C::PRE, 0, 120);
  }
  SECTION("tRC: ACT -> ACT same bank (tRC > tRAS + tRP)") {
    e.issue(C::ACT, 0, 100);
    e.issue(C::PRE, 0, 120);
    boundary(e, C::ACT, 0, 131);
  }
  SECTION("tRP: PRE -> ACT") {
    e.issue(C::ACT, 0, 100);
    e.issue(C::PRE, 0, 125);
    boundary(e, C::ACT, 0, 133);
  }
  SECTION("tRRD: ACT -> ACT other bank") {
    e.issue(C::ACT, 0, 100);
    boundary(e, C::ACT, 1, 104);
    boundary(e, C::ACT, 5, 104);
  }
  SECTION("tFAW: fifth ACT in the window") {
    e.issue(C::ACT, 0, 100);
    e.issue(C::ACT, 1, 105);
    e.issue(C::ACT, 2, 109);
    e.issue(C::ACT, 3, 113);
    boundary(e, C::ACT, 4, 123);  // tRRD alone would allow 117
    e.issue(C::ACT, 4, 123);
    boundary(e, C::ACT, 5, 128);  // window now starts at the ACT of 105; tRRD allows 127
  }
  SECTION("tCCD: column -> column, other bank group") {
    e.issue(C::RD, 0, 100);
    boundary(e, C::RD, 4, 103);
    Fixture g;
    g.e.issue(C::WR, 0, 100);
    boundary(g.e, C::WR, 4, 103);
  }
  SECTION("tCCDL: column -> column, same bank group") {
    e.issue(C::RD, 0, 100);
    boundary(e, C::RD, 1, 105);
    boundary(e, C::RD, 3, 105);
    Fixture g;
    g.e.issue(C::WR, 4, 100);
    boundary(g.e, C::WR, 7, 105);
  }
  SECTION("tWTR: WR -> RD is tWL + BL + tWTR") {
    e.issue(C::WR, 0, 100);
    boundary(e, C::RD, 4, 100 + 5 + 2 + 6);
  }
  SECTION("read-to-write turnaround: tCL + BL + 2 - tWL") {
    e.issue(C::RD, 0, 100);
    boundary(e, C::WR, 4, 100 + 11 + 2 + 2 - 5);
  }
  SECTION("tWR: WR -> PRE is tWL + BL + tWR") {
    e.issue(C::ACT, 0, 100);
    e.issue(C::WR, 0, 107);
    boundary(e, C::PRE, 0, 107 + 5 + 2 + 10);
  }
  SECTION("tRTP: RD -> PRE") {
    e.issue(C::ACT, 0, 100);
    e.issue(C::RD, 0, 118);
    boundary(e, C::PRE, 0, 122);  // tRAS alone would allow 120
  }
  SECTION("tRFC: REF -> ACT and REF -> REF") {
    e.issue(C::REF, 0, 100);
    boundary(e, C::ACT, 3, 150);
    boundary(e, C::ACT, 6, 150);
    boundary(e, C::REF, 0, 150);
  }
  SECTION("tRP before REF: PRE -> REF") {
    e.issue(C::PRE, 2, 100);
    boundary(e, C::REF, 0, 108);
  }
  SECTION("constraints of one bank leave the others alone") {
    e.issue(C::ACT, 0, 100);
    CHECK(e.ready_cycle(C::RD, 1) == 0);
    CHECK(e.ready_cycle(C::PRE, 1) == 0);
    CHECK(e.ready_cycle(C::ACT, 1) == 104);
  }
}

TEST_CASE("The engine enforces any table, including bank-level windows", "[dram][timing]") {
  // Not a DRAM standard: at most 2 RDs per bank in any 10 cycles, and RD -> ACT 3 per group.
  std::vector<TimingConstraint> t = {
      {"X", TimingLevel::Bank, C::RD, C::RD, 10, 2},
      {"Y", TimingLevel::BankGroup, C::RD, C::ACT, 3},
  };
  TimingEngine e(t, 4, 2);
  e.issue(C::RD, 1, 0);
  CHECK(e.ready_cycle(C::RD, 1) == 0);  // only one in the window so far
  e.issue(C::RD, 1, 1);
  boundary(e, C::RD, 1, 10);
  CHECK(e.ready_cycle(C::RD, 0) == 0);  // other bank untouched
  boundary(e, C::ACT, 0, 4);            // same group as bank 1
  CHECK(e.ready_cycle(C::ACT, 2) == 0); // other group
  e.issue(C::RD, 1, 10);
  boundary(e, C::RD, 1, 11);  // window now starts at the RD of cycle 1
}

TEST_CASE("Timing table lists every modelled constraint", "[dram][timing]") {
  Fixture f;
  std::vector<std::string> names;
  for (const auto& c : f.table) names.emplace_back(c.name);
  for (const char* n : {"tRC", "tRAS", "tRCD", "tRCDWR", "tRP", "tRTP", "tWR", "tCCD", "tCCDL",
                        "tRTW", "tWTR", "tRRD", "tFAW", "tRFC"})
    CHECK(std::find(names.begin(), names.end(), n) != names.end());
  // Without bank groups, FAW or refresh those rows are absent.
  DramSpec plain = preset("fx5800");
  for (const auto& c : build_timing_table(plain)) {
    CHECK(c.name != "tCCDL");
    CHECK(c.name != "tFAW");
    CHECK(c.name != "tRFC");
  }
}
