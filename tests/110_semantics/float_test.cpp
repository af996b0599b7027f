// Floating-point semantics at edge values: IEEE arithmetic in every rounding mode (checked
// against the host FPU), .ftz, .sat, fused multiply-add, min/max with NaN and signed
// zeros, the special functions, copysign, every setp comparison incl. the unordered ones,
// the .and/.or/.xor combiners with |q, selp and slct.
#include <catch2/catch.hpp>

#include <cfenv>
#include <cmath>

#include "eval.hpp"

using semtest::bits;
using semtest::check_binary;
using semtest::eval;
using semtest::float_edges;
using semtest::from_bits;

namespace {

template <class T>
T ftz(T x) {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(T(0), x) : x;
}
template <class T>
T sat(T x) {
  if (std::isnan(x)) return T(0);
  return x < T(0) ? T(0) : (x > T(1) ? T(1) : x);
}

// x op y on the host in rounding mode `mode`. The operands are read from volatiles after
// the mode is set and the result is written to a volatile before it is restored, so the
// operation cannot move out of the mode's scope.
template <class T>
T host(char op, T x, T y, int mode) {
  volatile T vx = x, vy = y;
  volatile T r;
  const int saved = std::fegetround();
  std::fesetround(mode);
  switch (op) {
    case '+': r = vx + vy; break;
    case '-': r = vx - vy; break;
    case '*': r = vx * vy; break;
    default: r = vx / vy; break;
  }
  std::fesetround(saved);
  return r;
}
template <class T>
T host_fma(T x, T y, T z, int mode) {
  volatile T vx = x, vy = y, vz = z;
  volatile T r;
  const int saved = std::fegetround();
  std::fesetround(mode);
  r = std::fma(T(vx), T(vy), T(vz));
  std::fesetround(saved);
  return r;
}

const std::pair<const char*, int> kModes[] = {
    {"rn", FE_TONEAREST}, {"rz", FE_TOWARDZERO}, {"rm", FE_DOWNWARD}, {"rp", FE_UPWARD}};

template <class T>
void arithmetic_all_modes(const std::string& t) {
  auto v = float_edges<T>();
  for (auto [name, mode] : kModes) {
    std::string m = name;
    check_binary<T>("add." + m + "." + t + " %d, %a, %b;", t, t, v, [&](T x, T y) { return host('+', x, y, mode); });
    check_binary<T>("sub." + m + "." + t + " %d, %a, %b;", t, t, v, [&](T x, T y) { return host('-', x, y, mode); });
    check_binary<T>("mul." + m + "." + t + " %d, %a, %b;", t, t, v, [&](T x, T y) { return host('*', x, y, mode); });
    check_binary<T>("div." + m + "." + t + " %d, %a, %b;", t, t, v, [&](T x, T y) { return host('/', x, y, mode); });
  }
  // No rounding modifier means .rn.
  check_binary<T>("add." + t + " %d, %a, %b;", t, t, v, [&](T x, T y) { return host('+', x, y, FE_TONEAREST); });
  check_binary<T>("mul." + t + " %d, %a, %b;", t, t, v, [&](T x, T y) { return host('*', x, y, FE_TONEAREST); });
}

}  // namespace

TEST_CASE("add/sub/mul/div.f32 and .f64 in all four rounding modes match the host FPU", "[semantics][float]") {
  arithmetic_all_modes<float>("f32");
  arithmetic_all_modes<double>("f64");
}

