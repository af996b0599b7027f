// --timeline (sim/engine/timeline): the Chrome trace-event file of a timed run. It must be a
// valid trace (a traceEvents array; complete "X" events with name/ph/ts/dur/pid/tid and
// dur >= 0; metadata "M" events naming processes and threads), with one issue slice per
// warp instruction issued, slices of one warp slot never overlapping, and stall slices
// adding up to the run's stall counters by reason.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "report_fixture.hpp"
#include "sim/foundation/error.hpp"
#include "sim/engine/timeline.hpp"

using namespace warpsim;
using warpsim::test::launch_spec;

namespace {

constexpr uint32_t kDramPidBase = 10000;  // timeline.cpp: DRAM channels are processes 10000+

// strideCopy, stride 2, 7,680 threads in blocks of 64: 120 blocks of 2 warps, each warp
// issuing 16 instructions (3 ld.param, 2 cvta, 3 mov, mad, mul, mul.wide, add, ld.global,
// add, st.global, ret). 120 blocks exceed the 14 SMs x 8 resident blocks, so some warp
// slots are reused by a later block.
constexpr uint64_t kWarps = 240;
test::Launched run_copy(const std::string& timeline, uint64_t window = 200000) {
  LaunchOptions o;
  o.timeline_path = timeline;
  o.timeline_window_cycles = window;
  return launch_spec("kernels/memory/stride_copy.json", "c2070", {{"n", 7680}, {"block_size", 64}, {"stride", 2}}, o);
}

void check_valid_chrome_trace(const Json& doc) {
  REQUIRE(doc.is_object());
  REQUIRE(doc.contains("traceEvents"));
  REQUIRE(doc["traceEvents"].is_array());
  for (const Json& e : doc["traceEvents"]) {
    INFO(e.dump());
    REQUIRE(e.is_object());
    REQUIRE(e.contains("ph"));
    REQUIRE(e.contains("name"));
    REQUIRE(e.contains("pid"));
    CHECK(e["name"].is_string());
    CHECK(e["pid"].is_number_unsigned());
    const std::string ph = e["ph"];
    if (ph == "X") {
      REQUIRE(e.contains("ts"));
      REQUIRE(e.contains("dur"));
      REQUIRE(e.contains("tid"));
      CHECK(e["ts"].is_number_unsigned());  // unsigned: >= 0
      CHECK(e["dur"].is_number_unsigned());
      CHECK(e["tid"].is_number_unsigned());
      CHECK(e.contains("cat"));
    } else {
      CHECK(ph == "M");  // the only other kind written: process/thread names and order
      REQUIRE(e.contains("args"));
      if (e["name"] == "thread_name") CHECK(e.contains("tid"));
    }
  }
}

}  // namespace

TEST_CASE("900: the timeline is a valid Chrome trace whose issue slices count the instructions", "[reports][timeline]") {
  test::TempDir dir;
  const std::string path = dir.file("timeline.json");
  auto r = run_copy(path);
  REQUIRE(r.correct);
  const LaunchStats& s = r.stats;
  const Json doc = test::read_json(path);
  check_valid_chrome_trace(doc);
  CHECK(doc["otherData"]["kernel"] == s.kernel);
  CHECK(doc["otherData"]["truncated"] == false);
  CHECK(doc["otherData"]["window_cycles"] == 200000);
  REQUIRE(s.timing.elapsed_cycles_sm < 200000);  // the window covers the whole run

  std::map<std::string, uint64_t> issue_by_class, stall_by_reason;
  uint64_t issue = 0, dram = 0;
  std::map<std::pair<uint64_t, uint64_t>, std::vector<std::pair<uint64_t, uint64_t>>> per_slot;
  std::map<std::pair<uint64_t, uint64_t>, uint64_t> issue_per_slot;
  std::map<uint64_t, bool> named_process;
  for (const Json& e : doc["traceEvents"]) {
    if (e["ph"] == "M") {
      if (e["name"] == "process_name") named_process[e["pid"]] = true;
      continue;
    }
    const uint64_t pid = e["pid"], tid = e["tid"], ts = e["ts"], dur = e["dur"];
    CHECK(named_process.count(pid));  // metadata comes first and names every process used
    if (e["cat"] == "dram") {
      ++dram;
      CHECK(pid >= kDramPidBase);
      CHECK(dur >= 1);
      continue;
    }
    REQUIRE(pid < 14);                       // the C2070's 14 SMs
    CHECK(tid < 48);                         // 48 warp slots per SM
    CHECK(ts + dur <= s.timing.elapsed_cycles_sm);
    per_slot[{pid, tid}].push_back({ts, ts + dur});
    if (e["cat"] == "issue") {
      ++issue;
      CHECK(dur == 1);  // one issue cycle per warp instruction
      ++issue_per_slot[{pid, tid}];
      ++issue_by_class[e["name"]];
    } else {
      CHECK(e["cat"] == "stall");
      stall_by_reason[e["name"]] += dur;
    }
  }
  // One issue slice per warp instruction: 240 warps x 16, by class per warp 3 ld.param,
  // 1 ld.global, 1 st.global, 1 exit.
  CHECK(s.exec.inst_executed == kWarps * 16);
  CHECK(issue == s.exec.inst_executed);
  CHECK(issue == s.timing.issued);
  CHECK(issue_by_class["ld.param"] == kWarps * 3);
  CHECK(issue_by_class["ld.global"] == kWarps);
  CHECK(issue_by_class["st.global"] == kWarps);
  CHECK(issue_by_class["exit"] == kWarps);
  // Stall slices by reason add up to the stall counters (all inside the window).
  CHECK(stall_by_reason["stall: barrier"] == s.timing.stall_sync);
  CHECK(stall_by_reason["stall: memory dependency"] == s.timing.stall_memory_dependency);
  CHECK(stall_by_reason["stall: execution dependency"] == s.timing.stall_exec_dependency);
  CHECK(stall_by_reason["stall: pipe busy"] == s.timing.stall_pipe_busy);
  CHECK(stall_by_reason["stall: not selected"] == s.timing.stall_not_selected);
  CHECK(s.timing.stall_memory_dependency > 0);  // the store waits for the load's data
  // A warp slot issues or waits, one thing at a time: its slices never overlap.
  for (auto& [slot, slices] : per_slot) {
    std::sort(slices.begin(), slices.end());
    for (size_t i = 1; i < slices.size(); ++i) {
      INFO("SM " << slot.first << " slot " << slot.second << " at " << slices[i].first);
      CHECK(slices[i].first >= slices[i - 1].second);
    }
  }
  // Every warp that held a slot issued its 16 instructions there; some slots held a warp
  // of a first and of a later block.
  size_t reused = 0;
  for (const auto& [slot, n] : issue_per_slot) {
    CHECK(n % 16 == 0);
    reused += n > 16;
  }
  CHECK(reused > 0);
  // The global requests reach DRAM: their commands appear on the DRAM channels.
  CHECK(dram > 0);
}

