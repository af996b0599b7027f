// Loads and stores: every size with sign and zero extension into wider registers, vector
// accesses with sinks and immediates, byte-exact stores, shared/local/param spaces,
// generic addressing through cvta in both directions, cache operators, mov pack/unpack.
#include <catch2/catch.hpp>

#include "eval.hpp"

using ptxtest::ptr;

namespace {

ptxtest::Sim& sim() { return semtest::sim(); }

// Runs `body` (with %rd1 = in, %rd2 = out and registers declared) on one thread.
std::vector<uint64_t> run_one(const std::string& body, const std::vector<uint8_t>& in, size_t out_words = 16,
                              uint8_t fill = 0) {
  auto& s = sim();
  std::string text = ptxtest::module(
      ".visible .entry m(.param .u64 in, .param .u64 out)\n{\n"
      ".reg .b16 %rs<9>;\n.reg .b32 %r<17>;\n.reg .b64 %rd<17>;\n.reg .f32 %f<9>;\n.reg .f64 %fd<5>;\n"
      ".reg .pred %p<3>;\n.shared .align 16 .b8 sbuf[64];\n.local .align 16 .b8 lbuf[64];\n"
      "ld.param.u64 %rd1, [in];\nld.param.u64 %rd2, [out];\n" +
      body + "\nret;\n}\n");
  const auto& k = s.kernel(text, "m", "mem.ptx");
  auto din = s.upload(in.empty() ? std::vector<uint8_t>(64, 0) : in);
  auto dout = s.upload(std::vector<uint8_t>(out_words * 8, fill));
  s.run(k, {1, 1, 1}, {1, 1, 1}, {ptr(din), ptr(dout)});
  return s.download<uint64_t>(dout, out_words);
}

const std::vector<uint8_t> kBytes = {0xFE, 0xFF, 0xFF, 0x80, 0x12, 0x34, 0x56, 0x78,
                                     0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x88};

}  // namespace

TEST_CASE("loads of every size sign- or zero-extend into 16-, 32- and 64-bit registers", "[semantics][memory]") {
  auto out = run_one(R"(
  ld.global.s8 %r1, [%rd1];
  ld.global.u8 %r2, [%rd1];
  ld.global.s16 %r3, [%rd1];
  ld.global.u16 %r4, [%rd1];
  ld.global.s32 %rd3, [%rd1];
  ld.global.u32 %rd4, [%rd1];
  ld.global.s8 %rd5, [%rd1+3];
  ld.global.b64 %rd6, [%rd1+8];
  ld.global.s8 %rs1, [%rd1+3];
  ld.global.u8 %rs2, [%rd1+3];
  cvt.u32.u16 %r5, %rs1;
  cvt.u32.u16 %r6, %rs2;
  st.global.u32 [%rd2], %r1;
  st.global.u32 [%rd2+8], %r2;
  st.global.u32 [%rd2+16], %r3;
  st.global.u32 [%rd2+24], %r4;
  st.global.u64 [%rd2+32], %rd3;
  st.global.u64 [%rd2+40], %rd4;
  st.global.u64 [%rd2+48], %rd5;
  st.global.u64 [%rd2+56], %rd6;
  st.global.u32 [%rd2+64], %r5;
  st.global.u32 [%rd2+72], %r6;)",
                     kBytes);
  CHECK(out[0] == 0xFFFFFFFEu);
  CHECK(out[1] == 0xFEu);
  CHECK(out[2] == 0xFFFFFFFEu);
  CHECK(out[3] == 0xFFFEu);
  CHECK(out[4] == 0xFFFFFFFF80FFFFFEull);
  CHECK(out[5] == 0x0000000080FFFFFEull);
  CHECK(out[6] == 0xFFFFFFFFFFFFFF80ull);
  CHECK(out[7] == 0x8807060504030201ull);
  CHECK(out[8] == 0xFF80u);  // s8 into a 16-bit register: sign-extended to 16 bits
  CHECK(out[9] == 0x80u);
}

TEST_CASE("stores write exactly their bytes", "[semantics][memory]") {
  auto out = run_one(R"(
  mov.u32 %r1, 0x12345678;
  mov.u64 %rd3, 0x0102030405060708;
  st.global.u8 [%rd2+1], %r1;
  st.global.u16 [%rd2+2], %r1;
  st.global.u32 [%rd2+4], %r1;
  st.global.u64 [%rd2+8], %rd3;
  st.global.s8 [%rd2+16], 0x1FF;
  st.global.b16 [%rd2+18], -2;
  st.global.f32 [%rd2+20], 0f3F800000;
  st.global.f64 [%rd2+24], 0d4000000000000000;)",
                     {}, 4, 0xAA);
  CHECK(out[0] == 0x12345678567878AAull);  // bytes AA 78 | 78 56 | 78 56 34 12
  CHECK(out[1] == 0x0102030405060708ull);
  CHECK(out[2] == 0x3F800000FFFEAAFFull);
  CHECK(out[3] == 0x4000000000000000ull);
}

