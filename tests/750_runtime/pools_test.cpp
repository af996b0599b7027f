// Stream-ordered allocation and graph memory, on the MemPool class and the Runtime directly:
// chunk sizes, first-fit reuse, trimming, maxSize, the release at a synchronize, graph
// allocation addresses and their reuse, and cudaLaunchKernelExC's attributes. The same
// behaviour end to end, against an H100's output, is programs_test's mem_pools/launch_ex.
#include <catch2/catch.hpp>

#include <fstream>
#include <functional>
#include <sstream>
#include <thread>

#include "error_code.hpp"
#include "fatbin_builder.hpp"
#include "sim/runtime/mem_pool.hpp"
#include "sim/runtime/runtime.hpp"

using namespace warpsim;
using namespace warpsim::runtime;
using rttest::code_of;

namespace {

constexpr uint64_t MiB = uint64_t(1) << 20;

struct FakeDevice {  // hands out chunk addresses 1 GiB apart and remembers what it freed
  uint64_t next = uint64_t(1) << 30;
  std::vector<uint64_t> freed;
  MemPool::Reserve reserve() {
    return [this](uint64_t) {
      next += uint64_t(1) << 30;
      return next;
    };
  }
  MemPool::Unreserve unreserve() {
    return [this](uint64_t base) { freed.push_back(base); };
  }
};

}  // namespace

TEST_CASE("mem pool: 32 MiB chunks, first fit, bytes asked for as used") {
  FakeDevice dev;
  MemPool p;
  const uint64_t a = *p.allocate(4 * MiB, dev.reserve());
  const uint64_t b = *p.allocate(1000, dev.reserve());
  const uint64_t c = *p.allocate(3 * MiB, dev.reserve());
  CHECK(b == a + 4 * MiB);
  CHECK(c == b + 1024);  // 256-byte aligned
  CHECK(p.used() == 4 * MiB + 1000 + 3 * MiB);
  CHECK(p.reserved() == 32 * MiB);
  // The freed block is the first fit for the next allocation of its size.
  CHECK(p.release(a));
  CHECK_FALSE(p.release(a));
  CHECK_FALSE(p.release(b + 8));  // not the start of an allocation
  CHECK(*p.allocate(4 * MiB, dev.reserve()) == a);
  // An allocation larger than a chunk gets a chunk of its own, in 2 MiB steps.
  const uint64_t big = *p.allocate(33 * MiB, dev.reserve());
  CHECK(big != a);
  CHECK(p.reserved() == 32 * MiB + 34 * MiB);
  CHECK(p.reserved_high() == 66 * MiB);
  // Trimming gives back only chunks with nothing live in them.
  p.release(big);
  p.trim(0, dev.unreserve());
  CHECK(dev.freed == std::vector<uint64_t>{big});
  CHECK(p.reserved() == 32 * MiB);
  p.release(a);
  p.release(b);
  p.release(c);
  CHECK(p.empty());
  p.trim(32 * MiB, dev.unreserve());  // keeps what the threshold allows
  CHECK(p.reserved() == 32 * MiB);
  p.trim(0, dev.unreserve());
  CHECK(p.reserved() == 0);
  CHECK(p.used_high() == 4 * MiB + 1000 + 3 * MiB + 33 * MiB);
  p.reset_used_high();
  CHECK(p.used_high() == 0);
}

TEST_CASE("mem pool: maxSize bounds what the pool reserves") {
  FakeDevice dev;
  MemPool p(40 * MiB);
  CHECK(p.allocate(30 * MiB, dev.reserve()));
  CHECK_FALSE(p.allocate(8 * MiB, dev.reserve()));  // a second chunk would pass 40 MiB
  CHECK(p.allocate(2 * MiB, dev.reserve()));        // still fits the first chunk
}

