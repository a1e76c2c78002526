// Matrix products beyond the operator table: accuracy on random matrices,
// OpenBLAS threading, batches split over threads, subnormals flushed, results independent of the thread count, aliasing,
// integer wrap-around, 16-bit inputs computed in float32, non-contiguous
// outputs, and matmul's decomposition seen by another dispatch key.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "core/dispatcher.h"
#include "core/local_dispatch_key_set.h"
#include "core/op_registration.h"
#include "eager_kernels/cpu/linalg_kernels.h"
#include "matrix_reference.h"
#include "operator_recorder.h"
#include "test_util.h"

using namespace lz;
using lzt::make_tensor;
using lzt::mm_reference;
using lzt::values;
using lzt::contains;
using lzt::recorded;
using lzt::recording_fallback;
using lzt::ThreadCountGuard;

TEST_CASE("mm of random float32 and float64 matrices matches a float64 reference", "[eager][linalg]") {
  for (ScalarType dt : {kFloat32, kFloat64}) {
    const Tensor a = randn({257, 300}, make_generator(1), dt);
    const Tensor b = randn({300, 129}, make_generator(2), dt);
    const double rtol = dt == kFloat32 ? 1e-4 : 1e-12;
    // Errors of a length-300 float dot product stay far below 1e-4 of the
    // typical magnitude sqrt(300) ~ 17: compare with an absolute bound too.
    const double atol = dt == kFloat32 ? 1e-3 : 1e-10;
    CHECK_VALUES_TOL(mm(a, b), mm_reference(a, b), rtol, atol);
    CHECK_VALUES_TOL(mm(a, b.t().contiguous().t()), mm_reference(a, b), rtol, atol);
    CHECK_VALUES_TOL(mm(a.t().contiguous().t(), b), mm_reference(a, b), rtol, atol);
  }
}

TEST_CASE("OpenBLAS runs with lz's thread count", "[eager][linalg]") {
  ThreadCountGuard guard;
  const Tensor a = randn({64, 64}, make_generator(3));
  set_num_threads(1);
  mm(a, a);
  CHECK(cpu::blas_num_threads() == 1);
  set_num_threads(2);
  mm(a, a);
  CHECK(cpu::blas_num_threads() == 2);
}

// A batch that splits evenly over the threads runs whole products on each
// thread, OpenBLAS single-threaded; an uneven small batch splits each product.
// Every product must land in its own matrix of out, whatever the operands'
// layouts (transposed reads, a column-major out, a strided batch).
TEST_CASE("bmm split over its batch matches each matrix's product", "[eager][linalg]") {
  ThreadCountGuard guard;
  set_num_threads(2);
  for (int64_t batch : {3, 4, 9}) {
    const Tensor a = randn({batch, 33, 20}, make_generator(10));
    const Tensor b = randn({batch, 17, 20}, make_generator(11)).transpose(1, 2);  // read transposed
    Tensor out = empty({batch, 17, 33}).transpose(1, 2);  // column-major matrices
    bmm_out(out, a, b);
    CHECK(cpu::blas_num_threads() == (batch == 3 ? 2 : 1));
    for (int64_t i = 0; i < batch; ++i) {
      INFO("batch " << batch << ", matrix " << i);
      CHECK_VALUES_TOL(out.select(0, i), mm_reference(a.select(0, i), b.select(0, i)), 1e-5, 1e-4);
    }
    const Tensor every_other = randn({2 * batch, 33, 20}, make_generator(12)).slice(0, 0, 2 * batch, 2);
    CHECK_VALUES_TOL(bmm(every_other, b).select(0, batch - 1),
                     mm_reference(every_other.select(0, batch - 1), b.select(0, batch - 1)), 1e-5, 1e-4);
  }
}

