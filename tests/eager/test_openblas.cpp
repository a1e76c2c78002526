// OpenBLAS, opened at the first matrix product (eager_kernels/cpu/openblas.h):
// the kernels it is asked for on this CPU, a user's OPENBLAS_CORETYPE kept,
// and the errors when the library cannot be used.
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <optional>
#include <string>

#include "eager_kernels/cpu/openblas.h"
#include "test_util.h"

using namespace lz;

namespace {

bool cpu_has_avx512() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
}

std::string lowercase(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// Restores OPENBLAS_CORETYPE as it was.
class CoreTypeGuard {
 public:
  CoreTypeGuard() {
    if (const char* v = std::getenv("OPENBLAS_CORETYPE")) saved_ = v;
  }
  ~CoreTypeGuard() {
    if (saved_) {
      setenv("OPENBLAS_CORETYPE", saved_->c_str(), 1);
    } else {
      unsetenv("OPENBLAS_CORETYPE");
    }
  }

 private:
  std::optional<std::string> saved_;
};

}  // namespace

TEST_CASE("OpenBLAS runs the kernels chosen for this CPU: AVX-512 ones where it has AVX-512", "[eager][linalg]") {
  const Tensor a = randn({32, 32});
  (void)mm(a, a);  // opens OpenBLAS
  const char* chosen = std::getenv("OPENBLAS_CORETYPE");
  INFO("OpenBLAS runs " << blas_core_name() << "; OPENBLAS_CORETYPE=" << (chosen ? chosen : "(unset)"));
  if (cpu_has_avx512()) {
    // Set by Lazuli before the load when the user had not: OpenBLAS's own
    // detection falls back to SSE3 kernels on CPUs newer than it knows.
    REQUIRE(chosen != nullptr);
  }
  if (chosen != nullptr) CHECK(lowercase(blas_core_name()) == lowercase(chosen));
}

// Its idle workers would otherwise spin on the cores the next kernels run on.
TEST_CASE("OpenBLAS is opened with its workers set to sleep right after a product", "[eager][linalg]") {
  const Tensor a = ones({64, 64});
  CHECK(lzt::values(mm(a, a))[0] == 64.0);
  const char* timeout = std::getenv("OPENBLAS_THREAD_TIMEOUT");
  REQUIRE(timeout != nullptr);
  CHECK(std::atoi(timeout) <= 4);
}

TEST_CASE("OpenBLAS kernel choice: SkylakeX for AVX-512, a user's OPENBLAS_CORETYPE kept", "[eager][linalg]") {
  CoreTypeGuard guard;
  unsetenv("OPENBLAS_CORETYPE");
  CHECK(cpu::openblas::kernel_choice() == (cpu_has_avx512() ? "SkylakeX" : ""));
  setenv("OPENBLAS_CORETYPE", "Haswell", 1);
  CHECK(cpu::openblas::kernel_choice().empty());
}

TEST_CASE("OpenBLAS that cannot be opened or lacks its functions is an error naming the operator", "[eager][linalg]") {
  using cpu::openblas::open_library;
  const cpu::openblas::Library missing = open_library({"/nonexistent/libopenblas.so.0"});
  CHECK_THAT(missing.error, Catch::Contains("/nonexistent/libopenblas.so.0"));
  REQUIRE_THROWS_AS(cpu::openblas::functions_of(missing, "mm"), Error);
  REQUIRE_THROWS_WITH(cpu::openblas::functions_of(missing, "mm"),
                      Catch::Contains("[mm] OpenBLAS") && Catch::Contains("/nonexistent/libopenblas.so.0") &&
                          Catch::Contains("LZ_OPENBLAS_LIBRARY"));

  const cpu::openblas::Library not_blas = open_library({"/nonexistent/libopenblas.so.0", "libc.so.6"});
  CHECK_THAT(not_blas.error, Catch::Contains("lacks cblas_sgemm, cblas_dgemm"));
  CHECK_THROWS_WITH(cpu::openblas::functions_of(not_blas, "addmm"), Catch::Contains("[addmm]"));

  const cpu::openblas::Library found = open_library({"/nonexistent/libopenblas.so.0", "libopenblas.so.0"});
  CHECK(found.error.empty());
  const cpu::openblas::Functions& f = cpu::openblas::functions_of(found, "mm");
  CHECK(f.sgemm != nullptr);
  CHECK(f.get_corename != nullptr);
}