TEST_CASE("directed rounding, hand-checked", "[semantics][float]") {
  const float e30 = std::ldexp(1.0f, -30), e23 = std::ldexp(1.0f, -23);
  auto f = [](const std::string& code, float a, float b) {
    return from_bits<float>(eval(code, {"f32", "f32", "f32"}, {{bits(a), bits(b), 0, 0, 0}})[0].d);
  };
  CHECK(f("add.rn.f32 %d, %a, %b;", 1.0f, e30) == 1.0f);
  CHECK(f("add.rz.f32 %d, %a, %b;", 1.0f, e30) == 1.0f);
  CHECK(f("add.rm.f32 %d, %a, %b;", 1.0f, e30) == 1.0f);
  CHECK(f("add.rp.f32 %d, %a, %b;", 1.0f, e30) == 1.0f + e23);
  CHECK(f("add.rm.f32 %d, %a, %b;", -1.0f, -e30) == -1.0f - e23);
  CHECK(f("add.rz.f32 %d, %a, %b;", -1.0f, -e30) == -1.0f);
  CHECK(f("add.rp.f32 %d, %a, %b;", -1.0f, -e30) == -1.0f);
  // Overflow: rz and the mode toward zero give the largest finite value.
  float big = std::numeric_limits<float>::max();
  CHECK(f("mul.rn.f32 %d, %a, %b;", big, 2.0f) == INFINITY);
  CHECK(f("mul.rz.f32 %d, %a, %b;", big, 2.0f) == big);
  CHECK(f("mul.rm.f32 %d, %a, %b;", big, 2.0f) == big);
  CHECK(f("mul.rm.f32 %d, %a, %b;", -big, 2.0f) == -INFINITY);
  CHECK(f("mul.rp.f32 %d, %a, %b;", -big, 2.0f) == -big);
  // x - x is +0 except in round-down mode.
  CHECK(bits(f("sub.rn.f32 %d, %a, %b;", 5.0f, 5.0f)) == 0u);
  CHECK(bits(f("sub.rm.f32 %d, %a, %b;", 5.0f, 5.0f)) == 0x80000000u);
  // 1/3 in each mode.
  CHECK(bits(f("div.rn.f32 %d, %a, %b;", 1.0f, 3.0f)) == 0x3EAAAAABu);
  CHECK(bits(f("div.rz.f32 %d, %a, %b;", 1.0f, 3.0f)) == 0x3EAAAAAAu);
  CHECK(bits(f("div.rm.f32 %d, %a, %b;", 1.0f, 3.0f)) == 0x3EAAAAAAu);
  CHECK(bits(f("div.rp.f32 %d, %a, %b;", 1.0f, 3.0f)) == 0x3EAAAAABu);
  // The mode is restored afterwards: a plain add right after a .rp one rounds to nearest.
  auto two = eval("add.rp.f32 %d, %a, %b;\nadd.f32 %d, %a, %b;", {"f32", "f32", "f32"},
                  {{bits(1.0f), bits(e30), 0, 0, 0}});
  CHECK(from_bits<float>(two[0].d) == 1.0f);
}

TEST_CASE(".ftz flushes subnormal inputs and results to sign-preserving zero", "[semantics][float]") {
  auto v = float_edges<float>();
  check_binary<float>("add.ftz.f32 %d, %a, %b;", "f32", "f32", v, [](float x, float y) { return ftz(ftz(x) + ftz(y)); });
  check_binary<float>("mul.ftz.f32 %d, %a, %b;", "f32", "f32", v, [](float x, float y) { return ftz(ftz(x) * ftz(y)); });
  check_binary<float>("div.rn.ftz.f32 %d, %a, %b;", "f32", "f32", v,
                      [](float x, float y) { return ftz(ftz(x) / ftz(y)); });
  const float dmin = std::numeric_limits<float>::denorm_min(), fmin = std::numeric_limits<float>::min();
  auto f = [](const std::string& code, float a, float b) {
    return bits(from_bits<float>(eval(code, {"f32", "f32", "f32"}, {{bits(a), bits(b), 0, 0, 0}})[0].d));
  };
  CHECK(f("add.f32 %d, %a, %b;", dmin, 0.0f) == bits(dmin));
  CHECK(f("add.ftz.f32 %d, %a, %b;", dmin, 0.0f) == 0u);
  CHECK(f("mul.ftz.f32 %d, %a, %b;", fmin, 0.5f) == 0u);
  CHECK(f("mul.ftz.f32 %d, %a, %b;", -fmin, 0.5f) == 0x80000000u);
  CHECK(f("mul.f32 %d, %a, %b;", fmin, 0.5f) == 0x00400000u);
}

