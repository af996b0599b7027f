// cvt between every pair of integer and floating-point types, in every rounding mode,
// with saturation, NaN -> 0 and .ftz; plus hand-checked values for each rule.
#include <catch2/catch.hpp>

#include <cfenv>
#include <cmath>
#include <functional>

#include "eval.hpp"

using semtest::bits;
using semtest::eval;
using semtest::from_bits;

namespace {

const char* kIntTypes[] = {"s8", "s16", "s32", "s64", "u8", "u16", "u32", "u64"};

int width_of(const std::string& t) { return std::stoi(t.substr(1)); }
bool is_signed_t(const std::string& t) { return t[0] == 's'; }
uint64_t mask_of(int w) { return w == 64 ? ~0ull : (1ull << w) - 1; }

// The integer value a register of type t holds.
__int128 int_value(const std::string& t, uint64_t b) {
  int w = width_of(t);
  b &= mask_of(w);
  if (is_signed_t(t) && w < 64 && ((b >> (w - 1)) & 1)) return __int128(int64_t(b | ~mask_of(w)));
  if (is_signed_t(t)) return __int128(int64_t(b));
  return __int128(b);
}
__int128 int_min(const std::string& t) {
  int w = width_of(t);
  return is_signed_t(t) ? -(__int128(1) << (w - 1)) : 0;
}
__int128 int_max(const std::string& t) {
  int w = width_of(t);
  return is_signed_t(t) ? (__int128(1) << (w - 1)) - 1 : (__int128(1) << w) - 1;
}
uint64_t int_bits(const std::string& t, __int128 v) { return uint64_t(v) & mask_of(width_of(t)); }

// Source values of an integer type: its edges plus values that stress float rounding.
std::vector<uint64_t> int_sources(const std::string& t) {
  std::vector<__int128> v = {0, 1, 2, 3, 7, 100, 127, 128, 255, 256, 32767, 32768, 65535, 65536,
                             16777216, 16777217, 16777219, 33554435, 2147483647, 2147483648ll, 4294967295ll,
                             9007199254740993ll, 9223372036854775807ll, int_max(t), int_min(t), int_min(t) + 1};
  for (__int128 x : std::vector<__int128>(v)) v.push_back(-x);
  std::vector<uint64_t> out;
  for (__int128 x : v) out.push_back(int_bits(t, x));  // wraps into the type
  out.push_back(~0ull & mask_of(width_of(t)));
  out.push_back((1ull << (width_of(t) - 1)) + 1);
  return out;
}

template <class F>
std::vector<F> float_sources() {
  std::vector<F> v = semtest::float_edges<F>();
  for (double x : {2.5, 3.5, -2.5, -3.5, 2.4, 2.6, -2.6, 0.5, -0.5, 1.5, -1.5, 1e10, -1e10, 127.5, 128.5, -128.5,
                   -129.0, 255.5, 256.0, 32767.5, -32768.5, 65535.5, 65536.0, 2147483520.0, 2147483648.0,
                   -2147483648.0, -2147483904.0, 4294967040.0, 4294967296.0, 9223371487098961920.0,
                   9223372036854775808.0, -9223372036854775808.0, 18446742974197923840.0, 18446744073709551616.0,
                   1e30, -1e30})
    v.push_back(F(x));
  return v;
}

void run_cvt(const std::string& code, const std::string& dt, const std::string& st, const std::vector<uint64_t>& srcs,
             const std::function<uint64_t(uint64_t)>& ref, bool dst_float) {
  std::vector<semtest::Case> cases;
  for (uint64_t s : srcs) cases.push_back({s, 0, 0, 0, 0});
  auto out = eval(code, {dt, st}, cases);
  for (size_t i = 0; i < srcs.size(); ++i) {
    uint64_t want = ref(srcs[i]);
    INFO(code << " of 0x" << std::hex << srcs[i] << ": got 0x" << out[i].d << ", want 0x" << want);
    if (dst_float && dt == "f32" && std::isnan(from_bits<float>(want))) CHECK(std::isnan(from_bits<float>(out[i].d)));
    else if (dst_float && dt == "f64" && std::isnan(from_bits<double>(want)))
      CHECK(std::isnan(from_bits<double>(out[i].d)));
    else CHECK(out[i].d == want);
  }
}

double round_mode(double x, const std::string& r) {
  if (r == "rni") return std::nearbyint(x);  // the host is in round-to-nearest-even
  if (r == "rzi") return std::trunc(x);
  if (r == "rmi") return std::floor(x);
  return std::ceil(x);
}

int fenv_of(const std::string& r) {
  if (r == "rz") return FE_TOWARDZERO;
  if (r == "rm") return FE_DOWNWARD;
  if (r == "rp") return FE_UPWARD;
  return FE_TONEAREST;
}

// An integer converted to float/double by the host in a rounding mode (volatile: see float_test).
template <class F>
F host_int_to_float(__int128 v, bool is_signed, int mode) {
  volatile int64_t s = int64_t(v);
  volatile uint64_t u = uint64_t(v);
  volatile F r;
  const int saved = std::fegetround();
  std::fesetround(mode);
  if (is_signed) r = F(s);
  else r = F(u);
  std::fesetround(saved);
  return r;
}
float host_narrow(double x, int mode) {
  volatile double v = x;
  volatile float r;
  const int saved = std::fegetround();
  std::fesetround(mode);
  r = float(v);
  std::fesetround(saved);
  return r;
}

}  // namespace

