// Integer arithmetic, logic, shifts, bit fields, comparisons and selects at edge values,
// for every integer width, against references written with wider arithmetic.
#include <catch2/catch.hpp>

#include "eval.hpp"

using semtest::bits;
using semtest::check_binary;
using semtest::eval;
using semtest::int_edges;

namespace {

template <class T>
using Wider = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;

// Runs the same check for every integer type of PTX: s/u 16, 32, 64 (8-bit types only
// exist for ld/st/cvt).
template <template <class> class Check>
void for_int_types() {
  Check<int16_t>::run("s16");
  Check<uint16_t>::run("u16");
  Check<int32_t>::run("s32");
  Check<uint32_t>::run("u32");
  Check<int64_t>::run("s64");
  Check<uint64_t>::run("u64");
}

template <class T>
struct AddSub {
  static void run(const std::string& t) {
    auto v = int_edges<T>();
    check_binary<T>("add." + t + " %d, %a, %b;", t, t, v, [](T x, T y) { return T(Wider<T>(x) + y); });
    check_binary<T>("sub." + t + " %d, %a, %b;", t, t, v, [](T x, T y) { return T(Wider<T>(x) - y); });
  }
};

template <class T>
struct Mul {
  static void run(const std::string& t) {
    auto v = int_edges<T>();
    constexpr int n = sizeof(T) * 8;
    check_binary<T>("mul.lo." + t + " %d, %a, %b;", t, t, v, [](T x, T y) { return T(Wider<T>(x) * Wider<T>(y)); });
    check_binary<T>("mul.hi." + t + " %d, %a, %b;", t, t, v,
                    [](T x, T y) { return T((Wider<T>(x) * Wider<T>(y)) >> n); });
    if constexpr (sizeof(T) <= 4) {
      using W = std::conditional_t<std::is_signed_v<T>, std::conditional_t<sizeof(T) == 2, int32_t, int64_t>,
                                   std::conditional_t<sizeof(T) == 2, uint32_t, uint64_t>>;
      std::string wt = (std::is_signed_v<T> ? "s" : "u") + std::to_string(2 * n);
      check_binary<T, W>("mul.wide." + t + " %d, %a, %b;", t, wt, v,
                         [](T x, T y) { return W(Wider<T>(x) * Wider<T>(y)); });
    }
  }
};

template <class T>
struct MinMax {
  static void run(const std::string& t) {
    auto v = int_edges<T>();
    check_binary<T>("min." + t + " %d, %a, %b;", t, t, v, [](T x, T y) { return std::min(x, y); });
    check_binary<T>("max." + t + " %d, %a, %b;", t, t, v, [](T x, T y) { return std::max(x, y); });
  }
};

template <class T>
struct DivRem {
  // Division by zero gives all ones (the unsigned maximum, -1 when signed) and x % 0 = x;
  // the most negative value / -1 gives the most negative value and % -1 gives 0 (no trap).
  static void run(const std::string& t) {
    auto v = int_edges<T>();
    check_binary<T>("div." + t + " %d, %a, %b;", t, t, v, [](T x, T y) -> T {
      if (y == 0) return T(~std::make_unsigned_t<T>(0));
      return T(Wider<T>(x) / Wider<T>(y));
    });
    check_binary<T>("rem." + t + " %d, %a, %b;", t, t, v, [](T x, T y) -> T {
      if (y == 0) return x;
      return T(Wider<T>(x) % Wider<T>(y));
    });
  }
};

template <class T>
struct Logic {
  static void run(const std::string& t) {
    std::string b = "b" + t.substr(1);
    auto v = int_edges<T>();
    check_binary<T>("and." + b + " %d, %a, %b;", b, b, v, [](T x, T y) { return T(x & y); });
    check_binary<T>("or." + b + " %d, %a, %b;", b, b, v, [](T x, T y) { return T(x | y); });
    check_binary<T>("xor." + b + " %d, %a, %b;", b, b, v, [](T x, T y) { return T(x ^ y); });
  }
};

template <class T>
struct Compare {
  static void run(const std::string& t) {
    auto v = int_edges<T>();
    using U = std::make_unsigned_t<T>;
    check_binary<T, bool>("setp.eq." + t + " %d, %a, %b;", t, "pred", v, [](T x, T y) { return x == y; });
    check_binary<T, bool>("setp.ne." + t + " %d, %a, %b;", t, "pred", v, [](T x, T y) { return x != y; });
    check_binary<T, bool>("setp.lt." + t + " %d, %a, %b;", t, "pred", v, [](T x, T y) { return x < y; });
    check_binary<T, bool>("setp.le." + t + " %d, %a, %b;", t, "pred", v, [](T x, T y) { return x <= y; });
    check_binary<T, bool>("setp.gt." + t + " %d, %a, %b;", t, "pred", v, [](T x, T y) { return x > y; });
    check_binary<T, bool>("setp.ge." + t + " %d, %a, %b;", t, "pred", v, [](T x, T y) { return x >= y; });
    // lo/ls/hi/hs compare as unsigned whatever the type.
    check_binary<T, bool>("setp.lo." + t + " %d, %a, %b;", t, "pred", v, [](T x, T y) { return U(x) < U(y); });
    check_binary<T, bool>("setp.ls." + t + " %d, %a, %b;", t, "pred", v, [](T x, T y) { return U(x) <= U(y); });
    check_binary<T, bool>("setp.hi." + t + " %d, %a, %b;", t, "pred", v, [](T x, T y) { return U(x) > U(y); });
    check_binary<T, bool>("setp.hs." + t + " %d, %a, %b;", t, "pred", v, [](T x, T y) { return U(x) >= U(y); });
  }
};

}  // namespace

