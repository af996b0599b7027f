// PhaseChooser (engine/phase_chooser.hpp): warm-up and probe windows of each kind, the
// cheaper per SM tick kept for a commit window whose own cost is the evidence next time, the
// commit window doubling while the choice repeats (up to its maximum and to about a second),
// the noise margin, and phases too short to try threads on. Driven by a fake clock, so every step is exact.
#include <catch2/catch.hpp>

#include <algorithm>

#include "sim/engine/phase_chooser.hpp"

using warpsim::PhaseChooser;

namespace {

// The fake clock (nanoseconds): advanced by the test, read by the chooser at window ends.
uint64_t fake_now = 0;
uint64_t fake_clock() { return fake_now; }

// Runs `calls` SM phases of `sms` SMs each; a phase costs `serial` or `parallel` per SM, as
// the chooser allowed. Returns how many phases it allowed in parallel.
uint64_t run(PhaseChooser& c, uint64_t calls, uint64_t sms, uint64_t serial, uint64_t parallel) {
  uint64_t par = 0;
  for (uint64_t i = 0; i < calls; ++i) {
    const bool p = c.allow();
    c.count(sms);
    fake_now += sms * (p ? parallel : serial);
    par += p;
  }
  return par;
}

constexpr uint64_t kProbe = PhaseChooser::kWarmCalls + PhaseChooser::kProbeCalls;  // a probe with its warm-up
constexpr uint64_t kFirst = PhaseChooser::kFirstCommit;

}  // namespace

TEST_CASE("phase chooser: parallel phases are kept where they measure cheaper", "[phase-chooser]") {
  fake_now = 0;
  PhaseChooser c(&fake_clock);
  CHECK(run(c, kProbe, 10, 1000, 600) == 0);        // serial first
  CHECK(run(c, kProbe, 10, 1000, 600) == kProbe);   // then parallel
  CHECK(run(c, kFirst, 10, 1000, 600) == kFirst);   // 600 against 1000 per SM: parallel
  CHECK(c.parallel_windows() == 1);
  CHECK(c.serial_windows() == 0);
  // After a commit only the other kind is measured; the same choice doubles the window.
  CHECK(run(c, kProbe, 10, 1000, 600) == 0);
  CHECK(run(c, 2 * kFirst, 10, 1000, 600) == 2 * kFirst);
  CHECK(run(c, kProbe, 10, 1000, 600) == 0);
  CHECK(run(c, 4 * kFirst, 10, 1000, 600) == 4 * kFirst);
  CHECK(c.parallel_windows() == 3);
}

TEST_CASE("phase chooser: serial where parallel is slower or within the noise margin", "[phase-chooser]") {
  fake_now = 0;
  PhaseChooser c(&fake_clock);
  // Parallel 5 % cheaper is not enough (kMargin 0.95 needs more than that).
  CHECK(run(c, 2 * kProbe, 4, 10000, 9500) == kProbe);
  CHECK(run(c, kFirst, 4, 10000, 9500) == 0);
  CHECK(c.serial_windows() == 1);
  // Parallel 6 % cheaper than the serial commit window is chosen, from the first length.
  CHECK(run(c, kProbe, 4, 10000, 9400) == kProbe);
  // The parallel commit window gets slower (140), and loses to the serial probe after it.
  CHECK(run(c, kFirst, 4, 10000, 14000) == kFirst);
  CHECK(c.parallel_windows() == 1);
  CHECK(run(c, kProbe, 4, 10000, 14000) == 0);
  CHECK(run(c, kFirst, 4, 10000, 14000) == 0);
  CHECK(c.serial_windows() == 2);
}

TEST_CASE("phase chooser: phases too short for threads never run in parallel", "[phase-chooser]") {
  fake_now = 0;
  PhaseChooser c(&fake_clock);
  // 500 ns per phase (below kMinParallelPhase), even if parallel ones would cost nothing:
  // the serial probe, then serial commits without a parallel probe between them, doubling
  // from 4096 to 2^20 and staying there.
  CHECK(run(c, kProbe, 1, 500, 0) == 0);
  uint64_t commit = kFirst;
  for (int round = 0; round < 10; ++round) {
    CHECK(run(c, commit, 1, 500, 0) == 0);
    commit = std::min(2 * commit, PhaseChooser::kMaxCommit);
  }
  CHECK(commit == PhaseChooser::kMaxCommit);
  CHECK(c.serial_windows() == 10);
  CHECK(c.parallel_windows() == 0);
  // The phases grow longer (a larger grid, a busier kernel): after the commit window that
  // measured them, the parallel kind is tried, and kept.
  CHECK(run(c, commit, 1, 8000, 1000) == 0);
  CHECK(run(c, kProbe, 1, 8000, 1000) == kProbe);
  CHECK(run(c, kFirst, 1, 8000, 1000) == kFirst);
  CHECK(c.parallel_windows() == 1);
}

TEST_CASE("phase chooser: the commit window stops doubling at about a second of phases", "[phase-chooser]") {
  fake_now = 0;
  PhaseChooser c(&fake_clock);
  // 2 SMs of 30,518 ns: 61,036 ns per serial phase, so a second is 16,383 phases; the
  // commit doubles from 4,096 to 8,192, then stops at 16,383.
  const uint64_t per_sm = 30518;
  CHECK(run(c, 2 * kProbe, 2, per_sm, 2 * per_sm) == kProbe);
  for (uint64_t commit : {kFirst, 2 * kFirst, uint64_t(16383), uint64_t(16383)}) {
    CHECK(run(c, commit, 2, per_sm, 2 * per_sm) == 0);
    CHECK(run(c, kProbe, 2, per_sm, 2 * per_sm) == kProbe);
  }
  CHECK(c.serial_windows() == 4);
}

TEST_CASE("phase chooser: the time between launches is left out", "[phase-chooser]") {
  fake_now = 0;
  PhaseChooser c(&fake_clock);
  CHECK(run(c, kProbe, 1, 10000, 6000) == 0);
  CHECK(run(c, PhaseChooser::kWarmCalls + 100, 1, 10000, 6000) == PhaseChooser::kWarmCalls + 100);
  // A launch ends in the parallel probe; the program's host code takes a long time.
  c.pause();
  fake_now += 1000000;
  c.resume();
  CHECK(run(c, PhaseChooser::kProbeCalls - 100, 1, 10000, 6000) == PhaseChooser::kProbeCalls - 100);
  CHECK(run(c, kFirst, 1, 10000, 6000) == kFirst);  // still parallel: the gap did not count
}

TEST_CASE("phase chooser: a window without SM ticks counts as infinitely costly", "[phase-chooser]") {
  fake_now = 0;
  PhaseChooser c(&fake_clock);
  CHECK(run(c, kProbe, 3, 10000, 1000) == 0);       // serial probe, 100 per tick
  CHECK(run(c, kProbe, 0, 10000, 1000) == kProbe);  // parallel probe with nothing ticked
  CHECK(run(c, kFirst, 3, 10000, 1000) == 0);       // no evidence for parallel: serial
  CHECK(c.serial_windows() == 1);
}
