// Functional semantics of the ALU subset: one function per (opcode, type) that runs an
// instruction for the lanes of `mask`, reading and writing the warp's register file.
// Memory, control flow, barriers and %clock are executed by the warp engine instead
// (their Instr::fn stays null).
#pragma once
#include <bit>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>

#include "sim/isa/ir.hpp"

namespace warpsim::exec {

struct ExecCtx {
  uint64_t* regs = nullptr;          // [slot * 32 + lane]
  uint32_t* preds = nullptr;         // lane masks
  const uint64_t* consts = nullptr;  // Kernel::consts_bcast
  uint32_t live_mask = 0;            // lanes not exited (shfl/vote)
};

inline const uint64_t* src(const ExecCtx& c, const isa::Operand& o) {
  return (o.kind == isa::Operand::Kind::Const ? c.consts : c.regs) + size_t(o.reg) * isa::kWarpLanes;
}
inline uint64_t* dst(const ExecCtx& c, const isa::Operand& o) { return c.regs + size_t(o.reg) * isa::kWarpLanes; }

// Predicate source as a lane mask (handles "!p" and constant predicates).
inline uint32_t pred_src(const ExecCtx& c, const isa::Operand& o) {
  if (o.kind == isa::Operand::Kind::Const) return static_cast<uint32_t>(c.consts[size_t(o.reg) * isa::kWarpLanes]);
  uint32_t m = c.preds[o.reg];
  return o.neg ? ~m : m;
}
inline void pred_write(const ExecCtx& c, const isa::Operand& o, uint32_t value, uint32_t mask) {
  uint32_t& p = c.preds[o.reg];
  p = (p & ~mask) | (value & mask);
}

// Register-slot value <-> typed value. Slots hold the value's bit pattern in the low bits.
template <class T>
inline T get(uint64_t v) {
  if constexpr (std::is_same_v<T, float>) return std::bit_cast<float>(static_cast<uint32_t>(v));
  else if constexpr (std::is_same_v<T, double>) return std::bit_cast<double>(v);
  else return static_cast<T>(v);
}
template <class T>
inline uint64_t put(T v) {
  if constexpr (std::is_same_v<T, float>) return std::bit_cast<uint32_t>(v);
  else if constexpr (std::is_same_v<T, double>) return std::bit_cast<uint64_t>(v);
  else return static_cast<uint64_t>(static_cast<std::make_unsigned_t<T>>(v));
}

template <class F>
inline void for_lanes(uint32_t mask, F&& f) {
  if (mask == 0xFFFFFFFFu) {
    for (int l = 0; l < isa::kWarpLanes; ++l) f(l);
  } else {
    while (mask) {
      int l = std::countr_zero(mask);
      mask &= mask - 1;
      f(l);
    }
  }
}

}  // namespace warpsim::exec

namespace warpsim::isa {

// Chooses Instr::fn. Calls `unsupported(why)` (which must throw) for a type/opcode
// combination outside the subset. Ops executed by the warp engine keep fn == nullptr.
void bind_semantics(Instr& in, const std::function<void(const std::string&)>& unsupported);

// True for the ops the warp engine executes itself (memory, control, barriers, clock).
bool engine_executed(Op op);

}  // namespace warpsim::isa
