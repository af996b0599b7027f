// Crossbar timing: latency, bandwidth, back-pressure, FIFO order and round-robin fairness.
#include <catch2/catch.hpp>

#include <map>
#include <stdexcept>
#include <vector>

#include "sim/memory/interconnect.hpp"

using namespace warpsim::mem;

namespace {

InterconnectSpec spec(uint32_t latency, uint32_t in_flits = 64, uint32_t out_flits = 64) {
  InterconnectSpec s;
  s.latency = latency;
  s.flit_bytes = 32;
  s.flits_per_cycle = 1;
  s.cycles_per_flit = 1;
  s.input_buffer_flits = in_flits;
  s.output_buffer_flits = out_flits;
  return s;
}

Packet pkt(uint64_t id, uint32_t src, uint32_t dst, uint32_t bytes = 8) {
  Packet p;
  p.id = id;
  p.src = src;
  p.dst = dst;
  p.bytes = bytes;
  return p;
}

// Tick cycles [from, to] and pop everything delivered at each; returns (cycle, packet).
std::vector<std::pair<uint64_t, Packet>> run(Crossbar& x, uint64_t from, uint64_t to) {
  std::vector<std::pair<uint64_t, Packet>> got;
  for (uint64_t t = from; t <= to; ++t) {
    x.tick(t);
    for (uint32_t d = 0; d < x.destinations(); ++d)
      while (x.has_packet(d)) got.emplace_back(t, x.pop(d));
  }
  return got;
}

}  // namespace

TEST_CASE("an isolated one-flit packet takes exactly the configured latency", "[icnt][latency]") {
  Crossbar x(spec(5), 2, 2, "test");
  REQUIRE(x.can_push(0, 1, 8));
  x.push(pkt(42, 0, 1), 10);
  CHECK(x.next_event_cycle() <= 10);  // can go now
  for (uint64_t t = 10; t < 15; ++t) {
    x.tick(t);
    CHECK_FALSE(x.has_packet(1));
  }
  CHECK(x.next_event_cycle() == 15);
  CHECK(x.tick(15));
  REQUIRE(x.has_packet(1));
  Packet p = x.pop(1);
  CHECK(p.id == 42);
  CHECK(p.pushed_at == 10);
  CHECK(p.delivered_at == 15);
  CHECK(x.idle());
  CHECK(x.next_event_cycle() == kNoEvent);
  CHECK_FALSE(x.tick(16));
  CHECK(x.stats().total_latency == 5);
}

TEST_CASE("a multi-flit packet adds its serialization to the latency", "[icnt][latency]") {
  Crossbar x(spec(5), 1, 1, "test");
  x.push(pkt(1, 0, 0, 136), 0);  // 128 data + 8 control bytes = 5 flits of 32 bytes
  auto got = run(x, 0, 20);
  REQUIRE(got.size() == 1);
  CHECK(got[0].first == 0 + 4 + 5);  // last flit leaves in cycle 4, arrives 5 later
  CHECK(x.stats().flits_delivered == 5);
}

