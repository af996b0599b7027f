// The instruction decoder shared by the ptx_decode*.cpp files (one per instruction
// family). Not part of the public interface.
#pragma once
#include <fmt/format.h>

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "sim/isa/ptx_parser_internal.hpp"

namespace warpsim::isa::detail {

constexpr int kD0 = 0, kD1 = 1, kA = 2, kB = 3, kC = 4, kE = 5;

struct Mods {
  std::vector<DType> types;
  bool has_space = false;
  Space space = Space::Generic;
  Round round = Round::None;
  bool ftz = false, sat = false, approx = false, full = false;
  Width width = Width::None;
  bool has_cmp = false;
  Cmp cmp = Cmp::Eq;
  BoolOp boolop = BoolOp::None;
  AtomOp atom = AtomOp::None;
  CacheOp cache = CacheOp::Default;
  bool nc = false, vol = false, uni = false, sync = false, aligned = false, to = false, warp = false, cc = false;
  int vec = 1;
  bool has_shfl = false;
  ShflMode shfl = ShflMode::Idx;
  bool has_vote = false;
  VoteMode vote = VoteMode::All;
  bool shiftamt = false;  // bfind.shiftamt
  bool nan = false;       // min/max.NaN
  bool xorsign = false, abs = false;  // min/max.xorsign.abs
  bool relu = false;      // fma.relu, cvt.relu
  int shf_dir = 0;         // shf: 'l' or 'r'
  int shf_mode = 0;        // shf: 'w'rap or 'c'lamp
  int match_mode = 0;      // match: 'n' (any) or 'l' (all)
  int tex_geom = -1;       // tex/tld4/suld/sust: TexGeom
  int tex_comp = -1;       // tld4: r g b a
  int su_clamp = -1;       // suld/sust: SurfClamp
  bool tex_level = false, tex_grad = false, su_b = false;
  bool vadd = false;       // vabsdiff4.add
  bool sem = false;  // memory-ordering qualifiers (ignored: the simulator is sequentially consistent)
  bool bar_red = false;  // bar.red / barrier.red
  char griddep = 0;      // griddepcontrol: 'w' (.wait) or 'l' (.launch_dependents)
  int red_op = 0;        // bar.red: 'p'opc, 'a'nd or 'o'r
  char wmma_op = 0;      // wmma: 'l'oad, 's'tore or 'm'ma
  char wmma_frag = 0;    // wmma.load/store: 'a', 'b', 'c' or 'd'
  std::vector<char> layouts;  // wmma: 'r'ow / 'c'ol, in order
  MmaShape shape = MmaShape::None;
  bool satfinite = false;
  bool async = false;      // cp.async
  char cp_op = 0;          // cp.async: 'c'opy, commit 'g'roup, 'w'ait_group, wait 'a'll
  std::vector<Space> cp_spaces;  // cp.async: destination, then source
  bool cluster = false;    // barrier.cluster
  char cluster_op = 0;     // barrier.cluster: 'a'rrive or 'w'ait
  char mbar_op = 0;        // mbarrier: 'i'nit, in'v'al, 'a'rrive, 'e'xpect_tx, 'c'omplete_tx, 't'est_wait, 'y' try_wait, 'p'ending_count
  uint8_t mbar = 0;        // mbarrier, cp.async.mbarrier.arrive: MbarFlags
  bool cp_mbar_arrive = false;  // cp.async.mbarrier.arrive
  bool cp_bulk = false;         // cp.async.bulk
  bool cp_complete_tx = false;  // cp.async.bulk's .mbarrier::complete_tx::bytes
  bool cluster_space = false;   // .shared::cluster named (not .shared / .shared::cta)
};

inline bool one_of(std::string_view m, std::initializer_list<std::string_view> l) {
  for (auto x : l)
    if (m == x) return true;
  return false;
}

class Decoder {
 public:
  Decoder(DecodeContext& ctx, std::vector<RawOp>& ops, Instr& in) : ctx_(ctx), ops_(ops), in_(in) {}

  void run(std::string_view opcode, const Token& tok);

