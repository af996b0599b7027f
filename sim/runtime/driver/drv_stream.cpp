// Driver API: streams and events, which mean what the runtime's do (work runs when issued;
// events hold the simulated time at which they were recorded).
#include <fmt/format.h>

#include "sim/runtime/driver/driver_context.hpp"
#include "sim/runtime/driver/handle_owners.hpp"

using namespace warpsim::runtime;
using namespace warpsim::runtime::driver;
namespace cuda = warpsim::cuda;

namespace {

int create_stream(const char* name, void** stream, unsigned flags, int priority) {
  return call(name, Needs::Context, [&](Runtime& rt) {
    require(stream, name, "phStream");
    *stream = rt.create_stream(flags & 1, priority);  // CU_STREAM_NON_BLOCKING
    note_owner(*stream);
  });
}

// What a stream says about itself (as the runtime API's cudaStreamGet*: api_stream.cpp).
template <typename T, typename F>
int stream_property(const char* name, void* stream, T* out, const char* what, F get) {
  return call(name, Needs::Context, [&](Runtime& rt) {
    require(out, name, what);
    *out = get(rt.stream_properties(stream, name));
  });
}

int stream_synchronize(void* stream) {
  return call("cuStreamSynchronize", Needs::Context, [&](Runtime& rt) {
    rt.check_stream(stream, "cuStreamSynchronize");
    rt.no_capture(stream, "cuStreamSynchronize");
    rt.synchronize();
    rt.release_pool_memory();
  });
}

int stream_query(void* stream) {
  return call("cuStreamQuery", Needs::Context, [&](Runtime& rt) {
    rt.check_stream(stream, "cuStreamQuery");
    rt.synchronize();
  });
}

int stream_wait_event(void* stream, void* event) {
  return call("cuStreamWaitEvent", Needs::Context, [&](Runtime& rt) { rt.wait_event(stream, event); });
}

int event_record(void* event, void* stream) {
  return call("cuEventRecord", Needs::Context, [&](Runtime& rt) {
    require_same_context(owner_of(event), "the event", stream_context(stream), "the stream", "cuEventRecord");
    rt.record_event(event, stream);
  });
}

int stream_context_of(const char* name, void* stream, void** ctx) {
  return call(name, Needs::Context, [&](Runtime& rt) {
    require(ctx, name, "pctx");
    rt.check_stream(stream, name);
    *ctx = stream_context(stream);
  });
}
}  // namespace

