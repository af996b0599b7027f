// Carry arithmetic: add.cc, addc(.cc), sub.cc, subc(.cc), mad.lo/hi.cc, madc.lo/hi(.cc) on
// every type PTX allows, with the incoming flag 0 and 1, results and outgoing flag checked
// against 128-bit host arithmetic; multi-word chains (128-bit add/sub, 64x64->128 multiply
// as nvcc's trig reduction writes it) over many random values; timing mode agrees.
#include <catch2/catch.hpp>

#include <random>

#include "200_engine/ptx_fixture.hpp"
#include "eval.hpp"

using semtest::bits;
using semtest::Case;
using semtest::eval;
using semtest::int_edges;

namespace {

using u128 = unsigned __int128;
using s128 = __int128;

// What one form computes: d and the flag after it, from a, b, c and the flag before.
struct Ref {
  uint64_t d;
  bool cf;
};

template <class T>
Ref reference(const std::string& form, T a, T b, T c, bool cf_in) {
  using UT = std::make_unsigned_t<T>;
  constexpr int n = sizeof(T) * 8;
  const u128 mask = (u128(1) << n) - 1;
  const bool carry_in = form.find("addc") == 0 || form.find("subc") == 0 || form.find("madc") == 0;
  const bool writes = form.find(".cc") != std::string::npos;
  const u128 ci = carry_in && cf_in ? 1 : 0;
  u128 full;
  bool out;
  if (form[0] == 's') {
    full = (u128(UT(a)) - u128(UT(b)) - ci) & mask;
    out = u128(UT(a)) < u128(UT(b)) + ci;  // borrow
  } else {
    u128 p = u128(UT(b));
    u128 q = ci;
    if (form[0] == 'm') {
      const bool hi = form.find(".hi") != std::string::npos;
      u128 prod;
      if constexpr (std::is_signed_v<T>) prod = u128(s128(a) * s128(b));
      else prod = u128(a) * u128(b);
      p = hi ? (prod >> n) & mask : prod & mask;
      full = u128(UT(c)) + p + ci;
    } else {
      full = u128(UT(a)) + p + q;
    }
    out = (full >> n) != 0;
    full &= mask;
  }
  return {uint64_t(full), writes ? out : cf_in};
}

// Runs `form` (e.g. "madc.hi.cc") on type T over edge values x {0,1} incoming flags.
template <class T>
void check_form(const std::string& form, const std::string& t) {
  const bool is_mad = form[0] == 'm';
  // %e (u32, 0 or 1) sets the flag: e + 0xffffffff carries exactly when e is 1. The flag
  // after the instruction is read back with addc.u32 %f, 0, 0.
  const std::string code = "{\n.reg .u32 %junk, %f;\nadd.cc.u32 %junk, %e, 0xffffffff;\n" + form + "." + t +
                           " %d, %a, %b" + (is_mad ? ", %c" : "") +
                           ";\naddc.u32 %f, 0, 0;\nsetp.ne.u32 %q, %f, 0;\n}";
  std::vector<T> v = int_edges<T>();
  std::vector<Case> cases;
  std::vector<std::array<T, 3>> args;
  std::vector<bool> flags;
  for (T a : v)
    for (T b : v)
      for (int cf = 0; cf < 2; ++cf) {
        const T c = is_mad ? v[(args.size() * 7) % v.size()] : T(0);
        cases.push_back({bits(a), bits(b), bits(c), 0, uint64_t(cf)});
        args.push_back({a, b, c});
        flags.push_back(cf != 0);
      }
  auto out = eval(code, {t, t, t, is_mad ? t : "", "u32"}, cases);
  for (size_t i = 0; i < cases.size(); ++i) {
    const Ref want = reference<T>(form, args[i][0], args[i][1], args[i][2], flags[i]);
    INFO(form << "." << t << " a=" << semtest::show(args[i][0]) << " b=" << semtest::show(args[i][1])
              << " c=" << semtest::show(args[i][2]) << " CF in=" << flags[i]);
    CHECK(out[i].d == (want.d & semtest::size_mask(t)));
    CHECK(out[i].q == want.cf);
  }
}

template <class T>
void check_all_forms(const std::string& t) {
  for (const char* f : {"add.cc", "addc", "addc.cc", "sub.cc", "subc", "subc.cc", "mad.lo.cc", "mad.hi.cc", "madc.lo",
                        "madc.hi", "madc.lo.cc", "madc.hi.cc"})
    check_form<T>(f, t);
}

std::vector<uint64_t> random_u64(size_t n, uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<uint64_t> v(n);
  for (size_t i = 0; i < n; ++i) {
    v[i] = g();
    if (i % 5 == 1) v[i] |= 0xFFFFFFFF00000000ull;  // carries across the halves
    if (i % 7 == 2) v[i] = ~uint64_t(0) - (i % 3);
    if (i % 11 == 3) v[i] &= 0xFFFFFFFFull;
  }
  return v;
}

}  // namespace

