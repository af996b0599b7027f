// PTX shared by the shared-memory plan tests: a one-warp kernel's prologue that fills its
// shared array with known words.
#pragma once
#include <cstdint>
#include <string>

namespace ptxtest {

// Loads the parameters tab and out into %rd1 and %rd2, puts %tid.x in %r1 and the address
// of the shared array `sm` in %r2, and fills `rows` rows of 32 words of it (word w =
// w * 2654435761; uses %r3-%r8 and %p1), then bar.sync 0. The kernel declares %r<N> with
// N > 8, %rd<N> with N > 2, %p<2> and sm.
inline std::string fill_shared_words(uint32_t rows) {
  return R"(  ld.param.u64 %rd1, [tab];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, sm;
  mov.u32 %r3, 0;
INIT:
  shl.b32 %r4, %r3, 5;
  add.s32 %r5, %r4, %r1;
  mul.lo.u32 %r6, %r5, -1640531535;
  shl.b32 %r7, %r5, 2;
  add.s32 %r8, %r2, %r7;
  st.shared.u32 [%r8], %r6;
  add.s32 %r3, %r3, 1;
  setp.lt.u32 %p1, %r3, )" +
         std::to_string(rows) + R"(;
  @%p1 bra INIT;
  bar.sync 0;
)";
}

}  // namespace ptxtest
