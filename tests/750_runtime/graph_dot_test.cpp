// cudaGraphDebugDotPrint's picture of a graph (Runtime::graph_dot): every node with what it
// does, every edge, and a child graph as a cluster joined to its node; and the child graphs
// moved into a node (cudaGraphChildGraphOwnershipMove) that would make a graph hold itself.
#include <catch2/catch.hpp>

#include "error_code.hpp"
#include "runtime_options.hpp"
#include "sim/runtime/runtime.hpp"

using namespace warpsim;
using namespace warpsim::runtime;
using rttest::code_of;

TEST_CASE("graph dot: nodes, edges and a child graph as a cluster") {
  Runtime rt(rttest::functional_options());
  Graph* child = rt.create_graph();
  rt.add_node(child, GraphNode{}, nullptr, 0, "t");
  Graph* g = rt.create_graph();
  void* dev = reinterpret_cast<void*>(0x1000);
  cuda::MemsetParams m{dev, 0, 7, 4, 16, 1};
  void* set = rt.add_node(g, rt.memset_node(&m, "t"), nullptr, 0, "t");
  void* copy = rt.add_node(g, rt.linear_copy_node(dev, dev, 64, cuda::DeviceToDevice), &set, 1, "t");
  void* two[] = {set, copy};
  rt.add_node(g, rt.child_node(child, "t"), two, 2, "t");

  const std::string dot = rt.graph_dot(g, "t");
  CHECK_THAT(dot, Catch::StartsWith("digraph \"cudaGraph "));
  CHECK_THAT(dot, Catch::Contains("n_0 [label=\"memset 16 x 1 elements of 4 bytes to 0x7\"];"));
  CHECK_THAT(dot, Catch::Contains("n_1 [label=\"memcpy 64 bytes, device to device\"];"));
  CHECK_THAT(dot, Catch::Contains("n_2 [label=\"child graph\"];"));
  CHECK_THAT(dot, Catch::Contains("subgraph cluster_1 {"));
  CHECK_THAT(dot, Catch::Contains("n_2_0_0 [label=\"empty\"];"));
  CHECK_THAT(dot, Catch::Contains("n_2 -> n_2_0_0 [style=dashed];"));
  CHECK_THAT(dot, Catch::Contains("n_0 -> n_1;"));
  CHECK_THAT(dot, Catch::Contains("n_0 -> n_2;"));
  CHECK_THAT(dot, Catch::Contains("n_1 -> n_2;"));
  CHECK_THAT(dot, Catch::EndsWith("}\n"));
  CHECK(code_of([&] { rt.graph_dot(&rt, "t"); }) == cuda::ErrorInvalidValue);  // not a graph
}

TEST_CASE("graph editing: a graph moved into itself or into a graph it holds is refused") {
  Runtime rt(rttest::functional_options());
  Graph* a = rt.create_graph();
  Graph* b = rt.create_graph();
  cuda::GraphNodeParams move{};
  move.type = cuda::GraphNodeTypeGraph;
  move.graph.ownership = cuda::GraphChildGraphOwnershipMove;
  move.graph.graph = a;
  CHECK(code_of([&] { rt.node_from_params(a, &move, "t"); }) == cuda::ErrorInvalidValue);  // a into a
  move.graph.graph = b;
  rt.add_node(a, rt.node_from_params(a, &move, "t"), nullptr, 0, "t");  // b into a
  move.graph.graph = a;
  CHECK(code_of([&] { rt.node_from_params(b, &move, "t"); }) == cuda::ErrorInvalidValue);  // a (holding b) into b
  CHECK_THAT(rt.graph_dot(a, "t"), Catch::Contains("child graph"));  // and a still prints: no endless recursion
}