TEST_CASE("add and sub wrap around at every width", "[semantics][int]") { for_int_types<AddSub>(); }
TEST_CASE("mul.lo, mul.hi and mul.wide at every width", "[semantics][int]") { for_int_types<Mul>(); }
TEST_CASE("min and max, signed and unsigned", "[semantics][int]") { for_int_types<MinMax>(); }
TEST_CASE("div and rem incl. division by zero and MIN / -1", "[semantics][int]") { for_int_types<DivRem>(); }
TEST_CASE("and, or, xor", "[semantics][int]") { for_int_types<Logic>(); }
TEST_CASE("setp with every integer comparison", "[semantics][int]") { for_int_types<Compare>(); }

TEST_CASE("division by zero and overflow: the documented results", "[semantics][int]") {
  auto run = [](const std::string& code, const std::string& t, uint64_t a, uint64_t b) {
    return eval(code, {t, t, t, ""}, {{a, b, 0, 0}})[0].d;
  };
  CHECK(run("div.u32 %d, %a, %b;", "u32", 7, 0) == 0xFFFFFFFFu);
  CHECK(run("div.s32 %d, %a, %b;", "s32", 7, 0) == 0xFFFFFFFFu);                      // -1
  CHECK(run("div.s32 %d, %a, %b;", "s32", bits<int32_t>(-7), 0) == 0xFFFFFFFFu);      // -1
  CHECK(run("rem.s32 %d, %a, %b;", "s32", bits<int32_t>(-7), 0) == bits<int32_t>(-7));
  CHECK(run("div.s32 %d, %a, %b;", "s32", 0x80000000u, 0xFFFFFFFFu) == 0x80000000u);   // INT_MIN / -1
  CHECK(run("rem.s32 %d, %a, %b;", "s32", 0x80000000u, 0xFFFFFFFFu) == 0);
  CHECK(run("div.s64 %d, %a, %b;", "s64", 0x8000000000000000ull, ~0ull) == 0x8000000000000000ull);
  CHECK(run("div.u64 %d, %a, %b;", "u64", 5, 0) == ~0ull);
  CHECK(run("rem.u16 %d, %a, %b;", "u16", 0xFFFF, 0) == 0xFFFF);
  // C semantics otherwise: truncation toward zero, the remainder takes the dividend's sign.
  CHECK(run("div.s32 %d, %a, %b;", "s32", bits<int32_t>(-7), 2) == bits<int32_t>(-3));
  CHECK(run("rem.s32 %d, %a, %b;", "s32", bits<int32_t>(-7), 2) == bits<int32_t>(-1));
  CHECK(run("rem.s32 %d, %a, %b;", "s32", 7, bits<int32_t>(-2)) == 1);
}

TEST_CASE("add.sat.s32 / sub.sat.s32 clamp instead of wrapping", "[semantics][int]") {
  auto v = int_edges<int32_t>();
  auto clamp = [](int64_t r) { return int32_t(std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, r))); };
  check_binary<int32_t>("add.sat.s32 %d, %a, %b;", "s32", "s32", v,
                        [&](int32_t x, int32_t y) { return clamp(int64_t(x) + y); });
  check_binary<int32_t>("sub.sat.s32 %d, %a, %b;", "s32", "s32", v,
                        [&](int32_t x, int32_t y) { return clamp(int64_t(x) - y); });
}

