// The device heap (malloc/free in kernels): the allocator's placement, alignment, gaps,
// exhaustion and reuse; kernels that allocate in lane order and free in another launch;
// and the faults of misuse (overrun, double free, use after free), each naming the block.
#include <catch2/catch.hpp>

#include "ptx_fixture.hpp"
#include "sim/memory/device_heap.hpp"

using ptxtest::DevPtr;
using ptxtest::ptr;
using warpsim::mem::DeviceHeap;
using warpsim::mem::GlobalMemory;

TEST_CASE("device heap: first fit, 16-byte aligned, a gap after each block, NULL when full", "[engine][heap]") {
  GlobalMemory gm;
  DeviceHeap heap(gm);
  CHECK(heap.limit() == 8u << 20);
  REQUIRE(heap.set_limit(256));
  const uint64_t a = heap.allocate(1);    // 16 + 16 gap
  const uint64_t b = heap.allocate(20);   // 32 + 16
  const uint64_t c = heap.allocate(0);    // a distinct block of its own
  CHECK(a == DeviceHeap::kBase);
  CHECK(b == a + 32);
  CHECK(c == b + 48);
  CHECK(c != 0);
  // Each block is exactly the size asked for: the byte after it is outside every allocation.
  CHECK(gm.find(b, 20));
  CHECK_FALSE(gm.find(b + 20, 1));
  CHECK(gm.find(b + 19, 1)->label == "device malloc block");
  // The limit cannot change once the heap is in use.
  CHECK_FALSE(heap.set_limit(1 << 20));
  CHECK(heap.limit() == 256);
  // 256 - 112 = 144 bytes left: a 144-byte block fits at the very end without its gap, 145 does not.
  CHECK(heap.allocate(145) == 0);
  CHECK(heap.allocate(1000) == 0);
  const uint64_t d = heap.allocate(144);
  CHECK(d == c + 32);
  CHECK(heap.allocate(1) == 0);
  // Freeing a and b coalesces them into one 80-byte range at the start: a 64-byte block fits there.
  CHECK(heap.release(a));
  CHECK(heap.release(b));
  CHECK(heap.allocate(64) == a);
  // free(NULL) is a no-op; an interior pointer, a freed block or a stranger is refused.
  CHECK(heap.release(0));
  CHECK_FALSE(heap.release(d + 16));
  CHECK_FALSE(heap.release(b));
  CHECK_FALSE(heap.release(12345));
  CHECK(heap.owns(c));
  CHECK_FALSE(heap.owns(c + 1));
  CHECK(heap.blocks() == 3);
}

TEST_CASE("device heap: a zero limit or a block larger than the heap gives NULL", "[engine][heap]") {
  GlobalMemory gm;
  DeviceHeap none(gm);
  REQUIRE(none.set_limit(0));
  CHECK(none.allocate(1) == 0);
  CHECK(none.set_limit(64));  // never used: it can still change
  DeviceHeap heap(gm);
  CHECK(heap.allocate((8u << 20) + 1) == 0);
  CHECK(heap.allocate(UINT64_MAX) == 0);
  CHECK_FALSE(heap.in_use());
}

namespace {

const char* kDecls = R"(
.extern .func  (.param .b64 func_retval0) malloc
(
	.param .b64 malloc_param_0
)
;
.extern .func free
(
	.param .b64 free_param_0
)
;
)";

