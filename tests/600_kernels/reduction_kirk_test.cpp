#include <fstream>

#include "spec_runner.hpp"

using kernel_test::require_spec_passes;
using kernel_test::run_spec;

namespace {
const char* const kSpecs[] = {
    "reduction/kirk_fig5_13_512.json",       "reduction/kirk_fig5_13_1024.json",
    "reduction/kirk_fig5_15_512.json",       "reduction/kirk_fig5_15_1024.json",
    "reduction/kirk_ex5_1_fig5_13_512.json", "reduction/kirk_ex5_1_fig5_13_1024.json",
    "reduction/kirk_ex5_1_fig5_15_512.json", "reduction/kirk_ex5_1_fig5_15_1024.json",
    "reduction/kirk_ex5_12_volatile_512.json", "reduction/kirk_ex5_12_volatile_1024.json",
    "reduction/kirk_ex5_12_as_printed_512.json", "reduction/kirk_ex5_12_as_printed_1024.json",
};
}  // namespace

TEST_CASE("Kirk's sum reductions give each block's section sum, 512 and 1024 threads", "[kernels][reduction]") {
  for (const char* spec : kSpecs) {
    require_spec_passes(spec, {{"blocks", 1}});
    require_spec_passes(spec, {{"blocks", 7}});
  }
  require_spec_passes("reduction/kirk_fig5_15_512.json", {{"blocks", 3}}, "fx5800");
}

TEST_CASE("Kirk's sum reductions at the specs' 64 blocks", "[kernels][reduction][large]") {
  for (const char* spec : kSpecs) require_spec_passes(spec);
}

TEST_CASE("exercise 5.12 as printed does not compute the section sum", "[kernels][reduction]") {
  // The reference for the as-printed kernel models nvcc's code (registers instead of the
  // warp-synchronous shared-memory steps); it must differ from the true sums, or the
  // exercise's bug would not show.
  auto printed = run_spec("reduction/kirk_ex5_12_as_printed_512.json", {{"blocks", 4}});
  auto fixed = run_spec("reduction/kirk_ex5_12_volatile_512.json", {{"blocks", 4}});
  REQUIRE(printed.check.passed);
  REQUIRE(fixed.check.passed);
  warpsim::Device device(kernel_test::device_config("c2070"));
  auto a = warpsim::prepare(device, printed.spec);
  auto b = warpsim::prepare(device, fixed.spec);
  warpsim::LaunchOptions options;
  options.mode = warpsim::SimMode::Functional;
  warpsim::launch(device, a, options);
  warpsim::launch(device, b, options);
  std::vector<float> ya(4), yb(4);
  device.copy_from_device(ya.data(), a.buffer("Y").ptr, 16);
  device.copy_from_device(yb.data(), b.buffer("Y").ptr, 16);
  CHECK(ya != yb);
}

namespace {

// The conditional branch of `kernel` compiled from source line `line`.
const warpsim::isa::Instr& branch_at_line(const warpsim::isa::Kernel& kernel, uint32_t line) {
  for (const auto& in : kernel.code)
    if (in.op == warpsim::isa::Op::Bra && in.has_guard && in.loc_line == line) return in;
  FAIL("no conditional branch at line " << line);
  throw;
}

// The source line of kirk_reduction.cu holding `text`, counting from `from`.
uint32_t source_line(const std::string& text, uint32_t from = 1) {
  std::ifstream in(kernel_test::kernel_spec_path("reduction/kirk_reduction.cu"));
  std::string line;
  for (uint32_t n = 1; std::getline(in, line); ++n)
    if (n >= from && line.find(text) != std::string::npos) return n;
  FAIL("'" << text << "' not in kirk_reduction.cu");
  return 0;
}

// Warps that diverged at the if-statement in each loop iteration of one 1024-thread block.
std::vector<uint64_t> divergence_per_iteration(const std::string& spec_file, uint32_t if_line) {
  warpsim::Device device(kernel_test::device_config("c2070"));
  auto prepared = warpsim::prepare(device, warpsim::load_launch_spec(kernel_test::kernel_spec_path(spec_file),
                                                                      {{"blocks", 1}}));
  warpsim::LaunchOptions options;
  options.mode = warpsim::SimMode::Functional;
  auto stats = warpsim::launch(device, prepared, options);
  REQUIRE(warpsim::check_outputs(device, prepared).passed);
  const auto& branch = branch_at_line(*prepared.kernel, if_line);
  REQUIRE(static_cast<size_t>(branch.branch_id) < stats.branches.size());
  const auto& b = stats.branches[branch.branch_id];
  for (auto reached : b.reached) CHECK(reached == 32);  // every warp reaches the if in every iteration
  return b.diverged;
}

}  // namespace

TEST_CASE("Kirk exercises 5.8 and 5.9: divergent warps per iteration, 1024-thread blocks", "[kernels][reduction]") {
  // Fig. 5.13: in the 5th iteration (stride 16) one thread per warp adds: all 32 warps
  // diverge (5.8: D). Strides 32..512 leave some warps with no adding thread at all.
  auto simple = divergence_per_iteration("reduction/kirk_fig5_13_1024.json", source_line("if (t % (2 * stride) == 0)"));
  CHECK(simple == std::vector<uint64_t>{32, 32, 32, 32, 32, 16, 8, 4, 2, 1});
  // Fig. 5.15: strides 512..32 split at warp boundaries; the 5th iteration (stride 32)
  // has no divergent warp (5.9: A); only the last five (16..1) diverge, in warp 0.
  auto improved = divergence_per_iteration("reduction/kirk_fig5_15_1024.json", source_line("if (t < stride)"));
  CHECK(improved == std::vector<uint64_t>{0, 0, 0, 0, 0, 1, 1, 1, 1, 1});
}
