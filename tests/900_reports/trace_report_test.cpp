// --trace-warp / --trace-limit (MemoryCounter traces, sim/report/trace_report): a traced
// warp's records carry exactly the transactions the coalescing rules give for the Best
// Practices Guide's copy kernels, the limit caps the records and counts the rest, and
// timed records have consistent cycles.
#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "report_fixture.hpp"
#include "sim/report/trace_report.hpp"
#include "sim/memory/mem_access.hpp"

using namespace warpsim;
using warpsim::test::launch_spec;

namespace {

// n = 256 threads in blocks of 128; the traced warp is warp 2 of block 1, so its lane l is
// global thread g = 1*128 + 2*32 + l = 192 + l. cudaMalloc-style buffers are 256-aligned,
// so byte offsets below are relative to an aligned base.
constexpr uint32_t kBlock = 1, kWarp = 2, kFirstThread = 192;

struct Txn {
  uint64_t offset;  // from the buffer's base
  uint32_t size, lanes;
  uint8_t sectors;
};
struct Case {
  const char* name;
  const char* spec;
  const char* var;   // "stride" or "offset"
  int64_t value;
  const char* config;
  std::vector<Txn> load, store;
  // byte offset of lane l's float
  uint64_t lane_offset(uint32_t l) const {
    const uint64_t g = kFirstThread + l;
    return std::string(var) == "stride" ? 4 * g * uint64_t(value) : 4 * (g + uint64_t(value));
  }
};

std::vector<Txn> segments32(uint64_t first, int n, uint32_t lanes_each) {
  // n consecutive 32-byte segments from `first`, `lanes_each` consecutive lanes in each.
  std::vector<Txn> v;
  const uint32_t m = lanes_each == 32 ? 0xFFFFFFFFu : (1u << lanes_each) - 1;
  for (int k = 0; k < n; ++k)
    v.push_back({first + 32u * k, 32, m << (lanes_each * k), uint8_t(1u << (((first + 32u * k) % 128) / 32))});
  return v;
}

const std::vector<Case>& cases() {
  static const std::vector<Case> c = {
      // Coalesced: lane l reads byte 768 + 4l, 128 bytes in the line at 768 (768 = 6*128).
      // cc2.0 load, cached in L1: one 128-byte line. cc2.0 store: 32-byte segments, 4 of them.
      {"strideCopy stride 1 on c2070", "kernels/memory/stride_copy.json", "stride", 1, "c2070",
       {{768, 128, 0xFFFFFFFFu, 0xF}},
       segments32(768, 4, 8)},
      // cc1.3: per half-warp, the segment (128 B for 4-byte words) reduced while only one
      // half is used: each half-warp's 64 bytes are one 64-byte transaction (loads and stores).
      {"strideCopy stride 1 on fx5800", "kernels/memory/stride_copy.json", "stride", 1, "fx5800",
       {{768, 64, 0x0000FFFFu, 0x3}, {832, 64, 0xFFFF0000u, 0xC}},
       {{768, 64, 0x0000FFFFu, 0x3}, {832, 64, 0xFFFF0000u, 0xC}}},
      // Stride 2: lane l at 1536 + 8l, 256 bytes. cc2.0: two 128-byte lines for the load,
      // eight 32-byte segments (4 lanes each) for the store.
      {"strideCopy stride 2 on c2070", "kernels/memory/stride_copy.json", "stride", 2, "c2070",
       {{1536, 128, 0x0000FFFFu, 0xF}, {1664, 128, 0xFFFF0000u, 0xF}},
       segments32(1536, 8, 4)},
      // cc1.3: each half-warp spans a whole 128-byte segment (all four 32-byte chunks used).
      {"strideCopy stride 2 on fx5800", "kernels/memory/stride_copy.json", "stride", 2, "fx5800",
       {{1536, 128, 0x0000FFFFu, 0xF}, {1664, 128, 0xFFFF0000u, 0xF}},
       {{1536, 128, 0x0000FFFFu, 0xF}, {1664, 128, 0xFFFF0000u, 0xF}}},
      // Misaligned by one float: lane l at 772 + 4l, bytes 772..899. cc2.0 load: lines 768
      // (lanes 0-30) and 896 (lane 31). Store: segments 768 (lanes 0-6), 800 (7-14),
      // 832 (15-22), 864 (23-30), 896 (31).
      {"offsetCopy offset 1 on c2070", "kernels/memory/offset_copy.json", "offset", 1, "c2070",
       {{768, 128, 0x7FFFFFFFu, 0xF}, {896, 128, 0x80000000u, 0xF}},
       {{768, 32, 0x0000007Fu, 0x1},
        {800, 32, 0x00007F80u, 0x2},
        {832, 32, 0x007F8000u, 0x4},
        {864, 32, 0x7F800000u, 0x8},
        {896, 32, 0x80000000u, 0x1}}},
      // cc1.3: half-warp 0 uses bytes 4..67 of segment 768 (chunks 0-2): 128 B. Half-warp 1:
      // lanes 16-30 use bytes 68..127 (chunks 2-3): 64 B at 832; lane 31 byte 0 of segment
      // 896: reduced to 32 B.
      {"offsetCopy offset 1 on fx5800", "kernels/memory/offset_copy.json", "offset", 1, "fx5800",
       {{768, 128, 0x0000FFFFu, 0xF}, {832, 64, 0x7FFF0000u, 0xC}, {896, 32, 0x80000000u, 0x1}},
       {{768, 128, 0x0000FFFFu, 0xF}, {832, 64, 0x7FFF0000u, 0xC}, {896, 32, 0x80000000u, 0x1}}},
  };
  return c;
}

test::Launched run_case(const Case& c, SimMode mode, uint32_t limit = 4096) {
  LaunchOptions o;
  o.mode = mode;
  o.trace_warps = {{kBlock, kWarp}};
  o.trace_limit = limit;
  return launch_spec(c.spec, c.config, {{"n", 256}, {"block_size", 128}, {c.var, c.value}}, o);
}

void check_record(const TraceRecord& r, const Case& c, uint64_t base, const std::vector<Txn>& want, uint8_t kind) {
  REQUIRE(base % 256 == 0);  // the derivation assumes an aligned buffer
  CHECK(r.space == uint8_t(isa::Space::Global));
  CHECK(r.kind == kind);
  CHECK(r.bytes_per_lane == 4);
  CHECK(r.mask == 0xFFFFFFFFu);
  REQUIRE(r.addrs.size() == 32);
  for (uint32_t l = 0; l < 32; ++l) CHECK(r.addrs[l] == base + c.lane_offset(l));
  REQUIRE(r.transactions.size() == want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("transaction " << i);
    CHECK(r.transactions[i].addr == base + want[i].offset);
    CHECK(r.transactions[i].size == want[i].size);
    CHECK(r.transactions[i].lanes == want[i].lanes);
    CHECK(r.transactions[i].sectors == want[i].sectors);
  }
}

}  // namespace