WARPSIM_DRIVER_API int cuStreamCreate(void** stream, unsigned flags) {
  return create_stream("cuStreamCreate", stream, flags, 0);
}
WARPSIM_DRIVER_API int cuStreamCreateWithPriority(void** stream, unsigned flags, int priority) {
  return create_stream("cuStreamCreateWithPriority", stream, flags, priority);
}
WARPSIM_DRIVER_API int cuStreamGetFlags(void* stream, unsigned* flags) {
  return stream_property("cuStreamGetFlags", stream, flags, "flags", [](auto p) { return p.flags; });
}
WARPSIM_DRIVER_API int cuStreamGetFlags_ptsz(void* stream, unsigned* flags) {
  return cuStreamGetFlags(Runtime::per_thread_default(stream), flags);
}
WARPSIM_DRIVER_API int cuStreamGetPriority(void* stream, int* priority) {
  return stream_property("cuStreamGetPriority", stream, priority, "priority", [](auto p) { return p.priority; });
}
WARPSIM_DRIVER_API int cuStreamGetPriority_ptsz(void* stream, int* priority) {
  return cuStreamGetPriority(Runtime::per_thread_default(stream), priority);
}
WARPSIM_DRIVER_API int cuStreamGetId(void* stream, unsigned long long* id) {
  return stream_property("cuStreamGetId", stream, id, "streamId", [](auto p) { return (unsigned long long)p.id; });
}
WARPSIM_DRIVER_API int cuStreamGetId_ptsz(void* stream, unsigned long long* id) {
  return cuStreamGetId(Runtime::per_thread_default(stream), id);
}
// The one simulated device (CUdevice 0).
WARPSIM_DRIVER_API int cuStreamGetDevice(void* stream, int* device) {
  return stream_property("cuStreamGetDevice", stream, device, "device", [](auto) { return 0; });
}
WARPSIM_DRIVER_API int cuStreamGetDevice_ptsz(void* stream, int* device) {
  return cuStreamGetDevice(Runtime::per_thread_default(stream), device);
}
WARPSIM_DRIVER_API int cuStreamDestroy_v2(void* stream) {
  return call("cuStreamDestroy", Needs::Context, [&](Runtime& rt) {
    rt.destroy_stream(stream);
    forget_owner(stream);
  });
}
// The context a stream belongs to (the current one for the null and special streams).
WARPSIM_DRIVER_API int cuStreamGetCtx(void* stream, void** ctx) {
  return stream_context_of("cuStreamGetCtx", stream, ctx);
}
WARPSIM_DRIVER_API int cuStreamGetCtx_ptsz(void* stream, void** ctx) {
  return stream_context_of("cuStreamGetCtx", stream, ctx);
}
// CUDA 12.5's form also gives the green context, which warpsim has none of.
WARPSIM_DRIVER_API int cuStreamGetCtx_v2(void* stream, void** ctx, void** green) {
  if (green) *green = nullptr;
  return stream_context_of("cuStreamGetCtx_v2", stream, ctx);
}
WARPSIM_DRIVER_API int cuStreamGetCtx_v2_ptsz(void* stream, void** ctx, void** green) {
  return cuStreamGetCtx_v2(stream, ctx, green);
}
WARPSIM_DRIVER_API int cuStreamSynchronize(void* stream) { return stream_synchronize(stream); }
WARPSIM_DRIVER_API int cuStreamSynchronize_ptsz(void* stream) { return stream_synchronize(stream); }
WARPSIM_DRIVER_API int cuStreamQuery(void* stream) { return stream_query(stream); }
WARPSIM_DRIVER_API int cuStreamQuery_ptsz(void* stream) { return stream_query(stream); }
WARPSIM_DRIVER_API int cuStreamWaitEvent(void* stream, void* event, unsigned) {
  return stream_wait_event(stream, event);
}
WARPSIM_DRIVER_API int cuStreamWaitEvent_ptsz(void* stream, void* event, unsigned) {
  return stream_wait_event(stream, event);
}

WARPSIM_DRIVER_API int cuEventCreate(void** event, unsigned flags) {
  return call("cuEventCreate", Needs::Context, [&](Runtime& rt) {
    require(event, "cuEventCreate", "phEvent");
    *event = rt.create_event(flags);  // CU_EVENT_* are cudaEvent*'s values
    note_owner(*event);
  });
}
WARPSIM_DRIVER_API int cuEventDestroy_v2(void* event) {
  return call("cuEventDestroy", Needs::Context, [&](Runtime& rt) {
    rt.destroy_event(event);
    forget_owner(event);
  });
}
WARPSIM_DRIVER_API int cuEventRecord(void* event, void* stream) { return event_record(event, stream); }
WARPSIM_DRIVER_API int cuEventRecord_ptsz(void* event, void* stream) { return event_record(event, stream); }
WARPSIM_DRIVER_API int cuEventRecordWithFlags(void* event, void* stream, unsigned) {
  return event_record(event, stream);
}
WARPSIM_DRIVER_API int cuEventSynchronize(void* event) {
  return call("cuEventSynchronize", Needs::Context, [&](Runtime& rt) {
    rt.synchronize_event(event);
    rt.release_pool_memory();
  });
}
WARPSIM_DRIVER_API int cuEventQuery(void* event) {
  return call("cuEventQuery", Needs::Context, [&](Runtime& rt) {
    if (!rt.event_done(event)) throw ApiError(cuda::ErrorNotReady, "");  // CUDA_ERROR_NOT_READY
  });
}

namespace {
int elapsed(float* ms, void* start, void* end) {
  return call("cuEventElapsedTime", Needs::Context, [&](Runtime& rt) {
    require(ms, "cuEventElapsedTime", "pMilliseconds");
    require_same_context(owner_of(start), "the start event", owner_of(end), "the end event", "cuEventElapsedTime");
    *ms = rt.elapsed_ms(start, end);
  });
}
}  // namespace
WARPSIM_DRIVER_API int cuEventElapsedTime(float* ms, void* start, void* end) { return elapsed(ms, start, end); }
WARPSIM_DRIVER_API int cuEventElapsedTime_v2(float* ms, void* start, void* end) { return elapsed(ms, start, end); }

