// Streams and events. Launches queue in the order they are made and run at the next call
// that is not stream work (runtime.hpp), so synchronising and querying find them complete;
// events carry simulated time. Recording an event and waiting for one are stream work.
#include <fmt/format.h>

#include "sim/runtime/driver/handle_owners.hpp"
#include "sim/runtime/driver/process_context.hpp"

using namespace warpsim::runtime;
using warpsim::runtime::api::call;
using warpsim::runtime::api::ordered_call;

namespace {

// cudaStreamCreate*: flags other than cudaStreamDefault and cudaStreamNonBlocking are
// cudaErrorInvalidValue (as on an H200: stream_properties.cu).
int create_stream(const char* name, void** stream, unsigned flags, int priority) {
  return call(name, [&](Runtime& rt) {
    if (!stream) throw ApiError(warpsim::cuda::ErrorInvalidValue, fmt::format("{}: pStream is NULL", name));
    if (flags > 1)
      throw ApiError(warpsim::cuda::ErrorInvalidValue,
                     fmt::format("{}: flags {} is not cudaStreamDefault (0) or cudaStreamNonBlocking (1)", name, flags));
    *stream = rt.create_stream(flags, priority);
    driver::note_owner(*stream);  // the current context's, as the driver's are
  });
}

}  // namespace

WARPSIM_API int cudaStreamCreate(void** stream) { return create_stream("cudaStreamCreate", stream, 0, 0); }

WARPSIM_API int cudaStreamCreateWithFlags(void** stream, unsigned flags) {
  return create_stream("cudaStreamCreateWithFlags", stream, flags, 0);
}

// A priority outside the device's range is clamped to it (cudaDeviceGetStreamPriorityRange).
WARPSIM_API int cudaStreamCreateWithPriority(void** stream, unsigned flags, int priority) {
  return create_stream("cudaStreamCreateWithPriority", stream, flags, priority);
}

// What a stream says about itself. The null, legacy and per-thread streams: flags 0,
// priority 0; the null and legacy streams share an id, the per-thread stream has its own.
WARPSIM_API int cudaStreamGetFlags(void* stream, unsigned* flags) {
  return call("cudaStreamGetFlags", [&](Runtime& rt) {
    if (!flags) throw ApiError(warpsim::cuda::ErrorInvalidValue, "cudaStreamGetFlags: flags is NULL");
    *flags = rt.stream_properties(stream, "cudaStreamGetFlags").flags;
  });
}
WARPSIM_API int cudaStreamGetFlags_ptsz(void* stream, unsigned* flags) {
  return cudaStreamGetFlags(Runtime::per_thread_default(stream), flags);
}

WARPSIM_API int cudaStreamGetPriority(void* stream, int* priority) {
  return call("cudaStreamGetPriority", [&](Runtime& rt) {
    if (!priority) throw ApiError(warpsim::cuda::ErrorInvalidValue, "cudaStreamGetPriority: priority is NULL");
    *priority = rt.stream_properties(stream, "cudaStreamGetPriority").priority;
  });
}
WARPSIM_API int cudaStreamGetPriority_ptsz(void* stream, int* priority) {
  return cudaStreamGetPriority(Runtime::per_thread_default(stream), priority);
}

WARPSIM_API int cudaStreamGetId(void* stream, unsigned long long* id) {
  return call("cudaStreamGetId", [&](Runtime& rt) {
    if (!id) throw ApiError(warpsim::cuda::ErrorInvalidValue, "cudaStreamGetId: streamId is NULL");
    *id = rt.stream_properties(stream, "cudaStreamGetId").id;
  });
}
WARPSIM_API int cudaStreamGetId_ptsz(void* stream, unsigned long long* id) {
  return cudaStreamGetId(Runtime::per_thread_default(stream), id);
}