 private:
  // DecodeContext's reporters always throw; the unreachable marks tell the compiler so.
  [[noreturn]] void unsupported(const std::string& why) {
    ctx_.unsupported(why);
    __builtin_unreachable();
  }
  [[noreturn]] void fail_tok(const Token& t, const std::string& why) {
    ctx_.malformed(t, why);
    __builtin_unreachable();
  }
  [[noreturn]] void malformed(const std::string& why) { fail_tok(tok_, fmt::format("parse error: {}", why)); }
  void set(int which, const Operand& o) { operand_slot(in_, which) = o; }

  // modifiers, operands and dispatch (ptx_decode.cpp)
  void classify(std::string_view m);
  void need(size_t n);
  void need_between(size_t lo, size_t hi);
  DType type1();
  Operand dst(const RawOp& r);
  Operand pdst(const RawOp& r);
  Operand psrc(const RawOp& r);
  uint64_t imm_bits(const RawOp& r, DType t);
  Operand src(const RawOp& r, DType t, int which);
  Operand addr(const RawOp& r, Space sp, int which);
  Operand vec_regs(const RawOp& r, int n, bool is_dst, DType t);
  void set_class_arith(DType t);
  void dispatch();

  // moves, loads, stores, address conversion, atomics (ptx_decode_memory.cpp)
  void mov();
  void mem_common();
  void ld();
  void st();
  void cvta();
  void atom();
  void check_atom_type(bool is_red, DType t);

  // integer and floating-point arithmetic, comparisons, conversions (ptx_decode_arith.cpp)
  void binary();
  void check_width_and_sat(DType t, bool is_mad);
  void mul();
  void mad();
  void fma();
  void divrem();
  void unary();
  void shift();
  void setp();
  void set_compare();  // set
  void combine_source();  // setp's and set's .and/.or/.xor predicate
  void selp();
  void slct();
  void cvt();
  void check_cvt_modifiers();  // .relu, .satfinite and the fp8 pairs
  void sfu();

  // carry arithmetic: add.cc, addc, sub.cc, subc, mad.cc, madc (ptx_decode_carry.cpp)
  bool is_carry_op() const;
  void carry();

  // branches, returns, barriers, calls (ptx_decode_control.cpp)
  void bra();
  void ret();
  void bar();
  void bar_red();
  void membar();

  // warp-level and bit-manipulation instructions (ptx_decode_warp.cpp)
  void shfl();
  void vote();
  void bfe();
  void shf();
  void prmt();
  void activemask();
  void match();
  void bfind();
  void bfi();
  void bmsk();
  void nanosleep();
  void griddepcontrol();
  void vabsdiff4();
  void redux();  // redux.sync
  void dp4a();   // dp4a and dp2a.lo/.hi
  void lop3();
  void sad();
  void pmevent();

  // texture fetches and surface accesses (ptx_decode_texture.cpp)
  bool classify_texture(std::string_view m);
  void tex();
  void suld();
  void sust();
  Operand tex_handle(const RawOp& r);
  Operand tex_coords(const RawOp& r, DType t);

  // tensor-core matrix instructions: wmma.load, wmma.store, wmma.mma (ptx_decode_wmma.cpp)
  bool classify_wmma(std::string_view m);
  void wmma();
  void wmma_load_store();
  void wmma_mma();

  // asynchronous copies from global to shared memory: cp.async (ptx_decode_cp_async.cpp)
  bool classify_cp(std::string_view m);
  void cp_async();

  // mbarrier objects: init, inval, arrive, arrive_drop, expect_tx, complete_tx, test_wait,
  // try_wait, pending_count (ptx_decode_mbarrier.cpp)
  bool classify_mbarrier(std::string_view m);
  void mbarrier();
  void cp_async_mbarrier_arrive();
  void cp_async_bulk();

  // thread block clusters: barrier.cluster, mapa, getctarank, .shared::cluster (ptx_decode_cluster.cpp)
  bool classify_cluster(std::string_view m);
  void cluster_barrier();
  void mapa();  // mapa and getctarank

  DecodeContext& ctx_;
  std::vector<RawOp>& ops_;
  Instr& in_;
  Token tok_;
  std::string_view base_;
  Mods md_;
};

}  // namespace warpsim::isa::detail