TEST_CASE("runtime: cudaMallocAsync draws from the current pool and frees at a synchronize") {
  RuntimeOptions o;
  o.program = "test";
  Runtime rt(o);
  void* s = rt.create_stream();
  MemPool& def = rt.pool(rt.default_pool(), "t");
  void* a = rt.malloc_async(1 * MiB, nullptr, s, "t");
  CHECK(def.used() == 1 * MiB);
  CHECK(def.reserved() == 32 * MiB);
  uint64_t free_bytes = 0, total = 0;
  rt.mem_get_info(&free_bytes, &total);
  CHECK(total - free_bytes == 32 * MiB);  // the chunk is device memory in use
  rt.free_async(a, s, "cudaFreeAsync");
  CHECK(def.reserved() == 32 * MiB);  // until a synchronize
  rt.release_pool_memory();
  CHECK(def.reserved() == 0);
  rt.mem_get_info(&free_bytes, &total);
  CHECK(free_bytes == total);
  CHECK(rt.malloc_async(0, nullptr, s, "t") == nullptr);
  CHECK(code_of([&] { rt.malloc_async(uint64_t(1) << 50, nullptr, s, "t"); }) == cuda::ErrorMemoryAllocation);
  int host = 0;
  CHECK(code_of([&] { rt.free_async(&host, s, "cudaFreeAsync"); }) == cuda::ErrorInvalidValue);
  // A second free of a pool allocation at the start of its chunk is refused; the chunk,
  // which the device sees as one allocation, stays the pool's.
  void* first = rt.malloc_async(4096, nullptr, s, "t");
  void* second = rt.malloc_async(4096, nullptr, s, "t");
  rt.free_async(first, s, "cudaFreeAsync");
  CHECK(code_of([&] { rt.free_async(first, s, "cudaFreeAsync"); }) == cuda::ErrorInvalidValue);
  CHECK(code_of([&] { rt.free(first); }) == cuda::ErrorInvalidValue);
  CHECK(code_of([&] { rt.free(static_cast<char*>(second) + 16); }) == cuda::ErrorInvalidValue);
  rt.free_async(second, s, "cudaFreeAsync");
  rt.release_pool_memory();
  CHECK(def.reserved() == 0);

  // A created pool, destroyed while an allocation is live: the allocation stays usable
  // and freeing it releases the pool's memory.
  cuda::MemPoolProps props{};
  props.allocType = cuda::MemAllocationTypePinned;
  props.location = {cuda::MemLocationTypeDevice, 0};
  void* mine = rt.create_pool(&props, "cudaMemPoolCreate");
  void* m = rt.malloc_async(4096, mine, s, "t");
  rt.memset(m, 7, 4096);
  rt.destroy_pool(mine, "cudaMemPoolDestroy");
  CHECK(code_of([&] { rt.pool(mine, "t"); }) == cuda::ErrorInvalidValue);
  rt.free_async(m, s, "cudaFreeAsync");
  rt.mem_get_info(&free_bytes, &total);
  CHECK(free_bytes == total);
  CHECK(code_of([&] { rt.destroy_pool(rt.default_pool(), "cudaMemPoolDestroy"); }) == cuda::ErrorInvalidValue);
  props.location.id = 1;  // a device that is not there: an invalid value, as on an H200
  CHECK(code_of([&] { rt.create_pool(&props, "cudaMemPoolCreate"); }) == cuda::ErrorInvalidValue);
  props.location.id = 0;
  props.handleTypes = 2;  // a Win32 handle (a POSIX descriptor, 1, is shared: ipc_test.cpp)
  CHECK(code_of([&] { rt.create_pool(&props, "cudaMemPoolCreate"); }) == cuda::ErrorNotSupported);
  props.handleTypes = 8;  // a fabric handle
  CHECK(code_of([&] { rt.create_pool(&props, "cudaMemPoolCreate"); }) == cuda::ErrorNotSupported);
  // A shareable pool: its memory is the device's, read and written as any other.
  props.handleTypes = 1;
  void* shared = rt.create_pool(&props, "cudaMemPoolCreate");
  auto* q = static_cast<uint8_t*>(rt.malloc_async(1000, shared, s, "t"));
  rt.memset(q, 9, 1000);
  uint8_t back[1000] = {};
  rt.memcpy(back, q, 1000, cuda::DeviceToHost, "t");
  CHECK(back[0] == 9);
  CHECK(back[999] == 9);
  rt.free_async(q, s, "cudaFreeAsync");
  rt.destroy_pool(shared, "cudaMemPoolDestroy");
  rt.mem_get_info(&free_bytes, &total);
  CHECK(free_bytes == total);
}

