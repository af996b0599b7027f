// Driver API: the per-thread default stream forms (nvcc --default-stream per-thread makes
// cuda.h name the calls *_ptds and *_ptsz). Work runs when it is issued, so each thread's
// default stream orders nothing the legacy one does not: each form is its base call.
#include "sim/runtime/driver/driver_context.hpp"

namespace cu = warpsim::cu;

WARPSIM_DRIVER_API int cuEventRecordWithFlags(void* event, void* stream, unsigned);
WARPSIM_DRIVER_API int cuLaunchHostFunc(void* stream, void (*fn)(void*), void* user);
WARPSIM_DRIVER_API int cuStreamAddCallback(void* stream, void (*fn)(void*, int, void*), void* user, unsigned flags);
WARPSIM_DRIVER_API int cuLaunchCooperativeKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                                 unsigned by, unsigned bz, unsigned shared, void* stream,
                                                 void** params);
WARPSIM_DRIVER_API int cuMemcpy2DAsync_v2(const cu::Memcpy2D* p, void* stream);
WARPSIM_DRIVER_API int cuMemcpy2DUnaligned_v2(const cu::Memcpy2D* p);
WARPSIM_DRIVER_API int cuMemcpy2D_v2(const cu::Memcpy2D* p);
WARPSIM_DRIVER_API int cuMemcpy3DAsync_v2(const cu::Memcpy3D* p, void* stream);
WARPSIM_DRIVER_API int cuMemcpy3D_v2(const cu::Memcpy3D* p);
WARPSIM_DRIVER_API int cuMemcpyAsync(cu::DevicePtr dst, cu::DevicePtr src, size_t bytes, void* stream);
WARPSIM_DRIVER_API int cuMemcpyDtoDAsync_v2(cu::DevicePtr dst, cu::DevicePtr src, size_t bytes, void* stream);
WARPSIM_DRIVER_API int cuMemcpyDtoD_v2(cu::DevicePtr dst, cu::DevicePtr src, size_t bytes);
WARPSIM_DRIVER_API int cuMemcpyDtoHAsync_v2(void* dst, cu::DevicePtr src, size_t bytes, void* stream);
WARPSIM_DRIVER_API int cuMemcpyDtoH_v2(void* dst, cu::DevicePtr src, size_t bytes);
WARPSIM_DRIVER_API int cuMemcpyHtoDAsync_v2(cu::DevicePtr dst, const void* src, size_t bytes, void* stream);
WARPSIM_DRIVER_API int cuMemcpyHtoD_v2(cu::DevicePtr dst, const void* src, size_t bytes);
WARPSIM_DRIVER_API int cuMemcpy(cu::DevicePtr dst, cu::DevicePtr src, size_t bytes);
WARPSIM_DRIVER_API int cuMemsetD16Async(cu::DevicePtr dst, unsigned short value, size_t n, void* stream);
WARPSIM_DRIVER_API int cuMemsetD16_v2(cu::DevicePtr dst, unsigned short value, size_t n);
WARPSIM_DRIVER_API int cuMemsetD2D16_v2(cu::DevicePtr dst, size_t pitch, unsigned short value, size_t w, size_t h);
WARPSIM_DRIVER_API int cuMemsetD2D32_v2(cu::DevicePtr dst, size_t pitch, unsigned value, size_t w, size_t h);
WARPSIM_DRIVER_API int cuMemsetD2D8_v2(cu::DevicePtr dst, size_t pitch, unsigned char value, size_t w, size_t h);
WARPSIM_DRIVER_API int cuMemsetD32Async(cu::DevicePtr dst, unsigned value, size_t n, void* stream);
WARPSIM_DRIVER_API int cuMemsetD32_v2(cu::DevicePtr dst, unsigned value, size_t n);
WARPSIM_DRIVER_API int cuMemsetD8Async(cu::DevicePtr dst, unsigned char value, size_t n, void* stream);
WARPSIM_DRIVER_API int cuMemsetD8_v2(cu::DevicePtr dst, unsigned char value, size_t n);