// Each thread mallocs (tid + 1) * 8 bytes, fills it with tid, and stores the pointer.
std::string alloc_kernel() {
  return ptxtest::module(std::string(kDecls) + R"(
.visible .entry alloc(.param .u64 out_p)
{
	.reg .pred 	%p<3>;
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<12>;
	ld.param.u64 	%rd1, [out_p];
	mov.u32 	%r1, %tid.x;
	add.s32 	%r2, %r1, 1;
	mul.wide.u32 	%rd2, %r2, 8;
	{
	.param .b64 param0;
	st.param.b64 	[param0], %rd2;
	.param .b64 retval0;
	call.uni (retval0), malloc, (param0);
	ld.param.b64 	%rd3, [retval0];
	}
	mul.wide.u32 	%rd4, %r1, 8;
	add.s64 	%rd5, %rd1, %rd4;
	st.global.u64 	[%rd5], %rd3;
	setp.eq.s64 	%p1, %rd3, 0;
	@%p1 bra 	DONE;
	mov.u32 	%r3, 0;
LOOP:
	mul.wide.u32 	%rd6, %r3, 4;
	add.s64 	%rd7, %rd3, %rd6;
	st.u32 	[%rd7], %r1;
	add.s32 	%r3, %r3, 1;
	shl.b32 	%r4, %r2, 1;
	setp.lt.u32 	%p2, %r3, %r4;
	@%p2 bra 	LOOP;
DONE:
	ret;
}
)");
}

// Each thread sums its block (reading `extra` ints past its end too), writes the sum, and
// frees the block `frees` times.
std::string sum_and_free_kernel() {
  return ptxtest::module(std::string(kDecls) + R"(
.visible .entry sum_free(.param .u64 ptrs_p, .param .u64 sums_p, .param .u32 extra_p, .param .u32 frees_p)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<12>;
	.reg .b64 	%rd<12>;
	ld.param.u64 	%rd1, [ptrs_p];
	ld.param.u64 	%rd2, [sums_p];
	ld.param.u32 	%r9, [extra_p];
	ld.param.u32 	%r10, [frees_p];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd4, %r1, 8;
	add.s64 	%rd5, %rd1, %rd4;
	ld.global.u64 	%rd3, [%rd5];
	add.s32 	%r2, %r1, 1;
	shl.b32 	%r4, %r2, 1;
	add.s32 	%r4, %r4, %r9;
	mov.u32 	%r3, 0;
	mov.u32 	%r5, 0;
LOOP:
	mul.wide.u32 	%rd6, %r3, 4;
	add.s64 	%rd7, %rd3, %rd6;
	ld.u32 	%r6, [%rd7];
	add.s32 	%r5, %r5, %r6;
	add.s32 	%r3, %r3, 1;
	setp.lt.u32 	%p2, %r3, %r4;
	@%p2 bra 	LOOP;
	mul.wide.u32 	%rd8, %r1, 4;
	add.s64 	%rd9, %rd2, %rd8;
	st.global.u32 	[%rd9], %r5;
	mov.u32 	%r7, 0;
	setp.eq.u32 	%p3, %r10, 0;
	@%p3 bra 	DONE;
FREE:
	{
	.param .b64 param0;
	st.param.b64 	[param0], %rd3;
	call.uni free, (param0);
	}
	add.s32 	%r7, %r7, 1;
	setp.lt.u32 	%p3, %r7, %r10;
	@%p3 bra 	FREE;
DONE:
	ret;
}
)");
}

}  // namespace

TEST_CASE("device heap: malloc or free declared other than CUDA declares them is refused at its line",
          "[engine][heap]") {
  const std::string bad = ptxtest::module(R"(
.extern .func  (.param .b32 func_retval0) malloc
(
	.param .b32 malloc_param_0
)
;
.visible .entry k(.param .u64 out_p)
{
	.reg .b32 	%r<3>;
	mov.u32 	%r1, 16;
	{
	.param .b32 param0;
	st.param.b32 	[param0], %r1;
	.param .b32 retval0;
	call.uni (retval0), malloc, (param0);
	ld.param.b32 	%r2, [retval0];
	}
	ret;
}
)");
  const std::string err = ptxtest::ptx_error(bad);
  // Line 18 is the call (3 header lines, then the body).
  CHECK_THAT(err, Catch::StartsWith("t.ptx:18: unsupported PTX: call.uni (retval0), malloc, (param0);") &&
                      Catch::EndsWith("('malloc' declared with a signature other than CUDA's)"));
}

