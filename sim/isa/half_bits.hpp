// Bit patterns of the 16-bit floating-point formats: binary16 (.f16) and bfloat16 (.bf16),
// to and from the host's float and double, rounding to nearest even.
#pragma once
#include <bit>
#include <cmath>
#include <cstdint>

namespace warpsim::isa::detail {

// Round-to-nearest-even of a double to binary16 bits.
inline uint16_t to_half(double d) {
  const uint64_t x = std::bit_cast<uint64_t>(d);
  const uint16_t sign = static_cast<uint16_t>((x >> 48) & 0x8000);
  const int exp = static_cast<int>((x >> 52) & 0x7FF);
  uint64_t mant = x & ((uint64_t(1) << 52) - 1);
  // inf, or a quiet NaN keeping the payload's high bits (an H200's cvt.rn.f16.f64)
  if (exp == 0x7FF) return sign | 0x7C00 | (mant ? 0x200 | static_cast<uint16_t>(mant >> 42) : 0);
  int e = exp - 1023 + 15;                                        // biased half exponent
  if (e >= 31) return sign | 0x7C00;
  int shift = 42;  // 52 - 10 mantissa bits
  if (e <= 0) {    // subnormal half (or zero)
    if (e < -10) return sign;
    mant |= uint64_t(1) << 52;
    shift = 42 + 1 - e;
    e = 0;
  }
  uint64_t h = mant >> shift;
  const uint64_t rem = mant & ((uint64_t(1) << shift) - 1), halfway = uint64_t(1) << (shift - 1);
  uint32_t bits = (uint32_t(e) << 10) + static_cast<uint32_t>(h & (e ? 0x3FF : 0x7FF));
  if (rem > halfway || (rem == halfway && (bits & 1))) ++bits;  // a carry moves into the exponent
  return sign | static_cast<uint16_t>(bits);
}

inline double from_half(uint16_t h) {
  const int exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
  if (exp == 31 && mant)  // a quiet NaN with the payload and sign (an H200's cvt.f64.f16)
    return std::bit_cast<double>((uint64_t(h & 0x8000) << 48) | 0x7FF8000000000000ull | (uint64_t(mant) << 42));
  if (exp == 31) return (h & 0x8000) ? -INFINITY : INFINITY;
  // Every binary16 value is a double exactly: its mantissa and exponent move over, rebiased
  // (a subnormal half is mant x 2^-24, a normal double).
  if (exp == 0) {
    const double v = double(mant) * 0x1p-24;
    return (h & 0x8000) ? -v : v;
  }
  const uint64_t bits = (uint64_t(h & 0x8000) << 48) | (uint64_t(exp - 15 + 1023) << 52) | (uint64_t(mant) << 42);
  return std::bit_cast<double>(bits);
}

inline uint16_t to_bf16(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  if (std::isnan(f)) return static_cast<uint16_t>((x >> 16) | 0x40);
  return static_cast<uint16_t>((x + 0x7FFF + ((x >> 16) & 1)) >> 16);
}
inline float from_bf16(uint16_t b) { return std::bit_cast<float>(uint32_t(b) << 16); }

// A double to bf16, rounded to nearest even once: through a float rounded to odd (its 24
// bits keep the two bits past bf16's 8 that the rounding needs). NaNs are the caller's.
inline uint16_t bf16_from_double(double x) {
  float f = static_cast<float>(x);
  if (std::fabs(double(f)) > std::fabs(x)) f = std::nextafter(f, 0.0f);  // toward zero
  uint32_t bits = std::bit_cast<uint32_t>(f);
  if (double(f) != x) bits |= 1;  // inexact: odd
  return static_cast<uint16_t>((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16);
}

inline bool is_subnormal_half(uint16_t h) { return ((h >> 10) & 0x1F) == 0 && (h & 0x3FF); }

// A .f16 or .bf16 source as setp and set compare it: the double it is exactly, an f16
// subnormal flushed to zero of its sign under .ftz.
inline double compared_half(uint16_t h, bool bf16, bool ftz) {
  if (bf16) return from_bf16(h);
  if (ftz && is_subnormal_half(h)) h &= 0x8000;
  return from_half(h);
}

}  // namespace warpsim::isa::detail
