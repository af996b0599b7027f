// The decoded, typed instruction form that the interpreter runs. Produced once by the
// PTX loader; never re-parsed. Registers are slots in a per-warp register file of
// 64-bit lanes (structure of arrays: slot * 32 + lane); predicates are 32-bit lane masks.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/isa/types.hpp"

namespace warpsim::exec {
struct ExecCtx;
}

namespace warpsim::isa {

struct Instr;
using ExecFn = void (*)(exec::ExecCtx&, const Instr&, uint32_t mask);

constexpr int kWarpLanes = 32;

struct Operand {
  enum class Kind : uint8_t { None, Reg, Const, Pred, Addr, Label, Vec, Sink };
  Kind kind = Kind::None;
  bool neg = false;       // "!%p" for predicate sources
  uint16_t reg = 0;       // Reg: data slot; Const: const-pool slot; Pred: predicate index
  bool has_base = false;  // Addr: base register present (else absolute symbol/immediate)
  uint16_t base = 0;      // Addr: data slot of the base register
  int64_t offset = 0;     // Addr: symbol value + immediate offset
  uint8_t nvec = 0;       // Vec: number of elements (up to 4 for ld/st/tex, 8 for wmma fragments)
  uint16_t vec[8] = {};   // Vec: data slots (or kSinkSlot for "_")
  bool vec_const[8] = {}; // Vec element is a const-pool slot
  int32_t target = -1;    // Label: instruction index
};

constexpr uint16_t kSinkSlot = 0xFFFF;

// The matrix shapes of wmma (M x N x K).
enum class MmaShape : uint8_t { None, M16N16K16, M32N8K16, M8N32K16, M16N16K8, M8N8K4 };
// Which operand a wmma fragment is: a (M x K), b (K x N) or an accumulator c/d (M x N).
enum class MmaFrag : uint8_t { A, B, C };

// A wmma instruction's matrix qualifiers (Op::WmmaLoad/WmmaStore/WmmaMma).
struct MmaInfo {
  MmaShape shape = MmaShape::None;
  MmaFrag frag = MmaFrag::A;      // load/store: the fragment
  bool col = false;               // load/store: the matrix is column-major in memory
  bool a_col = false, b_col = false;  // mma: the layouts named for a and b
  bool satfinite = false;         // mma: clamp to the largest finite value / int range
  DType atype = DType::None;      // mma: the type of a and b (Instr::type is d's, Instr::stype c's)
};

struct Instr {
  Op op = Op::Nop;
  DType type = DType::None;   // main type (destination type for cvt)
  DType stype = DType::None;  // source type (cvt), or the second type of a two-type op
  Space space = Space::Generic;
  uint8_t vec = 1;            // ld/st vector width
  TexGeom geom = TexGeom::D1; // tex/tld4/suld/sust: geometry
  uint8_t tex_mode = 0;       // tld4: component (0-3, r g b a); suld/sust: SurfClamp
  Width width = Width::None;
  Cmp cmp = Cmp::Eq;
  BoolOp boolop = BoolOp::None;
  Round round = Round::None;
  AtomOp atom = AtomOp::None;
  ShflMode shfl = ShflMode::Idx;
  VoteMode vote = VoteMode::All;
  CacheOp cache = CacheOp::Default;
  bool ftz = false, sat = false, approx = false, is_volatile = false, uni = false;
  bool cc = false;            // .cc: writes the carry flag (AddCarry, SubCarry, MadCarry: d[1])
  bool call_param = false;    // ld/st.param of a call's parameter: per-thread, in the call-parameter area
  bool nounroll = false;      // follows `.pragma "nounroll"`: heads a loop ptxas does not unroll
  bool strong = false;        // ld/st .volatile, .relaxed or .acquire/.release: another thread's write may show (spin loops)
  bool nan_min_max = false;   // min/max.NaN: a NaN source gives the canonical NaN
  bool xorsign_abs = false;   // min/max.xorsign.abs (halves): of |a| and |b|, the sign a's XOR b's
  bool relu = false;          // .relu (fma and cvt to halves and fp8): a negative result is +0, a NaN the canonical NaN
  bool satfinite = false;     // cvt .satfinite: an infinite or too large result is the largest finite value
  uint8_t fused = 0;          // add/sub contracted with the mul feeding it (FusedBits, contraction.hpp)
  uint8_t mbar = 0;           // mbarrier instructions: MbarFlags
  InstrClass klass = InstrClass::Other;
  MmaInfo mma;                // wmma: shape, fragment, layouts

