// CompiledKernel on reduction kernels against the reference interpreter:
// row, column, full and middle-axis reductions of every reduce op over the
// reducible dtypes and sizes (empty to the parallel partial path), kernels
// whose later stages read reduced values (softmax, layer norm), reduced
// stores of values from several reductions, and results independent of
// the thread count; uint8 and 16-bit float data; parameters read by the
// partial and finish steps.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "codegen_llvm/jit_engine.h"
#include "core/parallel.h"
#include "tests/codegen_llvm/compiled_test_util.h"

using namespace lz;
using namespace lz::ir;
using namespace lz::compiled_testing;
using lz::codegen_llvm::CompiledKernel;
using lz::codegen_llvm::JitEngine;

namespace {

constexpr int64_t kBig = (int64_t{1} << 20) + 3;  // > 2 * 32768 inner points: the partial path

// in0 (dtype t) reduced over the axes in `mask` four ways, each stored
// reduced to its own output (extent 1 on the reduced axes):
//   numeric t: sum, prod, max, min (accumulated in t)
//   bool t:    all, any, sum (as int64), max (as bool)
Kernel multi_reduce_kernel(ScalarType t, uint32_t rank, uint64_t mask) {
  Kernel k;
  k.name = "reduce4_" + std::string(to_string(t)) + "_m" + std::to_string(mask) + "_r" + std::to_string(rank);
  k.rank = rank;
  k.reduce_axes = mask;
  KernelBuilder b(&k);
  const uint32_t in = b.add_access({b.add_buffer(t, rank, false), {}});
  const bool is_bool = t == kBool;
  const ReduceOp ops[4] = {is_bool ? ReduceOp::All : ReduceOp::Sum, is_bool ? ReduceOp::Any : ReduceOp::Prod,
                           is_bool ? ReduceOp::Sum : ReduceOp::Max, is_bool ? ReduceOp::Max : ReduceOp::Min};
  const ScalarType acc[4] = {t, t, is_bool ? kLong : t, t};
  uint32_t out[4];
  for (int i = 0; i < 4; ++i) out[i] = b.add_access({b.add_buffer(acc[i], rank, true), {}});
  uint32_t r[4];
  for (int i = 0; i < 4; ++i) r[i] = b.add_reduction(ops[i], b.load(in, acc[i]), acc[i]);
  for (int i = 0; i < 4; ++i) b.add_store(out[i], b.reduced(r[i]), true);
  return k;
}

// Sums within 1e-5 relative; float32 products of up to 2^20 factors
// accumulate float32 rounding per vector lane (the interpreter's in double):
// about sqrt(n) * 2^-24 relative, so 1e-4.
std::vector<Tol> reduce_tols(ScalarType t) {
  if (t == kFloat) return {Tol{}, Tol{0, 1e-5}, Tol{0, 1e-4}};
  if (t == kDouble) return {Tol{}, Tol{0, 1e-12}, Tol{0, 1e-12}};
  return {};
}

// One launch of a kernel with one input (in `layout`) and reduced outputs.
std::string check_reduce(const CompiledKernel& ck, std::vector<int64_t> domain, Layout layout, std::mt19937_64& rng,
                         Fill fill, const std::vector<Tol>& tols, int nan_every = 0) {
  const Kernel& k = ck.kernel();
  Case c;
  c.domain = std::move(domain);
  c.add_input(k.buffers[0].dtype, layout, rng, fill);
  if (nan_every > 0) {
    for (int64_t i = 0; i < c.buffers[0].numel; i += nan_every) set_float(c.buffers[0], i, std::nan(""));
  }
  for (size_t i = 1; i < k.buffers.size(); ++i) c.add_output(k.buffers[i].dtype, k.reduce_axes);
  return compare_with_interpreter(ck, c, tols);
}

// The row softmax of ir/kernel_ir.h's example (rank 2, reducing axis 1).
Kernel softmax_kernel() {
  Kernel k;
  k.name = "softmax_row";
  k.rank = 2;
  k.reduce_axes = 0b10;
  KernelBuilder b(&k);
  const uint32_t a0 = b.add_access({b.add_buffer(kFloat, 2, false), {}});
  const uint32_t a1 = b.add_access({b.add_buffer(kFloat, 2, true), {}});
  const ExprId x = b.load(a0, kFloat);
  const uint32_t r0 = b.add_reduction(ReduceOp::Max, x, kFloat);
  const ExprId e = b.unary(ScalarOp::Exp, b.binary(ScalarOp::Sub, x, b.reduced(r0), kFloat), kFloat);
  const uint32_t r1 = b.add_reduction(ReduceOp::Sum, e, kFloat);
  b.add_store(a1, b.binary(ScalarOp::Div, e, b.reduced(r1), kFloat), false);
  return k;
}

// Centring over the reduction axes `mask` (keeping the last axis): out0 =
// x - mean at every point (a second pass over the inner points), out1 =
// the mean (a reduced store), out2 = the max (a second reduction of the
// first pass). A column variant when the input is contiguous.
Kernel column_center_kernel(uint32_t rank, uint64_t mask) {
  Kernel k;
  k.name = "column_center_m" + std::to_string(mask);
  k.rank = rank;
  k.reduce_axes = mask;
  KernelBuilder b(&k);
  const uint32_t a0 = b.add_access({b.add_buffer(kFloat, rank, false), {}});
  const uint32_t o0 = b.add_access({b.add_buffer(kFloat, rank, true), {}});
  const uint32_t o1 = b.add_access({b.add_buffer(kFloat, rank, true), {}});
  const uint32_t o2 = b.add_access({b.add_buffer(kFloat, rank, true), {}});
  const ExprId x = b.load(a0, kFloat);
  const uint32_t sum = b.add_reduction(ReduceOp::Sum, x, kFloat);
  const uint32_t max = b.add_reduction(ReduceOp::Max, x, kFloat);
  const ExprId mean = b.binary(ScalarOp::Div, b.reduced(sum), b.reduce_count(kFloat), kFloat);
  b.add_store(o0, b.binary(ScalarOp::Sub, x, mean, kFloat), false);
  b.add_store(o1, mean, true);
  b.add_store(o2, b.reduced(max), true);
  return k;
}

// Layer norm over axis 1 with three outputs:
//   out0 [n, m] = (x - mean) * rsqrt(var + 1e-5) * gamma + beta  (gamma, beta broadcast over rows)
//   out1 [n, 1] = mean, out2 [n, 1] = rsqrt(var + 1e-5)          (var = mean of (x - mean)^2)
Kernel layer_norm_kernel() {
  Kernel k;
  k.name = "layer_norm";
  k.rank = 2;
  k.reduce_axes = 0b10;
  KernelBuilder b(&k);
  const uint32_t xa = b.add_access({b.add_buffer(kFloat, 2, false), {}});
  const uint32_t ga = b.add_access({b.add_buffer(kFloat, 2, false), {}});
  const uint32_t ba = b.add_access({b.add_buffer(kFloat, 2, false), {}});
  const uint32_t o0 = b.add_access({b.add_buffer(kFloat, 2, true), {}});
  const uint32_t o1 = b.add_access({b.add_buffer(kFloat, 2, true), {}});
  const uint32_t o2 = b.add_access({b.add_buffer(kFloat, 2, true), {}});
  const ExprId x = b.load(xa, kFloat);
  const ExprId count = b.reduce_count(kFloat);
  const uint32_t r0 = b.add_reduction(ReduceOp::Sum, x, kFloat);
  const ExprId mean = b.binary(ScalarOp::Div, b.reduced(r0), count, kFloat);
  const ExprId d = b.binary(ScalarOp::Sub, x, mean, kFloat);
  const uint32_t r1 = b.add_reduction(ReduceOp::Sum, b.unary(ScalarOp::Square, d, kFloat), kFloat);
  const ExprId var = b.binary(ScalarOp::Div, b.reduced(r1), count, kFloat);
  const ExprId inv = b.unary(ScalarOp::Rsqrt, b.binary(ScalarOp::Add, var, b.constant(1e-5, kFloat), kFloat), kFloat);
  const ExprId g = b.load(ga, kFloat);
  const ExprId be = b.load(ba, kFloat);
  b.add_store(o0, b.binary(ScalarOp::Add, b.binary(ScalarOp::Mul, b.binary(ScalarOp::Mul, d, inv, kFloat), g, kFloat), be, kFloat),
              false);
  b.add_store(o1, mean, true);
  b.add_store(o2, inv, true);
  return k;
}

// Reduced stores of values combining reductions (splittable):
//   out0 = max(x) - min(x), out1 = sum(x) / count, out2 (i64) = count of x > 1 (sum of a cast)
Kernel range_mean_kernel() {
  Kernel k;
  k.name = "range_mean";
  k.rank = 2;
  k.reduce_axes = 0b10;
  KernelBuilder b(&k);
  const uint32_t xa = b.add_access({b.add_buffer(kFloat, 2, false), {}});
  const uint32_t o0 = b.add_access({b.add_buffer(kFloat, 2, true), {}});
  const uint32_t o1 = b.add_access({b.add_buffer(kFloat, 2, true), {}});
  const uint32_t o2 = b.add_access({b.add_buffer(kLong, 2, true), {}});
  const ExprId x = b.load(xa, kFloat);
  const uint32_t rmax = b.add_reduction(ReduceOp::Max, x, kFloat);
  const uint32_t rmin = b.add_reduction(ReduceOp::Min, x, kFloat);
  const uint32_t rsum = b.add_reduction(ReduceOp::Sum, x, kFloat);
  const ExprId big = b.cast(b.binary(ScalarOp::Gt, x, b.constant(1, kFloat), kBool), kLong);
  const uint32_t rcount = b.add_reduction(ReduceOp::Sum, big, kLong);
  b.add_store(o0, b.binary(ScalarOp::Sub, b.reduced(rmax), b.reduced(rmin), kFloat), true);
  b.add_store(o1, b.binary(ScalarOp::Div, b.reduced(rsum), b.reduce_count(kFloat), kFloat), true);
  b.add_store(o2, b.reduced(rcount), true);
  return k;
}

}  // namespace