TEST_CASE("cvt float -> integer: every integer type and rounding mode, saturating, NaN -> 0",
          "[semantics][cvt]") {
  for (const char* st : {"f32", "f64"}) {
    std::vector<uint64_t> srcs;
    if (std::string(st) == "f32")
      for (float x : float_sources<float>()) srcs.push_back(bits(x));
    else
      for (double x : float_sources<double>()) srcs.push_back(bits(x));
    for (const char* dt : kIntTypes)
      for (const char* r : {"rni", "rzi", "rmi", "rpi"}) {
        std::string code = std::string("cvt.") + r + "." + dt + "." + st + " %d, %a;";
        std::string d = dt, s = st, rm = r;
        run_cvt(code, dt, st, srcs,
                [&](uint64_t b) {
                  double x = s == "f32" ? double(from_bits<float>(b)) : from_bits<double>(b);
                  if (std::isnan(x)) return uint64_t(0);
                  double y = round_mode(x, rm);
                  if (y <= double(int_min(d))) return int_bits(d, int_min(d));
                  if (y >= double(int_max(d))) return int_bits(d, int_max(d));
                  return int_bits(d, __int128(y));
                },
                false);
      }
  }
}

TEST_CASE("cvt float -> integer, hand-checked", "[semantics][cvt]") {
  auto c = [](const std::string& code, const std::string& dt, float x) {
    return eval(code, {dt, "f32"}, {{bits(x), 0, 0, 0, 0}})[0].d;
  };
  auto s32 = [&](const char* r, float x) { return int32_t(c(std::string("cvt.") + r + ".s32.f32 %d, %a;", "s32", x)); };
  CHECK(s32("rni", 2.5f) == 2);
  CHECK(s32("rni", 3.5f) == 4);
  CHECK(s32("rni", -2.5f) == -2);
  CHECK(s32("rni", -0.5f) == 0);
  CHECK(s32("rzi", -2.9f) == -2);
  CHECK(s32("rmi", -2.1f) == -3);
  CHECK(s32("rpi", 2.1f) == 3);
  CHECK(s32("rpi", -0.5f) == 0);
  CHECK(s32("rzi", 3e9f) == INT32_MAX);
  CHECK(s32("rzi", -3e9f) == INT32_MIN);
  CHECK(s32("rzi", INFINITY) == INT32_MAX);
  CHECK(s32("rzi", -INFINITY) == INT32_MIN);
  CHECK(s32("rni", NAN) == 0);
  CHECK(s32("rni", 2147483520.0f) == 2147483520);
  CHECK(c("cvt.rzi.u32.f32 %d, %a;", "u32", -1.0f) == 0);
  CHECK(c("cvt.rzi.u32.f32 %d, %a;", "u32", 4294967040.0f) == 4294967040u);
  CHECK(c("cvt.rzi.u32.f32 %d, %a;", "u32", 1e10f) == 0xFFFFFFFFu);
  CHECK(c("cvt.rni.u8.f32 %d, %a;", "u8", 300.0f) == 255);
  CHECK(c("cvt.rni.s8.f32 %d, %a;", "s8", -300.0f) == 0x80);
  CHECK(c("cvt.rni.s16.f32 %d, %a;", "s16", 40000.0f) == 0x7FFF);
  CHECK(c("cvt.rzi.u64.f32 %d, %a;", "u64", 1e19f) == 9999999980506447872ull);
  CHECK(c("cvt.rzi.s64.f32 %d, %a;", "s64", 1e19f) == 0x7FFFFFFFFFFFFFFFull);
  CHECK(c("cvt.rzi.u64.f32 %d, %a;", "u64", 1e20f) == ~0ull);
  CHECK(c("cvt.rzi.ftz.s32.f32 %d, %a;", "s32", -std::numeric_limits<float>::denorm_min()) == 0);
}