TEST_CASE("900: the timeline window bounds the events recorded", "[reports][timeline]") {
  test::TempDir dir;
  const std::string path = dir.file("window.json");
  auto r = run_copy(path, 20);
  const Json doc = test::read_json(path);
  check_valid_chrome_trace(doc);
  CHECK(doc["otherData"]["window_cycles"] == 20);
  CHECK(doc["otherData"]["truncated"] == false);  // a window is not a truncation
  uint64_t issue = 0;
  for (const Json& e : doc["traceEvents"]) {
    if (e["ph"] != "X") continue;
    CHECK(e["ts"].get<uint64_t>() < 20);
    if (e["cat"] == "issue") ++issue;
  }
  CHECK(issue > 0);
  CHECK(issue < r.stats.exec.inst_executed);
}

TEST_CASE("900: the timeline caps its events and says it was truncated", "[reports][timeline]") {
  const DeviceSpec spec = load_device_spec(test::repo("configs/c2070.json"));
  Timeline tl(spec, /*window_cycles=*/100, /*max_events=*/2);
  tl.warp_slice(0, 0, "issue", "int", 0, 1);
  tl.warp_slice(0, 0, "issue", "int", 5, 5);      // empty: ignored
  tl.warp_slice(0, 1, "stall", "stall: x", 1, 4);
  tl.warp_slice(0, 2, "issue", "int", 150, 151);  // beyond the window: not an event, not a drop
  CHECK(tl.events() == 2);
  CHECK_FALSE(tl.truncated());
  tl.warp_slice(1, 0, "issue", "fp32", 7, 8);     // over the cap: dropped
  CHECK(tl.events() == 2);
  CHECK(tl.truncated());
  test::TempDir dir;
  const std::string path = dir.file("cap.json");
  tl.write(path, "k\"q");  // the kernel name is escaped
  const Json doc = test::read_json(path);
  check_valid_chrome_trace(doc);
  CHECK(doc["otherData"]["truncated"] == true);
  CHECK(doc["otherData"]["kernel"] == "k\"q");
  std::vector<Json> xs;
  for (const Json& e : doc["traceEvents"])
    if (e["ph"] == "X") xs.push_back(e);
  REQUIRE(xs.size() == 2);
  CHECK(xs[1]["tid"] == 1);
  CHECK(xs[1]["ts"] == 1);
  CHECK(xs[1]["dur"] == 3);
  CHECK(xs[1]["name"] == "stall: x");
  CHECK(xs[1]["cat"] == "stall");
  CHECK_THROWS_AS(tl.write(dir.file("no/such/dir/t.json"), "k"), Error);
}

TEST_CASE("900: a timeline needs timing mode", "[reports][timeline]") {
  test::TempDir dir;
  LaunchOptions o;
  o.mode = SimMode::Functional;
  o.timeline_path = dir.file("t.json");
  CHECK_THROWS_AS(launch_spec("kernels/memory/stride_copy.json", "c2070", {{"n", 256}, {"block_size", 128}}, o),
                  LaunchError);
}
