// The runtime API's per-thread default stream forms: nvcc --default-stream per-thread (or
// CUDA_API_PER_THREAD_DEFAULT_STREAM) makes cuda_runtime_api.h name the calls *_ptds and
// *_ptsz, so such a program calls cudaMemcpy_ptds where another calls cudaMemcpy. Work runs
// in the order it is issued (runtime.hpp), so each thread's default stream orders nothing
// the legacy one does not: each form is its base call. The driver API's are in
// driver/drv_per_thread.cpp.
#include "sim/runtime/driver/process_context.hpp"

namespace cuda = warpsim::cuda;
using warpsim::runtime::Runtime;
using warpsim::runtime::api::ordered_call;

WARPSIM_API int cudaEventRecordWithFlags(void* event, void* stream, unsigned flags);
WARPSIM_API int cudaEventRecord(void* event, void* stream);
WARPSIM_API int cudaLaunchHostFunc(void* stream, void (*fn)(void*), void* user_data);
WARPSIM_API int cudaMemcpy2DArrayToArray(void* dst, size_t wOffsetDst, size_t hOffsetDst, const void* src,
                                         size_t wOffsetSrc, size_t hOffsetSrc, size_t width, size_t height, int kind);
WARPSIM_API int cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                                  int kind, void* stream);
WARPSIM_API int cudaMemcpy2DFromArrayAsync(void* dst, size_t dpitch, const void* src, size_t wOffset, size_t hOffset,
                                           size_t width, size_t height, int kind, void* stream);
WARPSIM_API int cudaMemcpy2DFromArray(void* dst, size_t dpitch, const void* src, size_t wOffset, size_t hOffset,
                                      size_t width, size_t height, int kind);
WARPSIM_API int cudaMemcpy2DToArrayAsync(void* dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch,
                                         size_t width, size_t height, int kind, void* stream);
WARPSIM_API int cudaMemcpy2DToArray(void* dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch,
                                    size_t width, size_t height, int kind);
WARPSIM_API int cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                             int kind);
WARPSIM_API int cudaMemcpy3DAsync(const cuda::Memcpy3DParms* p, void* stream);
WARPSIM_API int cudaMemcpy3D(const cuda::Memcpy3DParms* p);
WARPSIM_API int cudaMemset3DAsync(cuda::PitchedPtr p, int value, cuda::Extent extent, void* stream);
WARPSIM_API int cudaMemset3D(cuda::PitchedPtr p, int value, cuda::Extent extent);
WARPSIM_API int cudaMemcpyAsync(void* dst, const void* src, size_t bytes, int kind, void* stream);
WARPSIM_API int cudaMemcpyFromArrayAsync(void* dst, const void* src, size_t wOffset, size_t hOffset, size_t count,
                                         int kind, void* stream);
WARPSIM_API int cudaMemcpyFromArray(void* dst, const void* src, size_t wOffset, size_t hOffset, size_t count, int kind);
WARPSIM_API int cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t bytes, size_t offset, int kind,
                                          void* stream);
WARPSIM_API int cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t bytes, size_t offset, int kind);
WARPSIM_API int cudaMemcpyToArrayAsync(void* dst, size_t wOffset, size_t hOffset, const void* src, size_t count,
                                       int kind, void* stream);
WARPSIM_API int cudaMemcpyToArray(void* dst, size_t wOffset, size_t hOffset, const void* src, size_t count, int kind);
WARPSIM_API int cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t bytes, size_t offset, int kind,
                                        void* stream);
WARPSIM_API int cudaMemcpyToSymbol(const void* symbol, const void* src, size_t bytes, size_t offset, int kind);
WARPSIM_API int cudaMemcpy(void* dst, const void* src, size_t bytes, int kind);
WARPSIM_API int cudaMemset2D(void* dst, size_t pitch, int value, size_t width, size_t height);
WARPSIM_API int cudaMemset2DAsync(void* dst, size_t pitch, int value, size_t width, size_t height, void* stream);
WARPSIM_API int cudaMemsetAsync(void* dst, int value, size_t bytes, void* stream);
WARPSIM_API int cudaMemset(void* dst, int value, size_t bytes);
WARPSIM_API int cudaStreamAddCallback(void* stream, void (*fn)(void*, int, void*), void* user_data, unsigned flags);
WARPSIM_API int cudaStreamQuery(void* stream);
WARPSIM_API int cudaStreamSynchronize(void* stream);
WARPSIM_API int cudaStreamWaitEvent(void* stream, void* event, unsigned flags);