  Operand d[2];               // destinations (d[1] for setp's |q and shfl's |p)
  Operand a, b, c, e;         // sources in PTX order

  bool has_guard = false;
  bool guard_neg = false;
  uint16_t guard = 0;         // predicate index

  int32_t reconv = -1;        // bra: reconvergence instruction index (immediate post-dominator), -1 = exit
  int32_t branch_id = -1;     // bra: ordinal among the kernel's branches
  uint32_t ptx_line = 0;      // 1-based line in the PTX file
  uint16_t loc_file = 0;      // .loc file index (0 = none)
  uint32_t loc_line = 0;      // .loc source line
  uint16_t loc_col = 0;

  ExecFn fn = nullptr;        // functional semantics (null for control ops handled by the warp engine)
};

struct Param {
  std::string name;
  DType type = DType::None;   // scalar type, or B8 for byte arrays
  uint32_t offset = 0;
  uint32_t size = 0;
  uint32_t align = 0;
  bool is_pointer_sized() const { return size == 8 && type != DType::F64; }
};

struct SharedVar {
  std::string name;
  uint32_t offset = 0;
  uint32_t size = 0;
  uint32_t align = 0;
  bool dynamic = false;  // .extern .shared: sized at launch, placed after the static ones
};

enum class Special : uint8_t {
  TidX, TidY, TidZ, NtidX, NtidY, NtidZ, CtaidX, CtaidY, CtaidZ, NctaidX, NctaidY, NctaidZ,
  LaneId, WarpId, NWarpId, SmId, NSmId, GridId, LanemaskEq, LanemaskLt, LanemaskLe, LanemaskGt, LanemaskGe,
  EnvReg,   // %envreg0 and %envreg3..31: 0 (no driver-provided environment)
  EnvReg1,  // %envreg1, %envreg2: the high and low halves of a cooperative launch's grid
  EnvReg2,  // workspace (cooperative_groups' grid.sync() barrier); 0 in other launches
  // Thread block clusters: the block's place in its cluster, the cluster's shape, the
  // cluster's place in the grid, the block's rank, and 1 in a launch with clusters (the
  // predicate %is_explicit_cluster, read through a setp on this slot).
  ClusterCtaidX, ClusterCtaidY, ClusterCtaidZ, ClusterNctaidX, ClusterNctaidY, ClusterNctaidZ,
  ClusterIdX, ClusterIdY, ClusterIdZ, NclusterIdX, NclusterIdY, NclusterIdZ, ClusterCtaRank, ClusterNctaRank,
  IsExplicitCluster,
  // The block's reserved shared memory (cc 8.0 and later: cooperative groups keep their
  // scratch there, at %reserved_smem_offset_1): where it begins and ends, its size, and the
  // two offsets into it (LaunchContext::reserved_shared).
  ReservedSmemBegin, ReservedSmemEnd, ReservedSmemCap, ReservedSmem0, ReservedSmem1,
};
constexpr bool is_reserved_smem(Special s) { return s >= Special::ReservedSmemBegin && s <= Special::ReservedSmem1; }

struct SpecialSlot {
  Special which;
  uint16_t slot;
};

struct RegInfo {
  std::string name;
  DType type = DType::None;
};

class Module;

// A device function (.func) linked into a kernel: its body is appended to the kernel's code
// once per kernel that calls it (directly or not), with registers of its own. Every `ret` in
// the body branches to one final FuncRet, so all paths through it reconverge there.
struct Function {
  std::string name;
  int32_t entry = 0;             // first instruction
  int32_t ret_pc = 0;            // its FuncRet (the last instruction of the body)
  uint32_t first_slot = 0, end_slot = 0;  // its data registers [first, end): saved and restored per call
  uint32_t first_pred = 0, end_pred = 0;  // its predicates
  uint32_t param_base = 0, param_bytes = 0;  // its span of the call-parameter area: formals, results, its own call sites
  std::vector<uint32_t> arg_offsets, arg_sizes;  // formal parameters (call-parameter area offsets)
  std::vector<uint32_t> ret_offsets, ret_sizes;  // results
  uint16_t frame_slot = 0;       // data register holding the activation's local-memory base
  uint32_t depot_bytes = 0;      // its .local variables, at the start of each activation's frame
  uint32_t save_bytes = 0;       // saved registers, predicates and parameters after them
  uint32_t frame_bytes = 0;      // stack bytes per activation (16-byte multiple)
  uint32_t decl_line = 0;
};

enum class Builtin : uint8_t {
  None, Vprintf, AssertFail, Malloc, Free, GraphSetConditional,
  // The device runtime of dynamic parallelism (libcudadevrt's __cudaCDP2* calls, -rdc=true):
  // launches and stream work of a grid run after it (sm/device_work.hpp).
  CdpGetParameterBuffer, CdpLaunchDevice, CdpGetLastError, CdpPeekAtLastError, CdpGetErrorString, CdpGetErrorName,
  CdpStreamCreate, CdpStreamDestroy, CdpStreamWaitEvent, CdpEventCreate, CdpEventRecord, CdpEventDestroy,
  CdpMemcpyAsync, CdpMemsetAsync, CdpMalloc, CdpFree, CdpGetDevice, CdpRuntimeGetVersion,
  // Queries answered from the launch's device and kernels (DeviceQueries, sm/device_work.hpp).
  CdpDeviceGetAttribute, CdpDeviceGetLimit, CdpDeviceGetCacheConfig, CdpDeviceGetSharedMemConfig,
  CdpGetDeviceCount, CdpFuncGetAttributes, CdpOccupancy, CdpOccupancyWithFlags,
  CdpMemcpy2DAsync, CdpMemset2DAsync, CdpMemcpy3DAsync, CdpMemset3DAsync,
};
// A call whose effect other blocks can see in a way that depends on the blocks' order
// (device printf, the device heap, graph conditionals, the device runtime): kernels with one
// run their blocks in order, and a timed launch issues it while no other SM ticks.
constexpr bool orders_blocks(Builtin b) { return b != Builtin::None && b != Builtin::AssertFail; }
constexpr bool is_device_runtime(Builtin b) { return b >= Builtin::CdpGetParameterBuffer; }

// One call instruction's binding: the callee and where the caller put the arguments and
// wants the results (offsets and sizes in the call-parameter area).
struct CallSite {
  int32_t callee = -1;           // Kernel::functions index (Builtin::None)
  Builtin builtin = Builtin::None;
  std::vector<uint32_t> arg_offsets, arg_sizes;
  std::vector<uint32_t> ret_offsets, ret_sizes;
  bool indirect = false;         // through a function pointer (Instr::b), with a .callprototype: callee = -1
};

// A device function whose address the module takes (mov.u64 %rd, f; an initialiser), as
// linked into a kernel with indirect calls: the address an indirect call maps back to it.
struct FunctionAddress {
  uint64_t address = 0;
  int32_t function = -1;         // Kernel::functions index
};

struct Kernel {
  std::string name;
  const Module* module = nullptr;
  uint32_t decl_line = 0;
  bool nounroll = false;  // a module-scope `.pragma "nounroll"` preceded it: no loop of it is unrolled