// The one simulated device. (Into NULL: an H200's runtime crashes; this one says so.)
WARPSIM_API int cudaStreamGetDevice(void* stream, int* device) {
  return call("cudaStreamGetDevice", [&](Runtime& rt) {
    if (!device) throw ApiError(warpsim::cuda::ErrorInvalidValue, "cudaStreamGetDevice: device is NULL");
    rt.stream_properties(stream, "cudaStreamGetDevice");  // a live stream
    *device = 0;
  });
}
WARPSIM_API int cudaStreamGetDevice_ptsz(void* stream, int* device) {
  return cudaStreamGetDevice(Runtime::per_thread_default(stream), device);
}

WARPSIM_API int cudaStreamDestroy(void* stream) {
  return call("cudaStreamDestroy", [&](Runtime& rt) {
    rt.destroy_stream(stream);
    driver::forget_owner(stream);
  });
}

WARPSIM_API int cudaStreamSynchronize(void* stream) {
  return call("cudaStreamSynchronize", [&](Runtime& rt) {
    rt.check_stream(stream, "cudaStreamSynchronize");
    rt.no_capture(stream, "cudaStreamSynchronize");
    rt.check_unsafe_during_capture("cudaStreamSynchronize");
    rt.synchronize();
    rt.release_pool_memory();
  });
}

WARPSIM_API int cudaStreamQuery(void* stream) {
  return call("cudaStreamQuery", [&](Runtime& rt) {
    rt.check_stream(stream, "cudaStreamQuery");
    rt.no_capture(stream, "cudaStreamQuery");
    rt.check_unsafe_during_capture("cudaStreamQuery");
    rt.synchronize();
  });
}

WARPSIM_API int cudaStreamWaitEvent(void* stream, void* event, unsigned) {
  return ordered_call("cudaStreamWaitEvent", [&](Runtime& rt) { rt.wait_event(stream, event); });
}

// Attaching managed memory to a stream changes which kernels may touch it while the host
// does; warpsim's managed memory is coherent between host and device (a kernel gets the
// host's copy when it runs and gives it back when it ends), so after its checks this has
// nothing to do.
WARPSIM_API int cudaStreamAttachMemAsync(void* stream, void* ptr, size_t, unsigned flags) {
  return ordered_call("cudaStreamAttachMemAsync", [&](Runtime& rt) { rt.attach_managed(stream, ptr, flags); });
}

WARPSIM_API int cudaStreamAttachMemAsync_ptsz(void* stream, void* ptr, size_t length, unsigned flags) {
  return cudaStreamAttachMemAsync(stream, ptr, length, flags);
}

// Stream attributes (runtime_stream_attributes.cpp): the L2 access policy window of the
// stream's launches, the synchronization policy, the priority and the memory
// synchronization domain.
WARPSIM_API int cudaStreamSetAttribute(void* stream, int attr, const warpsim::cuda::LaunchAttributeValue* value) {
  return call("cudaStreamSetAttribute", [&](Runtime& rt) {
    if (!value) throw ApiError(warpsim::cuda::ErrorInvalidValue, "cudaStreamSetAttribute: value is NULL");
    rt.set_stream_attribute(stream, attr, *value, "cudaStreamSetAttribute");
  });
}

WARPSIM_API int cudaStreamSetAttribute_ptsz(void* stream, int attr, const warpsim::cuda::LaunchAttributeValue* value) {
  return cudaStreamSetAttribute(Runtime::per_thread_default(stream), attr, value);
}

WARPSIM_API int cudaStreamGetAttribute(void* stream, int attr, warpsim::cuda::LaunchAttributeValue* value) {
  return call("cudaStreamGetAttribute", [&](Runtime& rt) {
    if (!value) throw ApiError(warpsim::cuda::ErrorInvalidValue, "cudaStreamGetAttribute: value is NULL");
    *value = rt.stream_attribute(stream, attr, "cudaStreamGetAttribute");
  });
}

WARPSIM_API int cudaStreamGetAttribute_ptsz(void* stream, int attr, warpsim::cuda::LaunchAttributeValue* value) {
  return cudaStreamGetAttribute(Runtime::per_thread_default(stream), attr, value);
}

WARPSIM_API int cudaStreamCopyAttributes(void* dst, void* src) {
  return call("cudaStreamCopyAttributes",
              [&](Runtime& rt) { rt.copy_stream_attributes(dst, src, "cudaStreamCopyAttributes"); });
}

