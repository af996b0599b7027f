#include <filesystem>
#include <fstream>
#include <sys/wait.h>

#include "spec_runner.hpp"

// A "cu" spec is compiled with nvcc at load time and must behave like the checked-in PTX.
TEST_CASE("a spec naming the .cu compiles it with nvcc and runs", "[kernels][nvcc]") {
  if (warpsim::find_nvcc().empty()) {
    WARN("nvcc not found: the cu path is not exercised here");
    return;
  }
  namespace fs = std::filesystem;
  auto doc = warpsim::load_json_file(kernel_test::kernel_spec_path("vecadd/vecadd_1003.json"));
  doc.erase("ptx");
  doc["cu"] = kernel_test::kernel_spec_path("vecadd/vecadd.cu");
  fs::path file = fs::temp_directory_path() / ("warpsim-cu-spec-" + std::to_string(::getpid()) + ".json");
  std::ofstream(file) << doc.dump();
  warpsim::Device device(kernel_test::device_config("c2070"));
  auto spec = warpsim::load_launch_spec(file.string());
  fs::remove(file);
  REQUIRE(spec.module_is_cu);
  auto prepared = warpsim::prepare(device, spec);
  warpsim::LaunchOptions options;
  options.mode = warpsim::SimMode::Functional;
  warpsim::launch(device, prepared, options);
  auto result = warpsim::check_outputs(device, prepared);
  INFO(result.message);
  CHECK(result.passed);
}

TEST_CASE("every checked-in PTX is what tools/regen_ptx.sh produces from its .cu", "[kernels][nvcc]") {
  if (warpsim::find_nvcc().empty()) {
    WARN("nvcc not found: the PTX cannot be regenerated here");
    return;
  }
  std::string command = std::string(WARPSIM_SOURCE_DIR) + "/tools/regen_ptx.sh --check";
  int status = std::system(command.c_str());
  REQUIRE(WIFEXITED(status));
  if (WEXITSTATUS(status) == 3) {
    WARN("this nvcc is another release than the one that wrote the PTX; not compared");
    return;
  }
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("every checked-in spec loads its module and kernel, with matching arguments", "[kernels]") {
  namespace fs = std::filesystem;
  warpsim::Device device(kernel_test::device_config("c2070"));
  int count = 0;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(WARPSIM_SOURCE_DIR) / "kernels")) {
    if (entry.path().extension() != ".json") continue;
    // Grading assignments (kernels/assignments) have their own format and tests.
    if (entry.path().string().find("/kernels/assignments/") != std::string::npos) continue;
    INFO(entry.path().string());
    auto spec = warpsim::load_launch_spec(entry.path().string());
    const auto& module = warpsim::load_spec_module(device, spec);
    const auto& kernel = module.kernel(spec.kernel);
    std::map<std::string, warpsim::DevPtr> ptrs;
    for (const auto& b : spec.buffers) ptrs[b.name] = 0x1000;
    CHECK_NOTHROW(warpsim::build_kernel_args(spec, ptrs, &kernel.params));
    ++count;
  }
  CHECK(count == 72);
}

TEST_CASE("a kernel name the module lacks is a spec error naming the key", "[kernels]") {
  namespace fs = std::filesystem;
  auto doc = warpsim::load_json_file(kernel_test::kernel_spec_path("vecadd/vecadd_1003.json"));
  doc["kernel"] = "vecAddKernal";
  doc["ptx"] = kernel_test::kernel_spec_path("vecadd/vecadd.ptx");
  fs::path file = fs::temp_directory_path() / ("warpsim-bad-kernel-" + std::to_string(::getpid()) + ".json");
  std::ofstream(file) << doc.dump();
  auto spec = warpsim::load_launch_spec(file.string());
  fs::remove(file);
  warpsim::Device device(kernel_test::device_config("c2070"));
  try {
    warpsim::prepare(device, spec);
    FAIL("expected a ConfigError");
  } catch (const warpsim::ConfigError& e) {
    std::string msg = e.what();
    CHECK_THAT(msg, Catch::Contains(": kernel: ") && Catch::Contains("vecAddKernal"));
  }
}