TEST_CASE("cvt integer -> float in every rounding mode matches the host", "[semantics][cvt]") {
  for (const char* st : kIntTypes)
    for (const char* dt : {"f32", "f64"})
      for (const char* r : {"rn", "rz", "rm", "rp"}) {
        std::string s = st, d = dt;
        int mode = fenv_of(r);
        run_cvt(std::string("cvt.") + r + "." + dt + "." + st + " %d, %a;", dt, st, int_sources(st),
                [&](uint64_t b) {
                  __int128 v = int_value(s, b);
                  return d == "f32" ? bits(host_int_to_float<float>(v, is_signed_t(s), mode))
                                    : bits(host_int_to_float<double>(v, is_signed_t(s), mode));
                },
                true);
      }
}

TEST_CASE("cvt integer -> float, hand-checked", "[semantics][cvt]") {
  auto f = [](const std::string& code, const std::string& st, uint64_t x) {
    return from_bits<float>(eval(code, {"f32", st}, {{x, 0, 0, 0, 0}})[0].d);
  };
  // 2^24 + 1 lies halfway between two floats; 2^24 + 3 too (ties go to the even one).
  CHECK(f("cvt.rn.f32.s32 %d, %a;", "s32", 16777217) == 16777216.0f);
  CHECK(f("cvt.rz.f32.s32 %d, %a;", "s32", 16777217) == 16777216.0f);
  CHECK(f("cvt.rm.f32.s32 %d, %a;", "s32", 16777217) == 16777216.0f);
  CHECK(f("cvt.rp.f32.s32 %d, %a;", "s32", 16777217) == 16777218.0f);
  CHECK(f("cvt.rn.f32.s32 %d, %a;", "s32", 16777219) == 16777220.0f);
  CHECK(f("cvt.rm.f32.s32 %d, %a;", "s32", bits<int32_t>(-16777217)) == -16777218.0f);
  CHECK(f("cvt.rp.f32.s32 %d, %a;", "s32", bits<int32_t>(-16777217)) == -16777216.0f);
  CHECK(f("cvt.rn.f32.u32 %d, %a;", "u32", 0xFFFFFFFFu) == 4294967296.0f);
  CHECK(f("cvt.rz.f32.u32 %d, %a;", "u32", 0xFFFFFFFFu) == 4294967040.0f);
  CHECK(f("cvt.rn.f32.u64 %d, %a;", "u64", ~0ull) == 18446744073709551616.0f);
  CHECK(bits(f("cvt.rz.f32.u64 %d, %a;", "u64", ~0ull)) == 0x5F7FFFFFu);
  CHECK(f("cvt.rp.f32.u64 %d, %a;", "u64", 0x8000000000000001ull) == 9223373136366403584.0f);  // 2^63 + 2^40
  CHECK(f("cvt.rn.f32.s64 %d, %a;", "s64", 0x8000000000000000ull) == -9223372036854775808.0f);
  CHECK(f("cvt.rn.f32.s8 %d, %a;", "s8", 0x80) == -128.0f);
  CHECK(f("cvt.rn.f32.u8 %d, %a;", "u8", 0x80) == 128.0f);
  CHECK(f("cvt.rn.f32.s16 %d, %a;", "s16", 0xFFFF) == -1.0f);
  auto d = [](const std::string& code, uint64_t x) {
    return from_bits<double>(eval(code, {"f64", "s64"}, {{x, 0, 0, 0, 0}})[0].d);
  };
  CHECK(d("cvt.rn.f64.s64 %d, %a;", 9007199254740993ull) == 9007199254740992.0);
  CHECK(d("cvt.rp.f64.s64 %d, %a;", 9007199254740993ull) == 9007199254740994.0);
  CHECK(d("cvt.rn.f64.s64 %d, %a;", 0x7FFFFFFFFFFFFFFFull) == 9223372036854775808.0);
  CHECK(d("cvt.rz.f64.s64 %d, %a;", 0x7FFFFFFFFFFFFFFFull) == 9223372036854774784.0);
}