TEST_CASE("mad.lo, mad.hi, mad.hi.sat and mad.wide", "[semantics][int]") {
  std::vector<int32_t> sv = {0, 1, -1, 3, INT32_MAX, INT32_MIN, INT32_MIN + 1, 0x10000, -0x12345};
  std::vector<semtest::Case> cases;
  for (int32_t a : sv)
    for (int32_t b : sv)
      for (int32_t c : sv) cases.push_back({bits(a), bits(b), bits(c), 0});
  auto lo = eval("mad.lo.s32 %d, %a, %b, %c;", {"s32", "s32", "s32", "s32"}, cases);
  auto hi = eval("mad.hi.s32 %d, %a, %b, %c;", {"s32", "s32", "s32", "s32"}, cases);
  auto hisat = eval("mad.hi.sat.s32 %d, %a, %b, %c;", {"s32", "s32", "s32", "s32"}, cases);
  auto ulo = eval("mad.lo.u32 %d, %a, %b, %c;", {"u32", "u32", "u32", "u32"}, cases);
  auto uhi = eval("mad.hi.u32 %d, %a, %b, %c;", {"u32", "u32", "u32", "u32"}, cases);
  std::vector<semtest::Case> wide_cases;
  for (auto& c : cases) wide_cases.push_back({c[0], c[1], uint64_t(int64_t(int32_t(c[2]))) * 0x100000001ull, 0});
  auto wide = eval("mad.wide.s32 %d, %a, %b, %c;", {"s64", "s32", "s32", "s64"}, wide_cases);
  auto uwide = eval("mad.wide.u32 %d, %a, %b, %c;", {"u64", "u32", "u32", "u64"}, wide_cases);
  for (size_t i = 0; i < cases.size(); ++i) {
    int32_t a = int32_t(cases[i][0]), b = int32_t(cases[i][1]), c = int32_t(cases[i][2]);
    uint32_t ua = uint32_t(a), ub = uint32_t(b), uc = uint32_t(c);
    int64_t p = int64_t(a) * b;
    uint64_t up = uint64_t(ua) * ub;
    INFO("a=" << a << " b=" << b << " c=" << c);
    CHECK(lo[i].d == uint32_t(uint64_t(p) + uint32_t(c)));
    CHECK(hi[i].d == uint32_t(uint32_t(uint64_t(p) >> 32) + uint32_t(c)));
    int64_t hs = int64_t(int32_t(uint64_t(p) >> 32)) + c;
    CHECK(hisat[i].d == uint32_t(int32_t(std::max<int64_t>(INT32_MIN, std::min<int64_t>(INT32_MAX, hs)))));
    CHECK(ulo[i].d == uint32_t(up + uc));
    CHECK(uhi[i].d == uint32_t((up >> 32) + uc));
    int64_t cw = int64_t(wide_cases[i][2]);
    CHECK(wide[i].d == uint64_t(p) + uint64_t(cw));
    CHECK(uwide[i].d == up + uint64_t(cw));
  }
  // 16-bit mad.wide: a 32-bit addend.
  auto w16 = eval("mad.wide.s16 %d, %a, %b, %c;", {"s32", "s16", "s16", "s32"},
                  {{bits<int16_t>(-32768), bits<int16_t>(-32768), bits<int32_t>(-1), 0}});
  CHECK(w16[0].d == 0x3FFFFFFFu);
}

TEST_CASE("mul24 and mad24 use the low 24 bits", "[semantics][int]") {
  // lo: low 32 bits of the 48-bit product; hi: bits 47..16.
  std::vector<uint32_t> v = {0, 1, 0xFFFFFF, 0x800000, 0x1000000, 0xFFFFFFFF, 0x7FFFFF, 0x123456, 0xFF800001};
  auto s24 = [](uint32_t x) { return int64_t(int32_t(x << 8) >> 8); };
  auto u24 = [](uint32_t x) { return int64_t(x & 0xFFFFFF); };
  check_binary<uint32_t>("mul24.lo.u32 %d, %a, %b;", "u32", "u32", v,
                         [&](uint32_t x, uint32_t y) { return uint32_t(u24(x) * u24(y)); });
  check_binary<uint32_t>("mul24.hi.u32 %d, %a, %b;", "u32", "u32", v,
                         [&](uint32_t x, uint32_t y) { return uint32_t(uint64_t(u24(x) * u24(y)) >> 16); });
  check_binary<uint32_t>("mul24.lo.s32 %d, %a, %b;", "s32", "s32", v,
                         [&](uint32_t x, uint32_t y) { return uint32_t(s24(x) * s24(y)); });
  check_binary<uint32_t>("mul24.hi.s32 %d, %a, %b;", "s32", "s32", v,
                         [&](uint32_t x, uint32_t y) { return uint32_t(uint64_t(s24(x) * s24(y)) >> 16); });
  auto m = eval("mad24.lo.u32 %d, %a, %b, %c;", {"u32", "u32", "u32", "u32"},
                {{0x1000003, 0xFF000002, 10, 0}, {0xFFFFFF, 0xFFFFFF, 0xFFFFFFFF, 0}});
  CHECK(m[0].d == 16);                                                    // 3 * 2 + 10
  CHECK(m[1].d == uint32_t(uint64_t(0xFFFFFF) * 0xFFFFFF + 0xFFFFFFFFu));  // wraps
  auto mh = eval("mad24.hi.s32 %d, %a, %b, %c;", {"s32", "s32", "s32", "s32"}, {{0x800000, 0x800000, 5, 0}});
  CHECK(mh[0].d == uint32_t((int64_t(-0x800000) * -0x800000) >> 16) + 5);
}