TEST_CASE("carry arithmetic on u32, s32, u64, s64 with the flag in and out", "[semantics][carry]") {
  check_all_forms<uint32_t>("u32");
  check_all_forms<int32_t>("s32");
  check_all_forms<uint64_t>("u64");
  check_all_forms<int64_t>("s64");
}

TEST_CASE("carry chains: 64-bit add and sub from 32-bit halves over many values", "[semantics][carry]") {
  const std::string split = "{\n.reg .u32 %a0, %a1, %b0, %b1, %r0, %r1;\nmov.b64 {%a0, %a1}, %a;\n"
                            "mov.b64 {%b0, %b1}, %b;\n";
  const auto xs = random_u64(2000, 1), ys = random_u64(2000, 2);
  std::vector<Case> cases;
  for (size_t i = 0; i < xs.size(); ++i) cases.push_back({xs[i], ys[i], 0, 0, 0});
  auto add = eval(split + "add.cc.u32 %r0, %a0, %b0;\naddc.u32 %r1, %a1, %b1;\nmov.b64 %d, {%r0, %r1};\n}",
                  {"u64", "u64", "u64"}, cases);
  auto sub = eval(split + "sub.cc.u32 %r0, %a0, %b0;\nsubc.u32 %r1, %a1, %b1;\nmov.b64 %d, {%r0, %r1};\n}",
                  {"u64", "u64", "u64"}, cases);
  for (size_t i = 0; i < xs.size(); ++i) {
    INFO(std::hex << "a=" << xs[i] << " b=" << ys[i]);
    CHECK(add[i].d == xs[i] + ys[i]);
    CHECK(sub[i].d == xs[i] - ys[i]);
  }
}

TEST_CASE("carry chains: 128-bit add/sub with .u64 words and the final carry", "[semantics][carry]") {
  // a:b and c:e are 128-bit numbers (high:low); d gets the high word, q the carry/borrow out.
  const auto w = random_u64(4 * 1500, 3);
  std::vector<Case> cases;
  for (size_t i = 0; i < 1500; ++i) cases.push_back({w[4 * i], w[4 * i + 1], w[4 * i + 2], 0, w[4 * i + 3]});
  const std::string tail = "addc.u32 %f, 0, 0;\nsetp.ne.u32 %q, %f, 0;\n}";
  auto add = eval("{\n.reg .u64 %lo;\n.reg .u32 %f;\nadd.cc.u64 %lo, %b, %e;\naddc.cc.u64 %d, %a, %c;\n" + tail,
                  {"u64", "u64", "u64", "u64", "u64"}, cases);
  auto sub = eval("{\n.reg .u64 %lo;\n.reg .u32 %f;\nsub.cc.s64 %lo, %b, %e;\nsubc.cc.s64 %d, %a, %c;\n" + tail,
                  {"u64", "u64", "u64", "u64", "u64"}, cases);
  for (size_t i = 0; i < cases.size(); ++i) {
    const u128 x = (u128(cases[i][0]) << 64) | cases[i][1];
    const u128 y = (u128(cases[i][2]) << 64) | cases[i][4];
    INFO(std::hex << "x=" << uint64_t(x >> 64) << ":" << uint64_t(x) << " y=" << uint64_t(y >> 64) << ":"
                  << uint64_t(y));
    const u128 s = x + y, dif = x - y;
    CHECK(add[i].d == uint64_t(s >> 64));
    CHECK(add[i].q == (s < x));
    CHECK(sub[i].d == uint64_t(dif >> 64));
    CHECK(sub[i].q == (x < y));
  }
}

namespace {

// nvcc's 64x64 -> 128-bit multiply-add in __internal_trig_reduction_slowpathd:
// {hi:lo} = a * b + c, from 32-bit halves with mad.lo.cc / madc.hi.cc chains.
const char* kMul128 = R"({
.reg .u32 %r0, %r1, %r2, %r3, %alo, %ahi, %blo, %bhi, %clo, %chi;
mov.b64 {%alo,%ahi}, %a;
mov.b64 {%blo,%bhi}, %b;
mov.b64 {%clo,%chi}, %c;
mad.lo.cc.u32 %r0, %alo, %blo, %clo;
madc.hi.cc.u32 %r1, %alo, %blo, %chi;
madc.hi.u32 %r2, %alo, %bhi, 0;
mad.lo.cc.u32 %r1, %alo, %bhi, %r1;
madc.hi.cc.u32 %r2, %ahi, %blo, %r2;
madc.hi.u32 %r3, %ahi, %bhi, 0;
mad.lo.cc.u32 %r1, %ahi, %blo, %r1;
madc.lo.cc.u32 %r2, %ahi, %bhi, %r2;
addc.u32 %r3, %r3, 0;
mov.b64 %d, {%r2,%r3};
mov.b64 %e, {%r0,%r1};
})";

}  // namespace