TEST_CASE("vector loads and stores: v2/v4 of 8- to 64-bit elements, sinks, immediates", "[semantics][memory]") {
  auto out = run_one(R"(
  ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];
  ld.global.v2.u64 {%rd3, %rd4}, [%rd1];
  ld.global.v4.u8 {%rs1, %rs2, _, %rs4}, [%rd1+4];
  ld.global.v2.s16 {%rs5, %rs6}, [%rd1];
  ld.global.v2.f64 {%fd1, _}, [%rd1];
  st.global.v4.u32 [%rd2], {%r4, %r3, %r2, %r1};
  st.global.v2.u64 [%rd2+16], {%rd4, %rd3};
  st.global.v4.u8 [%rd2+32], {%rs4, %rs2, %rs1, 9};
  st.global.v2.u16 [%rd2+36], {%rs6, %rs5};
  st.global.v2.b32 [%rd2+40], {1, 0f3F800000};
  st.global.f64 [%rd2+48], %fd1;
  cvt.s32.s16 %r5, %rs5;
  st.global.u32 [%rd2+56], %r5;)",
                     kBytes, 8, 0xAA);
  // Input words w0..w3 = 0x80FFFFFE 0x78563412 0x04030201 0x88070605, stored reversed.
  CHECK(out[0] == 0x0403020188070605ull);
  CHECK(out[1] == 0x80FFFFFE78563412ull);
  CHECK(out[2] == 0x8807060504030201ull);  // the two u64 halves swapped
  CHECK(out[3] == 0x7856341280FFFFFEull);
  CHECK(uint32_t(out[4]) == 0x09123478u);  // bytes 7, 5, 4 of the input (6 went to the sink) and 9
  CHECK(uint32_t(out[4] >> 32) == 0xFFFE80FFu);
  CHECK(out[5] == 0x3F80000000000001ull);
  CHECK(out[6] == 0x7856341280FFFFFEull);  // f64 load and store move the bits unchanged
  CHECK(uint32_t(out[7]) == 0xFFFFFFFEu);  // s16 element sign-extended by cvt
}

TEST_CASE("shared and local memory: sizes, extension, vectors, and the same bytes through generic addresses",
          "[semantics][memory]") {
  auto out = run_one(R"(
  ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd1];
  mov.u32 %r9, sbuf;
  st.shared.v4.u32 [%r9+16], {%r1, %r2, %r3, %r4};
  ld.shared.s8 %r5, [%r9+16];
  ld.shared.u16 %r6, [%r9+18];
  st.shared.u8 [%r9+17], 0x42;
  ld.shared.u32 %r7, [sbuf+16];
  mov.u64 %rd3, sbuf;
  cvta.shared.u64 %rd4, %rd3;
  ld.u32 %r8, [%rd4+20];
  st.u32 [%rd4+24], 7;
  ld.shared.u32 %r10, [%r9+24];
  cvta.to.shared.u64 %rd5, %rd4;
  cvt.u32.u64 %r11, %rd5;
  mov.u64 %rd6, lbuf;
  st.local.v2.u32 [%rd6+8], {%r1, %r2};
  ld.local.s16 %r12, [lbuf+10];
  cvta.local.u64 %rd7, %rd6;
  ld.u64 %rd8, [%rd7+8];
  st.s8 [%rd7+12], -1;
  ld.local.u32 %r13, [%rd6+12];
  cvta.global.u64 %rd9, %rd1;
  ld.u32 %r14, [%rd9+4];
  cvta.to.global.u64 %rd10, %rd9;
  ld.global.u32 %r15, [%rd10+8];
  st.global.u32 [%rd2], %r5;
  st.global.u32 [%rd2+8], %r6;
  st.global.u32 [%rd2+16], %r7;
  st.global.u32 [%rd2+24], %r8;
  st.global.u32 [%rd2+32], %r10;
  st.global.u32 [%rd2+40], %r11;
  st.global.u32 [%rd2+48], %r12;
  st.global.u64 [%rd2+56], %rd8;
  st.global.u32 [%rd2+64], %r13;
  st.global.u32 [%rd2+72], %r14;
  st.global.u32 [%rd2+80], %r15;)",
                     kBytes, 11);
  CHECK(out[0] == 0xFFFFFFFEu);  // ld.shared.s8
  CHECK(out[1] == 0x80FFu);      // ld.shared.u16 of bytes 2..3 (0xFF, 0x80)
  CHECK(out[2] == 0x80FF42FEu);  // the u8 store changed byte 1 only
  CHECK(out[3] == 0x78563412u);  // generic load of shared word 1
  CHECK(out[4] == 7u);           // generic store seen by a shared load
  CHECK(out[5] == 0u);           // cvta.to.shared of the generic address of sbuf: offset 0
  CHECK(out[6] == 0xFFFF80FFu);  // ld.local.s16 of the same two bytes, sign-extended
  CHECK(out[7] == 0x7856341280FFFFFEull);  // generic 64-bit load of local memory
  CHECK(out[8] == 0x785634FFu);
  CHECK(out[9] == 0x78563412u);
  CHECK(out[10] == 0x04030201u);
}

