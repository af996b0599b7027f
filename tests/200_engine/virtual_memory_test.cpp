// Virtual memory management in global memory (CUDA's cuMemCreate, cuMemAddressReserve,
// cuMemMap, cuMemSetAccess): capacity, placement, access, aliasing, handles that outlive or
// are outlived by their mappings, copies over mappings end to end, and kernels that touch
// memory without access.
#include <catch2/catch.hpp>

#include <cstring>
#include <vector>

#include "200_engine/ptx_fixture.hpp"
#include "sim/memory/global_memory.hpp"

using warpsim::mem::GlobalMemory;
using ptxtest::ptr;

namespace {

constexpr uint64_t kG = GlobalMemory::kGranularity;

uint64_t physical(GlobalMemory& gm, uint64_t bytes) {
  uint64_t id = 0;
  REQUIRE(gm.create_physical(bytes, &id) == "");
  return id;
}

uint64_t reserved(GlobalMemory& gm, uint64_t bytes) {
  uint64_t base = 0;
  REQUIRE(gm.reserve(bytes, 0, 0, &base) == "");
  return base;
}

}  // namespace

TEST_CASE("virtual memory: physical memory counts against the capacity until its last handle and mapping go",
          "[memory][vmm]") {
  GlobalMemory gm;
  gm.set_capacity(8 * kG);
  uint64_t id = 0;
  CHECK_THAT(gm.create_physical(kG / 2, &id), Catch::Contains("not a non-zero multiple of the granularity"));
  CHECK_THAT(gm.create_physical(9 * kG, &id), Catch::Contains("out of device memory"));
  const uint64_t a = physical(gm, 2 * kG);
  CHECK(gm.bytes_allocated() == 2 * kG);
  CHECK(gm.physical_bytes(a) == 2 * kG);
  const uint64_t va = reserved(gm, 4 * kG);
  CHECK(gm.bytes_allocated() == 2 * kG);  // address space costs nothing
  REQUIRE(gm.map_physical(va, 2 * kG, a) == "");
  CHECK(gm.bytes_allocated() == 2 * kG);  // nor does a mapping
  // The handle goes; the memory stays while it is mapped, then goes with the mapping.
  REQUIRE(gm.release_physical(a) == "");
  CHECK(gm.physical_bytes(a) == 0);
  CHECK_THAT(gm.release_physical(a), Catch::Contains("not a live allocation handle"));
  CHECK(gm.bytes_allocated() == 2 * kG);
  REQUIRE(gm.retain_physical(a) == "");  // cuMemRetainAllocationHandle: a handle again
  REQUIRE(gm.release_physical(a) == "");
  REQUIRE(gm.unmap(va, 2 * kG) == "");
  CHECK(gm.bytes_allocated() == 0);
  CHECK_THAT(gm.retain_physical(a), Catch::Contains("not a live allocation"));
  // The other order: unmapped first, the handle frees it.
  const uint64_t b = physical(gm, kG);
  REQUIRE(gm.map_physical(va, kG, b) == "");
  REQUIRE(gm.unmap(va, kG) == "");
  CHECK(gm.bytes_allocated() == kG);
  REQUIRE(gm.release_physical(b) == "");
  CHECK(gm.bytes_allocated() == 0);
  REQUIRE(gm.unreserve(va, 4 * kG) == "");
}

