// The trace driver: line format, errors naming file:line, back-pressure in arrival order,
// and agreement between the stream and in-memory drivers.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <sstream>

#include "dram_test_util.hpp"
#include "sim/foundation/error.hpp"
#include "sim/memory/dram_report.hpp"
#include "sim/memory/dram_trace.hpp"

using namespace dramtest;
using Catch::Matchers::Contains;

namespace {

DramRunResult run_text(const DramSpec& s, const std::string& text,
                       std::vector<DramCompletion>* c = nullptr) {
  std::istringstream in(text);
  return run_dram_trace(s, in, "t.trace", c);
}

}  // namespace

TEST_CASE("Trace lines: fields, separators, comments", "[dram][trace]") {
  TraceRequest r;
  REQUIRE(parse_trace_line("0 R 0x100", "t", 1, r));
  CHECK((r.arrival == 0 && !r.write && r.addr == 0x100 && r.bytes == 0));
  REQUIRE(parse_trace_line("5, W, 4096, 64", "t", 2, r));
  CHECK((r.arrival == 5 && r.write && r.addr == 4096 && r.bytes == 64));
  REQUIRE(parse_trace_line("  7\tread 0xAbC # why", "t", 3, r));
  CHECK((r.arrival == 7 && !r.write && r.addr == 0xABC));
  REQUIRE(parse_trace_line("9 WRITE 12\r", "t", 4, r));
  CHECK(r.write);
  CHECK_FALSE(parse_trace_line("# arrival op address", "t", 5, r));
  CHECK_FALSE(parse_trace_line("   ", "t", 6, r));
  CHECK_FALSE(parse_trace_line("", "t", 7, r));
}

TEST_CASE("Malformed trace lines name file and line", "[dram][trace]") {
  DramSpec s = preset("fx5800");
  CHECK_THROWS_WITH(run_text(s, "# header\n0 R 0\nx R 0\n"), Contains("t.trace:3: bad arrival cycle \"x\""));
  CHECK_THROWS_WITH(run_text(s, "1 Q 0\n"), Contains("t.trace:1: bad operation \"Q\""));
  CHECK_THROWS_WITH(run_text(s, "1 R\n"), Contains("t.trace:1: expected ARRIVAL OP ADDRESS [BYTES]"));
  CHECK_THROWS_WITH(run_text(s, "1 R 0xZZ\n"), Contains("t.trace:1: bad address \"0xZZ\""));
  CHECK_THROWS_WITH(run_text(s, "1 R 0 0\n"), Contains("t.trace:1: bad size \"0\""));
  CHECK_THROWS_WITH(run_text(s, "1 R 0 32 9\n"), Contains("t.trace:1: unexpected field \"9\""));
  CHECK_THROWS_WITH(run_text(s, "10 R 0\n\n5 R 0\n"),
                    Contains("t.trace:3: arrival cycle 5 is earlier than the previous request's 10"));
  CHECK_THROWS_WITH(run_text(s, "0 R 0\n1 R 0xF0 64\n"),
                    Contains("t.trace:2: DRAM request 1 at 0xf0 of 64 bytes spans more than one DRAM row"));
}

TEST_CASE("Trace run: total cycles and statistics", "[dram][trace]") {
  DramSpec s = preset("fx5800");
  DramRunResult r = run_text(s, "# one isolated read\n100 R 0x0\n");
  CHECK(r.requests == 1);
  CHECK(r.cycles == 100 + 12 + 10 + 2);
  CHECK(r.stats.dram_cycles == r.cycles);
  CHECK(r.stats.read_transactions == 1);
  CHECK(r.stats.row_misses == 1);
  DramRunResult empty = run_text(s, "# nothing\n");
  CHECK(empty.requests == 0);
  CHECK(empty.cycles == 0);
}

TEST_CASE("Back-pressure keeps arrival order across channels", "[dram][trace]") {
  DramSpec s = preset("fx5800");
  // 17 row hits to channel 0 (queue 16), then one read to channel 1, all at cycle 0. The
  // 17th waits for the first RD (cycle 12) to free a slot and enters at 13; the channel-1
  // read is behind it in the trace, so it enters at 13 too instead of at 0.
  std::string text;
  for (int c = 0; c < 17; ++c) text += fmt::format("0 R {}\n", (c / 8) * 2048 + (c % 8) * 32);
  text += "0 R 0x100\n";
  std::vector<DramCompletion> done;
  DramRunResult r = run_text(s, text, &done);
  REQUIRE(done.size() == 18);
  uint64_t ch1 = 0;
  for (auto& c : done)
    if (c.id == 17) ch1 = c.cycle;
  CHECK(ch1 == 13 + 12 + 10 + 2);
  CHECK(r.cycles == 12 + 16 * 2 + 10 + 2);
  CHECK(r.stats.channels[1].reads == 1);
}

TEST_CASE("Stream and in-memory drivers agree", "[dram][trace]") {
  DramSpec s = preset("c2070");
  std::vector<TraceRequest> reqs;
  std::string text = "# arrival op address bytes\n";
  uint64_t t = 0, x = 12345;
  for (int i = 0; i < 2000; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    t += (x >> 60) % 3;
    TraceRequest q{t, (x >> 20) % (uint64_t(1) << 28) & ~uint64_t(63), 0, (x >> 40) % 3 == 0};
    reqs.push_back(q);
    text += fmt::format("{} {} 0x{:x}\n", q.arrival, q.write ? "W" : "R", q.addr);
  }
  DramRunResult a = run_text(s, text);
  DramRunResult b = run_dram_requests(s, reqs);
  CHECK(a.requests == 2000);
  CHECK(a.cycles == b.cycles);
  CHECK(a.stats.row_hits == b.stats.row_hits);
  CHECK(a.stats.write_transactions == b.stats.write_transactions);
  CHECK(a.stats.write_transactions > 0);
  CHECK(a.stats.read_transactions + a.stats.write_transactions == 2000 * 2);  // 64-byte atoms
}

TEST_CASE("Report: nvprof-style metric names and per-bank counts", "[dram][trace]") {
  DramSpec s = preset("fx5800");
  DramRunResult r = run_text(s, "0 R 0x0\n0 R 0x20\n1 W 0x100\n2 R 0x20000\n");
  Json m = dram_metrics_json(r.stats);
  for (const char* k : {"dram_read_transactions", "dram_write_transactions", "dram_read_bytes",
                        "dram_write_bytes", "dram_utilization", "dram_row_hits", "dram_row_misses",
                        "dram_row_conflicts", "dram_bank_level_parallelism",
                        "achieved_dram_bandwidth_gbps", "dram_cycles"})
    CHECK(m.contains(k));
  CHECK(m["dram_read_transactions"] == 3);
  CHECK(m["dram_write_bytes"] == 32);
  CHECK(m["dram_row_hits"] == 1);
  CHECK(m["dram_row_conflicts"] == 1);
  CHECK(m["dram_cycles"] == r.cycles);
  Json d = dram_section_json(r.stats);
  REQUIRE(d["channels"].size() == 8);
  CHECK(d["channels"][0]["reads"] == 3);
  CHECK(d["channels"][0]["banks"].size() == 8);
  CHECK(d["channels"][0]["banks"][0]["row_conflicts"] == 1);
  CHECK(d["channels"][1]["writes"] == 1);
  const std::string text = dram_summary_text(r.stats);
  CHECK_THAT(text, Contains("requests           4 (3 reads, 1 writes)"));
  CHECK_THAT(text, Contains("row conflicts      1 (25.0%)"));
}
