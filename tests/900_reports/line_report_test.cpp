// --by-line (sim/report/line_report): per source line figures on the note's divergenceOddEven
// kernel with its branch kept (kernels/divergence/divergence.cu lines 35-41), two one-warp
// blocks on the C2070. The lines must add up exactly to the run totals they break down,
// the `if (j % 2)` line must be the one flagged divergent, and the JSON and text forms
// must carry the same numbers.
#include <catch2/catch.hpp>

#include <filesystem>
#include <numeric>
#include <sstream>

#include "report_fixture.hpp"
#include "sim/report/line_report.hpp"
#include "sim/report/metrics.hpp"
#include "sim/report/stats_printers.hpp"

using namespace warpsim;
using warpsim::test::launch_spec;

namespace {

// Per warp, from kernels/divergence/divergence.ptx (divergenceOddEvenBranch), with the
// branch `@%p4 bra` sending the even lanes (p4 = !(j&1)) to line 40 and the odd lanes
// falling through to `bra.uni` and line 38, reconverging at the `ret` (line 41):
//   cu:35  ld.param                                    1 inst, 32 lanes
//   cu:36  cvta, mov x3, mad                           5 insts, 32 lanes
//   cu:37  and, setp, mov.pred, xor, not, @p4 bra      6 insts, 32 lanes
//          bra.uni (odd lanes only)                    1 inst,  16 lanes
//   ptx 170, 171, 172 (`.loc 1 0 0`: no source line) mul.wide, add, ld.volatile: 1 each, 32 lanes
//   cu:38  add, st.volatile (odd lanes)                2 insts, 16 lanes
//   cu:40  add, st.volatile, bra.uni (even lanes)      3 insts, 16 lanes
//   cu:41  ret                                         1 inst,  32 lanes
// = 22 warp instructions and 16*32 + 6*16 = 608 thread instructions per warp.
// Memory (cc2.0): a volatile load is not cached in L1, so it and every store go in 32-byte
// segments. The warp's 32 consecutive floats (128 B, 128-aligned) are 4 segments; the 16
// odd (or even) lanes' floats span the same 128 B, also 4 segments.
struct Expect {
  bool ptx;
  uint32_t line;
  uint64_t insts, threads, greq, gtxn, branches, divergent;
};
constexpr uint64_t W = 2;  // warps
const Expect kLines[] = {
    {false, 35, 1 * W, 32 * W, 0, 0, 0, 0},
    {false, 36, 5 * W, 160 * W, 0, 0, 0, 0},
    {false, 37, 7 * W, (6 * 32 + 16) * W, 0, 0, 2 * W, 1 * W},
    {false, 38, 2 * W, 32 * W, 1 * W, 4 * W, 0, 0},
    {false, 40, 3 * W, 48 * W, 1 * W, 4 * W, 1 * W, 0},
    {false, 41, 1 * W, 32 * W, 0, 0, 0, 0},
    {true, 170, 1 * W, 32 * W, 0, 0, 0, 0},
    {true, 171, 1 * W, 32 * W, 0, 0, 0, 0},
    {true, 172, 1 * W, 32 * W, 1 * W, 4 * W, 0, 0},
};

test::Launched run_divergence() {
  return launch_spec("kernels/divergence/divergence_odd_even_branch.json", "c2070", {{"n", 64}, {"block_size", 32}});
}

const LineStats* find(const std::vector<LineStats>& lines, bool ptx, uint32_t line) {
  for (const auto& l : lines)
    if (l.ptx_line == ptx && l.line == line) return &l;
  return nullptr;
}

uint64_t total_stalls(const TimingStats& t) {
  return t.stall_exec_dependency + t.stall_memory_dependency + t.stall_sync + t.stall_not_selected +
         t.stall_pipe_busy;
}

}  // namespace