TEST_CASE("compiled reductions: row, column, full and middle axes of every op and dtype", "[codegen_llvm]") {
  JitEngine::instance().set_disk_cache(false);
  std::mt19937_64 rng(99);
  struct Shape {
    const char* name;
    uint32_t rank;
    uint64_t mask;
    std::vector<std::vector<int64_t>> domains;
  };
  const std::vector<Shape> shapes = {
      {"row", 2, 0b10, {{5, 0}, {5, 1}, {5, 7}, {5, 1023}, {3, 70001}, {0, 4}}},
      {"column", 2, 0b01, {{0, 6}, {1, 6}, {7, 6}, {1023, 6}, {1023, 1}}},
      {"full", 2, 0b11, {{0, 4}, {1, 1}, {7, 1}, {31, 33}}},
      {"middle", 3, 0b010, {{3, 0, 5}, {3, 1, 5}, {3, 7, 5}, {2, 1023, 3}}},
  };
  for (const ScalarType t : {kFloat, kDouble, kInt, kLong, kBool}) {
    for (const Shape& s : shapes) {
      CAPTURE(to_string(t), s.name);
      const Kernel k = multi_reduce_kernel(t, s.rank, s.mask);
      REQUIRE(verify_kernel(k) == "");
      const CompiledKernel ck(k);
      // Near-one floats keep products finite; integers wrap (Mixed).
      const Fill fill = is_floating(t) ? Fill::NearOne : Fill::Mixed;
      const bool transposed_too = t == kFloat || t == kLong || t == kBool;
      for (const auto& d : s.domains) {
        CAPTURE(describe(d));
        CHECK(check_reduce(ck, d, Layout::Contiguous, rng, fill, reduce_tols(t)) == "");
        if (transposed_too) CHECK(check_reduce(ck, d, Layout::Transposed, rng, fill, reduce_tols(t)) == "");
      }
      // Inputs broadcast along the reduced axes (a row reduction of stride-0 data) or sliced.
      if (t == kFloat || t == kInt) {
        for (const Layout l : {Layout::BcastInner, Layout::Scalar0d, Layout::Sliced}) {
          CAPTURE(to_string(l));
          CHECK(check_reduce(ck, s.domains[3], l, rng, fill, reduce_tols(t)) == "");
        }
      }
      // NaN in some rows: max/min (and sum/prod) propagate it.
      if (is_floating(t)) CHECK(check_reduce(ck, s.domains[3], Layout::Contiguous, rng, fill, reduce_tols(t), 2000) == "");
    }
  }
}

