// MemorySystem::freeze_admission: while frozen, the SMs' admission check answers from the
// load/store queues as they were at the freeze, however far tick() has gone meanwhile (an
// epoch's SMs tick beside the memory system, engine/sm_phase.hpp); thawed, it answers from
// the queues again.
#include <catch2/catch.hpp>

#include <vector>

#include "sim/memory/memory_system.hpp"
#include "sim/spec/device_spec.hpp"

using namespace warpsim;

namespace {

std::string repo(const std::string& rel) { return std::string(WARPSIM_SOURCE_DIR) + "/" + rel; }

// Ticks `m` from `now` until `cycles` more have passed (or it is idle); returns the cycle reached.
uint64_t run_for(mem::MemorySystem& m, uint64_t now, uint64_t cycles) {
  const uint64_t end = now + cycles;
  for (uint64_t t = now; t < end && !m.idle(); t = std::max(t + 1, m.next_event(t))) {
    m.tick(t);
    now = t;
  }
  m.responses().clear();
  return now;
}

}  // namespace

TEST_CASE("310: a frozen admission check answers from the queues as they were at the freeze",
          "[timing][epoch]") {
  const DeviceSpec dev = load_device_spec(repo("configs/c2070.json"));
  mem::MemorySystem m(dev);
  m.begin_launch(dev.has_l1 ? &dev.l1 : nullptr);
  // 200 line loads from SM 0: past the 192 transactions below which its queue takes a warp
  // instruction.
  std::vector<mem::Transaction> txns;
  for (uint64_t i = 0; i < 200; ++i) txns.push_back({0x100000 + i * 128, 128, 0xFFFFFFFFu, 0xF});
  m.submit(0, txns, mem::AccessKind::Load, false, true, /*token=*/1, 0, 4);
  REQUIRE_FALSE(m.can_accept(0));
  REQUIRE(m.can_accept(1));

  m.freeze_admission();
  const uint64_t now = run_for(m, 0, 5000);  // the queue drains meanwhile
  CHECK_FALSE(m.can_accept(0));              // ... unseen while frozen
  CHECK(m.can_accept(1));
  CHECK_FALSE(m.can_accept(1, 192));  // held submissions still count

  m.thaw_admission();
  CHECK(m.can_accept(0));
  run_for(m, now + 1, 1000000);
  CHECK(m.idle());
}