WARPSIM_API int cudaStreamCopyAttributes_ptsz(void* dst, void* src) {
  return cudaStreamCopyAttributes(Runtime::per_thread_default(dst), Runtime::per_thread_default(src));
}

// The L2's persisting lines become normal ones (they stay in the L2 until evicted).
WARPSIM_API int cudaCtxResetPersistingL2Cache() {
  return call("cudaCtxResetPersistingL2Cache", [&](Runtime& rt) { rt.reset_persisting_l2(); });
}

WARPSIM_API int cudaLaunchHostFunc(void* stream, void (*fn)(void*), void* user_data) {
  bool captured = false;
  int rc = call("cudaLaunchHostFunc", [&](Runtime& rt) {
    rt.check_stream(stream, "cudaLaunchHostFunc");
    if (rt.capturing(stream)) {
      rt.capture(stream, rt.host_node(fn, user_data, "cudaLaunchHostFunc"));
      captured = true;
    }
  });
  if (rc == 0 && fn && !captured) fn(user_data);  // all earlier work in the stream is complete
  return rc;
}

WARPSIM_API int cudaStreamAddCallback(void* stream, void (*fn)(void*, int, void*), void* user_data, unsigned) {
  int rc = call("cudaStreamAddCallback", [&](Runtime& rt) {
    rt.check_stream(stream, "cudaStreamAddCallback");
    rt.no_capture(stream, "cudaStreamAddCallback");
  });
  if (rc == 0 && fn) fn(stream, 0, user_data);
  return rc;
}

WARPSIM_API int cudaEventCreate(void** event) {
  return call("cudaEventCreate", [&](Runtime& rt) {
    *event = rt.create_event();
    driver::note_owner(*event);
  });
}

WARPSIM_API int cudaEventCreateWithFlags(void** event, unsigned flags) {
  return call("cudaEventCreateWithFlags", [&](Runtime& rt) {
    *event = rt.create_event(flags);
    driver::note_owner(*event);
  });
}

WARPSIM_API int cudaEventDestroy(void* event) {
  return call("cudaEventDestroy", [&](Runtime& rt) {
    rt.destroy_event(event);
    driver::forget_owner(event);
  });
}

namespace {
// An event and the stream it is recorded on belong to one context (an H200:
// runtime_context_streams.cu); launches may use any context's stream.
int record_event(const char* name, void* event, void* stream) {
  return ordered_call(name, [&](Runtime& rt) {
    driver::require_same_context(driver::owner_of(event), "the event", driver::stream_context(stream), "the stream",
                                 name);
    rt.record_event(event, stream);
  });
}
}  // namespace

WARPSIM_API int cudaEventRecord(void* event, void* stream) {
  return record_event("cudaEventRecord", event, stream);
}

WARPSIM_API int cudaEventRecordWithFlags(void* event, void* stream, unsigned) {
  return record_event("cudaEventRecordWithFlags", event, stream);
}

WARPSIM_API int cudaEventSynchronize(void* event) {
  return call("cudaEventSynchronize", [&](Runtime& rt) {
    rt.check_unsafe_during_capture("cudaEventSynchronize");
    rt.synchronize_event(event);
    rt.release_pool_memory();
  });
}

WARPSIM_API int cudaEventQuery(void* event) {
  // cudaErrorNotReady only for an interprocess event whose last record another process
  // has not completed yet; it is not an error that cudaGetLastError reports.
  return call("cudaEventQuery", [&](Runtime& rt) {
    rt.check_unsafe_during_capture("cudaEventQuery");
    if (!rt.event_done(event)) throw ApiError(warpsim::cuda::ErrorNotReady, "");
  });
}

WARPSIM_API int cudaEventElapsedTime(float* ms, void* start, void* end) {
  return call("cudaEventElapsedTime", [&](Runtime& rt) {
    driver::require_same_context(driver::owner_of(start), "the start event", driver::owner_of(end), "the end event",
                                 "cudaEventElapsedTime");
    *ms = rt.elapsed_ms(start, end);
  });
}
