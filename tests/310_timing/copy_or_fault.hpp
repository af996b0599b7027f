// copy_or_fault: a kernel whose one thread `bad` reads far past its buffer (a fault) while
// the others copy one float each, and a fixture that launches it functionally: faults,
// limits and the caches of a launch that stops must come out as a serial run's.
#pragma once
#include <string>
#include <vector>

#include "200_engine/ptx_fixture.hpp"
#include "timing_fixture.hpp"

namespace copytest {

using namespace warpsim;
using ptxtest::ptr;

// Thread `bad` of copy_or_fault reads far past its buffer (a fault); the others copy one
// float each from `in` to `out`.
inline const std::string& copy_or_fault_ptx() {
  static const std::string text = ptxtest::module(R"(
.visible .entry copy_or_fault(.param .u64 in, .param .u64 out, .param .u32 bad)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .reg .f32 %f<2>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r1, [bad];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mad.lo.u32 %r5, %r3, %r4, %r2;
  setp.eq.u32 %p1, %r5, %r1;
  selp.u32 %r6, 100000000, %r5, %p1;
  mul.wide.u32 %rd3, %r6, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.f32 %f1, [%rd4];
  mul.wide.u32 %rd5, %r5, 4;
  add.s64 %rd6, %rd2, %rd5;
  st.global.f32 [%rd6], %f1;
  ret;
}
)");
  return text;
}

// copy_or_fault over 4000 blocks of 64 threads on a fresh device of `config`, launched
// functionally with kept caches on `threads` threads.
struct CopyOrFault {
  static constexpr uint32_t kBlocks = 4000, kPerBlock = 64;
  ptxtest::Sim sim;
  const isa::Kernel& k;
  DevPtr din, dout;
  LaunchOptions o;
  CopyOrFault(const std::string& config, uint32_t threads)
      : sim{Device(load_device_spec(test::repo("configs/" + config + ".json")))},
        k(sim.kernel(copy_or_fault_ptx())),
        din(sim.zeros<float>(kBlocks * kPerBlock)),
        dout(sim.zeros<float>(kBlocks * kPerBlock)) {
    o.mode = SimMode::Functional;
    o.threads = threads;
    o.cache_control = CacheControl::Keep;
  }
  // The first `blocks` blocks, thread `bad` (UINT32_MAX: none) reading past the buffer.
  LaunchStats launch(uint32_t bad, uint32_t blocks = kBlocks) {
    return sim.dev.launch(k, {blocks, 1, 1}, {kPerBlock, 1, 1}, 0,
                          std::vector<KernelArg>{ptr(din), ptr(dout), KernelArg::integer(int64_t(bad))}, o);
  }
};

}  // namespace copytest
