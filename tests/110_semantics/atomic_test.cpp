// atom and red: every operation and type, in global and shared memory, addressed directly
// and through generic addresses, with several lanes on one address. Lanes of one warp
// instruction are applied in lane order, which fixes every returned old value (f32 sums
// included); a host emulation of that order is the reference.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "eval.hpp"

using semtest::bits;
using semtest::from_bits;

namespace {

constexpr uint32_t kThreads = 32;
constexpr uint32_t kSlots = 4;

enum class Where { Global, Shared, GenericShared, GenericGlobal };

const char* where_name(Where w) {
  switch (w) {
    case Where::Global: return "global";
    case Where::Shared: return "shared";
    case Where::GenericShared: return "generic->shared";
    default: return "generic->global";
  }
}

// Thread i (if i % 3 != 0: lanes 0, 3, 6, ... are guarded off) applies op to slot i % 4
// with operand vals[i] (and vals[32 + i] for cas), stores the old value to olds[i].
std::string atom_kernel(const std::string& op, const std::string& ty, int size, Where where, bool red) {
  std::ostringstream k;
  bool cas = op == "cas";
  std::string space = where == Where::Global ? ".global" : where == Where::Shared ? ".shared" : "";
  k << ".visible .entry atom_k(.param .u64 mem, .param .u64 vals, .param .u64 olds)\n{\n"
    << ".reg .b32 %r<12>;\n.reg .b64 %rd<16>;\n.reg .pred %p<4>;\n.reg ." << ty << " %v, %w, %o, %m;\n"
    << ".shared .align 8 .b8 smem[64];\n"
    << "ld.param.u64 %rd1, [mem];\nld.param.u64 %rd2, [vals];\nld.param.u64 %rd3, [olds];\n"
    << "mov.u32 %r2, %tid.x;\nrem.u32 %r3, %r2, " << kSlots << ";\n"
    << "mul.wide.u32 %rd4, %r2, 8;\nadd.s64 %rd5, %rd2, %rd4;\n"
    << "ld.global." << ty << " %v, [%rd5];\nld.global." << ty << " %w, [%rd5+" << kThreads * 8 << "];\n"
    << "mul.wide.u32 %rd6, %r3, " << size << ";\n"
    << "ld.global." << ty << " %o, [%rd5+" << 2 * kThreads * 8 << "];\n"  // sentinel old value
    << "rem.u32 %r9, %r2, 3;\nsetp.ne.u32 %p2, %r9, 0;\n";
  bool shared = where == Where::Shared || where == Where::GenericShared;
  if (shared) {
    // Copy the slots into shared memory, run the atomics there, copy them back.
    k << "setp.lt.u32 %p1, %r2, " << kSlots << ";\n@!%p1 bra C1;\n"
      << "mul.wide.u32 %rd8, %r2, " << size << ";\nadd.s64 %rd9, %rd1, %rd8;\nld.global." << ty << " %m, [%rd9];\n"
      << "mov.u32 %r4, smem;\nmul.lo.u32 %r5, %r2, " << size << ";\nadd.u32 %r6, %r4, %r5;\n"
      << "st.shared." << ty << " [%r6], %m;\nC1:\nbar.sync 0;\n";
  }
  std::string addr;
  switch (where) {
    case Where::Global: k << "add.s64 %rd7, %rd1, %rd6;\n"; addr = "[%rd7]"; break;
    case Where::GenericGlobal: k << "add.s64 %rd7, %rd1, %rd6;\n"; addr = "[%rd7]"; break;
    case Where::Shared:
      k << "mov.u32 %r4, smem;\ncvt.u32.u64 %r7, %rd6;\nadd.u32 %r8, %r4, %r7;\n";
      addr = "[%r8]";
      break;
    case Where::GenericShared:
      k << "mov.u64 %rd10, smem;\ncvta.shared.u64 %rd11, %rd10;\nadd.s64 %rd7, %rd11, %rd6;\n";
      addr = "[%rd7]";
      break;
  }
  if (red) k << "@%p2 red" << space << "." << op << "." << ty << " " << addr << ", %v;\n";
  else if (cas) k << "@%p2 atom" << space << ".cas." << ty << " %o, " << addr << ", %v, %w;\n";
  else k << "@%p2 atom" << space << "." << op << "." << ty << " %o, " << addr << ", %v;\n";
  if (shared) {
    k << "bar.sync 0;\n@!%p1 bra C2;\nmov.u32 %r4, smem;\nmul.lo.u32 %r5, %r2, " << size << ";\nadd.u32 %r6, %r4, %r5;\n"
      << "ld.shared." << ty << " %m, [%r6];\nmul.wide.u32 %rd8, %r2, " << size << ";\nadd.s64 %rd9, %rd1, %rd8;\n"
      << "st.global." << ty << " [%rd9], %m;\nC2:\n";
  }
  k << "add.s64 %rd12, %rd3, %rd4;\nst.global." << ty << " [%rd12], %o;\nret;\n}\n";
  return ptxtest::module(k.str());
}

template <class T>
T apply(const std::string& op, T old, T b, T c) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    if (op == "add") return T(U(old) + U(b));  // wraps
  } else {
    if (op == "add") return T(old + b);
  }
  if (op == "min") return std::min(old, b);
  if (op == "max") return std::max(old, b);
  if (op == "exch") return b;
  if (op == "cas") return old == b ? c : old;
  if constexpr (std::is_integral_v<T>) {
    if (op == "inc") return old >= b ? T(0) : T(old + 1);
    if (op == "dec") return (old == 0 || old > b) ? b : T(old - 1);
    if (op == "and") return T(old & b);
    if (op == "or") return T(old | b);
    if (op == "xor") return T(old ^ b);
  }
  FAIL("unknown op " << op);
  return old;
}