TEST_CASE("900: by-line figures match the hand count line by line", "[reports][by-line]") {
  auto r = run_divergence();
  REQUIRE(r.correct);
  const auto lines = attribute_lines(r.stats, r.kernel());
  REQUIRE(lines.size() == std::size(kLines));
  for (const Expect& e : kLines) {
    INFO((e.ptx ? "ptx line " : "divergence.cu:") << e.line);
    const LineStats* l = find(lines, e.ptx, e.line);
    REQUIRE(l != nullptr);
    CHECK(l->warp_instructions == e.insts);
    CHECK(l->thread_instructions == e.threads);
    CHECK(l->global_requests == e.greq);
    CHECK(l->global_transactions == e.gtxn);
    CHECK(l->branches == e.branches);
    CHECK(l->divergent_branches == e.divergent);
    CHECK(l->shared_requests == 0);
    CHECK(std::filesystem::path(l->file).filename() == (e.ptx ? "divergence.ptx" : "divergence.cu"));
  }
  // Source text: the CUDA line for source lines, the instruction for PTX lines.
  CHECK(find(lines, false, 37)->text == "if (j % 2)");
  CHECK(find(lines, false, 38)->text == "M[j] += 2;");
  CHECK(find(lines, true, 172)->text == "ld.volatile.global.f32 %f1, [%rd1]");
  // Source order: by file, then line.
  for (size_t i = 1; i < lines.size(); ++i)
    CHECK(std::make_pair(lines[i - 1].file, lines[i - 1].line) < std::make_pair(lines[i].file, lines[i].line));
}

TEST_CASE("900: by-line figures add up exactly to the run totals", "[reports][by-line]") {
  auto r = run_divergence();
  const LaunchStats& s = r.stats;
  const auto lines = attribute_lines(s, r.kernel());
  auto sum = [&](uint64_t LineStats::*f) {
    return std::accumulate(lines.begin(), lines.end(), uint64_t(0),
                           [&](uint64_t a, const LineStats& l) { return a + l.*f; });
  };
  // The hand totals: 22 and 608 per warp; 3 branches per warp (one divergent);
  // 1 load request of 4 segments and 2 store requests of 4 segments each.
  CHECK(s.exec.inst_executed == 22 * W);
  CHECK(s.exec.thread_inst_executed == 608 * W);
  CHECK(s.exec.branch == 3 * W);
  CHECK(s.exec.divergent_branch == 1 * W);
  CHECK(s.mem.gld_transactions == 4 * W);
  CHECK(s.mem.gst_transactions == 8 * W);
  // The lines break those totals down without loss or double counting.
  CHECK(sum(&LineStats::warp_instructions) == s.exec.inst_executed);
  CHECK(sum(&LineStats::thread_instructions) == s.exec.thread_inst_executed);
  CHECK(sum(&LineStats::branches) == s.exec.branch);
  CHECK(sum(&LineStats::divergent_branches) == s.exec.divergent_branch);
  CHECK(sum(&LineStats::global_requests) == s.exec.gld_requests + s.exec.gst_requests);
  CHECK(sum(&LineStats::global_transactions) == s.mem.gld_transactions + s.mem.gst_transactions);
  // "stall cycles are warp-cycles spent waiting to issue the line": every warp-cycle of
  // waiting the timing model classified by reason is charged to exactly one line.
  REQUIRE(s.timing.valid);
  CHECK(total_stalls(s.timing) > 0);
  CHECK(sum(&LineStats::stall_cycles) == total_stalls(s.timing));
  // Issue plus stall warp-cycles: the costliest lines are ordered by that sum.
  const auto top = costliest_lines(lines, 3);
  REQUIRE(top.size() == 3);
  for (const auto& l : lines) CHECK(top[0].stall_cycles + top[0].warp_instructions >= l.stall_cycles + l.warp_instructions);
  CHECK(top[0].stall_cycles + top[0].warp_instructions >= top[1].stall_cycles + top[1].warp_instructions);
  CHECK(top[1].stall_cycles + top[1].warp_instructions >= top[2].stall_cycles + top[2].warp_instructions);
}