TEST_CASE("device heap: kernels allocate in lane order, blocks outlive the launch, another frees them",
          "[engine][heap]") {
  for (auto mode : {warpsim::SimMode::Functional, warpsim::SimMode::Timing}) {
    ptxtest::Sim sim;
    const auto& alloc = sim.kernel(alloc_kernel());
    const auto& sum_free = sim.kernel(sum_and_free_kernel());
    DevPtr ptrs = sim.zeros<uint64_t>(64);
    DevPtr sums = sim.zeros<uint32_t>(64);
    warpsim::LaunchOptions o;
    o.mode = mode;
    o.threads = 2;
    const std::vector<warpsim::KernelArg> alloc_args{ptr(ptrs)};
    const std::vector<warpsim::KernelArg> free_args{ptr(ptrs), ptr(sums), ptxtest::integer(0), ptxtest::integer(1)};
    sim.dev.launch(alloc, {1, 1, 1}, {64, 1, 1}, 0, alloc_args, o);
    auto p = sim.download<uint64_t>(ptrs, 64);
    // Lane order, then warp order: thread t's block follows thread t-1's (rounded to 16, plus the gap).
    uint64_t at = DeviceHeap::kBase;
    for (uint32_t t = 0; t < 64; ++t) {
      INFO("thread " << t);
      CHECK(p[t] == at);
      at += ((t + 1) * 8 + 15) / 16 * 16 + 16;
    }
    sim.dev.launch(sum_free, {1, 1, 1}, {64, 1, 1}, 0, free_args, o);
    auto s = sim.download<uint32_t>(sums, 64);
    for (uint32_t t = 0; t < 64; ++t) CHECK(s[t] == t * 2 * (t + 1));
    // All freed: the same launch allocates the same addresses again.
    sim.dev.launch(alloc, {1, 1, 1}, {64, 1, 1}, 0, alloc_args, o);
    CHECK(sim.download<uint64_t>(ptrs, 64) == p);
  }
}

TEST_CASE("device heap: overrunning a block, freeing twice and using a freed block are faults naming it",
          "[engine][heap]") {
  ptxtest::Sim sim;
  const auto& alloc = sim.kernel(alloc_kernel());
  const auto& sum_free = sim.kernel(sum_and_free_kernel());
  DevPtr ptrs = sim.zeros<uint64_t>(32);
  DevPtr sums = sim.zeros<uint32_t>(32);
  auto launch_sum = [&](int extra, int frees) {
    return ptxtest::catch_error([&] {
      sim.run(sum_free, {1, 1, 1}, {32, 1, 1}, {ptr(ptrs), ptr(sums), ptxtest::integer(extra), ptxtest::integer(frees)});
    });
  };
  sim.run(alloc, {1, 1, 1}, {32, 1, 1}, {ptr(ptrs)});
  // One int past the end of thread 0's 8-byte block: the gap, not the next block.
  auto t = launch_sum(1, 0);
  REQUIRE(t.type == "KernelFault");
  CHECK(t.fault == warpsim::KernelFault::Kind::MemoryAccess);
  CHECK_THAT(t.what, Catch::Contains("0 bytes past the end of buffer 'device malloc block' (8 bytes at 0x80000000000)") &&
                         Catch::Contains("thread (0,0,0)"));
  // The host cannot cudaFree a kernel's block.
  auto host_free = ptxtest::catch_error([&] { sim.dev.free(DeviceHeap::kBase); });
  CHECK(host_free.type == "LaunchError");
  CHECK_THAT(host_free.what, Catch::Contains("malloc allocated in a kernel"));
  // Freeing twice: the second free names the block it no longer is.
  t = launch_sum(0, 2);
  REQUIRE(t.type == "KernelFault");
  CHECK_THAT(t.what, Catch::StartsWith("free(0x80000000000): not a block that malloc returned in a kernel, or freed "
                                       "already") &&
                         Catch::Contains("thread (0,0,0)"));
  // Every block is free now (thread 0 freed its own before the fault, the others in lane
  // order before thread 0's second call): reading one is out of bounds.
  t = launch_sum(0, 0);
  REQUIRE(t.type == "KernelFault");
  CHECK_THAT(t.what, Catch::Contains("out-of-bounds global load"));
}
