// NVRTC, loaded at run time (dlopen): the library builds and loads on
// machines without the CUDA toolkit, and says why when NVRTC is missing.
#pragma once

#include <string>
#include <vector>

namespace lz::codegen_cuda {

struct NvrtcInfo {
  bool available = false;
  std::string reason;  // why not, when !available
  std::string library;  // the file that was loaded
  int major = 0, minor = 0;
};
// Loads NVRTC once: $LZ_NVRTC_LIBRARY, then libnvrtc.so(.13/.12) on the
// loader's path, then the toolkit CMake found at configure time.
const NvrtcInfo& nvrtc_info();

struct NvrtcResult {
  bool ok = false;
  std::string log;          // NVRTC's diagnostics (warnings even on success)
  std::vector<char> cubin;  // the device code, when ok and compiled for an sm_ target
  std::string ptx;          // the PTX, when ok and compiled for a compute_ target
};

// Compiles one translation unit to a cubin for `arch` ("sm_80"), or to PTX
// for a virtual architecture ("compute_80"). Throws
// lz::DeviceError "NVRTC unavailable: <reason>" when NVRTC cannot be loaded;
// a program that does not compile is a result with ok == false and the log.
NvrtcResult nvrtc_compile(const std::string& source, const std::string& name, const std::string& arch);

// The real architectures this NVRTC builds cubins for (75 = sm_75),
// ascending; empty when NVRTC is unavailable.
const std::vector<int>& nvrtc_supported_archs();

// What to compile for a device of compute capability `device_arch` (90 =
// 9.0): "sm_90" when NVRTC supports it; when the device is newer than this
// NVRTC, "compute_N" for the newest supported N below it (PTX, which the
// driver compiles for the device when the module loads). DeviceError when
// the device is older than every architecture NVRTC supports.
std::string nvrtc_target(int device_arch, const std::vector<int>& supported);

}  // namespace lz::codegen_cuda
