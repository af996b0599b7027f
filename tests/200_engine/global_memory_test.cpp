// Global memory's externally backed allocations (host memory mapped into the device's
// address space, device-heap blocks): placement, guards, capacity and access.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "sim/memory/global_memory.hpp"

using warpsim::mem::GlobalMemory;

TEST_CASE("global memory: an external range reads and writes its owner's storage", "[memory]") {
  GlobalMemory gm;
  std::vector<uint8_t> host(100, 7);
  const uint64_t base = uint64_t(1) << 45;
  REQUIRE(gm.map_external(base, host.data(), host.size(), "pinned"));
  auto* a = gm.find(base + 10, 4);
  REQUIRE(a);
  CHECK(a->external == host.data());
  const uint32_t v = 0xDEADBEEF;
  gm.write(*a, base + 10, &v, 4);
  uint32_t back = 0;
  std::memcpy(&back, host.data() + 10, 4);
  CHECK(back == v);
  host[99] = 42;
  uint8_t last = 0;
  gm.read(*a, base + 99, &last, 1);
  CHECK(last == 42);
  // Exactly its bytes: one past the end is outside, and the description names it.
  CHECK(gm.find(base + 99, 1));
  CHECK_FALSE(gm.find(base + 100, 1));
  CHECK(gm.describe(base + 100, 1).find("0 bytes past the end of buffer 'pinned'") != std::string::npos);
  // External bytes do not count against the device's capacity, before or after release.
  CHECK(gm.bytes_allocated() == 0);
  CHECK(gm.release(base));
  CHECK(gm.bytes_allocated() == 0);
  CHECK_FALSE(gm.find(base, 1));
}

TEST_CASE("global memory: external ranges may not overlap another allocation", "[memory]") {
  GlobalMemory gm;
  std::vector<uint8_t> s(64), t(64);
  const uint64_t dev = gm.allocate(1000);
  CHECK_FALSE(gm.map_external(dev + 500, s.data(), 64, "x"));
  CHECK_FALSE(gm.map_external(dev - 63, s.data(), 64, "x"));
  CHECK_FALSE(gm.map_external(dev + 999, s.data(), 64, "x"));
  // Host ranges lie next to each other as the program's memory does: adjacent is fine.
  const uint64_t host = uint64_t(1) << 45;
  CHECK(gm.map_external(host, s.data(), 64, "a"));
  CHECK(gm.map_external(host + 64, t.data(), 64, "b"));
  CHECK_FALSE(gm.map_external(host + 63, t.data(), 2, "c"));
  CHECK(gm.find(host + 64, 1)->label == "b");
  CHECK(gm.find(host + 63, 1)->label == "a");
  // A range straddling both is in neither.
  CHECK_FALSE(gm.find(host + 60, 8));
  // Empty or wrapping ranges and null storage are refused.
  CHECK_FALSE(gm.map_external(uint64_t(1) << 46, s.data(), 0, "x"));
  CHECK_FALSE(gm.map_external(UINT64_MAX - 8, s.data(), 64, "x"));
  CHECK_FALSE(gm.map_external(uint64_t(1) << 46, nullptr, 64, "x"));
}

TEST_CASE("global memory: device allocations skip external ranges in their way", "[memory]") {
  GlobalMemory gm;
  std::vector<uint8_t> s(4096);
  // Put an external range where the next device allocation would go.
  const uint64_t next = GlobalMemory::kFirstBase;
  REQUIRE(gm.map_external(next + GlobalMemory::kGuard, s.data(), s.size(), "in the way"));
  const uint64_t a = gm.allocate(3 * GlobalMemory::kAlign);
  CHECK(a >= next + GlobalMemory::kGuard + s.size() + GlobalMemory::kGuard);
  CHECK(a % GlobalMemory::kAlign == 0);
  // And the external range still reads its own storage.
  s[5] = 9;
  uint8_t v = 0;
  gm.read(*gm.find(next + GlobalMemory::kGuard + 5, 1), next + GlobalMemory::kGuard + 5, &v, 1);
  CHECK(v == 9);
}

