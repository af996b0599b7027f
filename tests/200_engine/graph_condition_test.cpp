// cudaGraphSetConditional, the device side of conditional graph nodes: a builtin that
// writes the 32-bit condition at the handle's device address (the runtime's handles are
// such addresses), lanes in order, in both modes; a stray handle is a fault naming the
// thread; a declaration other than CUDA's is refused at its line.
#include <catch2/catch.hpp>

#include "ptx_fixture.hpp"

using ptxtest::DevPtr;
using ptxtest::ptr;

namespace {

const char* kDecl = R"(
.extern .func cudaGraphSetConditional
(
	.param .b64 cudaGraphSetConditional_param_0,
	.param .b32 cudaGraphSetConditional_param_1
)
;
)";

// Every thread sets the condition `handle` to 100 + its thread index.
std::string set_kernel() {
  return ptxtest::module(std::string(kDecl) + R"(
.visible .entry set(.param .u64 handle_p)
{
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<2>;
	ld.param.u64 	%rd1, [handle_p];
	mov.u32 	%r1, %tid.x;
	add.s32 	%r2, %r1, 100;
	{
	.param .b64 param0;
	st.param.b64 	[param0], %rd1;
	.param .b32 param1;
	st.param.b32 	[param1], %r2;
	call.uni 
	cudaGraphSetConditional, 
	(
	param0, 
	param1
	);
	}
	ret;
}
)");
}

}  // namespace

TEST_CASE("cudaGraphSetConditional writes the condition word, the last lane of a warp last", "[engine][graphs]") {
  for (auto mode : {warpsim::SimMode::Functional, warpsim::SimMode::Timing}) {
    INFO((mode == warpsim::SimMode::Timing ? "timing" : "functional"));
    ptxtest::Sim sim;
    const auto& k = sim.kernel(set_kernel());
    DevPtr cond = sim.zeros<uint32_t>(2);
    warpsim::LaunchOptions o;
    o.mode = mode;
    const std::vector<warpsim::KernelArg> args{ptr(cond)};
    sim.dev.launch(k, {1, 1, 1}, {20, 1, 1}, 0, args, o);
    const auto v = sim.download<uint32_t>(cond, 2);
    CHECK(v[0] == 119);
    CHECK(v[1] == 0);
    // The call is not a memory access of the program: no transaction is counted.
    const auto stats = sim.dev.launch(k, {1, 1, 1}, {32, 1, 1}, 0, args, o);
    CHECK(stats.mem.gst_transactions == 0);
    CHECK(sim.download<uint32_t>(cond, 1)[0] == 131);
  }
}

TEST_CASE("cudaGraphSetConditional with a handle that is not device memory is a fault naming the thread",
          "[engine][graphs]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(set_kernel());
  auto t = ptxtest::catch_error([&] { sim.run(k, {1, 1, 1}, {1, 1, 1}, {ptxtest::integer(0x1234)}); });
  REQUIRE(t.type == "KernelFault");
  CHECK_THAT(t.what, Catch::StartsWith("cudaGraphSetConditional(0x1234, 100): not a handle from "
                                       "cudaGraphConditionalHandleCreate") &&
                         Catch::Contains("thread (0,0,0)"));
}

TEST_CASE("cudaGraphSetConditional declared other than CUDA declares it is refused at its line", "[engine][graphs]") {
  const std::string bad = ptxtest::module(R"(
.extern .func cudaGraphSetConditional
(
	.param .b64 cudaGraphSetConditional_param_0
)
;
.visible .entry k(.param .u64 h_p)
{
	.reg .b64 	%rd<2>;
	ld.param.u64 	%rd1, [h_p];
	{
	.param .b64 param0;
	st.param.b64 	[param0], %rd1;
	call.uni cudaGraphSetConditional, (param0);
	}
	ret;
}
)");
  const std::string err = ptxtest::ptx_error(bad);
  CHECK_THAT(err, Catch::Contains(": unsupported PTX: call.uni cudaGraphSetConditional, (param0);") &&
                      Catch::EndsWith("('cudaGraphSetConditional' declared with a signature other than CUDA's)"));
}