TEST_CASE("abs and neg at the most negative value, not, cnot", "[semantics][int]") {
  auto un = [](const std::string& code, const std::string& t, uint64_t a) {
    return eval(code, {t, t, "", ""}, {{a, 0, 0, 0}})[0].d;
  };
  CHECK(un("abs.s32 %d, %a;", "s32", 0x80000000u) == 0x80000000u);
  CHECK(un("abs.s32 %d, %a;", "s32", bits<int32_t>(-5)) == 5);
  CHECK(un("abs.s32 %d, %a;", "s32", 5) == 5);
  CHECK(un("abs.s16 %d, %a;", "s16", 0x8000) == 0x8000);
  CHECK(un("abs.s16 %d, %a;", "s16", 0xFFFF) == 1);
  CHECK(un("abs.s64 %d, %a;", "s64", 0x8000000000000000ull) == 0x8000000000000000ull);
  CHECK(un("abs.s64 %d, %a;", "s64", bits<int64_t>(-3)) == 3);
  CHECK(un("neg.s32 %d, %a;", "s32", 0x80000000u) == 0x80000000u);
  CHECK(un("neg.s32 %d, %a;", "s32", 1) == 0xFFFFFFFFu);
  CHECK(un("neg.s32 %d, %a;", "s32", 0) == 0);
  CHECK(un("neg.s16 %d, %a;", "s16", 2) == 0xFFFE);
  CHECK(un("neg.s64 %d, %a;", "s64", 1) == ~0ull);
  CHECK(un("not.b32 %d, %a;", "b32", 0x0F0F0000) == 0xF0F0FFFFu);
  CHECK(un("not.b16 %d, %a;", "b16", 0x00FF) == 0xFF00);
  CHECK(un("not.b64 %d, %a;", "b64", 0) == ~0ull);
  CHECK(un("cnot.b32 %d, %a;", "b32", 0) == 1);
  CHECK(un("cnot.b32 %d, %a;", "b32", 0x80000000u) == 0);
  CHECK(un("cnot.b16 %d, %a;", "b16", 7) == 0);
  CHECK(un("cnot.b64 %d, %a;", "b64", 0x100000000ull) == 0);
}

TEST_CASE("shl and shr: shift amounts at and beyond the width", "[semantics][int]") {
  const std::vector<uint32_t> amounts = {0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 255, 256, 0xFFFFFFFF};
  auto check = [&](const std::string& op, const std::string& t, uint64_t a, auto ref) {
    std::vector<semtest::Case> cases;
    for (uint32_t s : amounts) cases.push_back({a, s, 0, 0});
    auto out = eval(op + " %d, %a, %b;", {t, t, "u32", ""}, cases);
    for (size_t i = 0; i < amounts.size(); ++i) {
      INFO(op << " " << std::hex << a << " by " << std::dec << amounts[i]);
      CHECK(out[i].d == (ref(amounts[i]) & semtest::size_mask(t)));
    }
  };
  for (uint64_t a : {0x1ull, 0x8000000000000001ull, 0xFFFFFFFFFFFFFFFFull, 0x123456789ABCDEF0ull}) {
    check("shl.b64", "b64", a, [&](uint32_t s) { return s >= 64 ? 0 : a << s; });
    check("shr.u64", "u64", a, [&](uint32_t s) { return s >= 64 ? 0 : a >> s; });
    check("shr.s64", "s64", a, [&](uint32_t s) { return uint64_t(int64_t(a) >> std::min(s, 63u)); });
    uint32_t a32 = uint32_t(a >> 32);
    check("shl.b32", "b32", a32, [&](uint32_t s) { return uint64_t(s >= 32 ? 0 : a32 << s); });
    check("shr.u32", "u32", a32, [&](uint32_t s) { return uint64_t(s >= 32 ? 0 : a32 >> s); });
    check("shr.s32", "s32", a32, [&](uint32_t s) { return uint64_t(uint32_t(int32_t(a32) >> std::min(s, 31u))); });
    uint16_t a16 = uint16_t(a >> 48);
    check("shl.b16", "b16", a16, [&](uint32_t s) { return uint64_t(s >= 16 ? 0 : uint16_t(a16 << s)); });
    check("shr.u16", "u16", a16, [&](uint32_t s) { return uint64_t(s >= 16 ? 0 : a16 >> s); });
    check("shr.s16", "s16", a16, [&](uint32_t s) { return uint64_t(uint16_t(int16_t(a16) >> std::min(s, 15u))); });
  }
}