TEST_CASE("virtual memory: a mapping is reachable only with access, and only inside its reservation",
          "[memory][vmm]") {
  GlobalMemory gm;
  const uint64_t id = physical(gm, 2 * kG);
  const uint64_t va = reserved(gm, 3 * kG);
  CHECK(va % kG == 0);
  CHECK_THAT(gm.map_physical(va + 2 * kG, 2 * kG, id), Catch::Contains("not inside one address reservation"));
  CHECK_THAT(gm.map_physical(va, 3 * kG, id), Catch::Contains("larger than the allocation"));
  CHECK_THAT(gm.map_physical(va + 1, kG, id), Catch::Contains("multiples of the granularity"));
  CHECK_THAT(gm.map_physical(va, kG, id + 1), Catch::Contains("not a live allocation handle"));
  REQUIRE(gm.map_physical(va, 2 * kG, id) == "");
  CHECK_THAT(gm.map_physical(va + kG, kG, id), Catch::Contains("overlaps the mapping at"));
  // Mapped but without access: find() does not return it; describe() says why.
  CHECK(gm.find(va, 4) == nullptr);
  CHECK(gm.mapping_at(va + 8));
  CHECK_THAT(gm.describe(va + 8, 4), Catch::Contains("which has no access (cuMemSetAccess)"));
  CHECK_THAT(gm.describe(va + 2 * kG + 8, 4), Catch::Contains("address reservation at") &&
                                                  Catch::Contains("where nothing is mapped (cuMemMap)"));
  CHECK_THAT(gm.set_access(va, 3 * kG, true), Catch::Contains("nothing starts at"));
  CHECK_THAT(gm.set_access(va, kG, true), Catch::Contains("does not end where a mapping ends"));
  REQUIRE(gm.set_access(va, 2 * kG, true) == "");
  REQUIRE(gm.find(va + 2 * kG - 4, 4));
  CHECK(gm.find(va + 2 * kG, 4) == nullptr);
  CHECK(gm.accessible_from(va + 16) == 2 * kG - 16);
  // Taking access away makes cached allocation pointers look again.
  const uint64_t releases = gm.releases();
  REQUIRE(gm.set_access(va, 2 * kG, false) == "");
  CHECK(gm.releases() > releases);
  CHECK(gm.find(va, 4) == nullptr);
  // Neither ordinary frees nor a reservation's free take a mapping away.
  CHECK_FALSE(gm.release(va));
  CHECK_THAT(gm.unreserve(va, 3 * kG), Catch::Contains("still has memory mapped in it"));
  CHECK_THAT(gm.unreserve(va, 2 * kG), Catch::Contains("is not an address range cuMemAddressReserve returned"));
  CHECK_THAT(gm.unmap(va, kG), Catch::Contains("does not end where a mapping ends"));
  REQUIRE(gm.unmap(va, 2 * kG) == "");
  CHECK_FALSE(gm.mapping_at(va));
  REQUIRE(gm.unreserve(va, 3 * kG) == "");
  CHECK_THAT(gm.unreserve(va, 3 * kG), Catch::Contains("is not an address range"));
}

TEST_CASE("virtual memory: ordinary allocations are never placed in a reservation", "[memory][vmm]") {
  GlobalMemory gm;
  uint64_t hinted = 0;
  const uint64_t hint = GlobalMemory::kFirstBase + 64 * kG;
  REQUIRE(gm.reserve(4 * kG, 0, hint, &hinted) == "");
  CHECK(hinted == hint);  // free and aligned: the hint is taken
  uint64_t aligned = 0;
  REQUIRE(gm.reserve(kG, 16 * kG, 0, &aligned) == "");
  CHECK(aligned % (16 * kG) == 0);
  CHECK_THAT(gm.reserve(kG, 3, 0, &aligned), Catch::Contains("not a power of two"));
  CHECK_THAT(gm.reserve(4096, 0, 0, &aligned), Catch::Contains("multiple of the granularity"));
  uint64_t again = 0;
  REQUIRE(gm.reserve(kG, 0, hint + kG, &again) == "");  // taken: placed elsewhere
  CHECK(again != hint + kG);
  for (int i = 0; i < 100; ++i) {
    const uint64_t p = gm.allocate(kG + 12345);
    CHECK_FALSE(gm.in_reservation(p));
    CHECK_FALSE(gm.in_reservation(p + kG + 12344));
  }
  // Nor is memory mapped in from outside (pinned host memory, device-heap blocks).
  std::vector<uint8_t> host(4096);
  CHECK_FALSE(gm.map_external(hint + 4096, host.data(), host.size(), "host"));
  CHECK(gm.map_external(hint + 4 * kG, host.data(), host.size(), "host"));  // just past it
}