TEST_CASE(".sat clamps results to [0, 1] and NaN to 0", "[semantics][float]") {
  auto v = float_edges<float>();
  check_binary<float>("add.sat.f32 %d, %a, %b;", "f32", "f32", v, [](float x, float y) { return sat(x + y); });
  check_binary<float>("mul.sat.f32 %d, %a, %b;", "f32", "f32", v, [](float x, float y) { return sat(x * y); });
  check_binary<float>("sub.ftz.sat.f32 %d, %a, %b;", "f32", "f32", v,
                      [](float x, float y) { return sat(ftz(ftz(x) - ftz(y))); });
  auto f = [](const std::string& code, float a, float b) {
    return from_bits<float>(eval(code, {"f32", "f32", "f32"}, {{bits(a), bits(b), 0, 0, 0}})[0].d);
  };
  CHECK(f("add.sat.f32 %d, %a, %b;", 0.75f, 0.5f) == 1.0f);
  CHECK(f("add.sat.f32 %d, %a, %b;", -1.0f, 0.5f) == 0.0f);
  CHECK(f("add.sat.f32 %d, %a, %b;", INFINITY, -INFINITY) == 0.0f);  // NaN -> 0
  CHECK(f("add.sat.f32 %d, %a, %b;", 0.25f, 0.5f) == 0.75f);
}

TEST_CASE("fma and mad.f32/.f64 round once", "[semantics][float]") {
  // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24: the product alone rounds to 1 + 2^-11, so
  // subtracting 1 + 2^-11 gives 0 unfused and 2^-24 fused.
  const float a = 1.0f + std::ldexp(1.0f, -12), c = -(1.0f + std::ldexp(1.0f, -11));
  for (const char* op : {"fma.rn.f32", "mad.rn.f32", "mad.f32", "fma.rn.ftz.f32"}) {
    INFO(op);
    auto out = eval(std::string(op) + " %d, %a, %b, %c;", {"f32", "f32", "f32", "f32"},
                    {{bits(a), bits(a), bits(c), 0, 0}});
    CHECK(from_bits<float>(out[0].d) == std::ldexp(1.0f, -24));
  }
  const double da = 1.0 + std::ldexp(1.0, -27), dc = -(1.0 + std::ldexp(1.0, -26));
  for (const char* op : {"fma.rn.f64", "mad.rn.f64"}) {
    INFO(op);
    auto out = eval(std::string(op) + " %d, %a, %b, %c;", {"f64", "f64", "f64", "f64"},
                    {{bits(da), bits(da), bits(dc), 0, 0}});
    CHECK(from_bits<double>(out[0].d) == std::ldexp(1.0, -54));
  }
  // A grid against the host's fma in each rounding mode, with the destination distinct
  // from the sources (the vectorised full-warp path) and equal to the addend (the general one).
  std::vector<float> v = {0.0f, -0.0f, 1.0f, -1.5f, 3.0f, 0.1f, a, c, std::numeric_limits<float>::max(),
                          std::numeric_limits<float>::denorm_min(), INFINITY, -INFINITY, NAN};
  std::vector<semtest::Case> cases;
  for (float x : v)
    for (float y : v)
      for (float z : v) cases.push_back({bits(x), bits(y), bits(z), bits(z), 0});
  for (auto [name, mode] : kModes) {
    for (const char* form : {"%d, %a, %b, %c;", "%d, %a, %b, %d;"}) {
      std::string code = std::string("fma.") + name + ".f32 " + form;
      auto out = eval(code, {"f32", "f32", "f32", "f32"}, cases);
      for (size_t i = 0; i < cases.size(); ++i) {
        float x = from_bits<float>(cases[i][0]), y = from_bits<float>(cases[i][1]), z = from_bits<float>(cases[i][2]);
        float want = host_fma(x, y, z, mode);
        float got = from_bits<float>(out[i].d);
        INFO(code << " " << x << " * " << y << " + " << z << " -> " << got << ", want " << want);
        if (std::isnan(want)) CHECK(std::isnan(got));
        else CHECK(bits(got) == bits(want));
      }
    }
  }
  // fma.sat and fma.ftz.
  auto s = eval("fma.rn.sat.f32 %d, %a, %b, %c;", {"f32", "f32", "f32", "f32"},
                {{bits(2.0f), bits(3.0f), bits(-5.5f), 0, 0}, {bits(2.0f), bits(3.0f), bits(-7.0f), 0, 0}});
  CHECK(from_bits<float>(s[0].d) == 0.5f);
  CHECK(from_bits<float>(s[1].d) == 0.0f);
  const float fmin = std::numeric_limits<float>::min();
  auto z = eval("fma.rn.ftz.f32 %d, %a, %b, %c;", {"f32", "f32", "f32", "f32"},
                {{bits(fmin), bits(0.5f), bits(0.0f), 0, 0}, {bits(std::numeric_limits<float>::denorm_min()),
                                                               bits(1e30f), bits(0.0f), 0, 0}});
  CHECK(z[0].d == 0u);  // subnormal result flushed
  CHECK(z[1].d == 0u);  // subnormal input flushed
}

