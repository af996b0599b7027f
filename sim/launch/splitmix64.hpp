// SplitMix64 (Steele, Lea & Flood 2014): a tiny, fully specified 64-bit generator, so the
// random buffers of launch specs are identical on every machine and standard library.
// (std::uniform_*_distribution is implementation-defined and is deliberately not used.)
#pragma once
#include <cstdint>

namespace warpsim {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}

  uint64_t next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  // Uniform in [0, 1) with 53 random bits.
  double next_unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  // Uniform integer in [lo, hi] (inclusive): the high half of a 64x64-bit product
  // (Lemire's multiply-shift, without the rejection step; the bias is below 2^-32 for
  // ranges under 2^32).
  int64_t next_in(int64_t lo, int64_t hi) {
    uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;  // 0 = all 2^64
    if (span == 0) return static_cast<int64_t>(next());
    unsigned __int128 product = static_cast<unsigned __int128>(next()) * span;
    return static_cast<int64_t>(static_cast<uint64_t>(lo) + static_cast<uint64_t>(product >> 64));
  }

 private:
  uint64_t state_;
};

}  // namespace warpsim