// Products flush subnormal operands and results to zero on every thread
// that computes them (OpenBLAS's workers, ours over a batch), and leave the
// caller's mode as it was; LZ_KEEP_DENORMALS=1 keeps them (the second CTest
// registration of this case, tests/eager/CMakeLists.txt).
TEST_CASE("matrix products flush subnormals unless LZ_KEEP_DENORMALS is 1", "[eager][linalg][denormals]") {
  const char* keep_env = std::getenv("LZ_KEEP_DENORMALS");
  const bool keep = keep_env != nullptr && std::string(keep_env) == "1";
  const float tiny = std::numeric_limits<float>::denorm_min() * 1000;  // subnormal
  ThreadCountGuard guard;
  set_num_threads(2);
  // Every output element is tiny * 1 (a subnormal operand and a subnormal
  // result): all zero when flushed, wherever OpenBLAS computes it.
  const Tensor a = full({512, 512}, tiny), b = eye(512);
  const Tensor batch_a = full({4, 64, 64}, tiny), batch_b = eye(64).expand({4, 64, 64});
  for (const Tensor& product : {mm(a, b), bmm(batch_a, batch_b)}) {
    const std::vector<double> v = values(product);
    const int64_t kept = std::count(v.begin(), v.end(), static_cast<double>(tiny));
    const int64_t zeros = std::count(v.begin(), v.end(), 0.0);
    CHECK(kept == (keep ? product.numel() : 0));
    CHECK(zeros == (keep ? 0 : product.numel()));
  }
  // The double kernels too.
  CHECK(values(mm(full({1, 1}, 1e-310, kFloat64), full({1, 1}, 1.0, kFloat64)))[0] == (keep ? 1e-310 : 0.0));
  // Element-wise kernels, and this thread, keep subnormals after a product.
  CHECK(values(mul(full({4096}, tiny), 1.0))[4095] == static_cast<double>(tiny));
  volatile float x = tiny;
  CHECK(x * 1.0f == tiny);
}

// Our integer kernel gives the same bits for any thread count. OpenBLAS does
// not promise that for float: it splits the output between its threads, and
// the edge tiles of a split use other micro-kernels (another summation order),
// so float results may differ in the last bits; they must still agree closely.
TEST_CASE("matrix products do not depend on the thread count", "[eager][linalg]") {
  ThreadCountGuard guard;
  const Tensor a = randn({200, 300}, make_generator(4));
  const Tensor b = randn({300, 150}, make_generator(5));
  const Tensor ai = make_tensor(lzt::sample_values(kInt64, 200 * 300, 6), {200, 300}, kInt64);
  const Tensor bi = make_tensor(lzt::sample_values(kInt64, 300 * 150, 7), {300, 150}, kInt64);
  const Tensor ba = randn({4, 50, 60}, make_generator(8));
  const Tensor bb = randn({4, 60, 70}, make_generator(9));
  set_num_threads(1);
  const Tensor f1 = mm(a, b), i1 = mm(ai, bi), b1 = bmm(ba, bb);
  set_num_threads(2);
  const Tensor f2 = mm(a, b), i2 = mm(ai, bi), b2 = bmm(ba, bb);
  CHECK(lzt::same_values(i1, i2) == "");
  CHECK_VALUES_TOL(f2, values(f1), 1e-5, 1e-4);  // |sum of 300 products| ~ 17
  CHECK_VALUES_TOL(b2, values(b1), 1e-5, 1e-4);
}

TEST_CASE("addmm with beta 0 ignores NaN and inf in self", "[eager][linalg]") {
  const Tensor self = make_tensor({NAN, INFINITY, -INFINITY, NAN}, {2, 2}, kFloat32);
  const Tensor a = make_tensor({1, 2, 3, 4}, {2, 2}, kFloat32);
  const Tensor b = make_tensor({1, 0, 0, 1}, {2, 2}, kFloat32);
  CHECK_VALUES(addmm(self, a, b, /*beta=*/0, /*alpha=*/2), {2, 4, 6, 8});
  // beta != 0 does propagate them.
  const std::vector<double> v = values(addmm(self, a, b, 1, 1));
  CHECK(std::isnan(v[0]));
  CHECK(std::isinf(v[1]));
}