TEST_CASE("compiled reductions: a full reduction over 2^20+3 elements (parallel partials)", "[codegen_llvm]") {
  JitEngine::instance().set_disk_cache(false);
  std::mt19937_64 rng(7);
  for (const ScalarType t : {kFloat, kDouble, kInt, kLong, kBool}) {
    CAPTURE(to_string(t));
    const CompiledKernel ck(multi_reduce_kernel(t, 2, 0b11));
    const Fill fill = is_floating(t) ? Fill::NearOne : t == kBool ? Fill::Positive : Fill::Mixed;
    CHECK(check_reduce(ck, {1, kBig}, Layout::Contiguous, rng, fill, reduce_tols(t)) == "");
    if (t == kFloat) {
      // Mixed signs (sums cancel: an absolute tolerance, 1e-7 of the sum of |x|), a NaN,
      // and a transposed [1024, 1025].
      CHECK(check_reduce(ck, {1, kBig}, Layout::Contiguous, rng, Fill::Signed, {Tol{}, Tol{0, 1e-5, 0.05}}) == "");
      CHECK(check_reduce(ck, {1, kBig}, Layout::Contiguous, rng, fill, reduce_tols(t), 700001) == "");
      CHECK(check_reduce(ck, {1024, 1025}, Layout::Transposed, rng, fill, reduce_tols(t)) == "");
    }
    if (t == kBool) {  // all() false from a single element
      CHECK(check_reduce(ck, {1, kBig}, Layout::Contiguous, rng, Fill::Mixed, reduce_tols(t)) == "");
    }
  }
}

