#include "eager_kernels/cpu/openblas.h"

#include <dlfcn.h>

#include <cstdlib>

#include "core/error.h"
#include "eager_kernels/cpu/flush_denormals.h"

namespace lz::cpu::openblas {

namespace {

template <class Fn>
void find(void* handle, const char* name, Fn& fn, std::string& missing) {
  fn = reinterpret_cast<Fn>(dlsym(handle, name));
  if (fn == nullptr) missing += (missing.empty() ? "" : ", ") + std::string(name);
}

std::vector<std::string> default_candidates() {
  if (const char* env = std::getenv("LZ_OPENBLAS_LIBRARY"); env != nullptr && *env != '\0') return {env};
  std::vector<std::string> candidates = {"libopenblas.so.0"};
#ifdef LZ_OPENBLAS_LIBRARY_PATH
  candidates.push_back(LZ_OPENBLAS_LIBRARY_PATH);
#endif
  return candidates;
}

Library open_default() {
  // Read by OpenBLAS when it is loaded, and by nothing of Lazuli's. Set
  // once, before the first load, and left set: a library that loads
  // OpenBLAS later (or a child process) gets the same kernels.
  const std::string choice = kernel_choice();
  if (!choice.empty()) setenv("OPENBLAS_CORETYPE", choice.c_str(), /*overwrite=*/0);
  // OpenBLAS's workers otherwise spin (sched_yield) for 2^28 cycles after
  // every product, on the cores Lazuli's own kernels run on next; 2^4 and
  // they sleep at once. lz-bench --reps 5, 3 rounds alternating, eager /
  // lazy ms: W6 17.4-19.5 / 15.4-15.8 -> 16.3-17.2 / 14.7-15.4, W10 247-292 /
  // 153-181 -> 234-248 / 149-161, W11 278-289 / 184-219 -> 218-224 / 175-180.
  setenv("OPENBLAS_THREAD_TIMEOUT", "4", /*overwrite=*/0);
  return open_library(default_candidates());
}

}  // namespace

std::string kernel_choice() {
  if (std::getenv("OPENBLAS_CORETYPE") != nullptr) return "";
  __builtin_cpu_init();
  const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  return avx512 ? "SkylakeX" : "";
}

Library open_library(const std::vector<std::string>& candidates) {
  Library lib;
  // OpenBLAS may start its worker threads when it is loaded: they keep the
  // flush mode this thread has now.
  const FlushDenormals flush;
  void* handle = nullptr;
  for (const std::string& c : candidates) {
    if ((handle = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
    lib.error += (lib.error.empty() ? "" : "; ") + std::string(dlerror());
  }
  if (handle == nullptr) return lib;
  lib.error.clear();
  Functions& f = lib.functions;
  std::string missing;
  find(handle, "cblas_sgemm", f.sgemm, missing);
  find(handle, "cblas_dgemm", f.dgemm, missing);
  find(handle, "openblas_set_num_threads", f.set_num_threads, missing);
  find(handle, "openblas_get_num_threads", f.get_num_threads, missing);
  find(handle, "openblas_get_corename", f.get_corename, missing);
  if (!missing.empty()) {
    lib.error = "it lacks " + missing;
    dlclose(handle);
  }
  return lib;
}

const Functions& functions_of(const Library& lib, const char* what) {
  LZ_CHECK(lib.error.empty(), Error, "[", what, "] OpenBLAS, which computes matrix products on the CPU, could not ",
           "be loaded: ", lib.error, " (install libopenblas0, or name the library in LZ_OPENBLAS_LIBRARY)");
  return lib.functions;
}

const Functions& functions(const char* what) {
  static const Library lib = open_default();
  return functions_of(lib, what);
}

}  // namespace lz::cpu::openblas
