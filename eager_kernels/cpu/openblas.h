// OpenBLAS, opened at the first matrix product (dlopen) rather than linked,
// so that Lazuli can choose its kernels before it starts: OpenBLAS picks
// them once, when it is loaded, from the CPU's family and model, and on a
// CPU newer than it knows it falls back to its generic SSE3 kernels
// ("Prescott"), about 4x slower than its AVX-512 ones (sgemm 67 against
// 280-310 GFLOP/s on this machine's Xeon, model 207). Programs that never
// multiply matrices do not load it at all.
#pragma once

#include <cblas.h>

#include <string>
#include <vector>

namespace lz::cpu::openblas {

struct Functions {
  decltype(&cblas_sgemm) sgemm = nullptr;
  decltype(&cblas_dgemm) dgemm = nullptr;
  decltype(&openblas_set_num_threads) set_num_threads = nullptr;
  decltype(&openblas_get_num_threads) get_num_threads = nullptr;
  decltype(&openblas_get_corename) get_corename = nullptr;
};

// OpenBLAS's functions, loaded on the first call: $LZ_OPENBLAS_LIBRARY, else
// libopenblas.so.0 on the loader's path, else the library CMake found. When
// OPENBLAS_CORETYPE is unset, it is set first to the kernels this CPU
// should get (kernel_choice()); when OPENBLAS_THREAD_TIMEOUT is unset, to 4
// (OpenBLAS's workers sleep right after a product instead of spinning). Throws lz::Error naming `what` (the
// operator) and the loader's message when OpenBLAS cannot be loaded.
const Functions& functions(const char* what);

// Opening a library, for functions() and its tests.
struct Library {
  Functions functions;
  std::string error;  // why it could not be used; empty when it can
};
// The first of `candidates` (paths or names for dlopen) that opens, with
// OpenBLAS's functions looked up in it.
Library open_library(const std::vector<std::string>& candidates);
// `lib`'s functions, or lz::Error naming `what` and why it is unusable.
const Functions& functions_of(const Library& lib, const char* what);

// The kernels Lazuli asks OpenBLAS for on this CPU when OPENBLAS_CORETYPE
// is unset: "SkylakeX" where AVX-512 (F, BW, DQ, VL) is there, since
// OpenBLAS's AVX-512 float and double matrix kernels are its SkylakeX ones
// on every such CPU; empty (OpenBLAS's own detection) otherwise.
std::string kernel_choice();

}  // namespace lz::cpu::openblas