  std::vector<Param> params;
  uint32_t param_bytes = 0;

  std::vector<RegInfo> regs;        // data slots 0..regs.size()-1 (specials included)
  std::vector<RegInfo> preds;       // predicate registers
  std::vector<SpecialSlot> specials;
  std::vector<uint64_t> consts;     // const-pool values (bit patterns)
  std::vector<uint64_t> consts_bcast;  // consts broadcast to 32 lanes: [slot*32 + lane]

  std::vector<SharedVar> shared_vars;
  uint32_t static_shared_bytes = 0;
  bool has_dynamic_shared = false;
  uint32_t dynamic_shared_align = 4;
  uint32_t local_bytes = 0;         // per-thread .local storage (the kernel's own; device functions' are on the stack)

  std::vector<Function> functions;  // device functions linked in (empty: no calls)
  std::vector<CallSite> calls;      // per call instruction
  std::vector<FunctionAddress> function_addresses;  // indirect-call targets (empty without indirect calls)
  uint32_t call_param_bytes = 0;    // per-thread call-parameter area (.param of calls and functions)

  uint32_t maxntid[3] = {0, 0, 0};  // .maxntid (0 = none)
  uint32_t reqntid[3] = {0, 0, 0};
  // Thread block clusters (cc 9.0): .reqnctapercluster (__cluster_dims__; 0 = none), and
  // .explicitcluster (the kernel must be launched in clusters), .maxclusterrank (0 = none).
  uint32_t cluster_dims[3] = {0, 0, 0};
  bool explicit_cluster = false;
  uint32_t max_cluster_rank = 0;

