// The host API: launches CUDA would refuse (LaunchError with CUDA's wording), argument
// checking, device memory management errors, and sparse global memory.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <fstream>

#include "ptx_fixture.hpp"

using ptxtest::DevPtr;
using ptxtest::ptr;

namespace {

const std::string kTwoArgs = ptxtest::module(R"(
.visible .entry k(.param .u64 out, .param .u32 n)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<4>;
  .reg .pred %p1;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  setp.ge.u32 %p1, %r2, %r1;
  @%p1 ret;
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r2;
  ret;
}
)");

std::string launch_error(ptxtest::Sim& sim, const warpsim::isa::Kernel& k, warpsim::Dim3 grid, warpsim::Dim3 block,
                         std::vector<warpsim::KernelArg> args, uint32_t dyn = 0, uint32_t regs = 0) {
  auto t = ptxtest::catch_error([&] {
    warpsim::LaunchOptions o;
    o.mode = warpsim::SimMode::Functional;
    o.registers_per_thread = regs;
    sim.dev.launch(k, grid, block, dyn, args, o);
  });
  INFO(t.what);
  REQUIRE(t.type == "LaunchError");
  return t.what;
}

// Resident set size of this process in bytes (Linux).
uint64_t rss_bytes() {
  std::ifstream f("/proc/self/statm");
  uint64_t size = 0, resident = 0;
  f >> size >> resident;
  return resident * 4096;
}

}  // namespace

TEST_CASE("zero and oversize grid and block dimensions, too many threads: invalid configuration argument",
          "[engine][host][launch]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(kTwoArgs);
  auto out = sim.zeros<uint32_t>(64);
  std::vector<warpsim::KernelArg> args = {ptr(out), ptxtest::integer(64)};
  CHECK(launch_error(sim, k, {0, 1, 1}, {32, 1, 1}, args) ==
        "invalid configuration argument: grid dimension x is 0 (kernel 'k')");
  CHECK(launch_error(sim, k, {1, 1, 0}, {32, 1, 1}, args) ==
        "invalid configuration argument: grid dimension z is 0 (kernel 'k')");
  CHECK(launch_error(sim, k, {1, 1, 1}, {32, 0, 1}, args) ==
        "invalid configuration argument: block dimension y is 0 (kernel 'k')");
  CHECK(launch_error(sim, k, {65536, 1, 1}, {32, 1, 1}, args) ==
        "invalid configuration argument: grid.x = 65536 exceeds the Tesla C2070 maximum of 65535 (kernel 'k')");
  CHECK(launch_error(sim, k, {1, 1, 1}, {1, 1, 65}, args) ==
        "invalid configuration argument: block.z = 65 exceeds the Tesla C2070 maximum of 64 (kernel 'k')");
  CHECK(launch_error(sim, k, {1, 1, 1}, {1025, 1, 1}, args) ==
        "invalid configuration argument: block.x = 1025 exceeds the Tesla C2070 maximum of 1024 (kernel 'k')");
  CHECK(launch_error(sim, k, {1, 1, 1}, {32, 32, 2}, args) ==
        "invalid configuration argument: 2048 threads per block exceed the Tesla C2070 maximum of 1024 (kernel 'k')");
  // Nothing ran.
  CHECK(sim.download<uint32_t>(out, 64) == std::vector<uint32_t>(64, 0));
}

TEST_CASE(".reqntid and .maxntid are enforced", "[engine][host][launch]") {
  ptxtest::Sim sim;
  const auto& req = sim.kernel(ptxtest::module(".visible .entry r()\n.reqntid 16, 2\n{\nret;\n}\n"));
  CHECK(launch_error(sim, req, {1, 1, 1}, {32, 1, 1}, {}) ==
        "invalid configuration argument: kernel 'r' requires a block of 16x2x1 (.reqntid)");
  sim.run(req, {1, 1, 1}, {16, 2, 1}, {});
  const auto& mx = sim.kernel(ptxtest::module(".visible .entry m()\n.maxntid 128\n{\nret;\n}\n"));
  CHECK(launch_error(sim, mx, {1, 1, 1}, {129, 1, 1}, {}) ==
        "invalid configuration argument: kernel 'm' allows at most 128 threads per block (.maxntid)");
  sim.run(mx, {1, 1, 1}, {128, 1, 1}, {});
}