TEST_CASE("bandwidth: N packets through one port take the computed number of cycles", "[icnt][bandwidth]") {
  SECTION("1 flit per cycle: one 1-flit packet per cycle") {
    Crossbar x(spec(3), 1, 1, "test");
    for (uint64_t i = 0; i < 10; ++i) x.push(pkt(i, 0, 0), 0);
    auto got = run(x, 0, 30);
    REQUIRE(got.size() == 10);
    for (uint64_t i = 0; i < 10; ++i) {
      CHECK(got[i].second.id == i);
      CHECK(got[i].first == i + 3);  // last one at 9 + latency
    }
  }
  SECTION("2 flits per cycle: two 1-flit packets per cycle") {
    InterconnectSpec s = spec(3);
    s.flits_per_cycle = 2;
    Crossbar x(s, 1, 1, "test");
    for (uint64_t i = 0; i < 10; ++i) x.push(pkt(i, 0, 0), 0);
    auto got = run(x, 0, 30);
    REQUIRE(got.size() == 10);
    for (uint64_t i = 0; i < 10; ++i) CHECK(got[i].first == i / 2 + 3);
  }
  SECTION("one flit every 2 cycles: 4-flit packets take 8 cycles each") {
    InterconnectSpec s = spec(3);
    s.cycles_per_flit = 2;
    Crossbar x(s, 1, 1, "test");
    for (uint64_t i = 0; i < 3; ++i) x.push(pkt(i, 0, 0, 128), 0);
    auto got = run(x, 0, 40);
    REQUIRE(got.size() == 3);
    CHECK(got[0].first == 7 + 3);
    CHECK(got[1].first == 15 + 3);
    CHECK(got[2].first == 23 + 3);
  }
  SECTION("disjoint pairs do not share bandwidth") {
    Crossbar x(spec(3), 2, 2, "test");
    for (uint64_t i = 0; i < 5; ++i) {
      x.push(pkt(i, 0, 0), 0);
      x.push(pkt(100 + i, 1, 1), 0);
    }
    auto got = run(x, 0, 20);
    REQUIRE(got.size() == 10);
    CHECK(got.back().first == 4 + 3);  // both streams finish as if alone
  }
  SECTION("two sources into one destination share its port") {
    Crossbar x(spec(3), 2, 1, "test");
    for (uint64_t i = 0; i < 5; ++i) {
      x.push(pkt(i, 0, 0), 0);
      x.push(pkt(100 + i, 1, 0), 0);
    }
    auto got = run(x, 0, 20);
    REQUIRE(got.size() == 10);
    CHECK(got.back().first == 9 + 3);
  }
}

TEST_CASE("back-pressure: can_push is false when the input buffer is full, nothing is lost",
          "[icnt][backpressure]") {
  Crossbar x(spec(2, /*in*/ 4, /*out*/ 2), 1, 1, "test");
  for (uint64_t i = 0; i < 4; ++i) {
    REQUIRE(x.can_push(0, 0, 8));
    x.push(pkt(i, 0, 0), 0);
  }
  CHECK_FALSE(x.can_push(0, 0, 8));
  CHECK_THROWS_AS(x.push(pkt(99, 0, 0), 0), std::logic_error);
  CHECK(x.queued_flits(0) == 4);

  // Nobody pops: only two packets fit in the output buffer (in flight or delivered).
  for (uint64_t t = 0; t < 20; ++t) x.tick(t);
  CHECK(x.queued_flits(0) == 2);
  CHECK(x.stats().packets_delivered == 2);
  CHECK(x.next_event_cycle() == kNoEvent);  // waiting for the consumer, not for time
  CHECK(x.stats().output_full_stalls > 0);
  CHECK(x.can_push(0, 0, 8));
  x.push(pkt(4, 0, 0), 20);
  CHECK_FALSE(x.can_push(0, 0, 40));  // 2 flits do not fit beside the 3 queued

  // Draining lets everything through, in order.
  std::vector<uint64_t> ids;
  for (uint64_t t = 20; t < 60; ++t) {
    x.tick(t);
    if (x.has_packet(0)) ids.push_back(x.pop(0).id);  // one pop per cycle
  }
  CHECK(ids == std::vector<uint64_t>{0, 1, 2, 3, 4});
  CHECK(x.idle());
  CHECK(x.stats().packets_pushed == 5);
  CHECK(x.stats().packets_delivered == 5);
}

TEST_CASE("departures are counted per input, and a full input's can_push changes only after one", "[icnt][backpressure]") {
  // The memory system skips a partition whose replies found the reply input full until that
  // input's departures grow: that is exact only if nothing else frees input space.
  Crossbar x(spec(2, /*in*/ 2, /*out*/ 1), 2, 1, "test");
  x.push(pkt(0, 0, 0), 0);
  x.push(pkt(1, 0, 0), 0);
  x.push(pkt(2, 1, 0), 0);
  CHECK_FALSE(x.can_push(0, 0, 8));
  CHECK(x.departures(0) == 0);
  CHECK(x.departures(1) == 0);
  std::vector<uint64_t> before{0, 0};
  for (uint64_t t = 0; t < 40; ++t) {
    const bool full0 = !x.can_push(0, 0, 8);
    x.tick(t);
    const uint64_t d0 = x.departures(0), d1 = x.departures(1);
    // A full input stays full through a tick in which nothing left it.
    if (full0 && d0 == before[0]) CHECK_FALSE(x.can_push(0, 0, 8));
    CHECK(d0 >= before[0]);
    CHECK(d1 >= before[1]);
    before = {d0, d1};
    if (t % 3 == 0 && x.has_packet(0)) x.pop(0);  // a slow consumer
  }
  CHECK(x.departures(0) == 2);
  CHECK(x.departures(1) == 1);
  CHECK(x.departures(0) + x.departures(1) == x.stats().packets_pushed);
}