TEST_CASE("900: a traced warp's records have the transactions the coalescing rules give", "[reports][trace]") {
  for (const Case& c : cases()) {
    SECTION(c.name) {
      auto r = run_case(c, SimMode::Functional);
      REQUIRE(r.correct);
      REQUIRE(r.stats.traces.size() == 1);
      const WarpTrace& t = r.stats.traces[0];
      CHECK(t.block == kBlock);
      CHECK(t.warp == kWarp);
      CHECK(t.dropped == 0);
      // The copy kernels' global memory instructions: one load, then one store (ld.param
      // reads no global memory and is not traced).
      REQUIRE(t.records.size() == 2);
      check_record(t.records[0], c, r.buffer("idata"), c.load, uint8_t(mem::AccessKind::Load));
      check_record(t.records[1], c, r.buffer("odata"), c.store, uint8_t(mem::AccessKind::Store));
      CHECK_FALSE(t.records[0].timed);
      // The JSON form carries the same transactions.
      const Json j = test::reparse(traces_to_json(r.stats, r.kernel()));
      REQUIRE(j.size() == 1);
      CHECK(j[0]["block"] == kBlock);
      CHECK(j[0]["warp"] == kWarp);
      CHECK(j[0]["dropped"] == 0);
      REQUIRE(j[0]["records"].size() == 2);
      const Json& ld = j[0]["records"][0];
      CHECK(ld["kind"] == "load");
      CHECK(ld["space"] == "global");
      CHECK(ld["source"] == (std::string(c.var) == "stride" ? "copy_patterns.cu:12" : "copy_patterns.cu:7"));
      REQUIRE(ld["transactions"].size() == c.load.size());
      for (size_t i = 0; i < c.load.size(); ++i) {
        CHECK(ld["transactions"][i]["addr"] == r.buffer("idata") + c.load[i].offset);
        CHECK(ld["transactions"][i]["bytes"] == c.load[i].size);
        CHECK(ld["transactions"][i]["lanes"] == c.load[i].lanes);
      }
      CHECK(ld.find("issue_cycle") == ld.end());  // functional: no cycles
    }
  }
}

