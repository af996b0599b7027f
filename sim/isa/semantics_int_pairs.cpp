// Two 16-bit integers in a 32-bit register (.u16x2, .s16x2; cc 9.0, what the SIMD
// intrinsics __vadd2, __vsub2, __vmaxs2, __vminu2 and the DPX functions compile to there):
// add wraps in each half (PTX has no sub on pairs: __vsub2 negates and adds), min and max
// compare each half signed or unsigned; and
// .relu on min/max of .s16x2 and .s32 (__vimax_s32_relu, __vimin_s16x2_relu): a negative
// result is 0. Results as an H200 gives them (simd16_results.cu in tests/750_runtime/programs).
#include <algorithm>

#include "sim/isa/semantics_internal.hpp"

namespace warpsim::isa::detail {

using exec::ExecCtx;
using exec::for_lanes;

namespace {

template <class T>
T apply(Op op, T x, T y, bool relu) {
  T r;
  switch (op) {
    case Op::Add: r = T(x + y); break;
    case Op::Min: r = std::min(x, y); break;
    default: r = std::max(x, y); break;
  }
  return relu && r < 0 ? T(0) : r;
}

template <class T>
void pairs(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  const uint64_t* b = exec::src(c, in.b);
  uint64_t* d = exec::dst(c, in.d[0]);
  for_lanes(m, [&](int l) {
    uint32_t r = 0;
    for (int h = 0; h < 2; ++h) {
      const T x = T(uint16_t(a[l] >> (16 * h))), y = T(uint16_t(b[l] >> (16 * h)));
      r |= uint32_t(uint16_t(apply<T>(in.op, x, y, in.relu))) << (16 * h);
    }
    d[l] = r;
  });
}

void relu_s32(ExecCtx& c, const Instr& in, uint32_t m) {
  const uint64_t* a = exec::src(c, in.a);
  const uint64_t* b = exec::src(c, in.b);
  uint64_t* d = exec::dst(c, in.d[0]);
  for_lanes(m, [&](int l) { d[l] = uint32_t(apply<int32_t>(in.op, int32_t(a[l]), int32_t(b[l]), true)); });
}

}  // namespace

ExecFn int_pair_semantics(const Instr& in) {
  const bool arith = in.op == Op::Add || in.op == Op::Min || in.op == Op::Max;
  if (!arith || in.sat) return nullptr;
  if (in.type == DType::S32) return in.relu && (in.op == Op::Min || in.op == Op::Max) ? &relu_s32 : nullptr;
  if (in.type == DType::S16x2) return &pairs<int16_t>;
  if (in.type == DType::U16x2) return in.relu ? nullptr : &pairs<uint16_t>;
  return nullptr;
}

}  // namespace warpsim::isa::detail
