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
  std::vector<char> cubin;  // the device code, when ok
};

// Compiles one translation unit to a cubin for `arch` ("sm_80"). Throws
// lz::DeviceError "NVRTC unavailable: <reason>" when NVRTC cannot be loaded;
// a program that does not compile is a result with ok == false and the log.
NvrtcResult nvrtc_compile(const std::string& source, const std::string& name, const std::string& arch);

}  // namespace lz::codegen_cuda