TEST_CASE("popc, clz and brev", "[semantics][int]") {
  auto un = [](const std::string& code, const std::string& dt, const std::string& t, uint64_t a) {
    return eval(code, {dt, t, "", ""}, {{a, 0, 0, 0}})[0].d;
  };
  CHECK(un("popc.b32 %d, %a;", "u32", "b32", 0) == 0);
  CHECK(un("popc.b32 %d, %a;", "u32", "b32", 0xFFFFFFFF) == 32);
  CHECK(un("popc.b32 %d, %a;", "u32", "b32", 0x80000001) == 2);
  CHECK(un("popc.b64 %d, %a;", "u32", "b64", ~0ull) == 64);
  CHECK(un("popc.b64 %d, %a;", "u32", "b64", 0x8000000100000001ull) == 3);
  CHECK(un("clz.b32 %d, %a;", "u32", "b32", 0) == 32);
  CHECK(un("clz.b32 %d, %a;", "u32", "b32", 1) == 31);
  CHECK(un("clz.b32 %d, %a;", "u32", "b32", 0x80000000) == 0);
  CHECK(un("clz.b32 %d, %a;", "u32", "b32", 0x00010000) == 15);
  CHECK(un("clz.b64 %d, %a;", "u32", "b64", 0) == 64);
  CHECK(un("clz.b64 %d, %a;", "u32", "b64", 0x00000000FFFFFFFFull) == 32);
  CHECK(un("clz.b64 %d, %a;", "u32", "b64", 0x8000000000000000ull) == 0);
  CHECK(un("brev.b32 %d, %a;", "b32", "b32", 1) == 0x80000000u);
  CHECK(un("brev.b32 %d, %a;", "b32", "b32", 0x12345678) == 0x1E6A2C48u);
  CHECK(un("brev.b32 %d, %a;", "b32", "b32", 0) == 0);
  CHECK(un("brev.b64 %d, %a;", "b64", "b64", 1) == 0x8000000000000000ull);
  CHECK(un("brev.b64 %d, %a;", "b64", "b64", 0x0123456789ABCDEFull) == 0xF7B3D591E6A2C480ull);
}

namespace {

uint64_t low_mask(int n) { return n >= 64 ? ~0ull : (1ull << n) - 1; }

// bfe written as mask-and-extend (the PTX text spells it bit by bit).
uint64_t ref_bfe(uint64_t a, uint32_t pos, uint32_t len, bool sgn, int width) {
  pos &= 0xFF;
  len &= 0xFF;
  if (len == 0) return 0;
  if (pos >= uint32_t(width)) {
    bool sbit = sgn && ((a >> (width - 1)) & 1);
    return sbit ? low_mask(width) : 0;
  }
  int n = std::min<int>(len, width - pos);
  uint64_t v = (a >> pos) & low_mask(n);
  if (sgn && ((v >> (n - 1)) & 1)) v |= ~low_mask(n);
  return v & low_mask(width);
}

uint64_t ref_bfi(uint64_t a, uint64_t b, uint32_t pos, uint32_t len, int width) {
  pos &= 0xFF;
  len &= 0xFF;
  int n = pos >= uint32_t(width) ? 0 : std::min<int>(len, width - pos);
  if (n == 0) return b & low_mask(width);  // (and no shift by pos >= 64)
  uint64_t field = low_mask(n) << pos;
  return ((b & ~field) | ((a << pos) & field)) & low_mask(width);
}

}  // namespace

TEST_CASE("bfe and bfi at field boundaries", "[semantics][int]") {
  const std::vector<uint32_t> positions = {0, 1, 4, 15, 31, 32, 33, 63, 64, 255, 256 + 4};
  const std::vector<uint32_t> lengths = {0, 1, 4, 8, 31, 32, 33, 64, 65, 255, 256 + 8};
  const uint64_t values[] = {0xF0F0F0F0A5A5A5A5ull, 0x8000000080000000ull, 0x7FFFFFFF7FFFFFFFull, 0};
  for (const char* t : {"u32", "s32", "u64", "s64"}) {
    std::string ty = t;
    int width = ty.substr(1) == "32" ? 32 : 64;
    bool sgn = ty[0] == 's';
    std::vector<semtest::Case> cases;
    for (uint64_t a : values)
      for (uint32_t p : positions)
        for (uint32_t l : lengths) cases.push_back({a & low_mask(width), p, l, 0});
    auto out = eval("bfe." + ty + " %d, %a, %b, %c;", {ty, ty, "u32", "u32"}, cases);
    for (size_t i = 0; i < cases.size(); ++i) {
      INFO("bfe." << ty << " a=" << std::hex << cases[i][0] << std::dec << " pos=" << cases[i][1]
                  << " len=" << cases[i][2]);
      CHECK(out[i].d == ref_bfe(cases[i][0], uint32_t(cases[i][1]), uint32_t(cases[i][2]), sgn, width));
    }
  }
  for (const char* t : {"b32", "b64"}) {
    std::string ty = t;
    int width = ty == "b32" ? 32 : 64;
    std::vector<semtest::Case> cases;
    for (uint64_t a : values)
      for (uint32_t p : positions)
        for (uint32_t l : lengths)
          cases.push_back({a & low_mask(width), 0xFEDCBA9876543210ull & low_mask(width), p, 0, l});
    auto out = eval("bfi." + ty + " %d, %a, %b, %c, %e;", {ty, ty, ty, "u32", "u32"}, cases);
    for (size_t i = 0; i < cases.size(); ++i) {
      INFO("bfi." << ty << " a=" << std::hex << cases[i][0] << " b=" << cases[i][1] << std::dec << " pos="
                  << cases[i][2] << " len=" << cases[i][4]);
      CHECK(out[i].d == ref_bfi(cases[i][0], cases[i][1], uint32_t(cases[i][2]), uint32_t(cases[i][4]), width));
    }
  }
  // Hand-checked: the PTX manual's pictures.
  auto one = [](const std::string& code, const std::string& t, semtest::Case c) {
    return eval(code, {t, t, t, "u32", "u32"}, {c})[0].d;
  };
  CHECK(one("bfe.u32 %d, %a, %c, %e;", "u32", {0xF0F0F0F0, 0, 4, 0, 8}) == 0x0F);
  CHECK(one("bfe.s32 %d, %a, %c, %e;", "s32", {0x00000F00, 0, 8, 0, 4}) == 0xFFFFFFFF);
  CHECK(one("bfe.s32 %d, %a, %c, %e;", "s32", {0x00000700, 0, 8, 0, 4}) == 7);
  CHECK(one("bfe.s32 %d, %a, %c, %e;", "s32", {0x80000000, 0, 40, 0, 4}) == 0xFFFFFFFF);
  CHECK(one("bfe.u32 %d, %a, %c, %e;", "u32", {0x80000000, 0, 28, 0, 8}) == 0x8);
  CHECK(one("bfi.b32 %d, %a, %b, %c, %e;", "b32", {0xFF, 0, 8, 0, 4}) == 0xF00);
  CHECK(one("bfi.b32 %d, %a, %b, %c, %e;", "b32", {0x0, 0xFFFFFFFF, 28, 0, 8}) == 0x0FFFFFFF);
}