TEST_CASE("compiled reductions: softmax reads reduced values in later stages", "[codegen_llvm]") {
  JitEngine::instance().set_disk_cache(false);
  const Kernel k = softmax_kernel();
  REQUIRE(verify_kernel(k) == "");
  const CompiledKernel ck(k);
  std::mt19937_64 rng(3);
  const std::vector<Tol> tols = {Tol{}, Tol{4, 1e-5}};
  for (const auto& d : std::vector<std::vector<int64_t>>{{5, 1023}, {3, 7}, {4, 1}, {4, 0}, {0, 3}, {2, 70001}, {300, 65}}) {
    for (const Layout l : {Layout::Contiguous, Layout::Transposed}) {
      for (const Fill f : {Fill::Mixed, Fill::Positive}) {
        CAPTURE(describe(d), to_string(l), static_cast<int>(f));
        Case c;
        c.domain = d;
        c.add_input(kFloat, l, rng, f);
        c.add_output(kFloat);
        CHECK(compare_with_interpreter(ck, c, tols) == "");
      }
    }
  }
}

TEST_CASE("compiled reductions: layer norm with three outputs", "[codegen_llvm]") {
  JitEngine::instance().set_disk_cache(false);
  const Kernel k = layer_norm_kernel();
  REQUIRE(verify_kernel(k) == "");
  const CompiledKernel ck(k);
  std::mt19937_64 rng(13);
  const std::vector<Tol> tols = {Tol{}, Tol{}, Tol{}, Tol{4, 1e-5, 1e-5}, Tol{4, 1e-5}, Tol{4, 1e-5}};
  for (const auto& d : std::vector<std::vector<int64_t>>{{6, 1023}, {3, 7}, {5, 1}, {4, 0}, {2, 70001}}) {
    for (const Layout l : {Layout::Contiguous, Layout::Transposed}) {
      CAPTURE(describe(d), to_string(l));
      Case c;
      c.domain = d;
      c.add_input(kFloat, l, rng, Fill::Positive);
      c.add_input(kFloat, Layout::BcastOuter, rng, Fill::Positive);  // gamma [1, m]
      c.add_input(kFloat, Layout::BcastOuter, rng, Fill::Mixed);     // beta [1, m]
      c.add_output(kFloat);
      c.add_output(kFloat, k.reduce_axes);
      c.add_output(kFloat, k.reduce_axes);
      CHECK(compare_with_interpreter(ck, c, tols) == "");
    }
  }
}