TEST_CASE("900: the divergent branch's line is the one flagged divergent", "[reports][by-line]") {
  auto r = run_divergence();
  const auto lines = attribute_lines(r.stats, r.kernel());
  for (const auto& l : lines) {
    INFO(l.file << ":" << l.line);
    CHECK(l.divergent_branches == (!l.ptx_line && l.line == 37 ? W : 0));
  }
  // The branch report: one conditional branch, on line 37 (PTX line 174), first executed
  // by each of the 2 warps and diverging in both.
  const std::string br = format_branch_report(r.stats, r.kernel());
  CHECK_THAT(br, Catch::Contains("divergence.cu:37 (PTX line 174)"));
  CHECK_THAT(br, Catch::Contains("2 executions, 2 divergent"));
  CHECK_THAT(br, Catch::Contains("k=1: 2/2"));
}

TEST_CASE("900: by-line JSON parses and carries the same numbers as the lines", "[reports][by-line]") {
  auto r = run_divergence();
  const auto lines = attribute_lines(r.stats, r.kernel());
  const Json arr = test::reparse(lines_to_json(lines, r.stats.exec.warp_size));
  REQUIRE(arr.is_array());
  REQUIRE(arr.size() == lines.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    const LineStats& l = lines[i];
    const Json& j = arr[i];
    INFO(l.file << ":" << l.line);
    CHECK(j.at("file") == l.file);
    CHECK(j.at("line") == l.line);
    CHECK(j.at("ptx_line") == l.ptx_line);
    CHECK(j.at("text") == l.text);
    CHECK(j.at("inst_executed") == l.warp_instructions);
    CHECK(j.at("thread_inst_executed") == l.thread_instructions);
    CHECK(j.at("global_requests") == l.global_requests);
    CHECK(j.at("global_transactions") == l.global_transactions);
    CHECK(j.at("shared_requests") == l.shared_requests);
    CHECK(j.at("shared_transactions") == l.shared_passes);
    CHECK(j.at("branch") == l.branches);
    CHECK(j.at("divergent_branch") == l.divergent_branches);
    CHECK(j.at("stall_cycles") == l.stall_cycles);
    CHECK(j.at("warp_execution_efficiency").get<double>() == Approx(100.0 * l.efficiency(32)));
    CHECK(j.at("transactions_per_request").get<double>() == Approx(l.transactions_per_request()));
  }
  // Line 37: 416 thread instructions over 14 warp instructions = 416 / 448 = 92.86 %.
  const Json* l37 = nullptr;
  for (const auto& j : arr)
    if (!j["ptx_line"].get<bool>() && j["line"] == 37) l37 = &j;
  REQUIRE(l37);
  CHECK((*l37)["warp_execution_efficiency"].get<double>() == Approx(100.0 * 416 / 448));
  CHECK((*l37)["divergent_branch"] == 2);
}

TEST_CASE("900: by-line text report row for the divergent line", "[reports][by-line]") {
  auto r = run_divergence();
  const auto lines = attribute_lines(r.stats, r.kernel());
  const std::string text = format_line_report(lines, r.stats);
  std::istringstream in(text);
  std::string row;
  int rows = 0;
  bool found = false;
  while (std::getline(in, row)) {
    std::istringstream cols(row);
    std::string where, insts, eff, txn, conflict, div, stall;
    cols >> where >> insts >> eff >> txn >> conflict >> div >> stall;
    if (where.rfind("divergence.cu:", 0) == 0 || where == "ptx") ++rows;
    if (where != "divergence.cu:37") continue;
    found = true;
    // 14 warp insts, 92.9 % efficiency, no memory, 2 divergent branches, then the source.
    CHECK(insts == "14");
    CHECK(eff == "92.9");
    CHECK(txn == "-");
    CHECK(conflict == "-");
    CHECK(div == "2");
    CHECK(stall == format_metric_value({"", double(find(lines, false, 37)->stall_cycles), Metric::Unit::Count, ""}));
    CHECK_THAT(row, Catch::EndsWith("if (j % 2)"));
  }
  CHECK(found);
  CHECK(rows == int(lines.size()));
}
