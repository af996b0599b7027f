// The vectorised float lane loops (semantics_float_warp.cpp) that add, sub, mul, div, fma,
// mad, contracted add/sub and setp take in round-to-nearest: every lane of the mask equals
// the host's scalar IEEE operation bit for bit, with the GPU's NaNs (gpu_binary), lanes
// outside the mask keep their values, and a destination
// that is also a source is read before it is written. Instructions are bound by
// bind_semantics and run on a register file built here, with random masks.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "sim/isa/contraction.hpp"
#include "sim/isa/semantics.hpp"

namespace {

using warpsim::isa::BoolOp;
using warpsim::isa::Cmp;
using warpsim::isa::DType;
using warpsim::isa::Instr;
using warpsim::isa::kWarpLanes;
using warpsim::isa::Op;
using warpsim::isa::Operand;

constexpr int kSlots = 4;  // a, b, c, d

Operand reg(uint16_t slot) {
  Operand o;
  o.kind = Operand::Kind::Reg;
  o.reg = slot;
  return o;
}
Operand pred(uint16_t index) {
  Operand o;
  o.kind = Operand::Kind::Pred;
  o.reg = index;
  return o;
}

Instr bound(Instr in) {
  warpsim::isa::bind_semantics(in, [](const std::string& why) { FAIL(why); });
  REQUIRE(in.fn != nullptr);
  return in;
}

// Random lane values: random bit patterns, and edge values (signed zeros, subnormals,
// infinities, quiet and signalling NaNs with payloads and either sign).
template <class T>
std::vector<T> edge_values() {
  using L = std::numeric_limits<T>;
  using U = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
  constexpr U sign = U(1) << (sizeof(T) * 8 - 1);
  const T qnan_payload = std::bit_cast<T>(U(std::bit_cast<U>(L::quiet_NaN()) | 0x5));
  const T snan = std::bit_cast<T>(U((std::bit_cast<U>(L::infinity())) | 0x3));
  const T negative_qnan = std::bit_cast<T>(U(std::bit_cast<U>(qnan_payload) | sign));
  return {T(0),          -T(0),         T(1),          T(-1.5),       T(3),       L::denorm_min(),
          -L::denorm_min(), L::min(),   L::max(),      -L::max(),     L::infinity(), -L::infinity(),
          L::quiet_NaN(), qnan_payload, negative_qnan, snan,          T(1e-30),   T(7.25)};
}

template <class T>
uint64_t lane_bits(T v) {
  if constexpr (sizeof(T) == 4) return std::bit_cast<uint32_t>(v);
  else return std::bit_cast<uint64_t>(v);
}
template <class T>
T lane_value(uint64_t b) {
  if constexpr (sizeof(T) == 4) return std::bit_cast<float>(uint32_t(b));
  else return std::bit_cast<double>(b);
}

template <class T>
struct Warp {
  std::vector<uint64_t> regs = std::vector<uint64_t>(size_t(kSlots) * kWarpLanes);
  uint32_t preds[4] = {};
  uint64_t* slot(int s) { return regs.data() + size_t(s) * kWarpLanes; }
  void fill(std::mt19937_64& rng, const std::vector<T>& edges) {
    for (int s = 0; s < kSlots; ++s)
      for (int l = 0; l < kWarpLanes; ++l) {
        const uint64_t r = rng();
        // Half the lanes an edge value, a quarter random bits, a quarter ordinary numbers.
        T v = (r & 1) ? edges[(r >> 8) % edges.size()]
                      : ((r & 2) ? lane_value<T>(r >> 2) : T(double(int64_t(r >> 40) - (1 << 23)) / 4096.0));
        slot(s)[l] = lane_bits(v);
      }
  }
  void run(const Instr& in, uint32_t mask) {
    warpsim::exec::ExecCtx c{regs.data(), preds, nullptr, 0xFFFFFFFFu};
    in.fn(c, in, mask);
  }
};

uint32_t random_mask(std::mt19937_64& rng, int round) {
  switch (round % 4) {
    case 0: return 0xFFFFFFFFu;
    case 1: return uint32_t(rng());
    case 2: return 1u << (rng() % 32);
    default: return uint32_t(rng()) & uint32_t(rng()) & uint32_t(rng());  // sparse
  }
}

// x op y as one scalar operation of the host. The operands pass through volatiles, so the
// compiler computes nothing at compile time.
template <class T>
T host_binary(Op op, T x, T y) {
  volatile T vx = x, vy = y;
  switch (op) {
    case Op::Add: return vx + vy;
    case Op::Sub: return vx - vy;
    case Op::Mul: return vx * vy;
    default: return vx / vy;
  }
}

// What the GPU returns (measured on an H200: tests/750_runtime/programs/nan_results.cu): the
// host's result, but the canonical NaN for any f32 NaN, and for f64 add, sub and mul with
// two NaN sources the second one's, made quiet.
template <class T>
uint64_t gpu_binary(Op op, T x, T y) {
  const T r = host_binary(op, x, y);
  if constexpr (sizeof(T) == 4) {
    return std::isnan(r) ? 0x7FFFFFFFu : lane_bits(r);
  } else {
    if (op != Op::Div && std::isnan(x) && std::isnan(y)) return lane_bits(y) | 0x0008000000000000ull;
    return lane_bits(r);
  }
}

template <class T>
void check_binaries(DType type) {
  std::mt19937_64 rng(type == DType::F32 ? 11 : 12);
  const auto edges = edge_values<T>();
  for (Op op : {Op::Add, Op::Sub, Op::Mul, Op::Div}) {
    // d in its own slot, and d = a (the destination is also the first source).
    for (int dslot : {3, 0}) {
      Instr in;
      in.op = op;
      in.type = type;
      in.d[0] = reg(uint16_t(dslot));
      in.a = reg(0);
      in.b = reg(1);
      in = bound(in);
      for (int round = 0; round < 64; ++round) {
        Warp<T> w;
        w.fill(rng, edges);
        const std::vector<uint64_t> before = w.regs;
        const uint32_t mask = random_mask(rng, round);
        w.run(in, mask);
        for (int l = 0; l < kWarpLanes; ++l) {
          const uint64_t want = ((mask >> l) & 1u)
                                    ? gpu_binary(op, lane_value<T>(before[l]), lane_value<T>(before[kWarpLanes + l]))
                                    : before[size_t(dslot) * kWarpLanes + l];
          INFO("op " << int(op) << " lane " << l << " mask " << std::hex << mask << " a " << before[l] << " b "
                     << before[kWarpLanes + l]);
          REQUIRE(w.slot(dslot)[l] == want);
        }
      }
    }
  }
}

template <class T>
void check_fmas(DType type) {
  std::mt19937_64 rng(type == DType::F32 ? 21 : 22);
  const auto edges = edge_values<T>();
  // A plain fma, and contracted adds and subs (fma(-a, b, c), fma(a, b, -c)).
  const uint8_t fused_forms[] = {0, warpsim::isa::kFusedMulAdd,
                                 uint8_t(warpsim::isa::kFusedMulAdd | warpsim::isa::kFusedNegProduct),
                                 uint8_t(warpsim::isa::kFusedMulAdd | warpsim::isa::kFusedNegAddend)};
  for (uint8_t fused : fused_forms) {
    for (int dslot : {3, 2}) {  // d = c: an accumulator
      Instr in;
      in.op = fused ? Op::Add : Op::Fma;
      in.type = type;
      in.round = fused ? warpsim::isa::Round::None : warpsim::isa::Round::Rn;
      in.fused = fused;
      in.d[0] = reg(uint16_t(dslot));
      in.a = reg(0);
      in.b = reg(1);
      in.c = reg(2);
      in = bound(in);
      volatile T pa = (fused & warpsim::isa::kFusedNegProduct) ? T(-1) : T(1);
      volatile T pc = (fused & warpsim::isa::kFusedNegAddend) ? T(-1) : T(1);
      for (int round = 0; round < 64; ++round) {
        Warp<T> w;
        w.fill(rng, edges);
        const std::vector<uint64_t> before = w.regs;
        const uint32_t mask = random_mask(rng, round);
        w.run(in, mask);
        for (int l = 0; l < kWarpLanes; ++l) {
          uint64_t want = before[size_t(dslot) * kWarpLanes + l];
          const T xs = lane_value<T>(before[l]), ys = lane_value<T>(before[kWarpLanes + l]),
                  zs = lane_value<T>(before[2 * kWarpLanes + l]);
          if ((mask >> l) & 1u) {
            volatile T x = lane_value<T>(before[l]), y = lane_value<T>(before[kWarpLanes + l]),
                       z = lane_value<T>(before[2 * kWarpLanes + l]);
            // The plain fma of a full warp multiplies nothing by +1 (fma_f32_full_warp).
            const bool bare = fused == 0 && mask == 0xFFFFFFFFu && type == DType::F32;
            const T r = bare ? std::fma(T(x), T(y), T(z)) : std::fma(pa * x, T(y), pc * z);
            want = sizeof(T) == 4 && std::isnan(r) ? 0x7FFFFFFFu : lane_bits(r);
            // f64 with NaN sources: b's, else c's, else a's, made quiet (an H200's).
            if constexpr (sizeof(T) == 8) {
              const T nan = std::isnan(ys) ? ys : std::isnan(zs) ? zs : xs;
              if (std::isnan(nan)) want = lane_bits(nan) | 0x0008000000000000ull;
            }
          }
          INFO("fused " << int(fused) << " lane " << l << " mask " << std::hex << mask);
          REQUIRE(w.slot(dslot)[l] == want);
        }
      }
    }
  }
}

template <class T>
bool host_compare(Cmp cmp, T x, T y) {
  const bool un = std::isnan(x) || std::isnan(y);
  switch (cmp) {
    case Cmp::Eq: return !un && x == y;
    case Cmp::Ne: return !un && x != y;
    case Cmp::Lt: return !un && x < y;
    case Cmp::Le: return !un && x <= y;
    case Cmp::Gt: return !un && x > y;
    case Cmp::Ge: return !un && x >= y;
    case Cmp::Equ: return un || x == y;
    case Cmp::Neu: return un || x != y;
    case Cmp::Ltu: return un || x < y;
    case Cmp::Leu: return un || x <= y;
    case Cmp::Gtu: return un || x > y;
    case Cmp::Geu: return un || x >= y;
    case Cmp::Num: return !un;
    default: return un;  // Nan
  }
}

template <class T>
void check_setps(DType type) {
  std::mt19937_64 rng(type == DType::F32 ? 31 : 32);
  const auto edges = edge_values<T>();
  const Cmp cmps[] = {Cmp::Eq,  Cmp::Ne,  Cmp::Lt,  Cmp::Le,  Cmp::Gt,  Cmp::Ge,  Cmp::Equ,
                      Cmp::Neu, Cmp::Ltu, Cmp::Leu, Cmp::Gtu, Cmp::Geu, Cmp::Num, Cmp::Nan};
  for (Cmp cmp : cmps) {
    for (BoolOp boolop : {BoolOp::None, BoolOp::And, BoolOp::Xor}) {
      Instr in;
      in.op = Op::Setp;
      in.type = type;
      in.cmp = cmp;
      in.boolop = boolop;
      in.d[0] = pred(0);
      in.d[1] = pred(1);  // setp p|q: q gets the complement
      in.a = reg(0);
      in.b = reg(1);
      if (boolop != BoolOp::None) in.c = pred(2);
      in = bound(in);
      for (int round = 0; round < 16; ++round) {
        Warp<T> w;
        w.fill(rng, edges);
        // Equal operands in some lanes, so that == and <= hold somewhere.
        for (int l = 0; l < kWarpLanes; l += 3) w.slot(1)[l] = w.slot(0)[l];
        const uint32_t p0 = uint32_t(rng()), p1 = uint32_t(rng()), p2 = uint32_t(rng());
        w.preds[0] = p0;
        w.preds[1] = p1;
        w.preds[2] = p2;
        const uint32_t mask = random_mask(rng, round);
        w.run(in, mask);
        uint32_t r = 0;
        for (int l = 0; l < kWarpLanes; ++l)
          r |= uint32_t(host_compare(cmp, lane_value<T>(w.slot(0)[l]), lane_value<T>(w.slot(1)[l]))) << l;
        auto combine = [&](uint32_t x) {
          return boolop == BoolOp::And ? (x & p2) : (boolop == BoolOp::Xor ? (x ^ p2) : x);
        };
        INFO("cmp " << int(cmp) << " boolop " << int(boolop) << " mask " << std::hex << mask);
        REQUIRE(w.preds[0] == ((p0 & ~mask) | (combine(r) & mask)));
        REQUIRE(w.preds[1] == ((p1 & ~mask) | (combine(~r) & mask)));
        REQUIRE(w.preds[2] == p2);
      }
    }
  }
}

}  // namespace

TEST_CASE("vectorised f32/f64 add, sub, mul and div: the host's scalar operation with the GPU's NaNs in every lane "
          "of the mask",
          "[semantics][float]") {
  check_binaries<float>(DType::F32);
  check_binaries<double>(DType::F64);
}

TEST_CASE("vectorised fma, mad and contracted add/sub equal the lane loop's fma in every lane of the mask",
          "[semantics][float]") {
  check_fmas<float>(DType::F32);
  check_fmas<double>(DType::F64);
}

TEST_CASE("vectorised setp: every comparison, combiner and complement, lanes outside the mask kept",
          "[semantics][float]") {
  check_setps<float>(DType::F32);
  check_setps<double>(DType::F64);
}