TEST_CASE("global memory: an allocation at a given address keeps its guard and the capacity", "[memory]") {
  GlobalMemory gm;
  gm.set_capacity(uint64_t(64) << 20);
  const uint64_t first = gm.allocate(1000);
  // Misaligned, inside the first allocation's guard, or past the capacity: refused, nothing changes.
  CHECK_FALSE(gm.allocate_at(first + GlobalMemory::kAlign / 2, 16));
  CHECK_FALSE(gm.allocate_at(first + GlobalMemory::kAlign, 16));
  CHECK_FALSE(gm.allocate_at(first + 8 * GlobalMemory::kAlign, uint64_t(64) << 20));
  CHECK(gm.bytes_allocated() == 1000);
  // Free space with a guard on both sides: placed there, and the next allocation goes past it.
  const uint64_t at = first + 4 * GlobalMemory::kAlign;
  REQUIRE(gm.allocate_at(at, 300));
  CHECK(gm.find(at, 300));
  CHECK_FALSE(gm.find(at + 300, 1));
  CHECK_FALSE(gm.allocate_at(at, 16));  // taken
  CHECK(gm.allocate(10) >= at + 300 + GlobalMemory::kGuard);
  CHECK(gm.bytes_allocated() == 1310);
}

TEST_CASE("global memory: a shared allocation keeps its bytes in the given storage, counted as before", "[memory]") {
  // CUDA IPC (runtime_ipc.cpp): an exported allocation moves into a shared-memory object.
  GlobalMemory gm;
  const uint64_t bytes = GlobalMemory::kPageSize + 100;  // a whole page and a short one
  const uint64_t base = gm.allocate(bytes);
  auto* a = gm.find(base, 1);
  REQUIRE(a);
  const uint32_t v = 0xC0FFEE;
  gm.write(*a, base + GlobalMemory::kPageSize + 96, &v, 4);  // only the second page has storage
  std::vector<uint8_t> storage(bytes, 0);
  REQUIRE(gm.share(base, storage.data()));
  CHECK(a->external == storage.data());
  uint32_t back = 0;
  std::memcpy(&back, storage.data() + GlobalMemory::kPageSize + 96, 4);
  CHECK(back == v);  // the contents moved
  CHECK(storage[0] == 0);
  storage[5] = 9;  // another process's write
  uint8_t b = 0;
  gm.read(*a, base + 5, &b, 1);
  CHECK(b == 9);
  CHECK(gm.bytes_allocated() == bytes);  // still this device's memory
  CHECK_FALSE(gm.share(base, storage.data()));  // once
  CHECK_FALSE(gm.share(base + 256, storage.data()));  // not an allocation's start
  CHECK(gm.release(base));
  CHECK(gm.bytes_allocated() == 0);
  // A mapped range is not an allocation the device owns: it cannot be shared.
  std::vector<uint8_t> host(64);
  REQUIRE(gm.map_external(uint64_t(1) << 45, host.data(), host.size(), "pinned"));
  CHECK_FALSE(gm.share(uint64_t(1) << 45, storage.data()));
}

TEST_CASE("global memory: a range mapped anywhere goes where the next allocation would, guards kept", "[memory]") {
  GlobalMemory gm;
  const uint64_t first = gm.allocate(1000);
  std::vector<uint8_t> other(3000, 1);
  const uint64_t at = gm.map_external_anywhere(other.data(), other.size(), "imported");
  REQUIRE(at);
  CHECK(at % GlobalMemory::kAlign == 0);
  CHECK(at >= first + 1000 + GlobalMemory::kGuard);
  CHECK(gm.bytes_allocated() == 1000);  // not counted against the capacity
  const uint64_t next = gm.allocate(1000);
  CHECK(next >= at + other.size() + GlobalMemory::kGuard);
  CHECK(gm.map_external_anywhere(other.data(), 0, "empty") == 0);
  CHECK(gm.release(at));
  CHECK_FALSE(gm.find(at, 1));
}