  std::vector<Instr> code;
  std::vector<std::string> text;    // the PTX text of each instruction (for traces and errors)
  uint32_t num_branches = 0;
  uint32_t estimated_registers = 0; // per-thread 32-bit registers from a liveness estimate
  // Stack bytes of the deepest call chain (call_stack.hpp), found at load; nullopt with
  // recursion or indirect calls.
  std::optional<uint64_t> static_stack_bytes = 0;

  uint32_t num_slots() const { return static_cast<uint32_t>(regs.size()); }
};

// Which data slots are special registers (read-only, set by the hardware): the mask that
// register_refs() and the dependence analyses take.
inline std::vector<bool> special_slots(const Kernel& k) {
  std::vector<bool> special(k.num_slots(), false);
  for (const auto& sp : k.specials) special[sp.slot] = true;
  return special;
}

// Fills Kernel::consts_bcast from Kernel::consts (after the const pool grew).
inline void broadcast_consts(Kernel& k) {
  k.consts_bcast.resize(k.consts.size() * kWarpLanes);
  for (size_t s = 0; s < k.consts.size(); ++s)
    for (int l = 0; l < kWarpLanes; ++l) k.consts_bcast[s * kWarpLanes + size_t(l)] = k.consts[s];
}

// A module-scope .global or .const variable (__device__ / __constant__). The device that
// loads the module places each one in its global memory (an allocation named after the
// variable, filled with `init`); .const variables live there too (see symbol_address).
struct ModuleVar {
  std::string name;
  Space space = Space::Global;  // Global or Const
  uint64_t size = 0;            // bytes
  uint32_t align = 1;
  std::vector<uint8_t> init;    // initial bytes (shorter than size: the rest is zero; empty = zeros)
  uint32_t decl_line = 0;
  bool managed = false;         // .attribute(.managed): a __managed__ variable
};

class Module {
 public:
  std::string path;                      // file the PTX came from (for messages)
  std::string version, target;
  uint32_t address_size = 64;
  std::map<int, std::string> files;      // .file index -> source path
  std::vector<std::unique_ptr<Kernel>> kernels;
  std::vector<ModuleVar> globals;        // module-scope .global/.const variables, in declaration order
  std::vector<uint64_t> global_addresses;  // address of globals[i] (given at load; placeholder without a device)

  // Finds a kernel by its exact (mangled) name or by its plain C++ name when unambiguous.
  // Throws LaunchError listing the kernels when not found or ambiguous.
  const Kernel& kernel(const std::string& name) const;
};

}  // namespace warpsim::isa

namespace warpsim::isa {

// Generic-address windows: a generic address in [kSharedWindow, kSharedWindow + 2^32) is
// the block's shared memory, in [kLocalWindow, kLocalWindow + 2^32) the thread's local
// memory; everything else is global (the global window is the identity).
constexpr uint64_t kSharedWindow = 0x0000'7F00'0000'0000ull;
constexpr uint64_t kLocalWindow = 0x0000'7E00'0000'0000ull;
constexpr uint64_t kWindowSize = 0x1'0000'0000ull;
// Distributed shared memory (thread block clusters): a shared::cluster address is a shared
// offset with (rank + 1) << kClusterRankShift added for block `rank` of the cluster; 0 in
// those bits is the executing block's own shared memory (every shared::cta address). mapa
// makes such addresses, getctarank reads the rank back; in a generic address the same
// bits sit above kSharedWindow.
constexpr uint32_t kClusterRankShift = 24;
constexpr uint32_t kSharedOffsetMask = (1u << kClusterRankShift) - 1;
// The address of a module's device function (mov.u64 %rd, f): kFunctionAddressBase + 16 *
// its index among the module's .func names in order of appearance. Not a data address
// (a load from it faults); indirect calls map it back (Kernel::function_addresses).
constexpr uint64_t kFunctionAddressBase = 0x0000'7C00'0000'0000ull;
// The address of a module's kernel (mov.u64 %rd, kernel: dynamic parallelism's launches):
// kKernelAddressBase + 16 * its index among the module's .entry names in order of appearance
// (Module::kernels' order). Not a data address either.
constexpr uint64_t kKernelAddressBase = 0x0000'7B00'0000'0000ull;

}  // namespace warpsim::isa
