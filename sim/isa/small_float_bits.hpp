// Rounding a number to the narrow floating-point formats that cvt writes: binary16, bfloat16,
// and the fp8 formats E4M3 and E5M2 (OCP 8-bit floating point, as PTX's .e4m3x2/.e5m2x2
// hold them), to nearest even or toward zero, and reading fp8 values back.
//
// A format has 1 sign bit, `exp_bits` exponent bits with bias 2^(exp_bits-1) - 1, and
// `mant_bits` mantissa bits, with subnormals. binary16, bfloat16 and E5M2 keep the top
// exponent for infinities and NaNs; E4M3 has no infinities and only S.1111.111 is NaN, so its
// largest finite value is S.1111.110 (448).
#pragma once
#include <cmath>
#include <cstdint>

namespace warpsim::isa::detail {

struct SmallFloatFormat {
  int exp_bits;
  int mant_bits;
  uint32_t max_finite;  // the magnitude bits of the largest finite value
  uint32_t inf_bits;    // the magnitude bits of infinity; 0: none (E4M3)
  uint32_t nan_bits;    // the magnitude bits of the canonical NaN
};

inline constexpr SmallFloatFormat kF16Format{5, 10, 0x7BFF, 0x7C00, 0x7FFF};
inline constexpr SmallFloatFormat kBF16Format{8, 7, 0x7F7F, 0x7F80, 0x7FFF};
inline constexpr SmallFloatFormat kE4M3Format{4, 3, 0x7E, 0, 0x7F};
inline constexpr SmallFloatFormat kE5M2Format{5, 2, 0x7B, 0x7C, 0x7F};

// The magnitude bits of |x| (finite, not NaN) rounded to `f`: to nearest, ties to even, or
// toward zero. A magnitude past the largest finite one comes back as it would be encoded
// with more exponent bits, so `> f.max_finite` tells the caller it overflowed (x must be
// below 2^(2^exp_bits), which every float, double-rounded or not, is for these formats
// from an f32 or f16 source).
inline uint32_t round_magnitude(double x, const SmallFloatFormat& f, bool toward_zero) {
  const double ax = std::fabs(x);
  if (ax == 0) return 0;
  const int bias = (1 << (f.exp_bits - 1)) - 1;
  int e2 = 0;
  std::frexp(ax, &e2);
  int e = e2 - 1;                   // ax = 1.m x 2^e
  if (e < 1 - bias) e = 1 - bias;   // subnormal: the smallest normal's quantum
  const double n = std::ldexp(ax, f.mant_bits - e);  // ax in quanta: exact (a power-of-two scale)
  double whole = std::floor(n);
  if (!toward_zero) {
    const double rest = n - whole;
    if (rest > 0.5 || (rest == 0.5 && std::fmod(whole, 2.0) != 0)) whole += 1;
  }
  const uint64_t q = static_cast<uint64_t>(whole);
  // A subnormal's quanta are its bits (2^mant_bits of them: the smallest normal); a normal's
  // are 2^mant_bits plus its mantissa (2^(mant_bits+1): the next binade's first value).
  if (e2 - 1 < 1 - bias) return static_cast<uint32_t>(q);
  return static_cast<uint32_t>((uint64_t(e + bias) << f.mant_bits) + q - (uint64_t(1) << f.mant_bits));
}

// x (an f32's or f16's exact value) as the bits of format f with cvt's modifiers: a NaN is
// the canonical NaN; .relu makes a negative value (and -0) +0; past the largest finite value
// .rn gives infinity, .rz and .satfinite that largest value (.satfinite: infinities too).
inline uint32_t narrow_to_format(double x, const SmallFloatFormat& f, bool toward_zero, bool relu, bool satfinite) {
  if (std::isnan(x)) return f.nan_bits;
  const bool negative = std::signbit(x);
  if (relu && negative) return 0;
  uint32_t mag;
  if (std::isinf(x)) {
    mag = satfinite ? f.max_finite : f.inf_bits;
  } else {
    mag = round_magnitude(x, f, toward_zero);
    if (mag > f.max_finite) mag = satfinite || toward_zero ? f.max_finite : f.inf_bits;
  }
  return mag | (negative ? 1u << (f.exp_bits + f.mant_bits) : 0u);
}

// The value of an fp8 number's bits (E4M3 or E5M2), NaN for its NaNs.
inline double fp8_value(uint8_t bits, const SmallFloatFormat& f) {
  const uint32_t mag = bits & 0x7F;
  const bool neg = bits & 0x80;
  if (mag == f.nan_bits || (f.inf_bits && mag > f.inf_bits)) return NAN;
  if (f.inf_bits && mag == f.inf_bits) return neg ? -INFINITY : INFINITY;
  const int bias = (1 << (f.exp_bits - 1)) - 1;
  const int exp = static_cast<int>(mag >> f.mant_bits);
  const int mant = static_cast<int>(mag & ((1u << f.mant_bits) - 1));
  const double v = exp == 0 ? std::ldexp(mant, 1 - bias - f.mant_bits)
                            : std::ldexp(mant + (1 << f.mant_bits), exp - bias - f.mant_bits);
  return neg ? -v : v;
}

}  // namespace warpsim::isa::detail
