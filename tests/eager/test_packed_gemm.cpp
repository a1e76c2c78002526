// Lazuli's packed GEMM (eager_kernels/cpu/packed_gemm.h): float16 and
// bfloat16 products read their operands in place, converted while packed,
// and round each finished block of their float32 result into the output;
// the kernel itself over every edge of its blocking (partial tiles, several
// K blocks with alpha and beta, column chunks, row and column thread
// splits, strided and transposed operands).
#include <cmath>
#include <cstdint>
#include <vector>

#include "core/cpu_allocator.h"
#include "eager_kernels/cpu/packed_gemm.h"
#include "matrix_reference.h"
#include "operator_recorder.h"
#include "test_util.h"

using namespace lz;
using lzt::mm_reference;
using lzt::values;
using lzt::ThreadCountGuard;

namespace {

cpu::GemmOperand operand(const Tensor& t) {
  return cpu::GemmOperand{t.data_ptr(), t.dtype(), t.size(0), t.size(1), t.stride(0), t.stride(1)};
}

// One rounding of the float32 result to `dt` (half an ulp, taken as one)
// on top of float32 accumulation over k terms of magnitude ~1.
double rtol_of(ScalarType dt) { return dt == kBFloat16 ? 1.0 / 128 : dt == kFloat16 ? 1.0 / 1024 : 1e-5; }

}  // namespace

TEST_CASE("the packed GEMM runs on AVX-512 CPUs", "[eager][linalg][packed_gemm]") {
#if defined(__x86_64__)
  CHECK(cpu::packed_gemm_supported() == static_cast<bool>(__builtin_cpu_supports("avx512f")));
#else
  CHECK_FALSE(cpu::packed_gemm_supported());
#endif
}

TEST_CASE("float16 and bfloat16 products match a float64 product of their values", "[eager][linalg][packed_gemm]") {
  ThreadCountGuard guard;
  struct Shape {
    int64_t m, k, n;
  };
  // Partial tiles (13 rows, 50 columns), several K blocks (450 > 2 x 192),
  // more columns than one packed chunk (4100 > 4080), a row split (20
  // columns); all but the first and last large enough for two threads
  // (2^21 multiply-adds each).
  const std::vector<Shape> shapes{{13, 7, 50}, {37, 450, 260}, {9, 120, 4100}, {1000, 240, 20}, {1, 1, 1}};
  for (int threads : {1, 2}) {
    set_num_threads(threads);
    for (ScalarType dt : {kFloat16, kBFloat16}) {
      for (const Shape& s : shapes) {
        INFO(dt << " " << s.m << "x" << s.k << "x" << s.n << ", " << threads << " threads");
        const Tensor a = randn({s.m, s.k}, make_generator(1), dt);
        const Tensor b = randn({s.k, s.n}, make_generator(2), dt);
        const double rtol = rtol_of(dt), atol = rtol * std::sqrt(static_cast<double>(s.k));
        CHECK_VALUES_TOL(mm(a, b), mm_reference(a, b), rtol, atol);
        // Read transposed, and through a column slice with gaps.
        const Tensor at = randn({s.k, s.m}, make_generator(3), dt).t();
        const Tensor bt = randn({s.n, s.k}, make_generator(4), dt).t();
        CHECK_VALUES_TOL(mm(at, bt), mm_reference(at, bt), rtol, atol);
        const Tensor gaps = randn({s.k, 2 * s.n}, make_generator(5), dt).slice(1, 0, 2 * s.n, 2);
        CHECK_VALUES_TOL(mm(a, gaps), mm_reference(a, gaps), rtol, atol);
      }
    }
  }
}