TEST_CASE("compiled reductions: reduced stores combining several reductions", "[codegen_llvm]") {
  JitEngine::instance().set_disk_cache(false);
  const Kernel k = range_mean_kernel();
  REQUIRE(verify_kernel(k) == "");
  const CompiledKernel ck(k);
  std::mt19937_64 rng(17);
  const std::vector<Tol> tols = {Tol{}, Tol{}, Tol{0, 1e-5, 1e-5}};
  // {2, 70001} and {1, kBig} take the partial path; {4, 0} stores identities (-inf - inf, 0 / 0).
  for (const auto& d : std::vector<std::vector<int64_t>>{{5, 1023}, {3, 7}, {4, 1}, {4, 0}, {2, 70001}, {1, kBig}}) {
    CAPTURE(describe(d));
    CHECK(check_reduce(ck, d, Layout::Contiguous, rng, Fill::Positive, tols) == "");
    CHECK(check_reduce(ck, d, Layout::Sliced, rng, Fill::Mixed, tols) == "");
  }
}

TEST_CASE("compiled reductions: column variants over bands, their last vectors and points, segments and streamed stores", "[codegen_llvm]") {
  JitEngine::instance().set_disk_cache(false);
  std::mt19937_64 rng(31);
  struct Shape {
    uint32_t rank;
    uint64_t mask;
    Layout layout;
    std::vector<int64_t> domain;
  };
  const std::vector<Shape> shapes = {
      // At least 32768 points each (smaller launches take the plain variants).
      {2, 0b01, Layout::Contiguous, {17, 2135}},     // bands of 1024, 1024 and 87 = 5 vectors, 4 and 3 points
      {2, 0b01, Layout::Contiguous, {1600, 21}},     // a band of one vector, then single points
      {2, 0b01, Layout::Contiguous, {1, 1}},
      {2, 0b01, Layout::Contiguous, {0, 70}},        // nothing to reduce: sums 0, max -inf, means NaN
      {2, 0b01, Layout::Contiguous, {70, 0}},
      {2, 0b01, Layout::Contiguous, {4100, 1024}},   // 16.8 MB of out0: streamed stores
      {2, 0b01, Layout::Sliced, {120, 300}},         // every other column: gathers along the band
      {3, 0b010, Layout::Contiguous, {3, 160, 70}},  // two outer axes: bands never cross a segment
      {3, 0b011, Layout::BcastOuter, {40, 30, 33}},  // two inner axes that do not merge
      {2, 0b10, Layout::Transposed, {260, 130}},     // a row reduction of a transpose reads columns
  };
  for (const Shape& s : shapes) {
    CAPTURE(s.mask, describe(s.domain), to_string(s.layout));
    const CompiledKernel ck(column_center_kernel(s.rank, s.mask));
    Case c;
    c.domain = s.domain;
    c.add_input(kFloat, s.layout, rng, Fill::Signed);
    c.add_output(kFloat);
    c.add_output(kFloat, s.mask);
    c.add_output(kFloat, s.mask);
    CHECK(compare_with_interpreter(ck, c, {Tol{}, Tol{0, 1e-5, 1e-5}, Tol{0, 1e-5, 1e-6}, Tol{}}) == "");
    const std::vector<std::string> specs = ck.variant_specs();
    if (s.domain[0] * s.domain.back() > 1) {
      REQUIRE(specs.size() == 1);
      CHECK(specs[0].find("|columns") != std::string::npos);
      CHECK((specs[0].find("|streaming") != std::string::npos) == (s.domain[0] == 4100));
    }
  }
}

