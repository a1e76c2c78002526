// The CUDA driver API entry points Lazuli uses, looked up with dlsym in the
// driver that core/cuda/runtime.cpp opened (never linked, and no CUDA header: the
// types below are the driver's ABI, every call returns a CUresult, 0 on
// success). Only core/cuda/*.cpp and the CUDA code generator's launcher
// call these; everything else goes through lz::cuda's functions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace lz::cuda::detail {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = uint64_t;
using CUcontext = void*;
using CUstream = void*;
using CUmodule = void*;
using CUfunction = void*;

inline constexpr int kAttrMaxThreadsPerBlock = 1;
inline constexpr int kAttrMultiprocessorCount = 16;
inline constexpr int kAttrComputeCapabilityMajor = 75;
inline constexpr int kAttrComputeCapabilityMinor = 76;
inline constexpr unsigned kStreamNonBlocking = 1;
inline constexpr CUresult kErrorOutOfMemory = 2;

struct DriverApi {
  CUresult (*cuInit)(unsigned flags) = nullptr;
  CUresult (*cuDriverGetVersion)(int* version) = nullptr;
  CUresult (*cuDeviceGetCount)(int* count) = nullptr;
  CUresult (*cuGetErrorName)(CUresult, const char**) = nullptr;    // optional
  CUresult (*cuGetErrorString)(CUresult, const char**) = nullptr;  // optional
  CUresult (*cuDeviceGet)(CUdevice*, int ordinal) = nullptr;
  CUresult (*cuDeviceGetName)(char*, int len, CUdevice) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int*, int attribute, CUdevice) = nullptr;
  CUresult (*cuDeviceTotalMem_v2)(size_t*, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice) = nullptr;
  CUresult (*cuCtxSetCurrent)(CUcontext) = nullptr;
  CUresult (*cuStreamCreate)(CUstream*, unsigned flags) = nullptr;
  CUresult (*cuStreamSynchronize)(CUstream) = nullptr;
  CUresult (*cuMemAlloc_v2)(CUdeviceptr*, size_t) = nullptr;
  CUresult (*cuMemFree_v2)(CUdeviceptr) = nullptr;
  CUresult (*cuMemAllocHost_v2)(void**, size_t) = nullptr;
  CUresult (*cuMemFreeHost)(void*) = nullptr;
  CUresult (*cuMemcpyHtoDAsync_v2)(CUdeviceptr, const void*, size_t, CUstream) = nullptr;
  CUresult (*cuMemcpyDtoHAsync_v2)(void*, CUdeviceptr, size_t, CUstream) = nullptr;
  CUresult (*cuMemcpyDtoDAsync_v2)(CUdeviceptr, CUdeviceptr, size_t, CUstream) = nullptr;
  CUresult (*cuMemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream) = nullptr;
  CUresult (*cuMemsetD16Async)(CUdeviceptr, unsigned short, size_t, CUstream) = nullptr;
  CUresult (*cuMemsetD32Async)(CUdeviceptr, unsigned, size_t, CUstream) = nullptr;
  CUresult (*cuMemsetD2D32Async)(CUdeviceptr, size_t pitch, unsigned, size_t width, size_t height,
                                 CUstream) = nullptr;
  CUresult (*cuModuleLoadData)(CUmodule*, const void* image) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char* name) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                             unsigned bz, unsigned shared_bytes, CUstream, void** params, void** extra) = nullptr;
  // Exported only by a driver whose "device memory" is host memory (the
  // test suite's emulated driver): kernels then run through the CUDA
  // emulator on those pointers instead of being loaded as cubins.
  int (*lzDeviceMemoryIsHost)() = nullptr;
};

// The loaded driver's entry points. Throws lz::DeviceError "[what] CUDA
// unavailable: <reason>" when CUDA is unavailable (see lz::cuda::is_available).
const DriverApi& driver_api(const char* what);

// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)": the driver's name and text
// for a result code, or a known name where the driver cannot say.
std::string error_text(CUresult rc);

// Throws lz::DeviceError "[what] <call> failed: <error name>" unless rc is 0.
void check(CUresult rc, const char* call, const char* what);

}  // namespace lz::cuda::detail