TEST_CASE("min and max: NaN loses to a number, -0 < +0", "[semantics][float]") {
  auto ref_min = [](auto x, auto y) {
    if (std::isnan(x)) return y;
    if (std::isnan(y)) return x;
    if (x == 0 && y == 0) return std::signbit(x) ? x : y;
    return x < y ? x : y;
  };
  auto ref_max = [](auto x, auto y) {
    if (std::isnan(x)) return y;
    if (std::isnan(y)) return x;
    if (x == 0 && y == 0) return std::signbit(x) ? y : x;
    return x > y ? x : y;
  };
  check_binary<float>("min.f32 %d, %a, %b;", "f32", "f32", float_edges<float>(), ref_min);
  check_binary<float>("max.f32 %d, %a, %b;", "f32", "f32", float_edges<float>(), ref_max);
  check_binary<double>("min.f64 %d, %a, %b;", "f64", "f64", float_edges<double>(), ref_min);
  check_binary<double>("max.f64 %d, %a, %b;", "f64", "f64", float_edges<double>(), ref_max);
  check_binary<float>("min.ftz.f32 %d, %a, %b;", "f32", "f32", float_edges<float>(),
                      [&](float x, float y) { return ref_min(ftz(x), ftz(y)); });
  auto f = [](const std::string& code, float a, float b) {
    return bits(from_bits<float>(eval(code, {"f32", "f32", "f32"}, {{bits(a), bits(b), 0, 0, 0}})[0].d));
  };
  CHECK(f("min.f32 %d, %a, %b;", 0.0f, -0.0f) == 0x80000000u);
  CHECK(f("min.f32 %d, %a, %b;", -0.0f, 0.0f) == 0x80000000u);
  CHECK(f("max.f32 %d, %a, %b;", -0.0f, 0.0f) == 0u);
  CHECK(f("max.f32 %d, %a, %b;", 0.0f, -0.0f) == 0u);
  CHECK(f("min.f32 %d, %a, %b;", NAN, 2.0f) == bits(2.0f));
  CHECK(f("max.f32 %d, %a, %b;", -3.0f, NAN) == bits(-3.0f));
  CHECK(std::isnan(from_bits<float>(f("min.f32 %d, %a, %b;", NAN, NAN))));
}

TEST_CASE("abs, neg and copysign", "[semantics][float]") {
  auto v32 = float_edges<float>();
  std::vector<semtest::Case> cases;
  for (float x : v32) cases.push_back({bits(x), 0, 0, 0, 0});
  auto a = eval("abs.f32 %d, %a;", {"f32", "f32"}, cases);
  auto n = eval("neg.f32 %d, %a;", {"f32", "f32"}, cases);
  auto az = eval("abs.ftz.f32 %d, %a;", {"f32", "f32"}, cases);
  auto nz = eval("neg.ftz.f32 %d, %a;", {"f32", "f32"}, cases);
  for (size_t i = 0; i < v32.size(); ++i) {
    float x = v32[i];
    INFO(x);
    // Sign-bit operations, exact bits; a NaN gives the canonical NaN, as on an H200
    // (tests/750_runtime/programs/nan_results.cu).
    const bool nan = std::isnan(x);
    CHECK(a[i].d == (nan ? 0x7FFFFFFFu : bits(x) & 0x7FFFFFFFu));
    CHECK(n[i].d == (nan ? 0x7FFFFFFFu : bits(x) ^ 0x80000000u));
    CHECK(az[i].d == (nan ? 0x7FFFFFFFu : bits(ftz(x)) & 0x7FFFFFFFu));
    CHECK(nz[i].d == (nan ? 0x7FFFFFFFu : bits(ftz(x)) ^ 0x80000000u));
  }
  std::vector<semtest::Case> dcases;
  for (double x : float_edges<double>()) dcases.push_back({bits(x), 0, 0, 0, 0});
  auto da = eval("abs.f64 %d, %a;", {"f64", "f64"}, dcases);
  auto dn = eval("neg.f64 %d, %a;", {"f64", "f64"}, dcases);
  for (size_t i = 0; i < dcases.size(); ++i) {
    // f64: a NaN comes back made quiet, its sign kept (the H200's).
    const uint64_t x = dcases[i][0];
    const bool nan = std::isnan(from_bits<double>(x));
    CHECK(da[i].d == (nan ? x | 0x0008000000000000ull : x & 0x7FFFFFFFFFFFFFFFull));
    CHECK(dn[i].d == (nan ? x | 0x0008000000000000ull : x ^ 0x8000000000000000ull));
  }
  // copysign d, a, b: b's magnitude with a's sign.
  check_binary<float>("copysign.f32 %d, %a, %b;", "f32", "f32", v32,
                      [](float x, float y) { return std::copysign(y, x); });
  check_binary<double>("copysign.f64 %d, %a, %b;", "f64", "f64", float_edges<double>(),
                       [](double x, double y) { return std::copysign(y, x); });
  auto c = eval("copysign.f32 %d, %a, %b;", {"f32", "f32", "f32"}, {{bits(-1.0f), bits(2.0f), 0, 0, 0}});
  CHECK(from_bits<float>(c[0].d) == -2.0f);
}