template <class T>
void check_atomic(const std::string& op, const std::string& ty, const std::vector<T>& init, const std::vector<T>& b,
                  const std::vector<T>& c) {
  constexpr int size = sizeof(T);
  const T sentinel = T(77);
  for (Where where : {Where::Global, Where::Shared, Where::GenericShared, Where::GenericGlobal})
    for (bool red : {false, true}) {
      if (red && (op == "cas" || op == "exch")) continue;
      INFO((red ? "red." : "atom.") << op << "." << ty << " in " << where_name(where) << " memory");
      auto& s = semtest::sim();
      const auto& k = s.kernel(atom_kernel(op, ty, size, where, red), "atom_k", "atom.ptx");
      // Operands in 8-byte slots (the kernel loads the low bytes): b, c, then the sentinel.
      std::vector<T> b_of(kThreads), c_of(kThreads);
      std::vector<uint64_t> vals(3 * kThreads, bits(sentinel));
      for (uint32_t i = 0; i < kThreads; ++i) {
        b_of[i] = b[i % b.size()];
        c_of[i] = c[i % c.size()];
        vals[i] = bits(b_of[i]);
        vals[kThreads + i] = bits(c_of[i]);
      }
      auto dmem = s.upload(init);
      auto dvals = s.upload(vals);
      auto dolds = s.zeros<uint64_t>(kThreads);
      s.run(k, {1, 1, 1}, {kThreads, 1, 1}, {ptxtest::ptr(dmem), ptxtest::ptr(dvals), ptxtest::ptr(dolds)});
      auto mem = s.download<T>(dmem, kSlots);
      auto olds = s.download<uint64_t>(dolds, kThreads);
      // Reference: lanes in order.
      std::vector<T> m = init;
      for (uint32_t i = 0; i < kThreads; ++i) {
        INFO("thread " << i);
        if (i % 3 == 0) {
          CHECK(olds[i] == bits(sentinel));
          continue;
        }
        T old = m[i % kSlots];
        m[i % kSlots] = apply<T>(op, old, b_of[i], c_of[i]);
        if (!red) CHECK(olds[i] == bits(old));
      }
      for (uint32_t j = 0; j < kSlots; ++j) {
        INFO("slot " << j);
        CHECK(bits(mem[j]) == bits(m[j]));
      }
    }
}

}  // namespace

TEST_CASE("atom/red add on u32, s32, u64, f32, f64 (f32 sums depend on the lane order)", "[semantics][atomic]") {
  check_atomic<uint32_t>("add", "u32", {0, 0xFFFFFFF0u, 5, 100}, {1, 7, 0x80000000u, 3, 0xFFFFFFFFu}, {0});
  check_atomic<int32_t>("add", "s32", {0, INT32_MAX, INT32_MIN, -1}, {1, -7, INT32_MAX, 3, -100}, {0});
  check_atomic<uint64_t>("add", "u64", {0, ~0ull, 1ull << 40, 7}, {1, 0xFFFFFFFFull, 1ull << 63, 3}, {0});
  check_atomic<float>("add", "f32", {0.0f, 1e8f, -0.0f, 1.0f}, {1e8f, 1.0f, -1e8f, 0.5f, 3.0f, 1e-8f}, {0.0f});
  check_atomic<double>("add", "f64", {0.0, 1e17, -0.0, 1.0}, {1e17, 1.0, -1e17, 0.25, 3.0}, {0.0});
}