TEST_CASE("compiled reductions: results do not depend on the thread count", "[codegen_llvm]") {
  JitEngine::instance().set_disk_cache(false);
  const int saved = get_num_threads();
  const CompiledKernel full(multi_reduce_kernel(kFloat, 2, 0b11));
  const CompiledKernel softmax(softmax_kernel());
  std::mt19937_64 rng(21);
  Case sum_case;  // full reductions of 2^20 + 3 floats: partial chunks combined in order
  sum_case.domain = {1, kBig};
  sum_case.add_input(kFloat, Layout::Contiguous, rng, Fill::Signed);
  for (int i = 0; i < 4; ++i) sum_case.add_output(kFloat, 0b11);
  Case rows_case;  // many rows split over threads
  rows_case.domain = {2000, 300};
  rows_case.add_input(kFloat, Layout::Contiguous, rng, Fill::Signed);
  rows_case.add_output(kFloat);
  const CompiledKernel columns(column_center_kernel(2, 0b01));
  Case columns_case;  // bands of columns split over threads
  columns_case.domain = {300, 5000};
  columns_case.add_input(kFloat, Layout::Contiguous, rng, Fill::Signed);
  columns_case.add_output(kFloat);
  columns_case.add_output(kFloat, 0b01);
  columns_case.add_output(kFloat, 0b01);
  auto run = [](const CompiledKernel& ck, const Case& c, int threads) {
    set_num_threads(threads);
    std::vector<Array> mem = c.buffers;
    ck.run(c.launch(mem));
    return mem;
  };
  const std::vector<Array> s1 = run(full, sum_case, 1), r1 = run(softmax, rows_case, 1),
                           c1 = run(columns, columns_case, 1);
  for (const int threads : {2, 4}) {
    CAPTURE(threads);
    const std::vector<Array> sn = run(full, sum_case, threads), rn = run(softmax, rows_case, threads);
    for (size_t b = 1; b < s1.size(); ++b) CHECK(std::memcmp(sn[b].data(), s1[b].data(), s1[b].words.size() * 8) == 0);
    CHECK(std::memcmp(rn[1].data(), r1[1].data(), r1[1].words.size() * 8) == 0);
    const std::vector<Array> cn = run(columns, columns_case, threads);
    for (size_t b = 1; b < c1.size(); ++b) CHECK(std::memcmp(cn[b].data(), c1[b].data(), c1[b].words.size() * 8) == 0);
  }
  set_num_threads(saved);
}

TEST_CASE("compiled reductions: uint8, float16 and bfloat16 data", "[codegen_llvm]") {
  // uint8 accumulates in uint8 (wrapping); the 16-bit floats load into a
  // float32 accumulator whose result is stored rounded.
  JitEngine::instance().set_disk_cache(false);
  std::mt19937_64 rng(1);
  for (const ScalarType t : {kByte, kHalf, kBFloat16}) {
    Kernel k;
    k.name = "reduce4_" + std::string(to_string(t));
    k.rank = 2;
    k.reduce_axes = 0b10;
    KernelBuilder b(&k);
    const ScalarType acc = t == kByte ? kByte : kFloat;
    const uint32_t in = b.add_access({b.add_buffer(t, 2, false), {}});
    const ReduceOp ops[4] = {ReduceOp::Sum, ReduceOp::Prod, ReduceOp::Max, ReduceOp::Min};
    uint32_t out[4], r[4];
    for (int i = 0; i < 4; ++i) out[i] = b.add_access({b.add_buffer(t, 2, true), {}});
    for (int i = 0; i < 4; ++i) r[i] = b.add_reduction(ops[i], b.load(in, acc), acc);
    for (int i = 0; i < 4; ++i) b.add_store(out[i], b.reduced(r[i]), true);
    REQUIRE(verify_kernel(k) == "");
    const CompiledKernel ck(k);
    // A float32 result within 1e-5 rounds to the same 16-bit value or a neighbour.
    const std::vector<Tol> tols(5, Tol{1});
    for (const auto& d : std::vector<std::vector<int64_t>>{{5, 7}, {3, 70001}, {4, 0}, {1, 1023}}) {
      CAPTURE(to_string(t), describe(d));
      CHECK(check_reduce(ck, d, Layout::Contiguous, rng, t == kByte ? Fill::Mixed : Fill::NearOne, tols) == "");
    }
  }
}