TEST_CASE("virtual memory: two mappings of one allocation see the same bytes", "[memory][vmm]") {
  GlobalMemory gm;
  const uint64_t id = physical(gm, kG);
  const uint64_t va = reserved(gm, kG), vb = reserved(gm, kG);
  REQUIRE(gm.map_physical(va, kG, id) == "");
  CHECK_FALSE(gm.has_aliased_mappings());
  REQUIRE(gm.map_physical(vb, kG, id) == "");
  CHECK(gm.has_aliased_mappings());
  REQUIRE(gm.set_access(va, kG, true) == "");
  REQUIRE(gm.set_access(vb, kG, true) == "");
  // A page first written through either address is the other's too.
  const uint32_t x = 0x12345678, y = 0x9abcdef0;
  gm.write(*gm.find(va + 100, 4), va + 100, &x, 4);
  gm.write(*gm.find(vb + 5 * GlobalMemory::kPageSize, 4), vb + 5 * GlobalMemory::kPageSize, &y, 4);
  uint32_t got = 0;
  gm.read(*gm.find(vb + 100, 4), vb + 100, &got, 4);
  CHECK(got == x);
  gm.read(*gm.find(va + 5 * GlobalMemory::kPageSize, 4), va + 5 * GlobalMemory::kPageSize, &got, 4);
  CHECK(got == y);
  REQUIRE(gm.unmap(vb, kG) == "");
  CHECK_FALSE(gm.has_aliased_mappings());
  gm.read(*gm.find(va + 100, 4), va + 100, &got, 4);
  CHECK(got == x);  // the bytes stay with the allocation
}

TEST_CASE("virtual memory: copies run over mappings end to end, and stop before a gap", "[memory][vmm]") {
  ptxtest::Sim sim;
  warpsim::Device& d = sim.dev;
  uint64_t a = 0, b = 0;
  REQUIRE(d.create_physical(kG, &a) == "");
  REQUIRE(d.create_physical(kG, &b) == "");
  warpsim::DevPtr va = 0;
  REQUIRE(d.reserve(3 * kG, 0, 0, &va) == "");
  REQUIRE(d.map_physical(va, kG, a) == "");
  REQUIRE(d.map_physical(va + kG, kG, b) == "");
  REQUIRE(d.set_access(va, 2 * kG, true) == "");
  std::vector<uint8_t> in(2 * kG);
  for (size_t i = 0; i < in.size(); ++i) in[i] = uint8_t(i * 7 + i / 4096);
  d.copy_to_device(va, in.data(), in.size());
  std::vector<uint8_t> out(2 * kG);
  d.copy_from_device(out.data(), va, out.size());
  CHECK(out == in);
  d.memset(va + kG - 10, 0xAB, 20);
  d.copy_from_device(out.data(), va + kG - 10, 20);
  for (int i = 0; i < 20; ++i) CHECK(out[i] == 0xAB);
  // Past the second mapping lies reserved space with nothing mapped: the copy is refused
  // whole, naming the place, and nothing is written.
  std::vector<uint8_t> ones(kG, 1);
  const ptxtest::Thrown t = ptxtest::catch_error([&] { d.copy_to_device(va + kG + kG / 2, ones.data(), kG); });
  CHECK(t.type == "LaunchError");
  CHECK_THAT(t.what, Catch::Contains("where nothing is mapped (cuMemMap)"));
  d.copy_from_device(out.data(), va + kG + kG / 2, 16);
  for (int i = 0; i < 16; ++i) CHECK(out[i] == in[kG + kG / 2 + i]);
}

TEST_CASE("virtual memory: a kernel that touches a mapping without access faults, naming it", "[memory][vmm]") {
  ptxtest::Sim sim;
  const auto& k = sim.kernel(ptxtest::module(R"(
.visible .entry store(.param .u64 out)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  ret;
}
)"));
  warpsim::Device& d = sim.dev;
  uint64_t id = 0;
  REQUIRE(d.create_physical(kG, &id) == "");
  warpsim::DevPtr va = 0;
  REQUIRE(d.reserve(2 * kG, 0, 0, &va) == "");
  REQUIRE(d.map_physical(va, kG, id) == "");
  auto run = [&](warpsim::DevPtr p) { return ptxtest::catch_error([&] { sim.run(k, {1, 1, 1}, {64, 1, 1}, {ptr(p)}); }); };
  ptxtest::Thrown t = run(va);
  CHECK(t.type == "KernelFault");
  CHECK_THAT(t.what, Catch::Contains("which has no access (cuMemSetAccess)"));
  REQUIRE(d.set_access(va, kG, true) == "");
  t = run(va);
  CHECK(t.type == "none");
  CHECK(sim.download<uint32_t>(va, 64)[63] == 63);
  // The last 32 threads' words lie past the mapping, in the reservation.
  t = run(va + kG - 128);
  CHECK(t.type == "KernelFault");
  CHECK_THAT(t.what, Catch::Contains("where nothing is mapped (cuMemMap)"));
  // Taking access away is seen by the next launch.
  REQUIRE(d.set_access(va, kG, false) == "");
  t = run(va);
  CHECK(t.type == "KernelFault");
}