WARPSIM_DRIVER_API int cuEventRecordWithFlags_ptsz(void* event, void* stream, unsigned a2) {
  return cuEventRecordWithFlags(event, stream, a2);
}
WARPSIM_DRIVER_API int cuLaunchCooperativeKernel_ptsz(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                                      unsigned by, unsigned bz, unsigned shared, void* stream,
                                                      void** params) {
  return cuLaunchCooperativeKernel(f, gx, gy, gz, bx, by, bz, shared, stream, params);
}
WARPSIM_DRIVER_API int cuMemcpy2DAsync_v2_ptsz(const cu::Memcpy2D* p, void* stream) {
  return cuMemcpy2DAsync_v2(p, stream);
}
WARPSIM_DRIVER_API int cuMemcpy2DUnaligned_v2_ptds(const cu::Memcpy2D* p) { return cuMemcpy2DUnaligned_v2(p); }
WARPSIM_DRIVER_API int cuMemcpy2D_v2_ptds(const cu::Memcpy2D* p) { return cuMemcpy2D_v2(p); }
WARPSIM_DRIVER_API int cuMemcpy3DAsync_v2_ptsz(const cu::Memcpy3D* p, void* stream) {
  return cuMemcpy3DAsync_v2(p, stream);
}
WARPSIM_DRIVER_API int cuMemcpy3D_v2_ptds(const cu::Memcpy3D* p) { return cuMemcpy3D_v2(p); }
WARPSIM_DRIVER_API int cuMemcpyAsync_ptsz(cu::DevicePtr dst, cu::DevicePtr src, size_t bytes, void* stream) {
  return cuMemcpyAsync(dst, src, bytes, stream);
}
WARPSIM_DRIVER_API int cuMemcpyDtoDAsync_v2_ptsz(cu::DevicePtr dst, cu::DevicePtr src, size_t bytes, void* stream) {
  return cuMemcpyDtoDAsync_v2(dst, src, bytes, stream);
}
WARPSIM_DRIVER_API int cuMemcpyDtoD_v2_ptds(cu::DevicePtr dst, cu::DevicePtr src, size_t bytes) {
  return cuMemcpyDtoD_v2(dst, src, bytes);
}
WARPSIM_DRIVER_API int cuMemcpyDtoHAsync_v2_ptsz(void* dst, cu::DevicePtr src, size_t bytes, void* stream) {
  return cuMemcpyDtoHAsync_v2(dst, src, bytes, stream);
}
WARPSIM_DRIVER_API int cuMemcpyDtoH_v2_ptds(void* dst, cu::DevicePtr src, size_t bytes) {
  return cuMemcpyDtoH_v2(dst, src, bytes);
}
WARPSIM_DRIVER_API int cuMemcpyHtoDAsync_v2_ptsz(cu::DevicePtr dst, const void* src, size_t bytes, void* stream) {
  return cuMemcpyHtoDAsync_v2(dst, src, bytes, stream);
}
WARPSIM_DRIVER_API int cuMemcpyHtoD_v2_ptds(cu::DevicePtr dst, const void* src, size_t bytes) {
  return cuMemcpyHtoD_v2(dst, src, bytes);
}
WARPSIM_DRIVER_API int cuMemcpy_ptds(cu::DevicePtr dst, cu::DevicePtr src, size_t bytes) {
  return cuMemcpy(dst, src, bytes);
}
WARPSIM_DRIVER_API int cuMemsetD16Async_ptsz(cu::DevicePtr dst, unsigned short value, size_t n, void* stream) {
  return cuMemsetD16Async(dst, value, n, stream);
}
WARPSIM_DRIVER_API int cuMemsetD16_v2_ptds(cu::DevicePtr dst, unsigned short value, size_t n) {
  return cuMemsetD16_v2(dst, value, n);
}
WARPSIM_DRIVER_API int cuMemsetD2D16_v2_ptds(cu::DevicePtr dst, size_t pitch, unsigned short value, size_t w,
                                             size_t h) {
  return cuMemsetD2D16_v2(dst, pitch, value, w, h);
}
WARPSIM_DRIVER_API int cuMemsetD2D32_v2_ptds(cu::DevicePtr dst, size_t pitch, unsigned value, size_t w, size_t h) {
  return cuMemsetD2D32_v2(dst, pitch, value, w, h);
}
WARPSIM_DRIVER_API int cuMemsetD2D8_v2_ptds(cu::DevicePtr dst, size_t pitch, unsigned char value, size_t w, size_t h) {
  return cuMemsetD2D8_v2(dst, pitch, value, w, h);
}
WARPSIM_DRIVER_API int cuMemsetD32Async_ptsz(cu::DevicePtr dst, unsigned value, size_t n, void* stream) {
  return cuMemsetD32Async(dst, value, n, stream);
}
WARPSIM_DRIVER_API int cuMemsetD32_v2_ptds(cu::DevicePtr dst, unsigned value, size_t n) {
  return cuMemsetD32_v2(dst, value, n);
}
WARPSIM_DRIVER_API int cuMemsetD8Async_ptsz(cu::DevicePtr dst, unsigned char value, size_t n, void* stream) {
  return cuMemsetD8Async(dst, value, n, stream);
}
WARPSIM_DRIVER_API int cuMemsetD8_v2_ptds(cu::DevicePtr dst, unsigned char value, size_t n) {
  return cuMemsetD8_v2(dst, value, n);
}
WARPSIM_DRIVER_API int cuLaunchHostFunc_ptsz(void* stream, void (*fn)(void*), void* user) {
  return cuLaunchHostFunc(stream, fn, user);
}
WARPSIM_DRIVER_API int cuStreamAddCallback_ptsz(void* stream, void (*fn)(void*, int, void*), void* user,
                                                unsigned flags) {
  return cuStreamAddCallback(stream, fn, user, flags);
}
