// Kirk & Hwu ch. 5.2: "if the ratio of DRAM cell array access latency to the data transfer
// time is R, we need at least R+1 banks to fully utilize the channel bus."
//
// One channel, a stream of 128-byte reads (4 bursts = T = 8 cycles of data) each to a new
// row, spread round-robin over B banks. A bank is busy tRC = 32 cycles per access (ACT,
// 4 RDs, PRE at tRAS, next ACT at tRC), of which T transfer data: R = (tRC - T) / T = 3.
#include <catch2/catch.hpp>

#include "dram_test_util.hpp"

using namespace dramtest;

namespace {

double utilization(uint32_t banks, const std::string& scheduler) {
  Json j = Json::parse(R"({
    "channels": 1, "chips_per_channel": 2, "chip_width_bits": 32, "data_rate": "DDR",
    "command_clock_mhz": 1000, "burst_length": 4, "banks": 1, "columns": 64, "queue_size": 64,
    "address_map": {"channel_interleave_bytes": 256, "scheme": "row_bank_column"},
    "timing": {"tRCD": 8, "tRP": 8, "tRAS": 24, "tRC": 32, "tCL": 8, "tWL": 4, "tCCD": 2,
               "tRRD": 2, "tWTR": 4, "tWR": 6, "tRTP": 2}
  })");
  j["banks"] = banks;
  j["scheduler"] = scheduler;
  DramSpec s = parse(j);
  const uint64_t row_bytes = s.row_bytes();  // 64 columns x 32 B
  std::vector<Arrival> reqs;
  for (uint64_t k = 0; k < 800; ++k) {
    const uint64_t bank = k % banks, row = 1 + k / banks;
    reqs.push_back({0, (row * banks + bank) * row_bytes, false, 128});
  }
  DramSystem sys(s);
  auto c = run(sys, reqs);
  uint64_t end = 0;
  for (auto& x : c) end = std::max(end, x.cycle);
  DramStats st;
  sys.fill_stats(st, end);
  CHECK(st.row_hits == 0);
  CHECK(st.read_transactions == 800 * 4);
  return st.utilization;
}

}  // namespace

TEST_CASE("Bus utilisation is 1/(R+1) with one bank and saturates near R+1 banks",
          "[dram][kirk]") {
  const double T = 8, tRC = 32, R = (tRC - T) / T;
  REQUIRE(R == 3);
  for (const char* sched : {"fr-fcfs", "fcfs"}) {
    INFO(sched);
    std::vector<double> u;
    for (uint32_t b : {1u, 2u, 4u, 8u, 16u}) u.push_back(utilization(b, sched));
    CHECK(u[0] == Approx(1 / (R + 1)).margin(0.005));  // one bank: 0.25
    CHECK(u[1] == Approx(2 / (R + 1)).margin(0.01));   // two banks: 0.5
    CHECK(u[2] > 0.95);                                 // R + 1 = 4 banks: bus nearly full
    CHECK(u[3] > u[2] - 1e-9);
    CHECK(u[3] - u[2] < 0.05);                          // more banks add little
    CHECK(u[4] - u[3] < 0.01);
    CHECK(u[4] <= 1.0);
  }
}
