// Runs a PTX instruction (or a few) on many inputs at once: thread i of a launch loads
// case i's operands into typed registers %a %b %c (and an initial %d), runs the code,
// and stores %d and the predicate %q. Operands are given and returned as the bit
// patterns of their values in the low bits of a uint64_t (predicates: 0 or 1).
#pragma once
// GCC 12 reports -Wrestrict false positives for std::string concatenation at -O3 (GCC bug 105329).
#pragma GCC diagnostic ignored "-Wrestrict"
#include <catch2/catch.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "200_engine/ptx_fixture.hpp"

namespace semtest {

// Register types of the operands, as PTX type names ("s32", "f64", "pred"); "" = unused.
struct Types {
  Types(std::string d_, std::string a_, std::string b_ = "", std::string c_ = "", std::string e_ = "")
      : d(std::move(d_)), a(std::move(a_)), b(std::move(b_)), c(std::move(c_)), e(std::move(e_)) {}
  std::string d, a, b, c, e;
};

// One case: {a, b, c, initial d, e}.
using Case = std::array<uint64_t, 5>;

struct Out {
  uint64_t d = 0;  // %d's bit pattern, zero-extended from its type's size
  bool q = false;  // %q (false unless the code writes it)
};

inline int type_bytes(const std::string& t) {
  if (t == "pred") return 4;
  int bits = std::stoi(t.substr(1));
  return bits / 8;
}

inline uint64_t size_mask(const std::string& t) {
  int n = type_bytes(t);
  return n == 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * n)) - 1;
}

inline ptxtest::Sim& sim() {
  static ptxtest::Sim s;
  return s;
}

inline std::string eval_kernel(const std::string& code, const Types& t) {
  std::ostringstream k;
  k << ".visible .entry eval(.param .u64 in, .param .u64 out)\n{\n"
    << ".reg .b64 %pin, %pout, %off;\n.reg .b32 %i, %tmp;\n.reg .pred %q;\n";
  auto decl = [&](const std::string& name, const std::string& ty) {
    if (!ty.empty()) k << ".reg ." << ty << " " << name << ";\n";
  };
  decl("%a", t.a);
  decl("%b", t.b);
  decl("%c", t.c);
  decl("%d", t.d);
  decl("%e", t.e);
  k << "ld.param.u64 %pin, [in];\nld.param.u64 %pout, [out];\n"
    << "mov.u32 %i, %tid.x;\nmov.u32 %tmp, %ctaid.x;\nmad.lo.u32 %i, %tmp, 128, %i;\n"
    << "mul.wide.u32 %off, %i, 40;\nadd.s64 %pin, %pin, %off;\n";
  auto load = [&](const std::string& name, const std::string& ty, int slot) {
    if (ty.empty()) return;
    if (ty == "pred")
      k << "ld.global.u32 %tmp, [%pin+" << slot * 8 << "];\nsetp.ne.u32 " << name << ", %tmp, 0;\n";
    else
      k << "ld.global." << ty << " " << name << ", [%pin+" << slot * 8 << "];\n";
  };
  load("%a", t.a, 0);
  load("%b", t.b, 1);
  load("%c", t.c, 2);
  load("%d", t.d, 3);
  load("%e", t.e, 4);
  k << "setp.ne.u32 %q, %i, %i;\n" << code << "\n"
    << "mul.wide.u32 %off, %i, 16;\nadd.s64 %pout, %pout, %off;\n";
  if (t.d == "pred")
    k << "selp.u32 %tmp, 1, 0, %d;\nst.global.u32 [%pout], %tmp;\n";
  else if (!t.d.empty())
    k << "st.global." << t.d << " [%pout], %d;\n";
  k << "selp.u32 %tmp, 1, 0, %q;\nst.global.u32 [%pout+8], %tmp;\nret;\n}\n";
  return ptxtest::module(k.str());
}