TEST_CASE("ld.param of every size, by-value structs, and cache operators", "[semantics][memory]") {
  auto& s = sim();
  const auto& k = s.kernel(ptxtest::module(R"(
.visible .entry p(.param .u64 out, .param .s8 a, .param .u16 b, .param .s32 c, .param .f32 d, .param .f64 e,
                  .param .u64 f, .param .align 8 .b8 st[16])
{
  .reg .b16 %rs<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  .reg .f32 %f1;
  .reg .f64 %fd1;
  ld.param.u64 %rd1, [out];
  ld.param.s8 %r1, [a];
  ld.param.u16 %rs1, [b];
  ld.param.s32 %r2, [c];
  ld.param.f32 %f1, [d];
  ld.param.f64 %fd1, [e];
  ld.param.u64 %rd2, [f];
  ld.param.u32 %r3, [st+4];
  ld.param.u64 %rd3, [st+8];
  cvt.u32.u16 %r4, %rs1;
  st.global.cg.u32 [%rd1], %r1;
  st.global.cs.u32 [%rd1+8], %r4;
  st.global.wt.u32 [%rd1+16], %r2;
  st.global.wb.f32 [%rd1+24], %f1;
  st.global.f64 [%rd1+32], %fd1;
  st.volatile.global.u64 [%rd1+40], %rd2;
  st.global.u32 [%rd1+48], %r3;
  st.global.u64 [%rd1+56], %rd3;
  ld.global.ca.u32 %r5, [%rd1];
  ld.global.cg.u32 %r6, [%rd1+8];
  ld.global.nc.u32 %r7, [%rd1+16];
  ldu.global.u64 %rd4, [%rd1+40];
  ld.volatile.global.u32 %r4, [%rd1+48];
  ld.global.lu.u64 %rd5, [%rd1+56];
  add.s32 %r5, %r5, %r6;
  add.s32 %r5, %r5, %r7;
  add.s32 %r5, %r5, %r4;
  st.global.u32 [%rd1+64], %r5;
  st.global.cs.u64 [%rd1+72], %rd4;
  ret;
}
)"),
                           "p", "param.ptx");
  auto out = s.zeros<uint64_t>(10);
  warpsim::KernelArg st;
  st.kind = warpsim::KernelArg::Kind::Bytes;
  st.bytes = {1, 2, 3, 4, 0xEF, 0xBE, 0xAD, 0xDE, 8, 7, 6, 5, 4, 3, 2, 1};
  std::vector<warpsim::KernelArg> args = {ptr(out),
                                          ptxtest::integer(-5),
                                          ptxtest::integer(65535),
                                          ptxtest::integer(-100000),
                                          warpsim::KernelArg::real(1.5),
                                          warpsim::KernelArg::real(-2.25),
                                          ptxtest::integer(0x123456789ABCDEF0ll),
                                          st};
  s.run(k, {1, 1, 1}, {1, 1, 1}, args);
  auto r = s.download<uint64_t>(out, 10);
  CHECK(uint32_t(r[0]) == uint32_t(-5));
  CHECK(r[1] == 65535);
  CHECK(uint32_t(r[2]) == uint32_t(-100000));
  CHECK(semtest::from_bits<float>(r[3]) == 1.5f);
  CHECK(semtest::from_bits<double>(r[4]) == -2.25);
  CHECK(r[5] == 0x123456789ABCDEF0ull);
  CHECK(r[6] == 0xDEADBEEFu);
  CHECK(r[7] == 0x0102030405060708ull);
  CHECK(uint32_t(r[8]) == uint32_t(-5 + 65535 - 100000) + 0xDEADBEEFu);
  CHECK(r[9] == 0x123456789ABCDEF0ull);
}

