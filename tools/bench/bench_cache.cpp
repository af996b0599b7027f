// Throughput of the cache and interconnect models on synthetic traffic (host speed of the
// simulator, not simulated performance). Prints one line per scenario; deterministic input.
#include <fmt/format.h>

#include <chrono>
#include <cstdint>
#include <vector>

#include "sim/memory/cache.hpp"
#include "sim/memory/interconnect.hpp"

using namespace warpsim::mem;

namespace {

CacheSpec fermi_l1() {
  CacheSpec s;
  s.size_bytes = 16384;
  s.line_bytes = 128;
  s.sector_bytes = 128;
  s.ways = 4;
  s.sets = 32;
  s.index = IndexFunction::FermiHash;
  s.write_policy = WritePolicy::WriteThrough;
  s.invalidate_on_write = true;
  s.mshr_entries = 32;
  s.mshr_max_merge = 8;
  return s;
}

CacheSpec c2070_l2_slice() {
  CacheSpec s;
  s.size_bytes = 65536;
  s.line_bytes = 128;
  s.sector_bytes = 32;
  s.ways = 8;
  s.sets = 64;
  s.index = IndexFunction::XorFold;
  s.write_allocate = true;
  s.mshr_entries = 32;
  s.mshr_max_merge = 4;
  return s;
}

struct Lcg {
  uint64_t x = 88172645463325252ull;
  uint64_t next() { return (x = x * 6364136223846793005ull + 1442695040888963407ull) >> 17; }
};

template <class F>
double seconds(F&& f) {
  auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void bench_functional(const char* name, const CacheSpec& spec, uint64_t footprint, uint32_t write_pct) {
  Cache c(spec);
  Lcg rng;
  const uint64_t n = 5'000'000;
  double s = seconds([&] {
    for (uint64_t i = 0; i < n; ++i) {
      uint64_t addr = rng.next() % footprint;
      uint32_t mask = spec.sector_mask(addr & ~uint64_t(3), 4);
      bool wr = rng.next() % 100 < write_pct;
      c.access_functional(CacheRequest{addr, mask, wr ? AccessType::Write : AccessType::Read, false, i});
    }
  });
  fmt::print("{:<34} {:>8.2f} M accesses/s  read hit rate {:.3f}  sector hit rate {:.3f}\n", name,
             n / s / 1e6, c.stats().read_hit_rate(), c.stats().sector_hit_rate());
}

void bench_timed_l2() {
  // Misses complete after a fixed 200-cycle delay; ReservationFails are retried next cycle.
  Cache c(c2070_l2_slice());
  Lcg rng;
  struct Pending { uint64_t due, line; uint32_t mask; };
  std::vector<Pending> pending;
  std::vector<uint64_t> ready;
  uint64_t accepted = 0, cycle = 0;
  const uint64_t n = 2'000'000;
  bool have = false;
  CacheRequest req;
  double s = seconds([&] {
    while (accepted < n) {
      if (!have) {
        uint64_t addr = rng.next() % (1u << 22);
        req = CacheRequest{addr, c.spec().sector_mask(addr & ~uint64_t(31), 32), AccessType::Read, false, accepted};
        have = true;
      }
      AccessResult r = c.access(req, cycle);
      if (r.status != AccessStatus::ReservationFail) {
        have = false;
        ++accepted;
        if (r.fetch_mask) pending.push_back({cycle + 200, r.line_addr, r.fetch_mask});
      }
      ++cycle;
      size_t k = 0;
      for (auto& p : pending) {
        if (p.due <= cycle) {
          c.fill(p.line, p.mask, cycle, ready);
        } else {
          pending[k++] = p;
        }
      }
      pending.resize(k);
      ready.clear();
    }
  });
  fmt::print("{:<34} {:>8.2f} M accesses/s  {} cycles, {} reservation fails\n", "L2 slice, timed (200-cycle fills)",
             n / s / 1e6, cycle, c.stats().reservation_fails);
}

void bench_crossbar() {
  InterconnectSpec spec;
  spec.latency = 2;
  spec.flit_bytes = 32;
  spec.cycles_per_flit = 2;
  spec.input_buffer_flits = 8;
  spec.output_buffer_flits = 40;
  Crossbar x(spec, 14, 12, "bench");
  Lcg rng;
  uint64_t id = 0, got = 0;
  const uint64_t cycles = 2'000'000;
  double s = seconds([&] {
    for (uint64_t t = 0; t < cycles; ++t) {
      for (uint32_t src = 0; src < 14; ++src) {
        uint32_t dst = uint32_t(rng.next() % 12), bytes = (rng.next() & 1) ? 8 : 136;
        if (x.can_push(src, dst, bytes)) x.push(Packet{id++, 0, bytes, 0, PacketType::ReadRequest, src, dst}, t);
      }
      x.tick(t);
      for (uint32_t d = 0; d < 12; ++d)
        while (x.has_packet(d)) {
          x.pop(d);
          ++got;
        }
    }
  });
  fmt::print("{:<34} {:>8.2f} M cycles/s    {:.2f} packets/cycle, mean latency {:.1f} cycles\n",
             "crossbar 14x12, saturated", cycles / s / 1e6, double(got) / cycles, x.stats().average_latency());
}

}  // namespace

int main() {
  bench_functional("L1 16 KB, functional, 64 KB set", fermi_l1(), 64 * 1024, 10);
  bench_functional("L1 16 KB, functional, 12 KB set", fermi_l1(), 12 * 1024, 10);
  bench_functional("L2 slice 64 KB, functional, 1 MB", c2070_l2_slice(), 1 << 20, 20);
  bench_timed_l2();
  bench_crossbar();
  return 0;
}
