// Helpers shared by the cache tests: tiny hand-checkable cache specs.
#pragma once
#include "sim/memory/cache.hpp"

namespace warpsim::mem::test {

// A cache of `sets` x `ways` lines of 128 bytes with 32-byte sectors, LRU, write-back,
// write-allocate, generous MSHRs; tests change the fields they exercise.
inline CacheSpec tiny_spec(uint32_t sets, uint32_t ways, uint32_t sector_bytes = 32) {
  CacheSpec s;
  s.line_bytes = 128;
  s.sector_bytes = sector_bytes;
  s.ways = ways;
  s.sets = sets;
  s.size_bytes = uint64_t(sets) * ways * 128;
  s.replacement = "lru";
  s.write_policy = WritePolicy::WriteBack;
  s.local_write_policy = WritePolicy::WriteBack;
  s.write_allocate = true;
  s.hit_latency = 10;
  s.mshr_entries = 8;
  s.mshr_max_merge = 8;
  return s;
}

inline CacheRequest read(uint64_t addr, uint32_t mask, uint64_t id = 0) {
  return CacheRequest{addr, mask, AccessType::Read, false, id};
}
inline CacheRequest write(uint64_t addr, uint32_t mask, bool local = false) {
  return CacheRequest{addr, mask, AccessType::Write, local, 0};
}
inline CacheRequest atomic(uint64_t addr, uint32_t mask, uint64_t id = 0) {
  return CacheRequest{addr, mask, AccessType::Atomic, false, id};
}

}  // namespace warpsim::mem::test