TEST_CASE("16-bit addmm and bmm through the packed GEMM", "[eager][linalg][packed_gemm]") {
  ThreadCountGuard guard;
  set_num_threads(2);
  for (ScalarType dt : {kFloat16, kBFloat16}) {
    INFO(dt);
    const double rtol = rtol_of(dt), atol = 30 * rtol;
    // alpha and beta over 3 K blocks: beta applies once, alpha to each block.
    const Tensor a = randn({21, 500}, make_generator(6), dt);
    const Tensor b = randn({500, 60}, make_generator(7), dt);
    const Tensor c = randn({21, 60}, make_generator(8), dt);
    CHECK_VALUES_TOL(addmm(c, a, b, 0.5, -2.0), mm_reference(a, b, -2.0, 0.5, values(c)), rtol, atol);
    CHECK_VALUES_TOL(addmm(c, a, b, 0.0, 1.0), mm_reference(a, b), rtol, atol);
    // The result rounded block by block into a column-major out; into a
    // factor's own memory only after the whole product (addmm_ of itself).
    Tensor col_major = empty({60, 21}, dt).t();
    mm_out(col_major, a, b);
    CHECK_VALUES_TOL(col_major, mm_reference(a, b), rtol, atol);
    Tensor sq = randn({100, 100}, make_generator(13), dt);
    const std::vector<double> sq_expected = mm_reference(sq, sq, 1.0, 1.0, values(sq));
    addmm_(sq, sq, sq);
    CHECK_VALUES_TOL(sq, sq_expected, rtol, atol);
    // Batches split over the threads (4) and not (3).
    for (int64_t batch : {3, 4}) {
      const Tensor x = randn({batch, 17, 40}, make_generator(9), dt);
      const Tensor y = randn({batch, 33, 40}, make_generator(10), dt).transpose(1, 2);
      const Tensor r = bmm(x, y);
      for (int64_t i = 0; i < batch; ++i) {
        INFO("batch " << batch << ", matrix " << i);
        CHECK_VALUES_TOL(r.select(0, i), mm_reference(x.select(0, i), y.select(0, i)), rtol, atol);
      }
    }
  }
}

// The operands are converted while packed: a 16-bit product allocates its
// result and one float32 result it rounds from, no float32 operand copies.
TEST_CASE("a 16-bit product makes no float32 copies of its operands", "[eager][linalg][packed_gemm]") {
  for (ScalarType dt : {kFloat16, kBFloat16}) {
    const Tensor a = randn({64, 96}, make_generator(11), dt);
    const Tensor b = randn({96, 80}, make_generator(12), dt);
    const uint64_t before = cpu_caching_allocator().stats().allocations;
    const Tensor r = mm(a, b);
    const uint64_t allocations = cpu_caching_allocator().stats().allocations - before;
    CHECK(allocations == (cpu::packed_gemm_supported() ? 2u : 4u));
  }
}

TEST_CASE("packed_gemm writes alpha * a @ b + beta * c into a strided c, serially and in parallel",
          "[eager][linalg][packed_gemm]") {
  if (!cpu::packed_gemm_supported()) {
    // Without AVX-512 the GEMM refuses to run (its callers take OpenBLAS).
    const Tensor x = ones({2, 2});
    float out[4];
    CHECK_THROWS_AS(cpu::packed_gemm(operand(x), operand(x), out, 2, 1.0f, 0.0f), InternalError);
    return;
  }
  ThreadCountGuard guard;
  for (int threads : {1, 2}) {
    set_num_threads(threads);
    // 45 x 400 x 260: two threads' work (2^21 multiply-adds each).
    const Tensor a = randn({45, 400}, make_generator(13));
    const Tensor b = randn({260, 800}, make_generator(14)).t().slice(0, 0, 400);  // [400, 260], read transposed
    const Tensor bt = randn({400, 260}, make_generator(15));
    // c with row stride 270 > 260 columns: the 10 gap columns stay untouched.
    Tensor base = full({45, 270}, 7.0f);
    Tensor c = base.slice(1, 0, 260);
    const std::vector<double> c0 = values(c);
    cpu::packed_gemm(operand(a), operand(bt), static_cast<float*>(c.data_ptr()), c.stride(0), 1.5f, 0.25f);
    CHECK_VALUES_TOL(c, mm_reference(a, bt, 1.5, 0.25, c0), 1e-5, 1e-3);
    CHECK_VALUES(base.slice(1, 260, 270), std::vector<double>(45 * 10, 7.0));
    // beta 0 never reads c: NaN there does not reach the result.
    Tensor nan_c = full({45, 260}, std::nanf(""));
    cpu::packed_gemm(operand(a), operand(b), static_cast<float*>(nan_c.data_ptr()), 260, 1.0f, 0.0f);
    CHECK_VALUES_TOL(nan_c, mm_reference(a, b), 1e-5, 1e-3);
  }
}