TEST_CASE("compiled reductions: parameters and reduce_count in partial and finish steps", "[codegen_llvm]") {
  // out0 = sum(x * p0) + p1, out1 (i32) = max(int(x) + p1) * count; splittable.
  JitEngine::instance().set_disk_cache(false);
  std::mt19937_64 rng(1);
  Kernel k;
  k.name = "param_reduce";
  k.rank = 2;
  k.reduce_axes = 0b10;
  KernelBuilder b(&k);
  const uint32_t in = b.add_access({b.add_buffer(kFloat, 2, false), {}});
  const uint32_t out = b.add_access({b.add_buffer(kFloat, 2, true), {}});
  const uint32_t out2 = b.add_access({b.add_buffer(kInt, 2, true), {}});
  const ExprId x = b.load(in, kFloat);
  const uint32_t r = b.add_reduction(ReduceOp::Sum, b.binary(ScalarOp::Mul, x, b.param(0, kFloat), kFloat), kFloat);
  const uint32_t r2 = b.add_reduction(ReduceOp::Max, b.binary(ScalarOp::Add, b.cast(x, kInt), b.param(1, kInt), kInt), kInt);
  b.add_store(out, b.binary(ScalarOp::Add, b.reduced(r), b.param(1, kFloat), kFloat), true);
  b.add_store(out2, b.binary(ScalarOp::Mul, b.reduced(r2), b.reduce_count(kInt), kInt), true);
  REQUIRE(verify_kernel(k) == "");
  const CompiledKernel ck(k);
  for (const auto& d : std::vector<std::vector<int64_t>>{{5, 7}, {2, 200001}, {1, 70000}, {3, 0}}) {
    CAPTURE(describe(d));
    Case c;
    c.domain = d;
    c.add_input(kFloat, Layout::Contiguous, rng, Fill::Positive);
    c.add_output(kFloat, 0b10);
    c.add_output(kInt, 0b10);
    c.params = {Scalar(2.5), Scalar(int64_t{-7})};
    CHECK(compare_with_interpreter(ck, c, {Tol{}, Tol{0, 1e-5}}) == "");
  }
}

namespace {

// Whether a basic block of `ir` (blocks are separated by blank lines in
// LLVM's printed IR) requests memory with llvm.prefetch and also stores a vector.
bool prefetches_where_it_stores(const std::string& ir) {
  size_t begin = 0;
  while (begin < ir.size()) {
    size_t end = ir.find("\n\n", begin);
    if (end == std::string::npos) end = ir.size();
    const std::string block = ir.substr(begin, end - begin);
    if (block.find("@llvm.prefetch") != std::string::npos && block.find("store <") != std::string::npos) return true;
    begin = end + 2;
  }
  return false;
}

}  // namespace

TEST_CASE("compiled reductions: row kernels request the next row during their longest pass", "[codegen_llvm]") {
  // softmax: during the exp pass (a reduction), not while storing;
  // layer norm (an add and an FMA per element in its reductions): while storing.
  const CompiledKernel softmax(softmax_kernel()), norm(layer_norm_kernel());
  const std::string softmax_ir = softmax.llvm_ir(), norm_ir = norm.llvm_ir();
  REQUIRE(softmax_ir.find("@llvm.prefetch") != std::string::npos);
  REQUIRE(norm_ir.find("@llvm.prefetch") != std::string::npos);
  CHECK_FALSE(prefetches_where_it_stores(softmax_ir));
  CHECK(prefetches_where_it_stores(norm_ir));
}