TEST_CASE("addmm_ into a matrix that is also a factor reads the original values", "[eager][linalg]") {
  // a = [[1, 2], [3, 4]]; a.addmm_(a, a) = a + a @ a = [[1+7, 2+10], [3+15, 4+22]].
  Tensor a = make_tensor({1, 2, 3, 4}, {2, 2}, kFloat64);
  addmm_(a, a, a);
  CHECK_VALUES(a, {8, 12, 18, 26});
  // The same through a transposed view of the factor.
  Tensor c = make_tensor({1, 2, 3, 4}, {2, 2}, kFloat32);
  addmm_(c, c.t(), c);  // c + c^T c = [[1+10, 2+14], [3+14, 4+20]]
  CHECK_VALUES(c, {11, 16, 17, 24});
}

TEST_CASE("integer matrix products wrap around like PyTorch's", "[eager][linalg]") {
  // uint8: 200*2 + 100*1 = 500 = 244 (mod 256).
  const Tensor a = make_tensor({200, 100}, {1, 2}, kUInt8);
  const Tensor b = make_tensor({2, 1}, {2, 1}, kUInt8);
  CHECK(lzt::int_values(mm(a, b)) == std::vector<int64_t>{244});
  // int32: 2^30 * 4 = 2^32 = 0 (mod 2^32); plus 3 * 1.
  const Tensor c = make_tensor({1073741824.0, 3}, {1, 2}, kInt32);
  const Tensor d = make_tensor({4, 1}, {2, 1}, kInt32);
  CHECK(lzt::int_values(mm(c, d)) == std::vector<int64_t>{3});
  // int64 with alpha and beta: 2 * 10 + 3 * (1*5 + 2*6) = 71.
  const Tensor e = make_tensor({1, 2}, {1, 2}, kInt64);
  const Tensor f = make_tensor({5, 6}, {2, 1}, kInt64);
  CHECK(lzt::int_values(addmm(make_tensor({10}, {1, 1}, kInt64), e, f, 2, 3)) == std::vector<int64_t>{71});
}

TEST_CASE("float16 and bfloat16 products accumulate in float32", "[eager][linalg]") {
  // 300 * 300 = 90000 overflows float16 (max 65504); the exact result 1 does not.
  for (ScalarType dt : {kFloat16, kBFloat16}) {
    const Tensor a = make_tensor({300, 300, 1}, {1, 3}, dt);
    const Tensor b = make_tensor({300, -300, 1}, {3, 1}, dt);
    CHECK_VALUES(mm(a, b), {1});
    CHECK(mm(a, b).dtype() == dt);
  }
}

TEST_CASE("mm_out writes a strided output without touching the gaps", "[eager][linalg]") {
  const Tensor a = make_tensor({1, 2, 3, 4, 5, 6}, {2, 3}, kFloat32);
  const Tensor b = make_tensor({1, 0, 0, 1, 1, 1}, {3, 2}, kFloat32);
  const Tensor base = full({2, 4}, -7.0f);
  Tensor out = base.slice(1, 0, std::nullopt, 2);  // [2, 2], stride 2 along columns
  mm_out(out, a, b);
  CHECK_VALUES(out, {4, 5, 10, 11});
  CHECK_VALUES(base, {4, -7, 5, -7, 10, -7, 11, -7});
}