TEST_CASE("rcp and sqrt .rn are correctly rounded, the approximate functions are close and exact at special values",
          "[semantics][float]") {
  auto v = float_edges<float>();
  std::vector<semtest::Case> cases;
  for (float x : v) cases.push_back({bits(x), 0, 0, 0, 0});
  auto run = [&](const std::string& code) { return eval(code, {"f32", "f32"}, cases); };
  auto rcp = run("rcp.rn.f32 %d, %a;");
  auto sq = run("sqrt.rn.f32 %d, %a;");
  auto rcp_rz = run("rcp.rz.f32 %d, %a;");
  for (size_t i = 0; i < v.size(); ++i) {
    INFO(v[i]);
    float r = host('/', 1.0f, v[i], FE_TONEAREST), rz = host('/', 1.0f, v[i], FE_TOWARDZERO);
    float s = std::sqrt(v[i]);
    if (std::isnan(r)) CHECK(std::isnan(from_bits<float>(rcp[i].d)));
    else CHECK(rcp[i].d == bits(r));
    if (std::isnan(rz)) CHECK(std::isnan(from_bits<float>(rcp_rz[i].d)));
    else CHECK(rcp_rz[i].d == bits(rz));
    if (std::isnan(s)) CHECK(std::isnan(from_bits<float>(sq[i].d)));
    else CHECK(sq[i].d == bits(s));
  }
  // Special values of the approximate ones: exact.
  auto f = [](const std::string& code, float x) {
    return from_bits<float>(eval(code, {"f32", "f32"}, {{bits(x), 0, 0, 0, 0}})[0].d);
  };
  auto is_neg_zero = [](float x) { return bits(x) == 0x80000000u; };
  CHECK(f("rcp.approx.f32 %d, %a;", 0.0f) == INFINITY);
  CHECK(f("rcp.approx.f32 %d, %a;", -0.0f) == -INFINITY);
  CHECK(bits(f("rcp.approx.f32 %d, %a;", -INFINITY)) == 0x80000000u);
  CHECK(f("rcp.approx.ftz.f32 %d, %a;", std::numeric_limits<float>::denorm_min()) == INFINITY);
  CHECK(f("sqrt.approx.f32 %d, %a;", 4.0f) == 2.0f);
  CHECK(is_neg_zero(f("sqrt.approx.f32 %d, %a;", -0.0f)));
  CHECK(std::isnan(f("sqrt.approx.f32 %d, %a;", -1.0f)));
  CHECK(f("sqrt.approx.f32 %d, %a;", INFINITY) == INFINITY);
  CHECK(f("rsqrt.approx.f32 %d, %a;", 4.0f) == 0.5f);
  CHECK(f("rsqrt.approx.f32 %d, %a;", 0.0f) == INFINITY);
  CHECK(f("rsqrt.approx.f32 %d, %a;", -0.0f) == -INFINITY);
  CHECK(f("rsqrt.approx.f32 %d, %a;", INFINITY) == 0.0f);
  CHECK(std::isnan(f("rsqrt.approx.f32 %d, %a;", -4.0f)));
  CHECK(f("ex2.approx.f32 %d, %a;", 0.0f) == 1.0f);
  CHECK(f("ex2.approx.f32 %d, %a;", 10.0f) == 1024.0f);
  CHECK(f("ex2.approx.f32 %d, %a;", -1.0f) == 0.5f);
  CHECK(f("ex2.approx.f32 %d, %a;", -INFINITY) == 0.0f);
  CHECK(f("ex2.approx.f32 %d, %a;", INFINITY) == INFINITY);
  CHECK(f("ex2.approx.f32 %d, %a;", 200.0f) == INFINITY);
  CHECK(std::isnan(f("ex2.approx.f32 %d, %a;", NAN)));
  CHECK(bits(f("ex2.approx.ftz.f32 %d, %a;", -130.0f)) == 0u);   // 2^-130 is subnormal: flushed
  CHECK(f("ex2.approx.f32 %d, %a;", -130.0f) == std::ldexp(1.0f, -130));
  CHECK(f("lg2.approx.f32 %d, %a;", 1.0f) == 0.0f);
  CHECK(f("lg2.approx.f32 %d, %a;", 8.0f) == 3.0f);
  CHECK(f("lg2.approx.f32 %d, %a;", 0.0f) == -INFINITY);
  CHECK(f("lg2.approx.f32 %d, %a;", -0.0f) == -INFINITY);
  CHECK(f("lg2.approx.f32 %d, %a;", INFINITY) == INFINITY);
  CHECK(std::isnan(f("lg2.approx.f32 %d, %a;", -1.0f)));
  CHECK(f("lg2.approx.f32 %d, %a;", std::ldexp(1.0f, -149)) == -149.0f);
  CHECK(f("lg2.approx.ftz.f32 %d, %a;", std::ldexp(1.0f, -149)) == -INFINITY);  // input flushed to 0
  CHECK(bits(f("sin.approx.f32 %d, %a;", 0.0f)) == 0u);
  CHECK(is_neg_zero(f("sin.approx.f32 %d, %a;", -0.0f)));
  CHECK(f("cos.approx.f32 %d, %a;", 0.0f) == 1.0f);
  CHECK(std::isnan(f("sin.approx.f32 %d, %a;", INFINITY)));
  CHECK(std::isnan(f("cos.approx.f32 %d, %a;", -INFINITY)));
  CHECK(f("tanh.approx.f32 %d, %a;", INFINITY) == 1.0f);
  CHECK(f("tanh.approx.f32 %d, %a;", -INFINITY) == -1.0f);
  CHECK(bits(f("tanh.approx.f32 %d, %a;", 0.0f)) == 0u);
  // Ordinary values: within a few units in the last place / the documented absolute error.
  CHECK(f("sin.approx.f32 %d, %a;", 1.0f) == Approx(0.8414709848f).margin(1e-6));
  CHECK(f("cos.approx.f32 %d, %a;", 3.14159265f) == Approx(-1.0f).margin(1e-6));
  CHECK(f("ex2.approx.f32 %d, %a;", 0.5f) == Approx(1.41421356f).epsilon(4e-7));
  CHECK(f("lg2.approx.f32 %d, %a;", 3.0f) == Approx(1.5849625f).epsilon(4e-7));
  CHECK(f("rsqrt.approx.f32 %d, %a;", 2.0f) == Approx(0.70710678f).epsilon(4e-7));
  CHECK(f("rcp.approx.f32 %d, %a;", 3.0f) == Approx(0.33333333f).epsilon(2e-7));
  CHECK(f("tanh.approx.f32 %d, %a;", 1.0f) == Approx(0.76159416f).epsilon(1e-5));
  // Double precision.
  auto d = [](const std::string& code, double x) {
    return from_bits<double>(eval(code, {"f64", "f64"}, {{bits(x), 0, 0, 0, 0}})[0].d);
  };
  CHECK(d("rcp.rn.f64 %d, %a;", 3.0) == 1.0 / 3.0);
  CHECK(d("sqrt.rn.f64 %d, %a;", 2.0) == std::sqrt(2.0));
  CHECK(d("rcp.approx.ftz.f64 %d, %a;", 4.0) == 0.25);
  CHECK(d("rsqrt.approx.f64 %d, %a;", 16.0) == 0.25);
  CHECK(d("div.rn.f64 %d, %a, %a;", 7.0) == 1.0);
}

