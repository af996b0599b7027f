// The runtime API's error names and strings (cudaGetErrorName/String, and the device
// runtime's in kernels).
#include "sim/runtime/error_text.hpp"

namespace warpsim::runtime {

namespace {

// The names and strings libcudart 13 gives (checked against it by tests/700_runtime).
constexpr ErrorText kErrors[] = {
    {0, "cudaSuccess", "no error"},
    {1, "cudaErrorInvalidValue", "invalid argument"},
    {2, "cudaErrorMemoryAllocation", "out of memory"},
    {3, "cudaErrorInitializationError", "initialization error"},
    {4, "cudaErrorCudartUnloading", "driver shutting down"},
    {9, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {12, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {13, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {16, "cudaErrorInvalidHostPointer", "invalid host pointer"},
    {17, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {18, "cudaErrorInvalidTexture", "invalid texture reference"},
    {20, "cudaErrorInvalidChannelDescriptor", "invalid channel descriptor"},
    {21, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {26, "cudaErrorInvalidFilterSetting", "linear filtering not supported for non-float type"},
    {27, "cudaErrorInvalidNormSetting", "read as normalized float not supported for data type"},
    {65, "cudaErrorLaunchMaxDepthExceeded", "launch would exceed maximum depth of nested launches"},
    {69, "cudaErrorLaunchPendingCountExceeded",
     "launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount"},
    {98, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {100, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {101, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {200, "cudaErrorInvalidKernelImage", "device kernel image is invalid"},
    {201, "cudaErrorDeviceUninitialized", "invalid device context"},
    {209, "cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device"},
    {215, "cudaErrorUnsupportedLimit", "limit is not supported on this architecture"},
    {217, "cudaErrorPeerAccessUnsupported", "peer access is not supported between these two devices"},
    {218, "cudaErrorInvalidPtx", "a PTX JIT compilation failed"},
    {301, "cudaErrorFileNotFound", "file not found"},
    {304, "cudaErrorOperatingSystem", "OS call failed or operation not supported on this OS"},
    {400, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {401, "cudaErrorIllegalState", "the operation cannot be performed in the present state"},
    {500, "cudaErrorSymbolNotFound", "named symbol not found"},
    {600, "cudaErrorNotReady", "device not ready"},
    {700, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {701, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"},
    {702, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {705, "cudaErrorPeerAccessNotEnabled", "peer access has not been enabled"},
    {710, "cudaErrorAssert", "device-side assert triggered"},
    {712, "cudaErrorHostMemoryAlreadyRegistered", "part or all of the requested memory range is already mapped"},
    {713, "cudaErrorHostMemoryNotRegistered", "pointer does not correspond to a registered memory region"},
    {715, "cudaErrorIllegalInstruction", "an illegal instruction was encountered"},
    {716, "cudaErrorMisalignedAddress", "misaligned address"},
    {719, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {720, "cudaErrorCooperativeLaunchTooLarge", "too many blocks in cooperative launch"},
    {800, "cudaErrorNotPermitted", "operation not permitted"},
    {801, "cudaErrorNotSupported", "operation not supported"},
    {900, "cudaErrorStreamCaptureUnsupported", "operation not permitted when stream is capturing"},
    {901, "cudaErrorStreamCaptureInvalidated", "operation failed due to a previous error during capture"},
    {903, "cudaErrorStreamCaptureUnmatched", "capture was not initiated in this stream"},
    {910, "cudaErrorGraphExecUpdateFailure",
     "the graph update was not performed because it included changes which violated constraints specific to "
     "instantiated graph update"},
    {912, "cudaErrorInvalidClusterSize", "a kernel launch error has occurred due to cluster misconfiguration"},
    {999, "cudaErrorUnknown", "unknown error"},
};

const ErrorText* find(int code) { return find_error_text(kErrors, code); }

}  // namespace

const char* cuda_error_string(int code) {
  const ErrorText* e = find(code);
  return e ? e->text : "unrecognized error code";
}

const char* cuda_error_name(int code) {
  const ErrorText* e = find(code);
  return e ? e->name : "unrecognized error code";
}

}  // namespace warpsim::runtime