TEST_CASE("cvt f64 -> f32 in every rounding mode, with .ftz and .sat", "[semantics][cvt]") {
  std::vector<uint64_t> srcs;
  for (double x : float_sources<double>()) srcs.push_back(bits(x));
  for (double x : {1.0 + std::ldexp(1.0, -30), -(1.0 + std::ldexp(1.0, -30)), 1e300, -1e300, std::ldexp(1.0, -140),
                   -std::ldexp(1.0, -140), std::ldexp(1.0, -150), std::ldexp(1.5, -150), 3.4028235677973366e38})
    srcs.push_back(bits(x));
  for (const char* r : {"rn", "rz", "rm", "rp"}) {
    int mode = fenv_of(r);
    run_cvt(std::string("cvt.") + r + ".f32.f64 %d, %a;", "f32", "f64", srcs,
            [&](uint64_t b) { return uint64_t(bits(host_narrow(from_bits<double>(b), mode))); }, true);
    run_cvt(std::string("cvt.") + r + ".ftz.f32.f64 %d, %a;", "f32", "f64", srcs,
            [&](uint64_t b) {
              float y = host_narrow(from_bits<double>(b), mode);
              if (std::fpclassify(y) == FP_SUBNORMAL) y = std::copysign(0.0f, y);
              return uint64_t(bits(y));
            },
            true);
  }
  run_cvt("cvt.rn.sat.f32.f64 %d, %a;", "f32", "f64", srcs,
          [&](uint64_t b) {
            double x = from_bits<double>(b);
            if (std::isnan(x)) return uint64_t(0);
            float y = host_narrow(x, FE_TONEAREST);
            return uint64_t(bits(y < 0.0f ? 0.0f : y > 1.0f ? 1.0f : y));
          },
          true);
  auto n = [](const std::string& code, double x) {
    return bits(from_bits<float>(eval(code, {"f32", "f64"}, {{bits(x), 0, 0, 0, 0}})[0].d));
  };
  const double tiny = 1.0 + std::ldexp(1.0, -30);
  CHECK(n("cvt.rn.f32.f64 %d, %a;", tiny) == bits(1.0f));
  CHECK(n("cvt.rp.f32.f64 %d, %a;", tiny) == bits(1.0f + std::ldexp(1.0f, -23)));
  CHECK(n("cvt.rm.f32.f64 %d, %a;", -tiny) == bits(-1.0f - std::ldexp(1.0f, -23)));
  CHECK(n("cvt.rz.f32.f64 %d, %a;", 1e300) == bits(std::numeric_limits<float>::max()));
  CHECK(n("cvt.rn.f32.f64 %d, %a;", 1e300) == bits(INFINITY));
  CHECK(n("cvt.rm.f32.f64 %d, %a;", -1e300) == bits(-INFINITY));
  CHECK(n("cvt.rn.f32.f64 %d, %a;", std::ldexp(1.0, -140)) == 0x00000200u);  // subnormal kept
  CHECK(n("cvt.rn.ftz.f32.f64 %d, %a;", std::ldexp(1.0, -140)) == 0u);       // ... or flushed
  CHECK(n("cvt.rn.ftz.f32.f64 %d, %a;", -std::ldexp(1.0, -140)) == 0x80000000u);
}

TEST_CASE("cvt f32 -> f64 is exact, .ftz flushes a subnormal source", "[semantics][cvt]") {
  std::vector<uint64_t> srcs;
  for (float x : float_sources<float>()) srcs.push_back(bits(x));
  run_cvt("cvt.f64.f32 %d, %a;", "f64", "f32", srcs, [](uint64_t b) { return bits(double(from_bits<float>(b))); },
          true);
  run_cvt("cvt.ftz.f64.f32 %d, %a;", "f64", "f32", srcs,
          [](uint64_t b) {
            float x = from_bits<float>(b);
            if (std::fpclassify(x) == FP_SUBNORMAL) x = std::copysign(0.0f, x);
            return bits(double(x));
          },
          true);
}

