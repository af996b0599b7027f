// The line-, segment- and sector-based rules against a brute-force statement of what they
// mean, on random warp accesses of every shape: consecutive elements (the path most accesses
// take), lanes in address order, permuted, straddling a unit, partial masks, broadcasts.
// Every path of the coalescer (consecutive elements of fully active requests, lanes in
// ascending unit order, and the sorting one) must give the same transactions in the same
// order.
#include <algorithm>
#include <map>
#include <random>

#include "tests/400_coalescer/coalescer_fixtures.hpp"

using namespace warpsim::test;

namespace {

// One transaction per distinct aligned unit the active lanes of each request of `req`
// lanes touch, ascending, sized whole or by the 32-byte sectors used.
std::vector<Transaction> reference(const WarpMemAccess& a, uint32_t req, uint32_t unit, bool used_sectors) {
  std::vector<Transaction> out;
  for (uint32_t first = 0; first < 32; first += req) {
    std::map<uint64_t, std::pair<uint32_t, uint8_t>> units;  // unit -> lanes, sectors used
    for (uint32_t l = first; l < first + req; ++l) {
      if (!(a.mask >> l & 1)) continue;
      for (uint64_t b = a.addr[l]; b < a.addr[l] + a.bytes_per_lane(); ++b) {
        auto& u = units[b / unit * unit];
        u.first |= 1u << l;
        u.second = uint8_t(u.second | (1u << (b % unit) / 32));
      }
    }
    for (const auto& [base, u] : units) {
      const uint32_t whole_sectors = unit == 32 ? (1u << (base % 128) / 32) : unit == 128 ? 0xF : unit == 64 ? (3u << (base % 128) / 32) : 0;
      if (used_sectors) out.push_back(Transaction{base, 32u * uint32_t(std::popcount(unsigned(u.second))), u.first, u.second});
      else out.push_back(Transaction{base, unit, u.first, uint8_t(whole_sectors)});
    }
  }
  return out;
}

}  // namespace

TEST_CASE("coalescer: transactions equal a brute-force statement of the rules on random accesses",
          "[coalescer][random]") {
  std::mt19937_64 rng(20261127);
  const uint32_t sizes[][2] = {{1, 1}, {2, 1}, {4, 1}, {8, 1}, {4, 2}, {4, 4}, {8, 2}};
  for (int iter = 0; iter < 4000; ++iter) {
    const auto [elem, vec] = std::pair{sizes[iter % 7][0], sizes[iter % 7][1]};
    const uint32_t bytes = elem * vec;
    const uint64_t base = 0x10000 + (rng() % 64) * bytes;
    const int pattern = int(rng() % 8);
    // Rows of a tile: lanes 0-15 and 16-31 each at consecutive elements, the second row
    // further on (in a later unit or the same one), overlapping the first, or before it.
    const int64_t row_strides[] = {16, 17, 24, 8, 64, 1024, -16, -3};
    const int64_t row = row_strides[rng() % 8] * int64_t(bytes);
    // Runs of consecutive elements of random lengths, each starting at a random element.
    std::vector<uint64_t> run_start(32);
    for (uint32_t l = 0, next = 0; l < 32; ++l) {
      if (l == next) {
        run_start[l] = base + (rng() % 128) * bytes - l * bytes;
        next = l + 1 + uint32_t(rng() % 12);
      } else {
        run_start[l] = run_start[l - 1];
      }
    }
    std::vector<uint64_t> addr(32);
    const uint64_t stride = bytes * (1 + rng() % 9);
    for (uint32_t l = 0; l < 32; ++l) {
      switch (pattern) {
        case 0: addr[l] = base + uint64_t(l) * bytes; break;             // sequential
        case 1: addr[l] = base + uint64_t(l) * stride; break;            // strided
        case 2: addr[l] = base + uint64_t(31 - l) * bytes; break;         // reversed
        case 3: addr[l] = base + (rng() % 256) * bytes; break;           // scattered
        case 4: addr[l] = base + uint64_t(l / 4) * bytes; break;          // groups on one word
        case 6: addr[l] = base + 4096 + uint64_t(l % 16) * bytes + (l < 16 ? 0 : uint64_t(row)); break;
        case 7: addr[l] = run_start[l] + uint64_t(l) * bytes; break;      // runs
        default: addr[l] = base + uint64_t(l) * bytes + (l > 20 ? 1 : 0); break;  // straddles
      }
    }
    if (pattern == 0 && iter % 3 == 0) std::shuffle(addr.begin(), addr.end(), rng);
    // Full warps, a fully active first half (whole requests of 8- and 16-byte lanes), others.
    const uint32_t mask = iter % 4 == 0 ? 0xFFFFFFFFu : iter % 8 == 1 ? 0x0000FFFFu : uint32_t(rng()) | 1u;
    const AccessKind kind = iter % 5 == 0 ? AccessKind::Store : AccessKind::Load;
    const WarpMemAccess a = warp_access(elem, [&](uint32_t l) { return addr[l]; }, mask, kind, vec);
    CAPTURE(iter, pattern, elem, vec, mask);

    CHECK(run(sector32(), a) == reference(a, 32, 32, false));
    CHECK(run(segments(16, 64), a) == reference(a, 16, 64, false));
    // cc 2.x: requests of a sub-warp (half or quarter for 8 and 16 bytes); L1-cached loads
    // in lines, the rest in 32-byte segments or lines sized by their sectors.
    const uint32_t req = bytes <= 4 ? 32 : 32 * 4 / bytes;
    if (kind == AccessKind::Load) CHECK(run(cc20(true), a) == reference(a, req, 128, false));
    CHECK(run(cc20(false), a) == reference(a, req, 32, false));
    CHECK(run(cc20(false, L2OnlyTransactions::Line), a) == reference(a, req, 128, true));
  }
}