inline std::vector<Out> eval(const std::string& code, const Types& t, const std::vector<Case>& cases) {
  const std::string text = eval_kernel(code, t);
  INFO("PTX:\n" << text);
  ptxtest::Sim& s = sim();
  const auto& k = s.kernel(text, "eval", "eval.ptx");
  const size_t n = cases.size();
  const size_t padded = (n + 127) / 128 * 128;
  std::vector<uint64_t> in(padded * 5, 0);
  for (size_t i = 0; i < n; ++i)
    for (int j = 0; j < 5; ++j) in[i * 5 + j] = cases[i][j];
  auto din = s.upload(in);
  auto dout = s.zeros<uint64_t>(padded * 2);
  s.run(k, {static_cast<uint32_t>(padded / 128), 1, 1}, {128, 1, 1}, {ptxtest::ptr(din), ptxtest::ptr(dout)});
  auto raw = s.download<uint64_t>(dout, padded * 2);
  s.dev.free(din);
  s.dev.free(dout);
  std::vector<Out> out(n);
  for (size_t i = 0; i < n; ++i) {
    out[i].d = raw[i * 2] & (t.d.empty() ? 0 : size_mask(t.d));
    out[i].q = raw[i * 2 + 1] != 0;
  }
  return out;
}

// Bit pattern of a C++ value, zero-extended (as the register file holds it).
template <class T>
uint64_t bits(T v) {
  if constexpr (std::is_same_v<T, float>) return std::bit_cast<uint32_t>(v);
  else if constexpr (std::is_same_v<T, double>) return std::bit_cast<uint64_t>(v);
  else if constexpr (std::is_same_v<T, bool>) return v ? 1 : 0;
  else return static_cast<uint64_t>(static_cast<std::make_unsigned_t<T>>(v));
}
template <class T>
T from_bits(uint64_t b) {
  if constexpr (std::is_same_v<T, float>) return std::bit_cast<float>(static_cast<uint32_t>(b));
  else if constexpr (std::is_same_v<T, double>) return std::bit_cast<double>(b);
  else return static_cast<T>(b);
}

template <class T>
std::string show(T v) {
  std::ostringstream o;
  if constexpr (std::is_floating_point_v<T>) {
    o.precision(17);
    o << v << " (0x" << std::hex << bits(v) << ")";
  } else if constexpr (sizeof(T) == 1) {
    o << int(v);
  } else {
    o << v;
  }
  return o.str();
}

// Integer edge values of T.
template <class T>
std::vector<T> int_edges() {
  using L = std::numeric_limits<T>;
  std::vector<T> v = {T(0), T(1), T(2), T(3), T(7), L::max(), T(L::max() - 1), L::min(), T(L::min() + 1), T(100)};
  if constexpr (std::is_signed_v<T>) {
    v.push_back(T(-1));
    v.push_back(T(-2));
    v.push_back(T(-7));
    v.push_back(T(-100));
  } else {
    v.push_back(T(L::max() / 2));
    v.push_back(T(L::max() / 2 + 1));
  }
  if constexpr (sizeof(T) >= 4) {
    v.push_back(T(0x10000));
    v.push_back(T(0x12345));
  }
  return v;
}

// Checks `code` (using %d, %a, %b) over all pairs of `values` against ref(a, b).
template <class T, class D = T, class F>
void check_binary(const std::string& code, const std::string& ty, const std::string& dty, const std::vector<T>& values,
                  F ref) {
  std::vector<Case> cases;
  std::vector<std::pair<T, T>> args;
  for (T x : values)
    for (T y : values) {
      cases.push_back({bits(x), bits(y), 0, 0, 0});
      args.push_back({x, y});
    }
  auto out = eval(code, {dty, ty, ty, ""}, cases);
  for (size_t i = 0; i < args.size(); ++i) {
    D want = ref(args[i].first, args[i].second);
    INFO(code << " with a = " << show(args[i].first) << ", b = " << show(args[i].second) << ": got "
              << show(from_bits<D>(out[i].d)) << ", want " << show(want));
    if constexpr (std::is_floating_point_v<D>) {
      if (std::isnan(want)) {
        CHECK(std::isnan(from_bits<D>(out[i].d)));  // any NaN: the bit pattern is not specified
        continue;
      }
    }
    CHECK(out[i].d == (bits(want) & size_mask(dty)));
  }
}

}  // namespace semtest

namespace semtest {

// Floating-point edge values: signed zeros, subnormals, the normal range's ends, infinities,
// NaN, exactly representable and inexact ordinary values.
template <class T>
std::vector<T> float_edges() {
  using L = std::numeric_limits<T>;
  return {T(0),        -T(0),          T(1),           T(-1),         T(0.5),        T(1.5),
          T(-2.5),     T(3),           T(0.1),         L::min(),      -L::min(),     L::denorm_min(),
          -L::denorm_min(), T(L::min() - L::denorm_min()), L::max(), -L::max(),     L::infinity(),
          -L::infinity(), L::quiet_NaN(), T(16777216),  T(1e-30),      T(7e30)};
}

}  // namespace semtest