TEST_CASE("oversized packets and bad ports are rejected loudly", "[icnt][backpressure]") {
  Crossbar x(spec(2, 4, 4), 2, 3, "test");
  CHECK_THROWS_AS(x.can_push(0, 0, 5 * 32), std::invalid_argument);  // 5 flits > 4
  CHECK_THROWS_AS(x.can_push(2, 0, 8), std::invalid_argument);
  CHECK_THROWS_AS(x.can_push(0, 3, 8), std::invalid_argument);
  CHECK_THROWS_AS(x.pop(0), std::logic_error);
}

TEST_CASE("round-robin: sources flooding one destination take turns", "[icnt][fairness]") {
  Crossbar x(spec(1), 3, 1, "test");
  for (uint64_t i = 0; i < 10; ++i)
    for (uint32_t s = 0; s < 3; ++s) x.push(pkt(s * 100 + i, s, 0), 0);
  auto got = run(x, 0, 40);
  REQUIRE(got.size() == 30);
  for (size_t k = 0; k < got.size(); ++k) {
    CHECK(got[k].second.src == k % 3);
    CHECK(got[k].second.id == (k % 3) * 100 + k / 3);  // FIFO within each source
    CHECK(got[k].first == k + 1);
  }
}

TEST_CASE("round-robin resumes after the last winner, not at source 0", "[icnt][fairness]") {
  Crossbar x(spec(1), 3, 1, "test");
  x.push(pkt(1, 1, 0), 0);
  run(x, 0, 3);  // source 1 wins; the pointer moves to 2
  x.push(pkt(0, 0, 0), 4);
  x.push(pkt(2, 2, 0), 4);
  auto got = run(x, 4, 10);
  REQUIRE(got.size() == 2);
  CHECK(got[0].second.src == 2);
  CHECK(got[1].second.src == 0);
}

TEST_CASE("random traffic: every packet arrives once, in order per pair, buffers stay bounded",
          "[icnt][backpressure]") {
  InterconnectSpec s = spec(4, 8, 10);
  Crossbar x(s, 4, 3, "test");
  uint64_t lcg = 12345;
  auto next = [&] { return (lcg = lcg * 6364136223846793005ull + 1442695040888963407ull) >> 33; };
  std::map<std::pair<uint32_t, uint32_t>, std::vector<uint64_t>> sent, received;
  uint64_t id = 0, delivered = 0;
  const uint32_t sizes[] = {8, 40, 136};
  for (uint64_t t = 0; t < 3000; ++t) {
    if (t < 2000) {
      for (uint32_t src = 0; src < 4; ++src) {
        if (next() % 3) continue;
        uint32_t dst = uint32_t(next() % 3), bytes = sizes[next() % 3];
        if (!x.can_push(src, dst, bytes)) continue;  // the producer stalls and tries later
        Packet p = pkt(id++, src, dst, bytes);
        sent[{src, dst}].push_back(p.id);
        x.push(p, t);
      }
    }
    x.tick(t);
    for (uint32_t src = 0; src < 4; ++src) REQUIRE(x.queued_flits(src) <= s.input_buffer_flits);
    for (uint32_t dst = 0; dst < 3; ++dst) {
      if (x.has_packet(dst) && next() % 2) {  // a slow consumer
        Packet p = x.pop(dst);
        received[{p.src, p.dst}].push_back(p.id);
        ++delivered;
      }
    }
  }
  CHECK(id > 1000);
  CHECK(delivered == id);
  CHECK(received == sent);
  CHECK(x.idle());
}