TEST_CASE("atom/red min and max, signed and unsigned", "[semantics][atomic]") {
  check_atomic<int32_t>("min", "s32", {0, INT32_MAX, INT32_MIN, 5}, {3, -7, INT32_MIN, 100, -1, 0}, {0});
  check_atomic<int32_t>("max", "s32", {0, INT32_MAX, INT32_MIN, 5}, {3, -7, INT32_MIN, 100, -1, 0}, {0});
  check_atomic<uint32_t>("min", "u32", {0, 0xFFFFFFFFu, 0x80000000u, 5}, {3, 0xFFFFFFFEu, 0x7FFFFFFFu, 100}, {0});
  check_atomic<uint32_t>("max", "u32", {0, 0xFFFFFFFFu, 0x80000000u, 5}, {3, 0xFFFFFFFEu, 0x7FFFFFFFu, 100}, {0});
  check_atomic<int64_t>("min", "s64", {0, INT64_MAX, INT64_MIN, 5}, {3, -7, INT64_MIN, 100}, {0});
  check_atomic<uint64_t>("max", "u64", {0, ~0ull, 1ull << 63, 5}, {3, ~1ull, (1ull << 63) - 1, 100}, {0});
}

TEST_CASE("atom exch and cas on 32 and 64 bits", "[semantics][atomic]") {
  check_atomic<uint32_t>("exch", "b32", {1, 2, 3, 4}, {10, 20, 30, 40, 50}, {0});
  check_atomic<uint64_t>("exch", "b64", {1, 2, 3, 4}, {10, 1ull << 60, 30}, {0});
  // Compare values that sometimes match the current value (0, 1, 2 chain) and sometimes not.
  check_atomic<uint32_t>("cas", "b32", {0, 0, 5, 1}, {0, 1, 2, 9, 0, 5}, {1, 2, 3, 4, 5, 6, 7});
  check_atomic<uint64_t>("cas", "b64", {0, 1ull << 40, 5, 1}, {0, 1ull << 40, 2, 9}, {1, 2, 1ull << 41, 4});
}

TEST_CASE("atom inc and dec wrap at the operand", "[semantics][atomic]") {
  // inc: old >= b ? 0 : old + 1;  dec: old == 0 || old > b ? b : old - 1.
  check_atomic<uint32_t>("inc", "u32", {0, 3, 10, 0xFFFFFFFFu}, {3, 5, 0, 10, 0xFFFFFFFFu}, {0});
  check_atomic<uint32_t>("dec", "u32", {0, 3, 10, 0xFFFFFFFFu}, {3, 5, 0, 10, 0xFFFFFFFFu}, {0});
}

TEST_CASE("atom/red and, or, xor", "[semantics][atomic]") {
  for (const char* op : {"and", "or", "xor"}) {
    check_atomic<uint32_t>(op, "b32", {0, 0xFFFFFFFFu, 0xF0F0F0F0u, 0x12345678u}, {0xFF00FF00u, 0x0F0F0F0Fu, 1, 0},
                           {0});
    check_atomic<uint64_t>(op, "b64", {0, ~0ull, 0xF0F0F0F0F0F0F0F0ull, 1}, {0xFF00FF00FF00FF00ull, 3, 1ull << 63},
                           {0});
  }
}

TEST_CASE("atomics of several warps and blocks on one counter: every increment lands", "[semantics][atomic]") {
  auto& s = semtest::sim();
  const auto& k = s.kernel(ptxtest::module(R"(
.visible .entry count(.param .u64 c, .param .u64 t)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<6>;
  .reg .f32 %f1;
  ld.param.u64 %rd1, [c];
  ld.param.u64 %rd2, [t];
  atom.global.add.u32 %r1, [%rd1], 1;
  red.global.add.f32 [%rd1+4], 0f3F800000;
  atom.global.inc.u32 %r2, [%rd1+8], 99;
  mov.u32 %r3, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mad.lo.u32 %r3, %r2, 96, %r3;
  mul.wide.u32 %rd3, %r3, 4;
  add.s64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r1;
  ret;
}
)"),
                           "count", "count.ptx");
  auto c = s.zeros<uint32_t>(3);
  auto t = s.zeros<uint32_t>(5 * 96);
  s.run(k, {5, 1, 1}, {96, 1, 1}, {ptxtest::ptr(c), ptxtest::ptr(t)});
  auto r = s.download<uint32_t>(c, 3);
  CHECK(r[0] == 480);
  CHECK(semtest::from_bits<float>(r[1]) == 480.0f);
  CHECK(r[2] == 480 % 100);
  // Every ticket 0..479 handed out exactly once.
  auto tickets = s.download<uint32_t>(t, 480);
  std::sort(tickets.begin(), tickets.end());
  for (uint32_t i = 0; i < 480; ++i) CHECK(tickets[i] == i);
}