TEST_CASE("runtime: graph allocations reuse the address of one freed before them") {
  RuntimeOptions o;
  o.program = "test";
  Runtime rt(o);
  void* g = rt.create_graph();
  cuda::MemAllocNodeParams p{};
  p.poolProps.allocType = cuda::MemAllocationTypePinned;
  p.poolProps.location = {cuda::MemLocationTypeDevice, 0};
  p.bytesize = 1 * MiB;
  void* a = rt.add_mem_alloc_node(g, nullptr, 0, &p);
  void* pa = p.dptr;
  void* fa = rt.add_mem_free_node(g, &a, 1, pa);
  void* b = rt.add_mem_alloc_node(g, &fa, 1, &p);  // after a's free: same address
  CHECK(p.dptr == pa);
  void* c = rt.add_mem_alloc_node(g, nullptr, 0, &p);  // concurrent with a: its own
  CHECK(p.dptr != pa);
  p.bytesize = 2 * MiB;
  void* fb = rt.add_mem_free_node(g, &b, 1, pa);
  rt.add_mem_alloc_node(g, &fb, 1, &p);  // larger than a: its own address
  CHECK(p.dptr != pa);
  CHECK(code_of([&] { rt.add_mem_free_node(g, &c, 1, pa); }) == cuda::ErrorInvalidValue);  // freed twice already
  int host = 0;
  CHECK(code_of([&] { rt.add_mem_free_node(g, nullptr, 0, &host); }) == cuda::ErrorInvalidValue);
  (void)c;
}

TEST_CASE("runtime: cooperative launches and launches in clusters are captured as kernel nodes with those attributes") {
  // The node runs as the launch would have (Runtime::run_node); before 2026-12-01 these
  // launches were refused on a capturing stream, and the capture invalidated.
  for (bool cooperative : {false, true}) {
    INFO((cooperative ? "cooperative" : "clusters"));
    RuntimeOptions o;
    o.program = "test";
    Runtime rt(o);
    void* m = rt.load_module(".version 7.5\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n ret;\n}\n",
                             "test", "test");
    void* k = rt.module_function(m, "k", "test");
    void* s = rt.create_stream();
    rt.begin_capture(s);
    const cuda::Dim3 cluster{2, 1, 1};
    rt.launch(k, {2, 1, 1}, {32, 1, 1}, nullptr, 0, s, cooperative, nullptr, cooperative ? nullptr : &cluster);
    Graph* g = rt.end_capture(s);
    REQUIRE(g->nodes.size() == 1);
    const GraphNode* node = g->nodes[0].get();
    const auto coop = rt.kernel_node_attribute(node, cuda::LaunchAttributeCooperative, "test");
    const auto dims = rt.kernel_node_attribute(node, cuda::LaunchAttributeClusterDimension, "test");
    CHECK(coop.cooperative == (cooperative ? 1 : 0));
    CHECK(dims.clusterDim.x == (cooperative ? 0u : 2u));
    CHECK(dims.clusterDim.y == (cooperative ? 0u : 1u));
    // A window the launch did not have reads as none; the node's other attributes as zeros.
    CHECK(rt.kernel_node_attribute(node, cuda::LaunchAttributeAccessPolicyWindow, "test").accessPolicyWindow.num_bytes ==
          0);
    CHECK(code_of([&] { rt.kernel_node_attribute(node, cuda::LaunchAttributeSynchronizationPolicy, "test"); }) ==
          cuda::ErrorInvalidValue);
  }
}