TEST_CASE("900: timing mode traces the same transactions with issue and done cycles", "[reports][trace]") {
  const Case& c = cases()[2];  // stride 2 on the C2070
  auto r = run_case(c, SimMode::Timing);
  REQUIRE(r.correct);
  REQUIRE(r.stats.traces.size() == 1);
  const WarpTrace& t = r.stats.traces[0];
  REQUIRE(t.records.size() == 2);
  const TraceRecord& ld = t.records[0];
  const TraceRecord& st = t.records[1];
  check_record(ld, c, r.buffer("idata"), c.load, uint8_t(mem::AccessKind::Load));
  check_record(st, c, r.buffer("odata"), c.store, uint8_t(mem::AccessKind::Store));
  CHECK(ld.timed);
  CHECK(st.timed);
  // A load's data comes back after it issued; a store has no completion to report.
  CHECK(ld.done_cycle > ld.issue_cycle);
  CHECK(st.done_cycle == 0);
  // The store writes the loaded register: it cannot issue before the data is back.
  CHECK(st.issue_cycle >= ld.done_cycle);
  CHECK(st.waited_cycles <= st.issue_cycle);
  CHECK(ld.issue_cycle <= r.stats.timing.elapsed_cycles_sm);
  const Json j = test::reparse(traces_to_json(r.stats, r.kernel()));
  CHECK(j[0]["records"][0]["issue_cycle"] == ld.issue_cycle);
  CHECK(j[0]["records"][0]["done_cycle"] == ld.done_cycle);
  CHECK(j[0]["records"][1].find("done_cycle") == j[0]["records"][1].end());
  const std::string text = format_traces(r.stats, r.kernel());
  CHECK_THAT(text, Catch::Contains(fmt::format("data back after {} cycles", ld.done_cycle - ld.issue_cycle)));
}

TEST_CASE("900: --trace-limit caps the records and counts the dropped ones", "[reports][trace]") {
  const Case& c = cases()[0];
  for (SimMode mode : {SimMode::Functional, SimMode::Timing}) {
    // Two global memory instructions per warp: a limit of 1 keeps the load, drops the store.
    auto one = run_case(c, mode, 1);
    REQUIRE(one.stats.traces.size() == 1);
    CHECK(one.stats.traces[0].records.size() == 1);
    CHECK(one.stats.traces[0].records[0].kind == uint8_t(mem::AccessKind::Load));
    CHECK(one.stats.traces[0].dropped == 1);
    auto none = run_case(c, mode, 0);
    CHECK(none.stats.traces[0].records.empty());
    CHECK(none.stats.traces[0].dropped == 2);
    // The limit changes what is recorded, never what is counted.
    CHECK(one.stats.mem.gld_transactions == none.stats.mem.gld_transactions);
    const std::string text = format_traces(one.stats, one.kernel());
    CHECK_THAT(text, Catch::Contains("1 memory instruction (truncated: 1 more not recorded; raise --trace-limit)"));
    CHECK(test::reparse(traces_to_json(one.stats, one.kernel()))[0]["dropped"] == 1);
  }
}

TEST_CASE("900: describe_addresses compresses lane addresses", "[reports][trace]") {
  CHECK(describe_addresses({}) == "no lanes");
  CHECK(describe_addresses({0x1000, 0x1004, 0x1008, 0x100c}) == "0x1000..0x100c step 4 (4 lanes)");
  CHECK(describe_addresses({0x10, 0x40}) == "0x10; 0x40");
}