TEST_CASE("predicate logic: and/or/xor/not/mov .pred with negated and constant operands", "[semantics][int]") {
  // %a, %b are predicates; the result goes to %d (a predicate) and %q.
  std::vector<semtest::Case> cases = {{0, 0, 0, 0, 0}, {0, 1, 0, 0, 0}, {1, 0, 0, 0, 0}, {1, 1, 0, 0, 0}};
  auto run = [&](const std::string& code) { return eval(code, {"pred", "pred", "pred"}, cases); };
  auto an = run("and.pred %d, %a, %b;\nand.pred %q, !%a, %b;");
  auto orr = run("or.pred %d, %a, %b;\nor.pred %q, %a, !%b;");
  auto x = run("xor.pred %d, %a, %b;\nxor.pred %q, %a, 1;");
  auto n = run("not.pred %d, %a;\nmov.pred %q, !%b;");
  auto k = run("and.pred %d, %a, 1;\nor.pred %q, %b, 0;");
  for (size_t i = 0; i < cases.size(); ++i) {
    bool a = cases[i][0], b = cases[i][1];
    INFO("a=" << a << " b=" << b);
    CHECK(an[i].d == uint64_t(a && b));
    CHECK(an[i].q == (!a && b));
    CHECK(orr[i].d == uint64_t(a || b));
    CHECK(orr[i].q == (a || !b));
    CHECK(x[i].d == uint64_t(a != b));
    CHECK(x[i].q == !a);
    CHECK(n[i].d == uint64_t(!a));
    CHECK(n[i].q == !b);
    CHECK(k[i].d == uint64_t(a));
    CHECK(k[i].q == b);
  }
}

TEST_CASE("mad24.hi.sat.s32 saturates the sum", "[semantics][int]") {
  // 0x7FFFFF^2 = 0x3FFFFF000001; bits 47..16 = 0x3FFFFF00; + INT32_MAX overflows.
  auto out = eval("mad24.hi.sat.s32 %d, %a, %b, %c;\nmad24.hi.s32 %e, %a, %b, %c;", {"s32", "s32", "s32", "s32", "s32"},
                  {{0x7FFFFF, 0x7FFFFF, 0x7FFFFFFF, 0, 0},
                   {0x800000, 0x7FFFFF, 0x80000000, 0, 0},
                   {0x123, 0x456, 5, 0, 0}});
  CHECK(out[0].d == 0x7FFFFFFFu);
  CHECK(out[1].d == 0x80000000u);  // (-2^23 * (2^23 - 1)) >> 16 is negative; + INT32_MIN clamps
  CHECK(out[2].d == uint32_t((0x123 * 0x456) >> 16) + 5);
}

