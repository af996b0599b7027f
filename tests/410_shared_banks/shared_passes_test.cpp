// shared_passes() is the allocation-free form the simulator calls on every shared access;
// it must give exactly the totals of shared_conflicts() on any input.
#include <catch2/catch.hpp>

#include <cstdint>

#include "sim/sm/shared_banks.hpp"

using namespace warpsim;

namespace {

uint64_t next(uint64_t& s) {
  s += 0x9E3779B97F4A7C15ull;
  uint64_t z = s;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace

TEST_CASE("410: shared_passes equals shared_conflicts on random accesses", "[shared_banks]") {
  sm::SharedBankSpec cc1{sm::BankRules::Cc1, 16, 4, 16};
  sm::SharedBankSpec cc2{sm::BankRules::Cc2, 32, 4, 32};
  sm::SharedBankSpec cc9{sm::BankRules::Cc9, 32, 4, 32};
  uint64_t seed = 12345;
  for (const auto& spec : {cc1, cc2, cc9}) {
    for (int trial = 0; trial < 4000; ++trial) {
      mem::WarpMemAccess a;
      a.space = isa::Space::Shared;
      a.kind = static_cast<mem::AccessKind>(next(seed) % 3);
      static const int sizes[] = {1, 2, 4, 4, 4, 8, 16};
      a.elem_bytes = static_cast<uint8_t>(sizes[next(seed) % 7]);
      a.vec = 1;
      a.mask = static_cast<uint32_t>(next(seed));
      if (trial % 5 == 0) a.mask = 0xFFFFFFFFu;
      // Few distinct words so that broadcasts and conflicts are frequent.
      uint64_t span = 8 + next(seed) % 512;
      for (int l = 0; l < 32; ++l) a.addr[l] = (next(seed) % span) / a.elem_bytes * a.elem_bytes;
      if (trial % 7 == 0)
        for (int l = 0; l < 32; ++l) a.addr[l] = uint64_t(l) * (1 + trial % 9) * a.elem_bytes;
      sm::SharedConflicts full = sm::shared_conflicts(spec, a);
      sm::SharedPasses fast = sm::shared_passes(spec, a);
      INFO("trial " << trial << " bytes " << int(a.elem_bytes) << " kind " << int(a.kind));
      REQUIRE(fast.passes == full.passes);
      REQUIRE(fast.requests == full.requests);
      REQUIRE(fast.max_degree == full.max_degree);
    }
  }
}