TEST_CASE("runtime: capture modes forbid unsafe calls on the capturing thread and, in global mode, on others") {
  RuntimeOptions o;
  o.program = "test";
  const auto code_in_thread = [](const std::function<void()>& f) {
    int code = 0;
    std::thread t([&] { code = code_of(f); });
    t.join();
    return code;
  };
  for (int mode : {0, 1, 2}) {  // global, thread-local, relaxed
    INFO("capture mode " << mode);
    Runtime rt(o);
    void* s = rt.create_stream();
    rt.begin_capture(s, mode);
    // Another thread: refused only when the capture is global (its own mode is global).
    const int other = code_in_thread([&] { rt.check_unsafe_during_capture("cudaMalloc"); });
    CHECK(other == (mode == 0 ? cuda::ErrorStreamCaptureUnsupported : cuda::Success));
    CHECK(rt.capture_info(s, nullptr, nullptr, nullptr, nullptr) ==
          (mode == 0 ? cuda::StreamCaptureStatusInvalidated : cuda::StreamCaptureStatusActive));
    // This thread: refused unless the capture is relaxed; a device-wide sync always.
    CHECK(code_of([&] { rt.check_unsafe_during_capture("cudaMalloc"); }) ==
          (mode == 2 ? cuda::Success : cuda::ErrorStreamCaptureUnsupported));
    CHECK(code_of([&] { rt.check_device_sync_during_capture("cudaDeviceSynchronize"); }) ==
          cuda::ErrorStreamCaptureUnsupported);
    CHECK(code_of([&] { rt.end_capture(s); }) == cuda::ErrorStreamCaptureInvalidated);
    // No capture: nothing is refused.
    rt.check_unsafe_during_capture("cudaMalloc");
    rt.check_device_sync_during_capture("cudaDeviceSynchronize");
  }
  // A thread switched to relaxed may make them during its own global capture.
  Runtime rt(o);
  void* s = rt.create_stream();
  rt.begin_capture(s, 0);
  CHECK(rt.exchange_capture_mode(2) == 0);
  rt.check_unsafe_during_capture("cudaMalloc");
  CHECK(rt.exchange_capture_mode(0) == 2);
  CHECK(rt.capture_info(s, nullptr, nullptr, nullptr, nullptr) == cuda::StreamCaptureStatusActive);
  CHECK(rt.end_capture(s) != nullptr);
}

TEST_CASE("runtime: a user object's destructor is due when its last reference goes, graphs' included") {
  RuntimeOptions o;
  o.program = "test";
  Runtime rt(o);
  int destroyed = 0;
  const auto bump = [](void* p) { ++*static_cast<int*>(p); };
  const auto run_due = [&] {
    for (const auto& [destroy, ptr] : rt.take_due_destructors()) destroy(ptr);
  };
  void* obj = rt.create_user_object(&destroyed, bump, 2, 1, "t");
  Graph* g = rt.create_graph();
  rt.graph_retain_user_object(g, obj, 1, 1, "t");  // one of the two moves to the graph
  Graph* c = rt.clone_graph(g);                    // the clone holds its own
  GraphExec* e = rt.instantiate(g, 0);             // and so does the instantiation
  rt.release_user_object(obj, 1, "t");
  rt.destroy_graph(g);
  rt.destroy_graph(c);
  run_due();
  CHECK(destroyed == 0);
  rt.destroy_exec(e);
  run_due();
  CHECK(destroyed == 1);
  CHECK(code_of([&] { rt.retain_user_object(obj, 1, "t"); }) == cuda::ErrorInvalidValue);  // gone
  void* two = rt.create_user_object(&destroyed, bump, 1, 1, "t");
  CHECK(code_of([&] { rt.release_user_object(two, 2, "t"); }) == cuda::ErrorInvalidValue);  // more than held
  CHECK(code_of([&] { rt.create_user_object(&destroyed, bump, 1, 0, "t"); }) == cuda::ErrorInvalidValue);
  rt.release_user_object(two, 1, "t");
  run_due();
  CHECK(destroyed == 2);
}