TEST_CASE("atomics fault on local memory, misaligned and out-of-bounds addresses", "[semantics][atomic]") {
  auto& s = semtest::sim();
  auto run = [&](const std::string& body) {
    const auto& k = s.kernel(ptxtest::module(".visible .entry bad(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<6>;\n"
                                             ".local .align 4 .b8 depot[16];\n.shared .align 4 .b8 sm[16];\n"
                                             "ld.param.u64 %rd1, [p];\n" +
                                             body + "\nret;\n}\n"),
                             "bad", "bad.ptx");
    auto buf = s.zeros<uint32_t>(4);
    return ptxtest::catch_error([&] { s.run(k, {1, 1, 1}, {1, 1, 1}, {ptxtest::ptr(buf)}); });
  };
  auto local = run("mov.u64 %rd2, depot;\ncvta.local.u64 %rd3, %rd2;\natom.add.u32 %r1, [%rd3], 1;");
  CHECK(local.type == "KernelFault");
  CHECK(local.fault == warpsim::KernelFault::Kind::MemoryAccess);
  CHECK(local.what.find("atomic on local memory") != std::string::npos);
  auto mis = run("atom.global.add.u32 %r1, [%rd1+2], 1;");
  CHECK(mis.fault == warpsim::KernelFault::Kind::MemoryAccess);
  CHECK(mis.what.find("misaligned 4-byte atomic") != std::string::npos);
  auto oob = run("atom.global.add.u32 %r1, [%rd1+16], 1;");
  CHECK(oob.fault == warpsim::KernelFault::Kind::MemoryAccess);
  CHECK(oob.what.find("out-of-bounds global atomic of 4 bytes") != std::string::npos);
  auto soob = run("mov.u32 %r2, sm;\natom.shared.add.u32 %r1, [%r2+16], 1;");
  CHECK(soob.fault == warpsim::KernelFault::Kind::MemoryAccess);
  CHECK(soob.what.find("out-of-bounds shared atomic of 4 bytes at offset 16") != std::string::npos);
}

TEST_CASE("atom.add.noftz on halves adds each half as an H200 does", "[semantics][atomic]") {
  // Each thread adds once to its own word (no ordering question): an H200's results
  // (tests/750_runtime/programs/half_atomics_results.expected).
  auto run = [](const std::string& type, const std::vector<uint32_t>& mem, const std::vector<uint32_t>& vals) {
    const std::string ptx = ptxtest::module(
        ".visible .entry k(.param .u64 mem, .param .u64 vals, .param .u64 olds)\n{\n"
        ".reg .b32 %r<4>;\n.reg .b64 %rd<8>;\n"
        "ld.param.u64 %rd1, [mem];\nld.param.u64 %rd2, [vals];\nld.param.u64 %rd3, [olds];\n"
        "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd4, %r1, 4;\nadd.s64 %rd5, %rd1, %rd4;\n"
        "add.s64 %rd6, %rd2, %rd4;\nadd.s64 %rd7, %rd3, %rd4;\nld.global.u32 %r2, [%rd6];\n"
        "atom.global.add.noftz." + type + " %r3, [%rd5], %r2;\nst.global.u32 [%rd7], %r3;\nret;\n}\n");
    ptxtest::Sim s;
    const auto& k = s.kernel(ptx);
    auto dm = s.upload(mem), dv = s.upload(vals), dold = s.zeros<uint32_t>(mem.size());
    s.run(k, {1, 1, 1}, {uint32_t(mem.size()), 1, 1}, {ptxtest::ptr(dm), ptxtest::ptr(dv), ptxtest::ptr(dold)});
    return std::make_pair(s.download<uint32_t>(dm, mem.size()), s.download<uint32_t>(dold, mem.size()));
  };
  // f16x2: a tie to even and a NaN; overflow to infinity and -0 + +0; inf + -inf; subnormals kept.
  const auto [h, hold] = run("f16x2", {0x3C007E05, 0x7BFF8000, 0x7C008000, 0x0001FBFF},
                             {0x10003C00, 0x4C000000, 0xFC008000, 0x0003CC00});
  CHECK(h == std::vector<uint32_t>{0x3C007FFF, 0x7C000000, 0x7FFF8000, 0x0004FC00});
  CHECK(hold == std::vector<uint32_t>{0x3C007E05, 0x7BFF8000, 0x7C008000, 0x0001FBFF});
  const auto [b, bold] = run("bf16x2", {0x7F808000, 0x00014040, 0x3F807F7F, 0x7FC50001},
                             {0xFF808000, 0x00033C00, 0xBF807300, 0x3F800003});
  CHECK(b == std::vector<uint32_t>{0x7FFF8000, 0x00044040, 0x00007F7F, 0x7FFF0004});
  CHECK(bold[2] == 0x3F807F7F);
}
