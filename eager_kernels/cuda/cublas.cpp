#include "eager_kernels/cuda/cublas.h"

#include <dlfcn.h>

#include <array>
#include <climits>
#include <cstdlib>
#include <mutex>
#include <vector>

#include "core/cuda/device.h"
#include "core/error.h"

namespace lz::cuda::blas {

namespace {

// cuBLAS's ABI: status 0 is success; enums are ints.
using Handle = void*;
using CreateFn = int (*)(Handle*);
using SetStreamFn = int (*)(Handle, void*);
using SgemmFn = int (*)(Handle, int, int, int, int, int, const float*, const float*, int, long long, const float*, int,
                        long long, const float*, float*, int, long long, int);
using DgemmFn = int (*)(Handle, int, int, int, int, int, const double*, const double*, int, long long, const double*,
                        int, long long, const double*, double*, int, long long, int);
using GemmExFn = int (*)(Handle, int, int, int, int, int, const void*, const void*, int, int, long long, const void*,
                         int, int, long long, const void*, void*, int, int, long long, int, int, int);

constexpr int kOpN = 0, kOpT = 1;
constexpr int kR16F = 2, kR16BF = 14;
constexpr int kComputeF32 = 68;
constexpr int kGemmDefault = -1;

struct Library {
  std::string reason;
  CreateFn create = nullptr;
  SetStreamFn set_stream = nullptr;
  SgemmFn sgemm = nullptr;
  DgemmFn dgemm = nullptr;
  GemmExFn gemm_ex = nullptr;
  bool ok() const { return reason.empty(); }
};

Library load() {
  Library lib;
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("LZ_CUBLAS_LIBRARY"); env != nullptr && *env != '\0') {
    candidates = {env};
  } else {
    candidates = {"libcublas.so.13", "libcublas.so.12", "libcublas.so"};
#ifdef LZ_CUDA_LIBRARY_DIR
    candidates.push_back(std::string(LZ_CUDA_LIBRARY_DIR) + "/libcublas.so");
#endif
  }
  void* handle = nullptr;
  std::string errors;
  for (const std::string& c : candidates) {
    if ((handle = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL)) != nullptr) break;
    errors += (errors.empty() ? "" : "; ") + std::string(dlerror());
  }
  if (handle == nullptr) {
    lib.reason = errors;
    return lib;
  }
  lib.create = reinterpret_cast<CreateFn>(dlsym(handle, "cublasCreate_v2"));
  lib.set_stream = reinterpret_cast<SetStreamFn>(dlsym(handle, "cublasSetStream_v2"));
  lib.sgemm = reinterpret_cast<SgemmFn>(dlsym(handle, "cublasSgemmStridedBatched"));
  lib.dgemm = reinterpret_cast<DgemmFn>(dlsym(handle, "cublasDgemmStridedBatched"));
  lib.gemm_ex = reinterpret_cast<GemmExFn>(dlsym(handle, "cublasGemmStridedBatchedEx"));
  if (!lib.create || !lib.set_stream || !lib.sgemm || !lib.dgemm || !lib.gemm_ex) {
    lib.reason = "the cuBLAS library lacks cublasCreate_v2, cublasSetStream_v2 or a strided batched gemm";
  }
  return lib;
}

const Library& library() {
  static const Library lib = load();
  return lib;
}

// The device's handle, bound to its stream.
Handle handle_for(const char* what, int device) {
  static std::mutex mutex;
  static std::array<Handle, 64> handles{};
  void* stream = cuda::detail::activate(device, what);
  std::lock_guard<std::mutex> lock(mutex);
  Handle& h = handles.at(static_cast<size_t>(device));
  if (h == nullptr) {
    const int rc = library().create(&h);
    LZ_CHECK(rc == 0, DeviceError, "[", what, "] cublasCreate failed with status ", rc);
  }
  const int rc = library().set_stream(h, stream);
  LZ_CHECK(rc == 0, DeviceError, "[", what, "] cublasSetStream failed with status ", rc);
  return h;
}

int as_int(const char* what, int64_t v) {
  LZ_CHECK(v <= INT_MAX, ValueError, "[", what, "] a matrix dimension of ", v,
           " exceeds the 32-bit sizes of the cuBLAS interface");
  return static_cast<int>(v);
}

}  // namespace

bool is_available() { return library().ok(); }
std::string unavailable_reason() { return library().reason; }

bool supports(ScalarType dtype) {
  return dtype == ScalarType::Float || dtype == ScalarType::Double || dtype == ScalarType::Half ||
         dtype == ScalarType::BFloat16;
}

void gemm_strided_batched(const char* what, int device, ScalarType dtype, bool trans_a, bool trans_b, int64_t m,
                          int64_t n, int64_t k, double alpha, const void* a, int64_t lda, int64_t stride_a,
                          const void* b, int64_t ldb, int64_t stride_b, double beta, void* c, int64_t ldc,
                          int64_t stride_c, int64_t batch) {
  LZ_CHECK(library().ok(), DeviceError, "[", what, "] cuBLAS unavailable: ", library().reason);
  LZ_CHECK(supports(dtype), NotImplementedError, "[", what, "] cuBLAS has no matrix product for ", dtype);
  Handle h = handle_for(what, device);
  const int ta = trans_a ? kOpT : kOpN, tb = trans_b ? kOpT : kOpN;
  const int M = as_int(what, m), N = as_int(what, n), K = as_int(what, k), B = as_int(what, batch);
  const int LDA = as_int(what, lda), LDB = as_int(what, ldb), LDC = as_int(what, ldc);
  int rc = 0;
  if (dtype == ScalarType::Double) {
    rc = library().dgemm(h, ta, tb, M, N, K, &alpha, static_cast<const double*>(a), LDA, stride_a,
                         static_cast<const double*>(b), LDB, stride_b, &beta, static_cast<double*>(c), LDC, stride_c, B);
  } else if (dtype == ScalarType::Float) {
    const float fa = static_cast<float>(alpha), fb = static_cast<float>(beta);
    rc = library().sgemm(h, ta, tb, M, N, K, &fa, static_cast<const float*>(a), LDA, stride_a,
                         static_cast<const float*>(b), LDB, stride_b, &fb, static_cast<float*>(c), LDC, stride_c, B);
  } else {
    const float fa = static_cast<float>(alpha), fb = static_cast<float>(beta);
    const int type = dtype == ScalarType::Half ? kR16F : kR16BF;
    rc = library().gemm_ex(h, ta, tb, M, N, K, &fa, a, type, LDA, stride_a, b, type, LDB, stride_b, &fb, c, type, LDC,
                           stride_c, B, kComputeF32, kGemmDefault);
  }
  LZ_CHECK(rc == 0, DeviceError, "[", what, "] cuBLAS gemm (", dtype, ", ", m, "x", k, " by ", k, "x", n, ", batch ",
           batch, ") failed with status ", rc);
}

}  // namespace lz::cuda::blas
