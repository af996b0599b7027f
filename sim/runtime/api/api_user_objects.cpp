// User objects and graph kernel nodes' launch attributes (runtime_user_objects.cpp,
// runtime_graph_attributes.cpp). A call that releases an object's last reference runs its
// destructor after the call, outside the runtime's lock.
#include "sim/runtime/driver/process_context.hpp"

using namespace warpsim::runtime;
using warpsim::runtime::api::call;
using warpsim::runtime::api::run_due_destructors;
namespace cuda = warpsim::cuda;

WARPSIM_API int cudaUserObjectCreate(void** object, void* ptr, void (*destroy)(void*), unsigned refs, unsigned flags) {
  return call("cudaUserObjectCreate", [&](Runtime& rt) {
    if (!object) throw ApiError(cuda::ErrorInvalidValue, "cudaUserObjectCreate: object_out is NULL");
    *object = rt.create_user_object(ptr, destroy, refs, flags, "cudaUserObjectCreate");
  });
}

WARPSIM_API int cudaUserObjectRetain(void* object, unsigned count) {
  return call("cudaUserObjectRetain",
              [&](Runtime& rt) { rt.retain_user_object(object, count, "cudaUserObjectRetain"); });
}

WARPSIM_API int cudaUserObjectRelease(void* object, unsigned count) {
  return run_due_destructors(call(
      "cudaUserObjectRelease", [&](Runtime& rt) { rt.release_user_object(object, count, "cudaUserObjectRelease"); }));
}

WARPSIM_API int cudaGraphRetainUserObject(void* graph, void* object, unsigned count, unsigned flags) {
  return call("cudaGraphRetainUserObject", [&](Runtime& rt) {
    rt.graph_retain_user_object(graph, object, count, flags, "cudaGraphRetainUserObject");
  });
}

WARPSIM_API int cudaGraphReleaseUserObject(void* graph, void* object, unsigned count) {
  return run_due_destructors(call("cudaGraphReleaseUserObject", [&](Runtime& rt) {
    rt.graph_release_user_object(graph, object, count, "cudaGraphReleaseUserObject");
  }));
}

// --- Kernel nodes' launch attributes ---

WARPSIM_API int cudaGraphKernelNodeGetAttribute(void* node, int attr, cuda::LaunchAttributeValue* value) {
  return call("cudaGraphKernelNodeGetAttribute", [&](Runtime& rt) {
    const cuda::LaunchAttributeValue v = rt.kernel_node_attribute(node, attr, "cudaGraphKernelNodeGetAttribute");
    if (!value) throw ApiError(cuda::ErrorInvalidValue, "cudaGraphKernelNodeGetAttribute: value_out is NULL");
    *value = v;
  });
}

WARPSIM_API int cudaGraphKernelNodeSetAttribute(void* node, int attr, const cuda::LaunchAttributeValue* value) {
  return call("cudaGraphKernelNodeSetAttribute", [&](Runtime& rt) {
    if (!value) throw ApiError(cuda::ErrorInvalidValue, "cudaGraphKernelNodeSetAttribute: value is NULL");
    rt.set_kernel_node_attribute(node, attr, *value, "cudaGraphKernelNodeSetAttribute");
  });
}

WARPSIM_API int cudaGraphKernelNodeCopyAttributes(void* dst, void* src) {
  return call("cudaGraphKernelNodeCopyAttributes", [&](Runtime& rt) {
    rt.copy_kernel_node_attributes(dst, src, "cudaGraphKernelNodeCopyAttributes");
  });
}