TEST_CASE("matrix products accept every layout of their operands", "[eager][linalg]") {
  // A column slice (no BLAS layout), a transposed view and a stride-0 batch.
  const Tensor wide = make_tensor({1, 9, 2, 9, 3, 9, 4, 9, 5, 9, 6, 9}, {2, 6}, kFloat32);
  const Tensor a = wide.slice(1, 0, std::nullopt, 2);  // [[1, 2, 3], [4, 5, 6]]
  const Tensor b = make_tensor({1, 2, 3, 4, 5, 6}, {2, 3}, kFloat32).t();  // [[1, 4], [2, 5], [3, 6]]
  CHECK_VALUES(mm(a, b), {14, 32, 32, 77});
  const Tensor batch = b.unsqueeze(0).expand({3, 3, 2});
  const Tensor r = bmm(a.unsqueeze(0).expand({3, 2, 3}), batch);
  CHECK_SHAPE(r, {3, 2, 2});
  CHECK_VALUES(r, {14, 32, 32, 77, 14, 32, 32, 77, 14, 32, 32, 77});
}

TEST_CASE("Tensor methods of the matrix products", "[eager][linalg]") {
  const Tensor a = make_tensor({1, 2, 3, 4}, {2, 2}, kFloat32);
  const Tensor v = make_tensor({1, 1}, {2}, kFloat32);
  CHECK_VALUES(a.mm(a), {7, 10, 15, 22});
  CHECK_VALUES(a.unsqueeze(0).bmm(a.unsqueeze(0)), {7, 10, 15, 22});
  CHECK_VALUES(a.matmul(v), {3, 7});
  CHECK_VALUES(v.matmul(v), {2});
  CHECK(v.matmul(v).dim() == 0);
  CHECK_VALUES(v.addmm(a, a, 0.5, 1), {7.5, 10.5, 15.5, 22.5});
}

TEST_CASE("matmul decomposes into mm or bmm for other dispatch keys", "[eager][linalg]") {
  Library lib("test_linalg_recording");
  lib.fallback(DispatchKey::TestingOnlyMode, KernelFunction::from_boxed(&recording_fallback));
  const Tensor x = randn({2, 3, 4}, make_generator(11));
  const Tensor w = randn({4, 5}, make_generator(12));
  const Tensor y = randn({2, 4, 5}, make_generator(13));
  const Tensor expected_folded = matmul(x, w), expected_batched = matmul(x, y);
  Tensor folded, batched;
  recorded().clear();
  {
    IncludeDispatchKeyGuard mode(DispatchKey::TestingOnlyMode);
    folded = matmul(x, w);
  }
  // Batch dims folded into the rows of one product.
  CHECK(contains(recorded(), "mm"));
  CHECK_FALSE(contains(recorded(), "bmm"));
  CHECK_FALSE(contains(recorded(), "matmul"));
  recorded().clear();
  {
    IncludeDispatchKeyGuard mode(DispatchKey::TestingOnlyMode);
    batched = matmul(x, y);
  }
  CHECK(contains(recorded(), "bmm"));
  CHECK(lzt::same_values(folded, expected_folded) == "");
  CHECK(lzt::same_values(batched, expected_batched) == "");
}

TEST_CASE("linear folds its leading dims into one addmm", "[eager][linalg]") {
  Library lib("test_linear_recording");
  lib.fallback(DispatchKey::TestingOnlyMode, KernelFunction::from_boxed(&recording_fallback));
  const Tensor x = make_tensor({1, 2, 3, 4, 5, 6}, {1, 3, 2}, kFloat32);
  const Tensor w = make_tensor({1, 0, 1, 1}, {2, 2}, kFloat32);  // rows: out features
  const Tensor b = make_tensor({10, 20}, {2}, kFloat32);
  recorded().clear();
  Tensor y;
  {
    IncludeDispatchKeyGuard mode(DispatchKey::TestingOnlyMode);
    y = linear(x, w, b);
  }
  CHECK(contains(recorded(), "addmm"));
  CHECK_SHAPE(y, {1, 3, 2});
  // y[i] = [x0 + 10, x0 + x1 + 20]
  CHECK_VALUES(y, {11, 23, 13, 27, 15, 31});
  CHECK_VALUES(linear(x, w), {1, 3, 3, 7, 5, 11});
}