namespace {

// logsumexp over the axes in `mask` (rank `rank`) with reduced and full
// stores interleaved, as fusion builds it for
//   l = logsumexp(x), y = l + p0 * x, z = l - 1, w = silu(y):
//   r0 = max(x), m = isinf(r0) ? 0 : r0, r1 = sum(exp(x - m)), l = log(r1) + m
//   out0 = l (reduced), out1 = y, out2 = z (reduced), out3 = w
// log(r1) is expensive and needed by both full-store passes, so a
// cache_stages variant keeps it; the reduced store of l, emitted before the
// pass that writes the kept value, must compute it rather than read it.
Kernel logsumexp_consumers_kernel(uint32_t rank, uint64_t mask) {
  Kernel k;
  k.name = "logsumexp_consumers_r" + std::to_string(rank) + "_m" + std::to_string(mask);
  k.rank = rank;
  k.reduce_axes = mask;
  KernelBuilder b(&k);
  const uint32_t xa = b.add_access({b.add_buffer(kFloat, rank, false), {}});
  const uint32_t o0 = b.add_access({b.add_buffer(kFloat, rank, true), {}});
  const uint32_t o1 = b.add_access({b.add_buffer(kFloat, rank, true), {}});
  const uint32_t o2 = b.add_access({b.add_buffer(kFloat, rank, true), {}});
  const uint32_t o3 = b.add_access({b.add_buffer(kFloat, rank, true), {}});
  const ExprId x = b.load(xa, kFloat);
  const uint32_t r0 = b.add_reduction(ReduceOp::Max, x, kFloat);
  const ExprId mx = b.reduced(r0);
  const ExprId m = b.select(b.unary(ScalarOp::IsInf, mx, kBool), b.constant(0, kFloat), mx, kFloat);
  const uint32_t r1 =
      b.add_reduction(ReduceOp::Sum, b.unary(ScalarOp::Exp, b.binary(ScalarOp::Sub, x, m, kFloat), kFloat), kFloat);
  const ExprId l = b.binary(ScalarOp::Add, b.unary(ScalarOp::Log, b.reduced(r1), kFloat), m, kFloat);
  const ExprId y = b.binary(ScalarOp::Add, l, b.binary(ScalarOp::Mul, x, b.param(0, kFloat), kFloat), kFloat);
  b.add_store(o0, l, true);
  b.add_store(o1, y, false);
  b.add_store(o2, b.binary(ScalarOp::Sub, l, b.constant(1, kFloat), kFloat), true);
  b.add_store(o3, b.binary(ScalarOp::Mul, y, b.unary(ScalarOp::Sigmoid, y, kFloat), kFloat), false);
  return k;
}

}  // namespace

TEST_CASE("compiled reductions: reduced stores before the pass that keeps a stage value", "[codegen_llvm]") {
  JitEngine::instance().set_disk_cache(false);
  std::mt19937_64 rng(23);
  struct Shape {
    uint32_t rank;
    uint64_t mask;
    std::vector<int64_t> domain;
  };
  const std::vector<Shape> shapes = {
      {4, 0b0010, {1, 2, 1, 1}}, {3, 0b010, {3, 5, 2}}, {2, 0b01, {2, 3}},
      {2, 0b10, {4, 37}},        {2, 0b10, {3, 1}},     {3, 0b101, {2, 3, 4}},
  };
  const std::vector<Tol> tols = {Tol{}, Tol{4, 1e-5, 1e-6}, Tol{4, 1e-5, 1e-6}, Tol{4, 1e-5, 1e-6}, Tol{4, 1e-5, 1e-6}};
  for (const Shape& s : shapes) {
    const Kernel k = logsumexp_consumers_kernel(s.rank, s.mask);
    REQUIRE(verify_kernel(k) == "");
    const CompiledKernel ck(k);
    for (const Layout l : {Layout::Contiguous, Layout::Transposed}) {
      for (const Fill f : {Fill::Signed, Fill::Positive}) {
        CAPTURE(describe(s.domain), s.mask, to_string(l), static_cast<int>(f));
        Case c;
        c.domain = s.domain;
        c.add_input(kFloat, l, rng, f);
        c.add_output(kFloat, s.mask);
        c.add_output(kFloat);
        c.add_output(kFloat, s.mask);
        c.add_output(kFloat);
        c.params = {Scalar(0.25)};
        CHECK(compare_with_interpreter(ck, c, tols) == "");
      }
    }
  }
}
