// Basic PTX vocabulary: data types, state spaces, and the instruction opcodes of the
// warpsim subset. Pure enums and tiny helpers; no behaviour.
#pragma once
#include <cstdint>
#include <string_view>

namespace warpsim::isa {

enum class DType : uint8_t {
  None, Pred,
  B8, B16, B32, B64,
  U8, U16, U32, U64,
  S8, S16, S32, S64,
  F16, F32, F64,
  F16x2, BF16,  // a pair of halves in 32 bits; bfloat16 (its conversions)
  TF32,         // TensorFloat-32 in a 32-bit register (wmma operands, cvt.rna.tf32.f32)
  BF16x2,       // a pair of bfloat16s in 32 bits
  E4M3x2, E5M2x2,  // a pair of 8-bit floats in 16 bits (cvt only): FP8 E4M3 (no infinities) and E5M2
  U16x2, S16x2,    // a pair of 16-bit integers in 32 bits (add, min, max: the SIMD intrinsics on cc 9.0)
};

constexpr int dtype_bytes(DType t) {
  switch (t) {
    case DType::B8: case DType::U8: case DType::S8: return 1;
    case DType::B16: case DType::U16: case DType::S16: case DType::F16: case DType::BF16: return 2;
    case DType::E4M3x2: case DType::E5M2x2: return 2;
    case DType::F16x2: case DType::BF16x2: return 4;
    case DType::U16x2: case DType::S16x2: return 4;
    case DType::B32: case DType::U32: case DType::S32: case DType::F32: case DType::TF32: return 4;
    case DType::B64: case DType::U64: case DType::S64: case DType::F64: return 8;
    default: return 0;
  }
}
constexpr bool is_float(DType t) {
  return t == DType::F16 || t == DType::F32 || t == DType::F64 || t == DType::F16x2 || t == DType::BF16 ||
         t == DType::BF16x2;
}
constexpr bool is_half(DType t) {
  return t == DType::F16 || t == DType::F16x2 || t == DType::BF16 || t == DType::BF16x2;
}
constexpr bool is_signed(DType t) {
  return t == DType::S8 || t == DType::S16 || t == DType::S32 || t == DType::S64;
}
constexpr bool is_fp8_pair(DType t) { return t == DType::E4M3x2 || t == DType::E5M2x2; }
constexpr bool is_int_pair(DType t) { return t == DType::U16x2 || t == DType::S16x2; }
// Scalar integers (and the .b types); the pairs are not.
constexpr bool is_int(DType t) {
  return !is_float(t) && t != DType::None && t != DType::Pred && t != DType::TF32 && !is_fp8_pair(t) &&
         !is_int_pair(t);
}
std::string_view dtype_name(DType t);
// Parses ".u32" style suffix text without the dot ("u32"); returns None when unknown.
DType parse_dtype(std::string_view s);

enum class Space : uint8_t { Generic, Global, Shared, Local, Param, Const };
std::string_view space_name(Space s);

enum class Op : uint8_t {
  Mov, Ld, St, Cvta, CvtaTo, Add, Sub, Mul, Mad, Fma, Div, Rem, Abs, Neg, Min, Max,
  And, Or, Xor, Not, Cnot, Shl, Shr, Setp, Set, Selp, Cvt, Bra, Ret, Exit, Bar, BarWarp, Membar,
  Atom, Red, Rcp, Sqrt, Rsqrt, Ex2, Lg2, Sin, Cos, Shfl, Vote, Popc, Clz, Brev, Bfe, Bfi,
  Copysign, Mul24, Mad24, Slct, Trap, Nop, Tanh,
  Bfind, BfindShift,  // bfind and bfind.shiftamt
  ShfLWrap, ShfLClamp, ShfRWrap, ShfRClamp,  // funnel shifts
  Prmt,                // byte permute (default mode)
  Activemask, MatchAny, MatchAll,
  ReadClock,  // mov from %clock/%clock64: value depends on simulated time
  ReadGlobalTimer,  // mov from %globaltimer (_lo/_hi): simulated nanoseconds
  Call,       // call of a device function or of vprintf/__assertfail (Instr::a.target: Kernel::calls index)
  FuncRet,    // the single return of a device function (every ret in its body branches here)
  BmskClamp, BmskWrap,  // bmsk: a mask of b bits from bit a
  Tex,   // tex / tex.level / tex.grad through a texture object (Instr::geom)
  Tld4,  // tld4.{r,g,b,a}.2d: the four texels of a bilinear footprint (Instr::tex_mode: component)
  Suld,  // suld.b: surface load (Instr::tex_mode: out-of-range mode)
  Sust,  // sust.b: surface store
  VAbsDiff4Add,  // vabsdiff4.add: sum of the four byte-wise absolute differences, plus c
  AddCarry, SubCarry, MadCarry,  // add/sub/mad.lo|hi with the carry flag: in (addc, subc, madc: Instr::e) and/or out (.cc: Instr::d[1])
  BarRed,     // bar.red: barrier 0 with a block-wide popc/and/or of a predicate (Instr::boolop; None = popc)
  WmmaLoad,   // wmma.load.{a,b,c}: a warp loads a matrix fragment (Instr::mma; d[0] the registers, a the address, b the stride)
  WmmaStore,  // wmma.store.d: a warp stores an accumulator fragment (a the address, b the registers, c the stride)
  WmmaMma,    // wmma.mma: d = a * b + c on the tensor cores (Instr::mma; four register vectors)
  CpAsync,        // cp.async.{ca,cg}.shared.global: copy 4 x vec bytes from global (b) to shared (a);
                  // c: bytes to read (the rest zero-filled), e: a predicate that reads none
  CpAsyncCommit,  // cp.async.commit_group
  CpAsyncWait,    // cp.async.wait_group N / wait_all: the warp waits for its copies (a: N)
  // Thread block clusters (cc 9.0):
  ClusterArrive,  // barrier.cluster.arrive: the threads arrive at the cluster's barrier
  ClusterWait,    // barrier.cluster.wait: wait until every thread of the cluster has arrived
  Mapa,           // mapa: the address of the same shared variable in block b of the cluster (a: the address)
  GetCtaRank,     // getctarank: the cluster rank of the block a shared address is in (c: %cluster_ctarank)
  Redux,          // redux.sync.{add,min,max,and,or,xor}: the executing lanes' a reduced (Instr::atom), to each
  Dp4a,           // dp4a: c plus the four byte products of a and b (Instr::type a's, stype b's signedness)
  Dp2aLo, Dp2aHi,  // dp2a.lo/.hi: c plus a's two 16-bit halves times b's low or high two bytes
  Lop3,           // lop3.b32: any logic function of a, b, c by the lookup table in e
  Sad,            // sad: c + |a - b|
  VAbsDiff4,      // vabsdiff4 without .add: the four bytes' |a_i - b_i|
  // mbarrier objects (sm_80 and later; sim/sm/warp_mbarrier_ops.cpp): a 64-bit object in
  // shared memory at address a. Instr::mbar holds the MbarFlags.
  MbarInit,       // mbarrier.init: b arrivals a phase
  MbarInval,      // mbarrier.inval
  MbarArrive,     // mbarrier.arrive{.noComplete}{.expect_tx} / arrive_drop: d the state (or a sink), b the count or tx bytes
  MbarTx,         // mbarrier.expect_tx / complete_tx: b bytes
  MbarWait,       // mbarrier.test_wait / try_wait{.parity}: d the predicate, b the state or the phase parity (c: try_wait's hint)
  MbarPending,    // mbarrier.pending_count: d the arrivals a noComplete state says are pending
  CpAsyncMbarArrive,  // cp.async.mbarrier.arrive{.noinc}: an arrival once the thread's cp.async copies are done
  CpAsyncBulk,    // cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes: c bytes from global b to shared a,
                  // then complete_tx of c bytes on the mbarrier at e
};
// Instr::mbar bits.
enum MbarFlags : uint8_t {
  kMbarNoComplete = 1,  // arrive.noComplete: the arrival must not complete the phase
  kMbarDrop = 2,        // arrive_drop: fewer arrivals expected from the next phase on
  kMbarExpectTx = 4,    // arrive.expect_tx: b is the tx bytes expected; the arrival counts 1
  kMbarComplete = 8,    // MbarTx: complete_tx (else expect_tx)
  kMbarParity = 16,     // MbarWait: b is a phase parity (else a state)
  kMbarTry = 32,        // MbarWait: try_wait (may suspend the thread), else test_wait
  kMbarNoInc = 64,      // CpAsyncMbarArrive: .noinc (the arrival counts against the expected ones)
};
constexpr bool is_mbarrier_op(Op op) { return op >= Op::MbarInit && op <= Op::CpAsyncBulk; }
// Instructions that go through the SM's load/store path (the memory system in timing mode).
constexpr bool is_memory_op(Op op) {
  return op == Op::Ld || op == Op::St || op == Op::Atom || op == Op::Red || op == Op::Tex || op == Op::Tld4 ||
         op == Op::Suld || op == Op::Sust || op == Op::WmmaLoad || op == Op::WmmaStore || op == Op::CpAsync ||
         op == Op::CpAsyncBulk;
}
// Instructions that store, synchronise or transfer control: no load-time pass moves a load
// across one (shared_load_merging) or predicates one (if_conversion).
constexpr bool stores_or_orders(Op op) {
  switch (op) {
    case Op::St: case Op::Atom: case Op::Red: case Op::Sust: case Op::Bar: case Op::BarWarp: case Op::BarRed:
    case Op::Membar: case Op::Call: case Op::FuncRet: case Op::Bra: case Op::Ret: case Op::Exit: case Op::Trap:
    case Op::WmmaLoad: case Op::WmmaStore: case Op::WmmaMma:  // warp-collective: never predicated or reordered
    case Op::CpAsync: case Op::CpAsyncCommit: case Op::CpAsyncWait:  // writes shared memory; waits for it
    case Op::ClusterArrive: case Op::ClusterWait:
    case Op::MbarInit: case Op::MbarInval: case Op::MbarArrive: case Op::MbarTx: case Op::MbarWait:
    case Op::CpAsyncMbarArrive: case Op::CpAsyncBulk:
      return true;
    default:
      return false;
  }
}

// Texture/surface geometry of tex, tld4, suld and sust.
enum class TexGeom : uint8_t { D1, D2, D3, A1D, A2D, Cube, ACube };
// Out-of-range behaviour of suld/sust (.trap, .clamp, .zero).
enum class SurfClamp : uint8_t { Trap, Clamp, Zero };
std::string_view op_name(Op op);

// Comparison operators of setp.
enum class Cmp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge, Lo, Ls, Hi, Hs, Equ, Neu, Ltu, Leu, Gtu, Geu, Num, Nan };
// Boolean combiner of setp/atom.
enum class BoolOp : uint8_t { None, And, Or, Xor };
// Rounding modifier.
enum class Round : uint8_t { None, Rn, Rz, Rm, Rp, Rni, Rzi, Rmi, Rpi, Rna };  // Rna: to nearest, ties away (cvt to .tf32)
// mul/mad width selector.
enum class Width : uint8_t { None, Lo, Hi, Wide };
enum class AtomOp : uint8_t { None, Add, Min, Max, Exch, Cas, Inc, Dec, And, Or, Xor };
enum class ShflMode : uint8_t { Up, Down, Bfly, Idx };
enum class VoteMode : uint8_t { All, Any, Uni, Ballot };
// Cache operator of ld/st (.ca .cg .cs .lu .cv .wb .wt); Cg and Cv bypass L1.
enum class CacheOp : uint8_t { Default, Ca, Cg, Cs, Lu, Cv, Wb, Wt };

// Coarse class of an instruction for the timing model (which unit, which latency).
enum class InstrClass : uint8_t {
  IntAlu, IntMul, IntDiv, FpAlu, FpDiv, Fp64, Sfu, Conv, Move,
  LdGlobal, StGlobal, LdShared, StShared, LdLocal, StLocal, LdParam, LdConst, AtomGlobal, AtomShared,
  Branch, Barrier, Exit, Other,
  Tensor,  // wmma.mma: the sub-partition's tensor core
};
std::string_view instr_class_name(InstrClass c);

}  // namespace warpsim::isa