TEST_CASE("setp with every float comparison, ordered and unordered, with NaN", "[semantics][float]") {
  using F = double;  // float operands convert exactly, so one reference serves both widths
  auto un = [](F x, F y) { return std::isnan(x) || std::isnan(y); };
  const std::vector<std::pair<std::string, std::function<bool(F, F)>>> cmps = {
      {"eq", [&](F x, F y) { return !un(x, y) && x == y; }}, {"ne", [&](F x, F y) { return !un(x, y) && x != y; }},
      {"lt", [&](F x, F y) { return !un(x, y) && x < y; }},  {"le", [&](F x, F y) { return !un(x, y) && x <= y; }},
      {"gt", [&](F x, F y) { return !un(x, y) && x > y; }},  {"ge", [&](F x, F y) { return !un(x, y) && x >= y; }},
      {"equ", [&](F x, F y) { return un(x, y) || x == y; }}, {"neu", [&](F x, F y) { return un(x, y) || x != y; }},
      {"ltu", [&](F x, F y) { return un(x, y) || x < y; }},  {"leu", [&](F x, F y) { return un(x, y) || x <= y; }},
      {"gtu", [&](F x, F y) { return un(x, y) || x > y; }},  {"geu", [&](F x, F y) { return un(x, y) || x >= y; }},
      {"num", [&](F x, F y) { return !un(x, y); }},          {"nan", [&](F x, F y) { return un(x, y); }},
  };
  for (auto& [name, ref] : cmps) {
    check_binary<float, bool>("setp." + name + ".f32 %d, %a, %b;", "f32", "pred", float_edges<float>(),
                              [&](float x, float y) { return ref(x, y); });
    check_binary<double, bool>("setp." + name + ".f64 %d, %a, %b;", "f64", "pred", float_edges<double>(), ref);
  }
  // -0 == +0; .ftz makes subnormals compare equal to zero.
  const float dmin = std::numeric_limits<float>::denorm_min();
  auto p = [](const std::string& code, float a, float b) {
    return eval(code, {"pred", "f32", "f32"}, {{bits(a), bits(b), 0, 0, 0}})[0].d;
  };
  CHECK(p("setp.eq.f32 %d, %a, %b;", -0.0f, 0.0f) == 1);
  CHECK(p("setp.gt.f32 %d, %a, %b;", dmin, 0.0f) == 1);
  CHECK(p("setp.gt.ftz.f32 %d, %a, %b;", dmin, 0.0f) == 0);
  CHECK(p("setp.eq.ftz.f32 %d, %a, %b;", -dmin, 0.0f) == 1);
}