TEST_CASE("too much shared memory or too many registers: too many resources requested for launch",
          "[engine][host][launch]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(R"(
.extern .shared .align 4 .b8 dyn[];
.visible .entry s()
{
  .reg .b32 %r1;
  .shared .align 4 .b8 big[40960];
  st.shared.u32 [big], %r1;
  st.shared.u32 [dyn], %r1;
  ret;
}
)"));
  sim.run(k, {1, 1, 1}, {32, 1, 1}, {}, 8192);  // 48 KiB exactly
  std::string e = launch_error(sim, k, {1, 1, 1}, {32, 1, 1}, {}, 8196);
  CHECK(e.rfind("kernel 's' on Tesla C2070: too many resources requested for launch: shared memory: 49156 bytes per "
                "block exceed the device's 49152 (sm.max_shared_per_block)",
                0) == 0);
  std::string r = launch_error(sim, k, {1, 1, 1}, {32, 1, 1}, {}, 0, 64);
  CHECK(r == "kernel 's' on Tesla C2070: too many resources requested for launch: registers: 64 registers per "
             "thread exceed the device's 63 (sm.max_registers_per_thread)");
  // 1024 threads x 63 registers do not fit in 32 K registers.
  std::string rr = launch_error(sim, k, {1, 1, 1}, {1024, 1, 1}, {}, 0, 63);
  CHECK(rr.rfind("kernel 's' on Tesla C2070: too many resources requested for launch: registers:", 0) == 0);
  sim.run(k, {1, 1, 1}, {512, 1, 1}, {}, 4);
}

TEST_CASE("argument count and types are checked against the kernel's .param list", "[engine][host][launch]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(kTwoArgs);
  auto out = sim.zeros<uint32_t>(64);
  CHECK(launch_error(sim, k, {1, 1, 1}, {32, 1, 1}, {ptr(out)}) == "invalid argument: kernel 'k' takes 2 arguments, 1 given");
  CHECK(launch_error(sim, k, {1, 1, 1}, {32, 1, 1}, {ptr(out), ptxtest::integer(1), ptxtest::integer(2)}) ==
        "invalid argument: kernel 'k' takes 2 arguments, 3 given");
  CHECK(launch_error(sim, k, {1, 1, 1}, {32, 1, 1}, {ptr(out), warpsim::KernelArg::real(1.5)}) ==
        "invalid argument: kernel 'k' argument 1 ('n', .u32): a real number (1.5) given for an integer parameter");
  CHECK(launch_error(sim, k, {1, 1, 1}, {32, 1, 1}, {ptr(out), ptr(out)}) ==
        "invalid argument: kernel 'k' argument 1 ('n', .u32): a device pointer needs a 64-bit integer parameter");
  CHECK(launch_error(sim, k, {1, 1, 1}, {32, 1, 1}, {ptr(out), ptxtest::integer(1ll << 33)}) ==
        "invalid argument: kernel 'k' argument 1 ('n', .u32): value 8589934592 does not fit the parameter type");
  warpsim::KernelArg bytes;
  bytes.kind = warpsim::KernelArg::Kind::Bytes;
  bytes.bytes = {1, 2, 3};
  CHECK(launch_error(sim, k, {1, 1, 1}, {32, 1, 1}, {ptr(out), bytes}) ==
        "invalid argument: kernel 'k' argument 1 ('n', .u32): 3 bytes given for a 4-byte parameter");
  sim.run(k, {1, 1, 1}, {32, 1, 1}, {ptr(out), ptxtest::integer(20)});
  auto r = sim.download<uint32_t>(out, 32);
  for (uint32_t i = 0; i < 32; ++i) CHECK(r[i] == (i < 20 ? i : 0));
}