TEST_CASE("mov packs and unpacks vectors of 8-, 16- and 32-bit parts", "[semantics][memory]") {
  auto out = run_one(R"(
  mov.u64 %rd3, 0x1122334455667788;
  mov.b64 {%r1, %r2}, %rd3;
  mov.b64 %rd4, {%r2, %r1};
  mov.b32 {%rs1, %rs2}, %r1;
  mov.b32 %r3, {%rs2, %rs1};
  mov.b64 {_, %r4}, %rd3;
  mov.b32 %r5, {%rs1, 0x0F};
  mov.b64 %rd5, {%rs1, %rs2, %rs1, %rs2};
  st.global.u32 [%rd2], %r1;
  st.global.u32 [%rd2+8], %r2;
  st.global.u64 [%rd2+16], %rd4;
  st.global.u32 [%rd2+24], %r3;
  st.global.u32 [%rd2+32], %r4;
  st.global.u32 [%rd2+40], %r5;
  st.global.u64 [%rd2+48], %rd5;)",
                     {}, 7);
  CHECK(out[0] == 0x55667788u);
  CHECK(out[1] == 0x11223344u);
  CHECK(out[2] == 0x5566778811223344ull);
  CHECK(out[3] == 0x77885566u);
  CHECK(out[4] == 0x11223344u);
  CHECK(out[5] == 0x000F7788u);
  CHECK(out[6] == 0x5566778855667788ull);
}

TEST_CASE("a full warp's shared loads and stores: gathers, sign extension, 8-byte words, half warps, one address",
          "[semantics][memory]") {
  // Every lane active (the executor's shared fast path) and half of them, against values
  // computed here: lane l stores v(l) to word l, then reads word 31 - l as u32 and the
  // high half of it as s16, the 8-byte word of lanes 2(l/2) and 2(l/2)+1, the same word
  // again in the first half-warp only, the word every lane stored to (lane 31's wins),
  // word l and word l + 1.
  auto& s = sim();
  std::string text = ptxtest::module(R"(.visible .entry w(.param .u64 out)
{
  .reg .b32 %r<20>;
  .reg .b64 %rd<8>;
  .reg .pred %p<3>;
  .shared .align 8 .b8 sb[512];
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 2;
  mov.u32 %r3, sb;
  add.s32 %r4, %r3, %r2;
  mul.lo.u32 %r5, %r1, -12345;
  st.shared.u32 [%r4], %r5;
  bar.sync 0;
  xor.b32 %r6, %r1, 31;
  shl.b32 %r7, %r6, 2;
  add.s32 %r8, %r3, %r7;
  ld.shared.u32 %r9, [%r8];
  ld.shared.s16 %r10, [%r8+2];
  shr.u32 %r11, %r1, 1;
  shl.b32 %r11, %r11, 3;
  add.s32 %r12, %r3, %r11;
  ld.shared.u64 %rd2, [%r12];
  setp.lt.u32 %p1, %r1, 16;
  mov.u32 %r13, 0;
  @%p1 ld.shared.u32 %r13, [%r8];
  st.shared.u32 [sb+256], %r1;
  bar.sync 0;
  ld.shared.u32 %r14, [sb+256];
  ld.shared.u32 %r15, [%r4];
  ld.shared.u32 %r16, [%r4+4];
  mul.wide.u32 %rd3, %r1, 56;
  add.s64 %rd4, %rd1, %rd3;
  st.global.u32 [%rd4], %r9;
  st.global.u32 [%rd4+8], %r10;
  st.global.u64 [%rd4+16], %rd2;
  st.global.u32 [%rd4+24], %r13;
  st.global.u32 [%rd4+32], %r14;
  st.global.u32 [%rd4+40], %r15;
  st.global.u32 [%rd4+48], %r16;
  ret;
}
)");
  const auto& k = s.kernel(text, "w", "shared_warp.ptx");
  auto dout = s.upload(std::vector<uint8_t>(32 * 56, 0));
  s.run(k, {1, 1, 1}, {32, 1, 1}, {ptr(dout)});
  const std::vector<uint64_t> out = s.download<uint64_t>(dout, 32 * 7);
  auto v = [](uint32_t l) { return uint32_t(l * uint32_t(-12345)); };
  for (uint32_t l = 0; l < 32; ++l) {
    INFO("lane " << l);
    CHECK(out[l * 7] == v(31 - l));
    CHECK(out[l * 7 + 1] == uint32_t(int32_t(int16_t(v(31 - l) >> 16))));
    CHECK(out[l * 7 + 2] == (uint64_t(v(2 * (l / 2))) | uint64_t(v(2 * (l / 2) + 1)) << 32));
    CHECK(out[l * 7 + 3] == (l < 16 ? v(31 - l) : 0u));
    CHECK(out[l * 7 + 4] == 31u);  // one address for all: read as a broadcast
    CHECK(out[l * 7 + 5] == v(l));  // consecutive words: read four lanes at a time
    if (l < 31) CHECK(out[l * 7 + 6] == v(l + 1));  // the same, from odd words (lane 31's is past them)
  }
}