WARPSIM_API int cudaEventRecordWithFlags_ptsz(void* event, void* stream, unsigned flags) {
  return cudaEventRecordWithFlags(event, stream, flags);
}
WARPSIM_API int cudaEventRecord_ptsz(void* event, void* stream) {
  return cudaEventRecord(event, stream);
}
WARPSIM_API int cudaLaunchHostFunc_ptsz(void* stream, void (*fn)(void*), void* user_data) {
  return cudaLaunchHostFunc(stream, fn, user_data);
}
WARPSIM_API int cudaMemcpy2DArrayToArray_ptds(void* dst, size_t wOffsetDst, size_t hOffsetDst, const void* src,
                                              size_t wOffsetSrc, size_t hOffsetSrc, size_t width, size_t height,
                                              int kind) {
  return cudaMemcpy2DArrayToArray(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, width, height, kind);
}
WARPSIM_API int cudaMemcpy2DAsync_ptsz(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                       size_t height, int kind, void* stream) {
  return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, stream);
}
WARPSIM_API int cudaMemcpy2DFromArrayAsync_ptsz(void* dst, size_t dpitch, const void* src, size_t wOffset,
                                                size_t hOffset, size_t width, size_t height, int kind, void* stream) {
  return cudaMemcpy2DFromArrayAsync(dst, dpitch, src, wOffset, hOffset, width, height, kind, stream);
}
WARPSIM_API int cudaMemcpy2DFromArray_ptds(void* dst, size_t dpitch, const void* src, size_t wOffset, size_t hOffset,
                                           size_t width, size_t height, int kind) {
  return cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}
WARPSIM_API int cudaMemcpy2DToArrayAsync_ptsz(void* dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch,
                                              size_t width, size_t height, int kind, void* stream) {
  return cudaMemcpy2DToArrayAsync(dst, wOffset, hOffset, src, spitch, width, height, kind, stream);
}
WARPSIM_API int cudaMemcpy2DToArray_ptds(void* dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch,
                                         size_t width, size_t height, int kind) {
  return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}