TEST_CASE("bfind and bfind.shiftamt: the most significant non-sign bit", "[semantics][int]") {
  auto ref = [](uint64_t x, int width, bool sgn, bool shift) -> uint32_t {
    if (width == 32) x &= 0xFFFFFFFFu;
    if (sgn && ((x >> (width - 1)) & 1)) x = ~x & (width == 32 ? 0xFFFFFFFFull : ~0ull);
    for (int i = width - 1; i >= 0; --i)
      if ((x >> i) & 1) return shift ? uint32_t(width - 1 - i) : uint32_t(i);
    return 0xFFFFFFFFu;
  };
  const std::vector<uint64_t> values = {0,          1,          2,          3,          0x80,       0x7FFFFFFF,
                                        0x80000000, 0xFFFFFFFF, 0xFFFFFFFE, 0x10000,    ~0ull,      1ull << 63,
                                        (1ull << 63) - 1, 0xFFFFFFFF00000000ull, 0x100000000ull, 0x8000000000000001ull};
  for (const char* t : {"u32", "s32", "u64", "s64"})
    for (bool shift : {false, true}) {
      std::string ty = t;
      int width = ty.substr(1) == "32" ? 32 : 64;
      std::vector<semtest::Case> cases;
      for (uint64_t v : values) cases.push_back({width == 32 ? v & 0xFFFFFFFFu : v, 0, 0, 0, 0});
      auto out = eval(std::string("bfind") + (shift ? ".shiftamt." : ".") + ty + " %d, %a;", {"u32", ty}, cases);
      for (size_t i = 0; i < cases.size(); ++i) {
        INFO("bfind" << (shift ? ".shiftamt." : ".") << ty << " of 0x" << std::hex << cases[i][0]);
        CHECK(out[i].d == ref(cases[i][0], width, ty[0] == 's', shift));
      }
    }
  auto one = [](const std::string& code, const std::string& t, uint64_t a) {
    return eval(code, {"u32", t}, {{a, 0, 0, 0, 0}})[0].d;
  };
  CHECK(one("bfind.u32 %d, %a;", "u32", 0) == 0xFFFFFFFFu);
  CHECK(one("bfind.u32 %d, %a;", "u32", 0x00010000) == 16);
  CHECK(one("bfind.shiftamt.u32 %d, %a;", "u32", 0x00010000) == 15);
  CHECK(one("bfind.s32 %d, %a;", "s32", 0xFFFFFFFF) == 0xFFFFFFFFu);  // -1: no bit differs from the sign
  CHECK(one("bfind.s32 %d, %a;", "s32", 0xFFFF0000) == 15);           // most significant 0 of a negative
  CHECK(one("bfind.s64 %d, %a;", "s64", 0x7FFFFFFFFFFFFFFFull) == 62);
  CHECK(one("bfind.shiftamt.u64 %d, %a;", "u64", 1) == 63);
}

TEST_CASE("shf: funnel shifts left and right, wrapping or clamping the amount", "[semantics][int]") {
  const std::vector<uint32_t> amounts = {0, 1, 4, 31, 32, 33, 36, 63, 64, 0xFFFFFFFF};
  const uint32_t lo = 0x89ABCDEF, hi = 0x01234567;
  for (const char* dir : {"l", "r"})
    for (const char* mode : {"wrap", "clamp"}) {
      std::vector<semtest::Case> cases;
      for (uint32_t n : amounts) cases.push_back({lo, hi, n, 0, 0});
      std::string code = std::string("shf.") + dir + "." + mode + ".b32 %d, %a, %b, %c;";
      auto out = eval(code, {"b32", "b32", "b32", "u32"}, cases);
      for (size_t i = 0; i < amounts.size(); ++i) {
        uint32_t n = std::string(mode) == "wrap" ? amounts[i] & 31 : std::min(amounts[i], 32u);
        uint64_t v = (uint64_t(hi) << 32) | lo;
        uint32_t want = std::string(dir) == "l" ? uint32_t((v << n) >> 32) : uint32_t(v >> n);
        INFO(code << " by " << amounts[i]);
        CHECK(out[i].d == want);
      }
    }
  // A rotate: both halves the same.
  auto rot = eval("shf.l.wrap.b32 %d, %a, %a, %c;", {"b32", "b32", "", "u32"}, {{0x80000001, 0, 4, 0, 0}});
  CHECK(rot[0].d == 0x00000018u);
}

TEST_CASE("prmt (default mode): byte selection with sign replication", "[semantics][int]") {
  auto p = [](uint32_t a, uint32_t b, uint32_t sel) {
    return eval("prmt.b32 %d, %a, %b, %c;", {"b32", "b32", "b32", "b32"}, {{a, b, sel, 0, 0}})[0].d;
  };
  CHECK(p(0x33221100, 0x77665544, 0x3210) == 0x33221100u);  // identity
  CHECK(p(0x33221100, 0x77665544, 0x0123) == 0x00112233u);  // byte swap
  CHECK(p(0x33221100, 0x77665544, 0x7654) == 0x77665544u);  // b
  CHECK(p(0x33221100, 0x77665544, 0x4444) == 0x44444444u);
  CHECK(p(0x80221100, 0x77665544, 0x000B) == 0x000000FFu);  // byte 3 (0x80) sign-replicated
  CHECK(p(0x80221100, 0x77665544, 0x000A) == 0x00000000u);  // byte 2 (0x22) positive: 0
  CHECK(p(0x33221100, 0x77665544, 0xFFFF3210) == 0x33221100u);  // only c[15:0] counts
}

