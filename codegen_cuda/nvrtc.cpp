#include "codegen_cuda/nvrtc.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <iterator>

#include "core/error.h"

namespace lz::codegen_cuda {

namespace {

// The few NVRTC entry points used, declared here so that building needs no
// CUDA header (nvrtcResult is an int enum; 0 is NVRTC_SUCCESS).
using Program = void*;
struct Api {
  int (*version)(int*, int*) = nullptr;
  int (*create)(Program*, const char*, const char*, int, const char* const*, const char* const*) = nullptr;
  int (*compile)(Program, int, const char* const*) = nullptr;
  int (*log_size)(Program, size_t*) = nullptr;
  int (*log)(Program, char*) = nullptr;
  int (*cubin_size)(Program, size_t*) = nullptr;
  int (*cubin)(Program, char*) = nullptr;
  int (*ptx_size)(Program, size_t*) = nullptr;
  int (*ptx)(Program, char*) = nullptr;
  int (*num_archs)(int*) = nullptr;
  int (*archs)(int*) = nullptr;
  int (*destroy)(Program*) = nullptr;
  const char* (*error_string)(int) = nullptr;
};

template <class F>
bool bind(void* lib, const char* symbol, F& f) {
  f = reinterpret_cast<F>(dlsym(lib, symbol));
  return f != nullptr;
}

struct Loaded {
  NvrtcInfo info;
  Api api;
};

Loaded load() {
  Loaded l;
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("LZ_NVRTC_LIBRARY")) candidates.emplace_back(env);
  for (const char* name : {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"}) candidates.emplace_back(name);
#ifdef LZ_CUDA_LIBRARY_DIR
  candidates.emplace_back(std::string(LZ_CUDA_LIBRARY_DIR) + "/libnvrtc.so");
#endif
  std::string tried;
  for (const std::string& c : candidates) {
    void* lib = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib == nullptr) {
      tried += (tried.empty() ? "" : "; ") + std::string(dlerror());
      continue;
    }
    Api& a = l.api;
    if (!(bind(lib, "nvrtcVersion", a.version) && bind(lib, "nvrtcCreateProgram", a.create) &&
          bind(lib, "nvrtcCompileProgram", a.compile) && bind(lib, "nvrtcGetProgramLogSize", a.log_size) &&
          bind(lib, "nvrtcGetProgramLog", a.log) && bind(lib, "nvrtcGetCUBINSize", a.cubin_size) &&
          bind(lib, "nvrtcGetCUBIN", a.cubin) && bind(lib, "nvrtcGetPTXSize", a.ptx_size) &&
          bind(lib, "nvrtcGetPTX", a.ptx) && bind(lib, "nvrtcGetNumSupportedArchs", a.num_archs) &&
          bind(lib, "nvrtcGetSupportedArchs", a.archs) && bind(lib, "nvrtcDestroyProgram", a.destroy) &&
          bind(lib, "nvrtcGetErrorString", a.error_string))) {
      tried += (tried.empty() ? "" : "; ") + c + ": missing NVRTC symbols";
      dlclose(lib);
      continue;
    }
    l.info.available = true;
    l.info.library = c;
    a.version(&l.info.major, &l.info.minor);
    return l;
  }
  l.info.reason = "could not load NVRTC (" + tried + ")";
  return l;
}

const Loaded& loaded() {
  static const Loaded l = load();
  return l;
}

}  // namespace

const NvrtcInfo& nvrtc_info() { return loaded().info; }

NvrtcResult nvrtc_compile(const std::string& source, const std::string& name, const std::string& arch) {
  const Loaded& l = loaded();
  LZ_CHECK(l.info.available, DeviceError, "NVRTC unavailable: ", l.info.reason);
  const Api& a = l.api;
  Program prog = nullptr;
  const int created = a.create(&prog, source.c_str(), (name + ".cu").c_str(), 0, nullptr, nullptr);
  LZ_CHECK(created == 0, DeviceError, "[nvrtc] ", name, ": nvrtcCreateProgram failed: ", a.error_string(created));
  // Exact IEEE arithmetic, as the CPU computes: no contraction into FMAs,
  // IEEE division and square root, denormals kept.
  const std::string arch_flag = "--gpu-architecture=" + arch;
  const char* options[] = {arch_flag.c_str(), "--std=c++17", "--fmad=false", "--prec-div=true", "--prec-sqrt=true",
                           "--ftz=false"};
  const int compiled = a.compile(prog, static_cast<int>(std::size(options)), options);
  NvrtcResult r;
  size_t log_size = 0;
  if (a.log_size(prog, &log_size) == 0 && log_size > 1) {
    r.log.resize(log_size);
    a.log(prog, r.log.data());
    r.log.resize(log_size - 1);  // the terminating NUL
  }
  r.ok = compiled == 0;
  if (!r.ok && r.log.empty()) r.log = a.error_string(compiled);
  size_t size = 0;
  if (r.ok && arch.rfind("compute_", 0) == 0) {
    if (a.ptx_size(prog, &size) == 0 && size > 1) {
      r.ptx.resize(size);
      a.ptx(prog, r.ptx.data());
      r.ptx.resize(size - 1);  // the terminating NUL
    }
  } else if (r.ok && a.cubin_size(prog, &size) == 0 && size > 0) {
    r.cubin.resize(size);
    a.cubin(prog, r.cubin.data());
  }
  a.destroy(&prog);
  return r;
}

const std::vector<int>& nvrtc_supported_archs() {
  static const std::vector<int> archs = [] {
    std::vector<int> out;
    const Loaded& l = loaded();
    int n = 0;
    if (!l.info.available || l.api.num_archs(&n) != 0 || n <= 0) return out;
    out.resize(static_cast<size_t>(n));
    if (l.api.archs(out.data()) != 0) out.clear();
    std::sort(out.begin(), out.end());
    return out;
  }();
  return archs;
}

std::string nvrtc_target(int device_arch, const std::vector<int>& supported) {
  if (std::binary_search(supported.begin(), supported.end(), device_arch)) {
    return "sm_" + std::to_string(device_arch);
  }
  // PTX is forward compatible: the newest architecture not above the device's.
  auto newest = std::upper_bound(supported.begin(), supported.end(), device_arch);
  LZ_CHECK(newest != supported.begin(), DeviceError, "[nvrtc] a device of compute capability ", device_arch / 10,
           ".", device_arch % 10, " is older than every architecture this NVRTC supports (",
           supported.empty() ? std::string("none") : "sm_" + std::to_string(supported.front()) + " to sm_" +
                                                         std::to_string(supported.back()),
           ")");
  return "compute_" + std::to_string(*std::prev(newest));
}

}  // namespace lz::codegen_cuda