TEST_CASE("runtime: a captured cudaMallocAsync is an allocation node of its size, its free a free node") {
  RuntimeOptions o;
  o.program = "test";
  Runtime rt(o);
  void* s = rt.create_stream();
  rt.begin_capture(s);
  void* p = rt.malloc_async(3000, nullptr, s, "t");
  REQUIRE(p != nullptr);
  int host = 0;
  CHECK(code_of([&] { rt.free_async(&host, s, "cudaFreeAsync"); }) == cuda::ErrorStreamCaptureUnsupported);
  rt.free_async(p, s, "cudaFreeAsync");
  Graph* g = rt.end_capture(s);
  REQUIRE(g->nodes.size() == 2);
  CHECK(g->nodes[0]->kind == GraphNode::Kind::MemAlloc);
  CHECK(g->nodes[0]->bytes == 3000);
  CHECK(g->nodes[0]->dst == p);
  CHECK(g->nodes[1]->kind == GraphNode::Kind::MemFree);
  CHECK(g->nodes[1]->dst == p);
  // Launched twice: allocated and freed each time; the graph memory stays reserved.
  GraphExec* e = rt.instantiate(g);
  for (int i = 0; i < 2; ++i) {
    rt.check_graph_allocations(*e);
    for (const GraphNode& n : e->order) rt.run_node(n, s);
  }
  CHECK(rt.graph_memory_attribute(cuda::GraphMemAttrReservedMemCurrent) == 32 * MiB);
  rt.graph_memory_trim();
  CHECK(rt.graph_memory_attribute(cuda::GraphMemAttrReservedMemCurrent) == 0);
  CHECK(rt.graph_memory_attribute(cuda::GraphMemAttrReservedMemHigh) == 32 * MiB);
  // Destroying the graph and its executable gives the address back.
  rt.destroy_exec(e);
  rt.destroy_graph(g);
  uint64_t free_bytes = 0, total = 0;
  rt.mem_get_info(&free_bytes, &total);
  CHECK(free_bytes == total);
}

TEST_CASE("runtime: cudaLaunchKernelExC refuses the attributes it cannot honour, naming them") {
  RuntimeOptions o;
  o.program = "test";
  Runtime rt(o);
  cuda::LaunchAttribute attr{};
  cuda::LaunchConfig cfg{};
  cfg.gridDim = {1, 1, 1};
  cfg.blockDim = {32, 1, 1};
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
  char not_a_kernel = 0;
  for (int id : {cuda::LaunchAttributePreferredClusterDimension, cuda::LaunchAttributeMemSyncDomain,
                 cuda::LaunchAttributeProgrammaticEvent}) {
    attr.id = id;
    try {
      rt.launch_ex(&cfg, &not_a_kernel, nullptr);
      FAIL("accepted attribute " << id);
    } catch (const ApiError& e) {
      CHECK(e.code() == cuda::ErrorNotSupported);
      CHECK_THAT(e.what(), Catch::Contains("cudaLaunchAttribute"));
    }
  }
  attr.id = 99;
  CHECK(code_of([&] { rt.launch_ex(&cfg, &not_a_kernel, nullptr); }) == cuda::ErrorInvalidValue);
  // An access policy window is taken (programs_test, l2_access), checked first: the C2070
  // has no L2 access control, so any window is larger than its maximum.
  attr.id = cuda::LaunchAttributeAccessPolicyWindow;
  attr.val.accessPolicyWindow.num_bytes = 4096;
  CHECK(code_of([&] { rt.launch_ex(&cfg, &not_a_kernel, nullptr); }) == cuda::ErrorInvalidValue);
  attr.val.accessPolicyWindow.num_bytes = 0;
  attr.id = cuda::LaunchAttributeProgrammaticStreamSerialization;  // accepted; the function is not a kernel
  CHECK(code_of([&] { rt.launch_ex(&cfg, &not_a_kernel, nullptr); }) == cuda::ErrorInvalidResourceHandle);
  attr.id = cuda::LaunchAttributeClusterDimension;  // taken since thread block clusters (programs_test, clusters)
  attr.val.clusterDim = {2, 1, 1};
  CHECK(code_of([&] { rt.launch_ex(&cfg, &not_a_kernel, nullptr); }) == cuda::ErrorInvalidResourceHandle);
  CHECK(code_of([&] { rt.launch_ex(nullptr, &not_a_kernel, nullptr); }) == cuda::ErrorInvalidValue);
}