// Host functions run when they are enqueued: everything before them in the stream is done.
WARPSIM_DRIVER_API int cuLaunchHostFunc(void* stream, void (*fn)(void*), void* user) {
  const int rc = call("cuLaunchHostFunc", Needs::Context, [&](Runtime& rt) {
    require(reinterpret_cast<const void*>(fn), "cuLaunchHostFunc", "fn");
    rt.check_stream(stream, "cuLaunchHostFunc");
    rt.no_capture(stream, "cuLaunchHostFunc");
  });
  if (rc == 0) fn(user);  // outside the runtime's lock: it may call the driver
  return rc;
}

WARPSIM_DRIVER_API int cuStreamAddCallback(void* stream, void (*fn)(void*, int, void*), void* user, unsigned flags) {
  const int rc = call("cuStreamAddCallback", Needs::Context, [&](Runtime& rt) {
    require(reinterpret_cast<const void*>(fn), "cuStreamAddCallback", "callback");
    if (flags != 0) throw ApiError(cuda::ErrorInvalidValue, "cuStreamAddCallback: flags must be 0");
    rt.check_stream(stream, "cuStreamAddCallback");
    rt.no_capture(stream, "cuStreamAddCallback");
  });
  if (rc == 0) fn(stream, 0, user);
  return rc;
}

// Stream attributes: CUstreamAttrID and CUstreamAttrValue are the runtime's numbers and
// layout (runtime_stream_attributes.cpp).
WARPSIM_DRIVER_API int cuStreamSetAttribute(void* stream, int attr, const cuda::LaunchAttributeValue* value) {
  return call("cuStreamSetAttribute", Needs::Context, [&](Runtime& rt) {
    require(value, "cuStreamSetAttribute", "value");
    rt.set_stream_attribute(stream, attr, *value, "cuStreamSetAttribute");
  });
}
WARPSIM_DRIVER_API int cuStreamSetAttribute_ptsz(void* stream, int attr, const cuda::LaunchAttributeValue* value) {
  return cuStreamSetAttribute(Runtime::per_thread_default(stream), attr, value);
}
WARPSIM_DRIVER_API int cuStreamGetAttribute(void* stream, int attr, cuda::LaunchAttributeValue* value) {
  return call("cuStreamGetAttribute", Needs::Context, [&](Runtime& rt) {
    require(value, "cuStreamGetAttribute", "value_out");
    *value = rt.stream_attribute(stream, attr, "cuStreamGetAttribute");
  });
}
WARPSIM_DRIVER_API int cuStreamGetAttribute_ptsz(void* stream, int attr, cuda::LaunchAttributeValue* value) {
  return cuStreamGetAttribute(Runtime::per_thread_default(stream), attr, value);
}
WARPSIM_DRIVER_API int cuStreamCopyAttributes(void* dst, void* src) {
  return call("cuStreamCopyAttributes", Needs::Context,
              [&](Runtime& rt) { rt.copy_stream_attributes(dst, src, "cuStreamCopyAttributes"); });
}
WARPSIM_DRIVER_API int cuStreamCopyAttributes_ptsz(void* dst, void* src) {
  return cuStreamCopyAttributes(Runtime::per_thread_default(dst), Runtime::per_thread_default(src));
}

// User objects (runtime_user_objects.cpp): the runtime's, under the driver's names.
WARPSIM_DRIVER_API int cuUserObjectCreate(void** object, void* ptr, void (*destroy)(void*), unsigned refs,
                                          unsigned flags) {
  return call("cuUserObjectCreate", Needs::Context, [&](Runtime& rt) {
    require(object, "cuUserObjectCreate", "object_out");
    *object = rt.create_user_object(ptr, destroy, refs, flags, "cuUserObjectCreate");
  });
}
WARPSIM_DRIVER_API int cuUserObjectRetain(void* object, unsigned count) {
  return call("cuUserObjectRetain", Needs::Context,
              [&](Runtime& rt) { rt.retain_user_object(object, count, "cuUserObjectRetain"); });
}
WARPSIM_DRIVER_API int cuUserObjectRelease(void* object, unsigned count) {
  return api::run_due_destructors(call("cuUserObjectRelease", Needs::Context, [&](Runtime& rt) {
    rt.release_user_object(object, count, "cuUserObjectRelease");
  }));
}