TEST_CASE("argument errors use CUDA's wording", "[engine][host][launch]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(kTwoArgs);
  auto out = sim.zeros<uint32_t>(64);
  CHECK(launch_error(sim, k, {1, 1, 1}, {32, 1, 1}, {ptr(out)}).rfind("invalid argument", 0) == 0);
  CHECK(launch_error(sim, k, {1, 1, 1}, {32, 1, 1}, {ptr(out), ptr(out)}).rfind("invalid argument", 0) == 0);
}

TEST_CASE("device memory: allocation, copies, frees and their errors", "[engine][host][memory]") {
  ptxtest::Sim sim;
  auto& dev = sim.dev;
  DevPtr a = dev.malloc(1000);
  DevPtr b = dev.malloc(1);
  CHECK(a % 256 == 0);
  CHECK(b % 256 == 0);
  CHECK(b > a + 1000);
  CHECK(dev.bytes_allocated() == 1001);
  std::vector<uint8_t> data(1000, 5);
  dev.copy_to_device(a, data.data(), 1000);
  dev.memset(a + 10, 9, 5);
  std::vector<uint8_t> back(1000);
  dev.copy_from_device(back.data(), a, 1000);
  CHECK(back[9] == 5);
  CHECK(back[10] == 9);
  CHECK(back[14] == 9);
  CHECK(back[15] == 5);
  auto copy = ptxtest::catch_error([&] { dev.copy_to_device(a + 996, data.data(), 8); });
  CHECK(copy.type == "LaunchError");
  CHECK(copy.what.rfind("copy to device of 8 bytes at", 0) == 0);
  auto from = ptxtest::catch_error([&] { dev.copy_from_device(back.data(), b + 1, 1); });
  CHECK(from.type == "LaunchError");
  dev.free(a);
  CHECK(dev.bytes_allocated() == 1);
  auto twice = ptxtest::catch_error([&] { dev.free(a); });
  CHECK(twice.type == "LaunchError");
  CHECK(twice.what == fmt::format("free of {:#x}: not the start of a live allocation", a));
  auto inner = ptxtest::catch_error([&] { dev.free(b + 1); });
  CHECK(inner.type == "LaunchError");
  // A kernel touching freed memory faults.
  const auto& k = sim.kernel(kTwoArgs);
  auto t = ptxtest::catch_error([&] { sim.run(k, {1, 1, 1}, {1, 1, 1}, {ptr(a), ptxtest::integer(1)}); });
  CHECK(t.fault == warpsim::KernelFault::Kind::MemoryAccess);
  auto oom = ptxtest::catch_error([&] { dev.malloc(uint64_t(7) << 30); });
  CHECK(oom.type == "LaunchError");
  CHECK(oom.what.rfind("out of device memory: 7516192768 bytes requested", 0) == 0);
}

TEST_CASE("sparse memory: a multi-GiB buffer costs almost nothing until touched", "[engine][host][memory]") {
  ptxtest::Sim sim;
  const uint64_t size = uint64_t(8) << 30;  // above the C2070's 6 GiB
  auto refused = ptxtest::catch_error([&] { sim.dev.malloc(size); });
  CHECK(refused.type == "LaunchError");
  sim.dev.set_memory_capacity(uint64_t(16) << 30);
  const uint64_t before = rss_bytes();
  DevPtr big = sim.dev.malloc(size);
  CHECK(sim.dev.bytes_allocated() == size);
  // Thread i writes i + 1 to the u32 at byte offset i * (size / 4) - 4 ... spread over the buffer.
  const auto& k = sim.kernel(ptxtest::module(R"(
.visible .entry spread(.param .u64 p, .param .u64 stride)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [p];
  ld.param.u64 %rd2, [stride];
  mov.u32 %r1, %tid.x;
  cvt.u64.u32 %rd3, %r1;
  mul.lo.u64 %rd4, %rd3, %rd2;
  add.s64 %rd5, %rd1, %rd4;
  add.u32 %r2, %r1, 1;
  st.global.u32 [%rd5], %r2;
  ret;
}
)"));
  const uint64_t stride = (size - 4) / 7 / 4 * 4;
  sim.run(k, {1, 1, 1}, {8, 1, 1}, {ptr(big), ptxtest::integer(int64_t(stride))});
  for (uint64_t i = 0; i < 8; ++i) {
    uint32_t v = 0;
    sim.dev.copy_from_device(&v, big + i * stride, 4);
    CHECK(v == i + 1);
  }
  uint32_t untouched = 7;
  sim.dev.copy_from_device(&untouched, big + (uint64_t(5) << 30) + 12, 4);
  CHECK(untouched == 0);  // never written: reads as zero
  // Eight touched 64 KiB pages, not 8 GiB.
  CHECK(int64_t(rss_bytes()) - int64_t(before) < (int64_t(64) << 20));
  sim.dev.free(big);
  CHECK(sim.dev.bytes_allocated() == 0);
}