TEST_CASE("carry chains: nvcc's 64x64+64 -> 128-bit multiply over many values", "[semantics][carry]") {
  const auto w = random_u64(3 * 2000, 4);
  std::vector<Case> cases;
  for (size_t i = 0; i < 2000; ++i) cases.push_back({w[3 * i], w[3 * i + 1], w[3 * i + 2], 0, 0});
  // d = the high word; the low word is checked by a second run that stores %e in %d.
  auto hi = eval(kMul128, {"u64", "u64", "u64", "u64", "u64"}, cases);
  std::string low = kMul128;
  low.replace(low.find("mov.b64 %d, {%r2,%r3};"), 22, "mov.b64 %d, {%r0,%r1};");
  auto lo = eval(low, {"u64", "u64", "u64", "u64", "u64"}, cases);
  for (size_t i = 0; i < cases.size(); ++i) {
    const u128 want = u128(cases[i][0]) * cases[i][1] + cases[i][2];
    INFO(std::hex << "a=" << cases[i][0] << " b=" << cases[i][1] << " c=" << cases[i][2]);
    CHECK(hi[i].d == uint64_t(want >> 64));
    CHECK(lo[i].d == uint64_t(want));
  }
}

TEST_CASE("carry chains give the same results in timing mode", "[semantics][carry]") {
  // The multiply chain as a kernel over 256 threads, run in both modes: the flag's
  // dependences go through the scoreboard like a register's.
  std::string code = kMul128;
  std::string text = semtest::eval_kernel(code, {"u64", "u64", "u64", "u64", "u64"});
  ptxtest::Sim sim;
  const auto& k = sim.kernel(text, "eval", "carry.ptx");
  const auto w = random_u64(256 * 5, 5);
  auto din = sim.upload(w);
  std::vector<uint64_t> results[2];
  int i = 0;
  for (auto mode : {warpsim::SimMode::Functional, warpsim::SimMode::Timing}) {
    auto dout = sim.zeros<uint64_t>(512);
    warpsim::LaunchOptions o;
    o.mode = mode;
    warpsim::KernelArg args[] = {ptxtest::ptr(din), ptxtest::ptr(dout)};
    sim.dev.launch(k, {2, 1, 1}, {128, 1, 1}, 0, args, o);
    results[i++] = sim.download<uint64_t>(dout, 512);
  }
  CHECK(results[0] == results[1]);
  for (size_t t = 0; t < 256; ++t) {
    const u128 want = u128(w[5 * t]) * w[5 * t + 1] + w[5 * t + 2];
    CHECK(results[1][2 * t] == uint64_t(want >> 64));
  }
}

TEST_CASE("malformed and unsupported carry forms name the line", "[isa][carry]") {
  auto body = [](const std::string& line) {
    return ptxtest::module(".visible .entry k()\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n.reg .pred %p<3>;\n" + line +
                           "\nret;\n}\n");
  };
  struct Case2 {
    const char* line;
    const char* want;  // the message after "t.ptx:9"
  };
  const Case2 cases[] = {
      {"mul.lo.cc.u32 %r1, %r2, %r2;", ": unsupported PTX: mul.lo.cc.u32 %r1, %r2, %r2;  (carry-flag arithmetic (.cc) "
                                       "on mul)"},
      {"add.cc.f32 %r1, %r2, %r2;", ":1: parse error: add.cc takes .u32, .s32, .u64 or .s64"},
      {"addc.u16 %r1, %r2, %r2;", ":1: parse error: addc takes .u32, .s32, .u64 or .s64"},
      {"add.cc.sat.s32 %r1, %r2, %r2;", ":1: parse error: add takes no rounding, .ftz or .sat"},
      {"mad.cc.u32 %r1, %r2, %r2, %r1;", ":1: parse error: mad needs .lo or .hi"},
      {"madc.wide.u32 %rd1, %r2, %r2, %rd1;", ":1: parse error: madc needs .lo or .hi"},
      {"addc.lo.u32 %r1, %r2, %r2;", ": unsupported PTX: addc.lo.u32 %r1, %r2, %r2;  (modifier .lo on addc)"},
      {"subc.u32 %r1, %r2;", ":1: parse error: subc takes 3 operands, 2 given"},
      {"madc.lo.u32 %r1, %r2, %r2;", ":1: parse error: madc takes 4 operands, 3 given"},
      {"add.cc.u32 %p1, %r2, %r2;", ":12: parse error: '%p1' is a predicate register"},
      {"addc.cc.u32.u32 %r1, %r2, %r2;", ":1: parse error: addc needs exactly one type"},
  };
  for (const Case2& c : cases) {
    INFO(c.line);
    std::string msg = ptxtest::ptx_error(body(c.line));
    INFO(msg);
    CHECK(msg.rfind(std::string("t.ptx:9") + c.want, 0) == 0);
  }
}