TEST_CASE("mov.pred takes nvcc's -1 as true", "[semantics][int]") {
  // MonteCarloMultiGPU's PTX has `mov.pred %p101, -1;`.
  auto out = semtest::eval("mov.pred %q, -1;", semtest::Types("b32", "b32"), {{0, 0, 0, 0, 0}});
  CHECK(out[0].q);
  auto off = semtest::eval("mov.pred %q, 1;\nmov.pred %q, 0;", semtest::Types("b32", "b32"), {{0, 0, 0, 0, 0}});
  CHECK(!off[0].q);
}

TEST_CASE("bmsk: b one-bits from bit a, clamped or wrapped, nanosleep does nothing", "[semantics][int]") {
  using semtest::Types;
  const std::vector<semtest::Case> cases = {
      {0, 4, 0, 0, 0}, {8, 8, 0, 0, 0}, {28, 8, 0, 0, 0}, {0, 32, 0, 0, 0}, {33, 3, 0, 0, 0}, {4, 40, 0, 0, 0}};
  auto clamp = semtest::eval("bmsk.clamp.b32 %d, %a, %b;", Types("b32", "b32", "b32"), cases);
  auto wrap = semtest::eval("nanosleep.u32 %a;\nbmsk.wrap.b32 %d, %a, %b;", Types("b32", "b32", "b32"), cases);
  const uint64_t want_clamp[] = {0xF, 0xFF00, 0xF0000000, 0xFFFFFFFF, 0, 0xFFFFFFF0};
  const uint64_t want_wrap[] = {0xF, 0xFF00, 0xF0000000, 0, 0xE, 0xFF0};  // 40 & 31 = 8
  for (size_t i = 0; i < cases.size(); ++i) {
    INFO(i);
    CHECK(clamp[i].d == want_clamp[i]);
    CHECK(wrap[i].d == want_wrap[i]);
  }
}

TEST_CASE("griddepcontrol.wait and .launch_dependents change nothing (launches run in order)", "[semantics][int]") {
  // Programmatic dependent launch (sm_90, what CUB asks for): the prerequisite grid has
  // finished before a dependent grid starts here, so waiting for it is a no-op.
  using semtest::Types;
  auto out = semtest::eval("griddepcontrol.wait;\nadd.u32 %d, %a, %b;\ngriddepcontrol.launch_dependents;",
                           Types("b32", "b32", "b32"), {{3, 4, 0, 0, 0}, {100, 23, 0, 0, 0}});
  CHECK(out[0].d == 7);
  CHECK(out[1].d == 123);
}

TEST_CASE("vabsdiff4.add: c plus the byte-wise absolute differences, unsigned or signed bytes", "[semantics][int]") {
  using semtest::Types;
  const std::vector<semtest::Case> cases = {{0x01020304, 0x04030201, 0, 0, 0},
                                            {0xFF00FF00, 0x00FF00FF, 7, 0, 0},
                                            {0x80808080, 0x7F7F7F7F, 0, 0, 0},
                                            {0x00000010, 0x00000020, 0xFFFFFFFF, 0, 0}};
  auto u = semtest::eval("vabsdiff4.u32.u32.u32.add %d, %a, %b, %c;", Types("b32", "b32", "b32", "b32"), cases);
  auto s = semtest::eval("vabsdiff4.s32.s32.s32.add %d, %a, %b, %c;", Types("b32", "b32", "b32", "b32"), cases);
  // Unsigned: 3+1+1+3; 4 x 255 + 7; 4 x 1; 16 - 1 (wraps). Signed: -128 vs 127 is 255 per byte;
  // 0xFF is -1: |-1 - 0| and |0 - -1| are 1 each.
  const uint64_t want_u[] = {8, 1027, 4, 15};
  const uint64_t want_s[] = {8, 11, 1020, 15};
  for (size_t i = 0; i < cases.size(); ++i) {
    INFO(i);
    CHECK(u[i].d == want_u[i]);
    CHECK(s[i].d == want_s[i]);
  }
  CHECK_THAT(ptxtest::ptx_error(ptxtest::module(".entry k()\n{\n.reg .b32 %r<4>;\nvabsdiff4.u32.u32.u32.sat %r0, "
                                                "%r1, %r2, %r3;\nret;\n}\n")),
             Catch::Contains("unsupported PTX") && Catch::Contains("vabsdiff4 with .sat"));
}

TEST_CASE("immediates at the edges of 64 bits, INT64_MIN included", "[semantics][int]") {
  // -9223372036854775808 is a valid s64 literal; decoding it negated an int64_t and
  // overflowed (UBSan, tools/sanitize.sh). It is INT64_MIN's bit pattern, as is 0x8000...
  const semtest::Types t("s64", "s64");
  auto run = [&](const std::string& imm) {
    return eval("add.s64 %d, %a, " + imm + ";", t, {{0, 0, 0, 0, 0}})[0].d;
  };
  CHECK(run("-9223372036854775808") == 0x8000000000000000ull);
  CHECK(run("0x8000000000000000") == 0x8000000000000000ull);
  CHECK(run("-1") == ~0ull);
  CHECK(run("9223372036854775807") == 0x7FFFFFFFFFFFFFFFull);
}
