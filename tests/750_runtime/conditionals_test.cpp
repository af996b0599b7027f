// Conditional graph nodes through the Runtime class (the program graph_conditional.cu
// checks them against an H100): parameter checks, and a WHILE node that could never stop.
#include <catch2/catch.hpp>

#include "error_code.hpp"
#include "runtime_options.hpp"
#include "sim/runtime/runtime.hpp"

using namespace warpsim;
using namespace warpsim::runtime;
using rttest::code_of;

namespace {

cuda::GraphNodeParams conditional(uint64_t handle, int type, unsigned size) {
  cuda::GraphNodeParams p{};
  p.type = cuda::GraphNodeTypeConditional;
  p.conditional.handle = handle;
  p.conditional.type = type;
  p.conditional.size = size;
  return p;
}

}  // namespace

TEST_CASE("conditionals: handles and node parameters are checked") {
  Runtime rt(rttest::functional_options());
  Graph* g = rt.create_graph();
  CHECK(code_of([&] { rt.create_condition(g, 0, 2); }) == cuda::ErrorInvalidValue);
  CHECK(code_of([&] { rt.create_condition(&rt, 0, 0); }) == cuda::ErrorInvalidValue);  // not a graph
  const uint64_t h = rt.create_condition(g, 3, cuda::GraphCondAssignDefault);
  const uint64_t h2 = rt.create_condition(g, 0, 0);
  CHECK(h2 == h + 4);  // one word each
  auto p = conditional(h + 1, cuda::GraphCondTypeIf, 1);
  CHECK(code_of([&] { rt.node_from_params(g, &p, "t"); }) == cuda::ErrorInvalidValue);  // not a handle
  p = conditional(h, 7, 1);
  CHECK(code_of([&] { rt.node_from_params(g, &p, "t"); }) == cuda::ErrorInvalidValue);  // no such type
  cuda::GraphNodeParams host{};
  host.type = cuda::GraphNodeTypeHost;  // without a function
  CHECK(code_of([&] { rt.node_from_params(g, &host, "t"); }) == cuda::ErrorInvalidValue);
  cuda::GraphNodeParams semaphore{};
  semaphore.type = cuda::GraphNodeTypeExtSemaphoreSignal;
  CHECK(code_of([&] { rt.node_from_params(g, &semaphore, "t"); }) == cuda::ErrorNotSupported);
  p = conditional(h, cuda::GraphCondTypeSwitch, 5);
  GraphNode n = rt.node_from_params(g, &p, "t");
  REQUIRE(p.conditional.phGraph_out != nullptr);
  CHECK(n.bodies->size() == 5);
  CHECK(p.conditional.phGraph_out[4] == (*n.bodies)[4]);
  CHECK(&rt.graph(p.conditional.phGraph_out[4], "t") != nullptr);  // a live graph to add nodes to
}

TEST_CASE("conditionals: a WHILE node whose body launches nothing stops with cudaErrorLaunchTimeout") {
  Runtime rt(rttest::functional_options());
  Graph* g = rt.create_graph();
  const uint64_t h = rt.create_condition(g, 1, cuda::GraphCondAssignDefault);
  auto p = conditional(h, cuda::GraphCondTypeWhile, 1);
  rt.add_node(g, rt.node_from_params(g, &p, "t"), nullptr, 0, "t");
  cuda::GraphNodeParams empty{};
  empty.type = cuda::GraphNodeTypeEmpty;
  void* body = p.conditional.phGraph_out[0];
  rt.add_node(body, rt.node_from_params(body, &empty, "t"), nullptr, 0, "t");
  GraphExec* e = rt.instantiate(g);
  rt.reset_conditions(*e);
  CHECK(code_of([&] { rt.run_node(e->order[0], nullptr); }) == cuda::ErrorLaunchTimeout);
  // With the condition 0 (no default assigned) the same node does nothing.
  Graph* g0 = rt.create_graph();
  auto p0 = conditional(rt.create_condition(g0, 1, 0), cuda::GraphCondTypeWhile, 1);
  rt.add_node(g0, rt.node_from_params(g0, &p0, "t"), nullptr, 0, "t");
  GraphExec* e0 = rt.instantiate(g0);
  rt.reset_conditions(*e0);
  CHECK(code_of([&] { rt.run_node(e0->order[0], nullptr); }) == cuda::Success);
}