WARPSIM_API int cudaMemcpy2D_ptds(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                                  int kind) {
  return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
WARPSIM_API int cudaMemcpy3DAsync_ptsz(const cuda::Memcpy3DParms* p, void* stream) {
  return cudaMemcpy3DAsync(p, stream);
}
WARPSIM_API int cudaMemcpy3D_ptds(const cuda::Memcpy3DParms* p) {
  return cudaMemcpy3D(p);
}
WARPSIM_API int cudaMemcpyAsync_ptsz(void* dst, const void* src, size_t bytes, int kind, void* stream) {
  return cudaMemcpyAsync(dst, src, bytes, kind, stream);
}
WARPSIM_API int cudaMemcpyFromArrayAsync_ptsz(void* dst, const void* src, size_t wOffset, size_t hOffset, size_t count,
                                              int kind, void* stream) {
  return cudaMemcpyFromArrayAsync(dst, src, wOffset, hOffset, count, kind, stream);
}
WARPSIM_API int cudaMemcpyFromArray_ptds(void* dst, const void* src, size_t wOffset, size_t hOffset, size_t count,
                                         int kind) {
  return cudaMemcpyFromArray(dst, src, wOffset, hOffset, count, kind);
}
WARPSIM_API int cudaMemcpyFromSymbolAsync_ptsz(void* dst, const void* symbol, size_t bytes, size_t offset, int kind,
                                               void* stream) {
  return cudaMemcpyFromSymbolAsync(dst, symbol, bytes, offset, kind, stream);
}
WARPSIM_API int cudaMemcpyFromSymbol_ptds(void* dst, const void* symbol, size_t bytes, size_t offset, int kind) {
  return cudaMemcpyFromSymbol(dst, symbol, bytes, offset, kind);
}
WARPSIM_API int cudaMemcpyToArrayAsync_ptsz(void* dst, size_t wOffset, size_t hOffset, const void* src, size_t count,
                                            int kind, void* stream) {
  return cudaMemcpyToArrayAsync(dst, wOffset, hOffset, src, count, kind, stream);
}
WARPSIM_API int cudaMemcpyToArray_ptds(void* dst, size_t wOffset, size_t hOffset, const void* src, size_t count,
                                       int kind) {
  return cudaMemcpyToArray(dst, wOffset, hOffset, src, count, kind);
}
WARPSIM_API int cudaMemcpyToSymbolAsync_ptsz(const void* symbol, const void* src, size_t bytes, size_t offset, int kind,
                                             void* stream) {
  return cudaMemcpyToSymbolAsync(symbol, src, bytes, offset, kind, stream);
}
WARPSIM_API int cudaMemcpyToSymbol_ptds(const void* symbol, const void* src, size_t bytes, size_t offset, int kind) {
  return cudaMemcpyToSymbol(symbol, src, bytes, offset, kind);
}
WARPSIM_API int cudaMemcpy_ptds(void* dst, const void* src, size_t bytes, int kind) {
  return cudaMemcpy(dst, src, bytes, kind);
}
WARPSIM_API int cudaMemset2DAsync_ptsz(void* dst, size_t pitch, int value, size_t width, size_t height, void* stream) {
  return cudaMemset2DAsync(dst, pitch, value, width, height, stream);
}
WARPSIM_API int cudaMemset3DAsync_ptsz(cuda::PitchedPtr p, int value, cuda::Extent extent, void* stream) {
  return cudaMemset3DAsync(p, value, extent, stream);
}
WARPSIM_API int cudaMemset3D_ptds(cuda::PitchedPtr p, int value, cuda::Extent extent) {
  return cudaMemset3D(p, value, extent);
}
WARPSIM_API int cudaMemset2D_ptds(void* dst, size_t pitch, int value, size_t width, size_t height) {
  return cudaMemset2D(dst, pitch, value, width, height);
}
WARPSIM_API int cudaMemsetAsync_ptsz(void* dst, int value, size_t bytes, void* stream) {
  return cudaMemsetAsync(dst, value, bytes, stream);
}
WARPSIM_API int cudaMemset_ptds(void* dst, int value, size_t bytes) {
  return cudaMemset(dst, value, bytes);
}
WARPSIM_API int cudaStreamAddCallback_ptsz(void* stream, void (*fn)(void*, int, void*), void* user_data,
                                           unsigned flags) {
  return cudaStreamAddCallback(stream, fn, user_data, flags);
}
WARPSIM_API int cudaStreamQuery_ptsz(void* stream) {
  return cudaStreamQuery(stream);
}
WARPSIM_API int cudaStreamSynchronize_ptsz(void* stream) {
  return cudaStreamSynchronize(stream);
}
WARPSIM_API int cudaStreamWaitEvent_ptsz(void* stream, void* event, unsigned flags) {
  return cudaStreamWaitEvent(stream, event, flags);
}
// CUDA 13's cudaMemPrefetchAsync takes a location and flags, CUDA 12's a device (api_memory.cpp).
#ifdef WARPSIM_CUDART_12
WARPSIM_API int cudaMemPrefetchAsync(const void* ptr, size_t bytes, int device, void* stream);
WARPSIM_API int cudaMemPrefetchAsync_ptsz(const void* ptr, size_t bytes, int device, void* stream) {
  return cudaMemPrefetchAsync(ptr, bytes, device, Runtime::per_thread_default(stream));
}
#else
WARPSIM_API int cudaMemPrefetchAsync(const void* ptr, size_t bytes, cuda::MemLocation where, unsigned flags,
                                     void* stream);
WARPSIM_API int cudaMemPrefetchAsync_ptsz(const void* ptr, size_t bytes, cuda::MemLocation where, unsigned flags,
                                          void* stream) {
  return cudaMemPrefetchAsync(ptr, bytes, where, flags, Runtime::per_thread_default(stream));
}
#endif
