// A set of small indices (ports, SMs, partitions) as bits, so a clock can visit only the
// busy ones, in increasing order.
#pragma once
#include <bit>
#include <cstdint>
#include <vector>

namespace warpsim::mem {

class IndexSet {
 public:
  explicit IndexSet(size_t n = 0) : words_((n + 63) / 64, 0) {}
  void insert(uint32_t i) { words_[i >> 6] |= uint64_t(1) << (i & 63); }
  void erase(uint32_t i) { words_[i >> 6] &= ~(uint64_t(1) << (i & 63)); }
  void set(uint32_t i, bool member) { member ? insert(i) : erase(i); }
  bool contains(uint32_t i) const { return (words_[i >> 6] >> (i & 63)) & 1; }
  // Adds every member of `other` (a set over the same range).
  void unite(const IndexSet& other) {
    for (size_t w = 0; w < words_.size(); ++w) words_[w] |= other.words_[w];
  }
  // Calls f(i) for every member, in increasing order; each word is read when reached, so f
  // may erase members.
  template <class F>
  void for_each(F&& f) const {
    for (size_t w = 0; w < words_.size(); ++w)
      for (uint64_t m = words_[w]; m; m &= m - 1) f(uint32_t(w * 64 + uint32_t(std::countr_zero(m))));
  }

 private:
  std::vector<uint64_t> words_;
};

}  // namespace warpsim::mem