TEST_CASE("kernel parameters: 32,764 bytes from Volta on, 4 KB before, more is a parse error",
          "[engine][host][launch]") {
  // A pointer that the kernel writes through, then a by-value array parameter of n bytes.
  auto big = [](uint32_t n) {
    return ptxtest::module(".visible .entry big(.param .u64 out, .param .align 4 .b8 p[" + std::to_string(n) +
                           "])\n{\n.reg .b32 %r1;\n.reg .b64 %rd1;\n"
                           "ld.param.u32 %r1, [p+" + std::to_string(n - 4) + "];\nld.param.u64 %rd1, [out];\n"
                           "cvta.to.global.u64 %rd1, %rd1;\nst.global.u32 [%rd1], %r1;\nret;\n}\n");
  };
  // The most CUDA allows loads; one more byte than that is refused where it is declared.
  const uint32_t most = 32764 - 8;  // after the 8-byte pointer
  auto too_many = ptxtest::catch_error([&] { warpsim::isa::parse_ptx(big(most + 4), "big.ptx"); });
  CHECK_THAT(too_many.what, Catch::Contains("big.ptx:4:") &&
                                Catch::Contains("kernel 'big' has 32768 bytes of parameters, over the 32764 CUDA allows"));

  std::vector<uint8_t> bytes(most, 0);
  bytes[most - 4] = 42;
  // The C2070 (cc 2.0) takes 4 KB: the launch is refused, naming both sizes.
  {
    ptxtest::Sim sim;
    const auto& k = sim.kernel(big(most));
    auto out = sim.zeros<uint32_t>(1);
    std::vector<warpsim::KernelArg> args(2);
    args[0] = ptr(out);
    args[1].kind = warpsim::KernelArg::Kind::Bytes;
    args[1].bytes = bytes;
    CHECK(launch_error(sim, k, {1, 1, 1}, {1, 1, 1}, args) ==
          "kernel 'big' takes 32764 bytes of parameters; the Tesla C2070 (cc 2.0) allows 4096 (32764 needs cc 7.0 or "
          "later and CUDA 12.1)");
  }
  // The H100 (cc 9.0) runs it, and the last bytes arrive.
  {
    warpsim::Device dev(warpsim::load_device_spec(WARPSIM_SOURCE_DIR "/configs/h100.json"));
    const auto& k = dev.load_ptx(big(most), "big.ptx").kernel("big");
    DevPtr out = dev.malloc(4);
    std::vector<warpsim::KernelArg> args(2);
    args[0] = ptr(out);
    args[1].kind = warpsim::KernelArg::Kind::Bytes;
    args[1].bytes = bytes;
    warpsim::LaunchOptions o;
    o.mode = warpsim::SimMode::Functional;
    dev.launch(k, {1, 1, 1}, {1, 1, 1}, 0, args, o);
    uint32_t v = 0;
    dev.copy_from_device(&v, out, 4);
    CHECK(v == 42);
  }
}