TEST_CASE("setp's .and/.or/.xor combiner and the |q complement", "[semantics][float][int]") {
  // p = (a cmp b) op c;  q = !(a cmp b) op c.
  struct Row {
    float a, b;
    bool c;
  };
  const Row rows[] = {{1, 2, true}, {1, 2, false}, {2, 1, true}, {2, 1, false}, {NAN, 1, true}, {NAN, 1, false}};
  std::vector<semtest::Case> cases;
  for (const Row& r : rows) cases.push_back({bits(r.a), bits(r.b), r.c ? 1u : 0u, 0, 0});
  for (const char* op : {"and", "or", "xor"}) {
    auto out = eval(std::string("setp.lt.") + op + ".f32 %d|%q, %a, %b, %c;", {"pred", "f32", "f32", "pred"}, cases);
    auto neg = eval(std::string("setp.lt.") + op + ".f32 %d|%q, %a, %b, !%c;", {"pred", "f32", "f32", "pred"}, cases);
    for (size_t i = 0; i < cases.size(); ++i) {
      bool cmp = rows[i].a < rows[i].b;  // false for NaN
      auto comb = [&](bool x, bool c) {
        return std::string(op) == "and" ? (x && c) : std::string(op) == "or" ? (x || c) : (x != c);
      };
      INFO(op << " a=" << rows[i].a << " b=" << rows[i].b << " c=" << rows[i].c);
      CHECK(out[i].d == comb(cmp, rows[i].c));
      CHECK(out[i].q == comb(!cmp, rows[i].c));
      CHECK(neg[i].d == comb(cmp, !rows[i].c));
      CHECK(neg[i].q == comb(!cmp, !rows[i].c));
    }
  }
  // Integer setp: the same rules, and a plain |q is the complement.
  auto i = eval("setp.ge.or.s32 %d|%q, %a, %b, %c;", {"pred", "s32", "s32", "pred"},
                {{bits<int32_t>(-1), 0, 0, 0, 0}, {5, 0, 0, 0, 0}, {bits<int32_t>(-1), 0, 1, 0, 0}});
  CHECK(i[0].d == 0);
  CHECK(i[0].q == true);
  CHECK(i[1].d == 1);
  CHECK(i[1].q == false);
  CHECK(i[2].d == 1);
  CHECK(i[2].q == true);
  auto plain = eval("setp.lo.u32 %d|%q, %a, %b;", {"pred", "u32", "u32"}, {{1, 2, 0, 0, 0}, {2, 1, 0, 0, 0}});
  CHECK(plain[0].d == 1);
  CHECK(plain[0].q == false);
  CHECK(plain[1].d == 0);
  CHECK(plain[1].q == true);
  // Constant predicate operands.
  auto k = eval("setp.eq.and.s32 %d, %a, %b, 1;\nsetp.eq.or.s32 %q, %a, %b, 0;", {"pred", "s32", "s32"},
                {{3, 3, 0, 0, 0}, {3, 4, 0, 0, 0}});
  CHECK(k[0].d == 1);
  CHECK(k[0].q == true);
  CHECK(k[1].d == 0);
  CHECK(k[1].q == false);
}

