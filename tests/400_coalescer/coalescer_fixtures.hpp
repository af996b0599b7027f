// Builders for the coalescer tests: warp accesses from an address function, the rule sets
// with the parameters of the FX5800/C2070 configs, and readable transaction printing.
#pragma once
#include <catch2/catch.hpp>
#include <functional>
#include <sstream>
#include <vector>

#include "sim/memory/coalescer.hpp"

namespace warpsim::test {

using mem::AccessKind;
using mem::CoalescerRules;
using mem::CoalescerSpec;
using mem::L2OnlyTransactions;
using mem::Transaction;
using mem::WarpMemAccess;

inline WarpMemAccess warp_access(uint32_t elem_bytes, const std::function<uint64_t(uint32_t)>& addr,
                                 uint32_t mask = 0xFFFFFFFFu, AccessKind kind = AccessKind::Load,
                                 uint32_t vec = 1) {
  WarpMemAccess a;
  a.space = isa::Space::Global;
  a.kind = kind;
  a.elem_bytes = uint8_t(elem_bytes);
  a.vec = uint8_t(vec);
  a.mask = mask;
  for (uint32_t lane = 0; lane < 32; ++lane) a.addr[lane] = addr(lane);
  return a;
}

inline CoalescerSpec cc10() { return CoalescerSpec{CoalescerRules::Cc10, 16}; }
inline CoalescerSpec cc13() { return CoalescerSpec{CoalescerRules::Cc13, 16}; }
inline CoalescerSpec cc20(bool l1 = true, L2OnlyTransactions l2 = L2OnlyTransactions::Segment32) {
  CoalescerSpec s{CoalescerRules::Cc20, 32};
  s.l1_caching = l1;
  s.l2_only = l2;
  return s;
}
inline CoalescerSpec sector32() { return CoalescerSpec{CoalescerRules::Sector32, 32}; }
inline CoalescerSpec segments(uint32_t subwarp, uint32_t bytes) {
  CoalescerSpec s{CoalescerRules::Segments, subwarp};
  s.segment_bytes = bytes;
  return s;
}

inline std::vector<Transaction> run(const CoalescerSpec& spec, const WarpMemAccess& a) {
  std::vector<Transaction> out;
  mem::coalesce(spec, a, out);
  return out;
}

// (address, size) pairs, the form the Programming Guide's figures give.
using Shape = std::vector<std::pair<uint64_t, uint32_t>>;
inline Shape shape(const std::vector<Transaction>& t) {
  Shape s;
  for (const auto& x : t) s.emplace_back(x.addr, x.size);
  return s;
}

// n transactions of `size` bytes at `addr`.
inline Shape repeat(uint64_t addr, uint32_t size, int n) { return Shape(size_t(n), {addr, size}); }
inline Shape concat(std::initializer_list<Shape> parts) {
  Shape s;
  for (const auto& p : parts) s.insert(s.end(), p.begin(), p.end());
  return s;
}

inline uint32_t lanes_mask(uint32_t first, uint32_t count) {
  return count >= 32 ? 0xFFFFFFFFu : ((1u << count) - 1u) << first;
}

}  // namespace warpsim::test

namespace Catch {
template <>
struct StringMaker<warpsim::mem::Transaction> {
  static std::string convert(const warpsim::mem::Transaction& t) {
    std::ostringstream os;
    os << "{addr " << t.addr << ", " << t.size << " B, lanes 0x" << std::hex << t.lanes << ", sectors 0x"
       << unsigned(t.sectors) << "}";
    return os.str();
  }
};
}  // namespace Catch