TEST_CASE("cvt to the same float type rounds to an integral value, saturates or flushes", "[semantics][cvt]") {
  std::vector<uint64_t> s32, s64;
  for (float x : float_sources<float>()) s32.push_back(bits(x));
  for (double x : float_sources<double>()) s64.push_back(bits(x));
  for (const char* r : {"rni", "rzi", "rmi", "rpi"}) {
    std::string rm = r;
    run_cvt(std::string("cvt.") + r + ".f32.f32 %d, %a;", "f32", "f32", s32,
            [&](uint64_t b) { return uint64_t(bits(float(round_mode(from_bits<float>(b), rm)))); }, true);
    run_cvt(std::string("cvt.") + r + ".f64.f64 %d, %a;", "f64", "f64", s64,
            [&](uint64_t b) { return bits(round_mode(from_bits<double>(b), rm)); }, true);
  }
  auto f = [](const std::string& code, float x) {
    return bits(from_bits<float>(eval(code, {"f32", "f32"}, {{bits(x), 0, 0, 0, 0}})[0].d));
  };
  CHECK(f("cvt.rni.f32.f32 %d, %a;", -0.5f) == 0x80000000u);  // the sign of zero is kept
  CHECK(f("cvt.rpi.f32.f32 %d, %a;", -0.5f) == 0x80000000u);
  CHECK(f("cvt.rmi.f32.f32 %d, %a;", 0.5f) == 0u);
  CHECK(f("cvt.rni.f32.f32 %d, %a;", 2.5f) == bits(2.0f));
  CHECK(f("cvt.rni.f32.f32 %d, %a;", 8388609.0f) == bits(8388609.0f));  // already integral
  CHECK(f("cvt.sat.f32.f32 %d, %a;", 1.5f) == bits(1.0f));
  CHECK(f("cvt.sat.f32.f32 %d, %a;", -7.0f) == 0u);
  CHECK(f("cvt.sat.f32.f32 %d, %a;", 0.25f) == bits(0.25f));
  CHECK(f("cvt.sat.f32.f32 %d, %a;", NAN) == 0u);
  CHECK(f("cvt.sat.f32.f32 %d, %a;", INFINITY) == bits(1.0f));
  CHECK(f("cvt.ftz.f32.f32 %d, %a;", -std::numeric_limits<float>::denorm_min()) == 0x80000000u);
  CHECK(f("cvt.f32.f32 %d, %a;", -std::numeric_limits<float>::denorm_min()) == 0x80000001u);
  CHECK(f("cvt.rzi.ftz.f32.f32 %d, %a;", std::numeric_limits<float>::min() * 0.5f) == 0u);
}

TEST_CASE("cvt between integer types: sign/zero extension, truncation, saturation", "[semantics][cvt]") {
  for (const char* st : kIntTypes)
    for (const char* dt : kIntTypes) {
      std::string s = st, d = dt;
      auto srcs = int_sources(st);
      run_cvt(std::string("cvt.") + dt + "." + st + " %d, %a;", dt, st, srcs,
              [&](uint64_t b) { return int_bits(d, int_value(s, b)); }, false);
      run_cvt(std::string("cvt.sat.") + dt + "." + st + " %d, %a;", dt, st, srcs,
              [&](uint64_t b) {
                __int128 v = int_value(s, b);
                return int_bits(d, std::max(int_min(d), std::min(int_max(d), v)));
              },
              false);
    }
  auto c = [](const std::string& code, const std::string& dt, const std::string& st, uint64_t x) {
    return eval(code, {dt, st}, {{x, 0, 0, 0, 0}})[0].d;
  };
  CHECK(c("cvt.s32.s8 %d, %a;", "s32", "s8", 0xFF) == 0xFFFFFFFFu);
  CHECK(c("cvt.u32.u8 %d, %a;", "u32", "u8", 0xFF) == 0xFFu);
  CHECK(c("cvt.u64.s32 %d, %a;", "u64", "s32", 0xFFFFFFFF) == ~0ull);  // sign-extends: the source is signed
  CHECK(c("cvt.s64.u32 %d, %a;", "s64", "u32", 0xFFFFFFFF) == 0xFFFFFFFFull);
  CHECK(c("cvt.u16.u32 %d, %a;", "u16", "u32", 0x12345678) == 0x5678);
  CHECK(c("cvt.sat.u16.u32 %d, %a;", "u16", "u32", 0x12345678) == 0xFFFF);
  CHECK(c("cvt.sat.s8.s32 %d, %a;", "s8", "s32", 300) == 0x7F);
  CHECK(c("cvt.sat.s8.s32 %d, %a;", "s8", "s32", bits<int32_t>(-300)) == 0x80);
  CHECK(c("cvt.sat.u8.s32 %d, %a;", "u8", "s32", bits<int32_t>(-5)) == 0);
  CHECK(c("cvt.sat.s32.u32 %d, %a;", "s32", "u32", 0xFFFFFFFF) == 0x7FFFFFFFu);
  CHECK(c("cvt.sat.u32.s32 %d, %a;", "u32", "s32", 0xFFFFFFFF) == 0);
  CHECK(c("cvt.sat.u64.s64 %d, %a;", "u64", "s64", 0x8000000000000000ull) == 0);
  CHECK(c("cvt.sat.s64.u64 %d, %a;", "s64", "u64", ~0ull) == 0x7FFFFFFFFFFFFFFFull);
}