TEST_CASE("selp and slct", "[semantics][float][int]") {
  auto s = eval("selp.f32 %d, %a, %b, %c;", {"f32", "f32", "f32", "pred"},
                {{bits(1.5f), bits(-2.0f), 1, 0, 0}, {bits(1.5f), bits(-2.0f), 0, 0, 0}});
  CHECK(from_bits<float>(s[0].d) == 1.5f);
  CHECK(from_bits<float>(s[1].d) == -2.0f);
  auto s64 = eval("selp.b64 %d, %a, %b, %c;", {"b64", "b64", "b64", "pred"},
                  {{0x0123456789ABCDEFull, 7, 1, 0, 0}, {0x0123456789ABCDEFull, 7, 0, 0, 0}});
  CHECK(s64[0].d == 0x0123456789ABCDEFull);
  CHECK(s64[1].d == 7);
  auto s16 = eval("selp.s16 %d, %a, -3, !%c;", {"s16", "s16", "", "pred"}, {{5, 0, 1, 0, 0}, {5, 0, 0, 0, 0}});
  CHECK(s16[0].d == 0xFFFD);
  CHECK(s16[1].d == 5);
  // slct d, a, b, c: a if c >= 0, else b.
  auto si = eval("slct.s32.s32 %d, %a, %b, %c;", {"s32", "s32", "s32", "s32"},
                 {{1, 2, 0, 0, 0}, {1, 2, bits<int32_t>(-1), 0, 0}, {1, 2, 0x7FFFFFFF, 0, 0}});
  CHECK(si[0].d == 1);
  CHECK(si[1].d == 2);
  CHECK(si[2].d == 1);
  auto sf = eval("slct.f32.f32 %d, %a, %b, %c;", {"f32", "f32", "f32", "f32"},
                 {{bits(1.0f), bits(2.0f), bits(-0.0f), 0, 0}, {bits(1.0f), bits(2.0f), bits(-0.5f), 0, 0}});
  CHECK(from_bits<float>(sf[0].d) == 1.0f);  // -0.0 >= 0
  CHECK(from_bits<float>(sf[1].d) == 2.0f);
  // .ftz flushes a subnormal selector to zero first: a negative subnormal selects a.
  const float neg_sub = -std::numeric_limits<float>::denorm_min();
  auto sz = eval("slct.ftz.f32.f32 %d, %a, %b, %c;\nslct.f32.f32 %e, %a, %b, %c;\nsetp.eq.f32 %q, %e, %a;",
                 {"f32", "f32", "f32", "f32", "f32"}, {{bits(1.0f), bits(2.0f), bits(neg_sub), 0, 0}});
  CHECK(from_bits<float>(sz[0].d) == 1.0f);
  CHECK(sz[0].q == false);  // without .ftz it is negative: b
}
