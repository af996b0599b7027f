// CUDA graphs as the runtime keeps them: a graph is its nodes in creation order, each with
// the nodes it depends on; an executable graph is a copy of the nodes in a dependency order
// fixed at instantiation (ties by creation order), which cudaGraphLaunch runs one after
// another on the stream; a conditional node runs its instantiated bodies as its condition
// says when it is reached. Stream capture appends each operation issued to a capturing stream
// as a node depending on the one before. Handles (cudaGraph_t, cudaGraphNode_t,
// cudaGraphExec_t) are these objects' addresses, checked against the runtime's registry.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

#include "sim/runtime/cuda_abi.hpp"

namespace warpsim::runtime {

// The device memory of a graph allocation node: its address is fixed when the node is made
// and shared by every copy of the node (clones, executable graphs). When the last copy is
// gone, on_release tells the runtime, which gives the address back to the device unless a
// launch left it allocated (then cudaFree does).
struct GraphAllocation {
  uint64_t address = 0, bytes = 0;
  std::function<void(GraphAllocation&)> on_release;
  ~GraphAllocation() {
    if (on_release) on_release(*this);
  }
};

struct GraphExec;

const char* node_type_name(int type);  // a cudaGraphNodeType's name ("kernel", "memcpy", ...)

struct GraphNode {
  enum class Kind {
    Empty, Kernel, Memcpy, Memset, Host, MemAlloc, MemFree, Conditional, Child, EventRecord, EventWait
  };
  Kind kind = Kind::Empty;
  std::vector<const GraphNode*> deps;
  // Kernel: the host stub, the launch shape and a copy of every argument's bytes.
  const void* fn = nullptr;
  cuda::Dim3 grid{1, 1, 1}, block{1, 1, 1};
  uint64_t shared = 0;
  std::vector<std::vector<uint8_t>> args;
  // Memcpy: a cudaMemcpy3D box, or (linear) a plain copy of `bytes`.
  cuda::Memcpy3DParms copy{};
  bool linear = false;
  void* dst = nullptr;
  const void* src = nullptr;
  uint64_t bytes = 0;
  cuda::MemcpyKind copy_kind = cuda::Default;
  // Memset.
  cuda::MemsetParams set{};
  // Host.
  cuda::HostNodeParams host{};
  // MemAlloc: the allocation (its address is also `dst`); MemFree: `dst` is what it frees.
  std::shared_ptr<GraphAllocation> allocation;
  // Conditional: its handle (the device address of the 32-bit condition), its type
  // (cuda::GraphConditionalNodeType) and body graphs: the runtime's graphs, whose handles
  // CUDA hands out in phGraph_out (this array, shared by the node's copies). An executable
  // copy holds the bodies' instantiations, in the same order.
  uint64_t condition = 0;
  int cond_type = 0;
  std::shared_ptr<std::vector<void*>> bodies;
  std::vector<std::shared_ptr<const GraphExec>> body_execs;
  // Child: the embedded graph, a runtime graph of its own (a copy of the one given, made
  // when the node is made; clones of the node copy it again). An executable copy runs its
  // instantiation, body_execs[0].
  void* child = nullptr;
  // EventRecord, EventWait: the event.
  void* event = nullptr;
  // An executable copy's switch (cudaGraphNodeSetEnabled): a disabled node does nothing.
  bool enabled = true;
  // Kernel: its launch attributes (cudaGraphKernelNodeSetAttribute, or the attributes of a
  // captured cudaLaunchKernelEx), by cudaLaunchAttributeID; one absent reads as zeros, CUDA's
  // default. The node runs cooperatively, in clusters and with its access policy window
  // when these say so (Runtime::run_node).
  std::map<int, cuda::LaunchAttributeValue> attributes;
  // Kernel: what cudaGraphKernelNodeGetParams hands out as kernelParams (pointers into args).
  mutable std::vector<void*> arg_view;
};

struct Graph {
  std::vector<std::unique_ptr<GraphNode>> nodes;  // in creation order; append with add()
  GraphNode* add(GraphNode node);
  void remove_last();  // undoes add() of a node nothing depends on yet
  void erase(const GraphNode* n);  // removes a node and every edge to or from it
  bool owns(const GraphNode* n) const { return index.count(n) != 0; }
  size_t index_of(const GraphNode* n) const;  // nodes.size() if not ours
  // A clone's nodes by the nodes of the graph it was cloned from (cudaGraphNodeFindInClone).
  std::unordered_map<const GraphNode*, GraphNode*> clone_of;
  // The references it holds to user objects (cudaGraphRetainUserObject), by object; clones
  // and instantiations hold their own.
  std::map<const void*, uint64_t> user_objects;

 private:
  std::unordered_map<const GraphNode*, size_t> index;  // node -> its place in nodes
};

struct GraphExec {
  unsigned long long flags = 0;                 // as instantiated (cudaGraphExecGetFlags)
  std::vector<GraphNode> order;                 // the nodes in the order they run (deps not followed)
  std::map<const GraphNode*, size_t> position;  // the instantiated graph's node -> its place in order
  std::vector<size_t> by_creation;              // creation index in that graph -> place in order
  std::vector<std::vector<size_t>> dep_index;   // creation index -> its dependencies' creation indices
  std::map<const void*, uint64_t> user_objects; // references held, as the graph's (Graph::user_objects)
};

}  // namespace warpsim::runtime
