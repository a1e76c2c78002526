// CompiledKernel on pointwise kernels against the reference interpreter:
// every dtype over many sizes and access layouts (inputs and outputs),
// rank-0 domains, streaming stores, floating division and rounding ops,
// variants per stride class, the on-disk cache across processes,
// unsupported operations and fast math. Reductions are in
// test_compiled_reductions.cpp, runtime parameters in
// test_compiled_params.cpp.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "codegen_llvm/jit_engine.h"
#include "core/parallel.h"
#include "tests/codegen_llvm/compiled_test_util.h"

using namespace lz;
using namespace lz::ir;
using namespace lz::compiled_testing;
using lz::codegen_llvm::CodegenOptions;
using lz::codegen_llvm::CompiledKernel;
using lz::codegen_llvm::CompileFailure;
using lz::codegen_llvm::JitEngine;
using lz::codegen_llvm::MathMode;

namespace fs = std::filesystem;

namespace {

ScalarType compute_dtype(ScalarType t) { return t == kHalf || t == kBFloat16 ? kFloat : t; }

// Buffers in0..in2 of dtype t (computed in compute_dtype(t)), then
//   out0 (t)    = exp(a) * b + c
//   out1 (i32)  = int32(a * b)        float -> int incl. NaN and out of range
//   out2 (bool) = a < b
//   out3 (t)    = a < b ? maximum(a, c) : minimum(b, c)
//   out4 (i64)  = int64(b - c)
//   out5 (u8)   = uint8(c)
Kernel float_kernel(ScalarType t, uint32_t rank) {
  const ScalarType ct = compute_dtype(t);
  Kernel k;
  k.name = "pw_float_" + std::string(to_string(t)) + "_r" + std::to_string(rank);
  k.rank = rank;
  KernelBuilder b(&k);
  const uint32_t a0 = input(b, t, rank), a1 = input(b, t, rank), a2 = input(b, t, rank);
  const uint32_t o0 = output(b, t, rank), o1 = output(b, kInt, rank), o2 = output(b, kBool, rank);
  const uint32_t o3 = output(b, t, rank), o4 = output(b, kLong, rank), o5 = output(b, kByte, rank);
  const ExprId x = b.load(a0, ct);
  const ExprId y = b.load(a1, ct);
  const ExprId z = b.load(a2, ct);
  const ExprId e = b.unary(ScalarOp::Exp, x, ct);
  b.add_store(o0, b.binary(ScalarOp::Add, b.binary(ScalarOp::Mul, e, y, ct), z, ct), false);
  b.add_store(o1, b.cast(b.binary(ScalarOp::Mul, x, y, ct), kInt), false);
  const ExprId lt = b.binary(ScalarOp::Lt, x, y, kBool);
  b.add_store(o2, lt, false);
  b.add_store(o3, b.select(lt, b.binary(ScalarOp::Maximum, x, z, ct), b.binary(ScalarOp::Minimum, y, z, ct), ct), false);
  b.add_store(o4, b.cast(b.binary(ScalarOp::Sub, y, z, ct), kLong), false);
  b.add_store(o5, b.cast(z, kByte), false);
  return k;
}

// Buffers in0..in2 of integer dtype t, then
//   out0 (t) = a * b + c          out1 (t) = a / b (x / 0 = 0)
//   out2 (t) = floor_div(a, c)    out3 (t) = remainder(a, b)
//   out4 (bool) = a <= c          out5 (t) = maximum(a, b) - minimum(b, c)
//   out6 (f32) = float(a) * 0.5   out7 (u8) = uint8(~a ^ b)
Kernel int_kernel(ScalarType t, uint32_t rank) {
  Kernel k;
  k.name = "pw_int_" + std::string(to_string(t)) + "_r" + std::to_string(rank);
  k.rank = rank;
  KernelBuilder b(&k);
  const uint32_t a0 = input(b, t, rank), a1 = input(b, t, rank), a2 = input(b, t, rank);
  uint32_t o[8];
  const ScalarType out_t[8] = {t, t, t, t, kBool, t, kFloat, kByte};
  for (int i = 0; i < 8; ++i) o[i] = output(b, out_t[i], rank);
  const ExprId x = b.load(a0, t);
  const ExprId y = b.load(a1, t);
  const ExprId z = b.load(a2, t);
  b.add_store(o[0], b.binary(ScalarOp::Add, b.binary(ScalarOp::Mul, x, y, t), z, t), false);
  b.add_store(o[1], b.binary(ScalarOp::Div, x, y, t), false);
  b.add_store(o[2], b.binary(ScalarOp::FloorDiv, x, z, t), false);
  b.add_store(o[3], b.binary(ScalarOp::Remainder, x, y, t), false);
  b.add_store(o[4], b.binary(ScalarOp::Le, x, z, kBool), false);
  b.add_store(o[5], b.binary(ScalarOp::Sub, b.binary(ScalarOp::Maximum, x, y, t), b.binary(ScalarOp::Minimum, y, z, t), t),
              false);
  b.add_store(o[6], b.binary(ScalarOp::Mul, b.cast(x, kFloat), b.constant(0.5, kFloat), kFloat), false);
  b.add_store(o[7], b.cast(b.binary(ScalarOp::BitwiseXor, b.unary(ScalarOp::BitwiseNot, x, t), y, t), kByte), false);
  return k;
}

// Buffers in0..in2 of bool, then
//   out0 = (a and b) xor c   out1 = a ? b : c   out2 (i32) = a + b - c
//   out3 (f32) = float(c)    out4 = a < b       out5 = not (a or c)
Kernel bool_kernel(uint32_t rank) {
  Kernel k;
  k.name = "pw_bool_r" + std::to_string(rank);
  k.rank = rank;
  KernelBuilder b(&k);
  const uint32_t a0 = input(b, kBool, rank), a1 = input(b, kBool, rank), a2 = input(b, kBool, rank);
  uint32_t o[6];
  const ScalarType out_t[6] = {kBool, kBool, kInt, kFloat, kBool, kBool};
  for (int i = 0; i < 6; ++i) o[i] = output(b, out_t[i], rank);
  const ExprId x = b.load(a0, kBool);
  const ExprId y = b.load(a1, kBool);
  const ExprId z = b.load(a2, kBool);
  b.add_store(o[0], b.binary(ScalarOp::LogicalXor, b.binary(ScalarOp::LogicalAnd, x, y, kBool), z, kBool), false);
  b.add_store(o[1], b.select(x, y, z, kBool), false);
  b.add_store(o[2], b.binary(ScalarOp::Sub, b.binary(ScalarOp::Add, b.cast(x, kInt), b.cast(y, kInt), kInt), b.cast(z, kInt), kInt),
              false);
  b.add_store(o[3], b.cast(z, kFloat), false);
  b.add_store(o[4], b.binary(ScalarOp::Lt, x, y, kBool), false);
  b.add_store(o[5], b.unary(ScalarOp::LogicalNot, b.binary(ScalarOp::LogicalOr, x, z, kBool), kBool), false);
  return k;
}

Kernel pointwise_kernel(ScalarType t, uint32_t rank) {
  if (t == kBool) return bool_kernel(rank);
  return is_floating(t) ? float_kernel(t, rank) : int_kernel(t, rank);
}

// Tolerances per buffer: out0 of the float kernel goes through exp.
std::vector<Tol> pointwise_tols(ScalarType t) {
  if (!is_floating(t)) return {};
  std::vector<Tol> tols(4);
  tols[3] = t == kDouble ? Tol{2, 0, 1e-12} : t == kFloat ? Tol{2, 0, 1e-4} : Tol{1, 0, 1e-4};
  return tols;
}

// Runs `ck` (3 inputs, outputs as its buffers say) over `domain` with the
// inputs in layout rotation `m`: input i gets kAllLayouts[(m + i) % 6].
std::string check_layouts(const CompiledKernel& ck, std::vector<int64_t> domain, int m, std::mt19937_64& rng,
                          const std::vector<Tol>& tols) {
  Case c;
  c.domain = std::move(domain);
  for (const KernelBuffer& kb : ck.kernel().buffers) {
    const auto i = static_cast<int>(c.buffers.size());
    if (kb.output) c.add_output(kb.dtype);
    else c.add_input(kb.dtype, kAllLayouts[(m + i) % 6], rng);
  }
  return compare_with_interpreter(ck, c, tols);
}

// A temporary directory, removed with its contents at scope exit.
struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() /
           ("lz_compiled_kernel_test_" + std::to_string(::getpid()) + "_" + std::to_string(std::random_device{}()));
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

// Runs `child` (returning an exit code) in a forked process with one
// thread and returns its exit status (200 + signal when killed). The
// parent's thread pool is stopped first: after fork the child has only the
// calling thread, and set_num_threads() would otherwise join workers that
// do not exist there.
template <class F>
int run_in_child(F&& child) {
  const int threads = get_num_threads();
  set_num_threads(1);
  const pid_t pid = ::fork();
  if (pid == 0) {
    int code = 99;
    try {
      set_num_threads(1);
      code = child();
    } catch (...) {
      code = 98;
    }
    ::_exit(code);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  set_num_threads(threads);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 200 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

}  // namespace

TEST_CASE("compiled kernel: pointwise kernels over 1-D sizes", "[codegen_llvm]") {
  JitEngine::instance().set_disk_cache(false);
  std::mt19937_64 rng(1234);
  for (const ScalarType t : {kFloat, kInt}) {
    CAPTURE(to_string(t));
    const Kernel k = pointwise_kernel(t, 1);
    REQUIRE(verify_kernel(k) == "");
    const CompiledKernel ck(k);
    // 2^20 + 3 is past the parallel grain (several chunks) and not a multiple of any vector width.
    for (const int64_t n : {int64_t{0}, int64_t{1}, int64_t{7}, int64_t{1023}, (int64_t{1} << 20) + 3}) {
      for (const int m : {0, 3}) {  // (contiguous, transposed = contiguous, sliced), (bcast, bcast, 0-dim)
        CAPTURE(n, m);
        CHECK(check_layouts(ck, {n}, m, rng, pointwise_tols(t)) == "");
      }
    }
  }
}

TEST_CASE("compiled kernel: stores stop at the last point", "[codegen_llvm]") {
  // Outputs followed by a sentinel the kernel must leave as it is: the
  // points past the last whole vector run as one masked vector (every
  // remainder of 16 float32 and 8 float64/int32 lanes).
  JitEngine::instance().set_disk_cache(false);
  std::mt19937_64 rng(77);
  for (const ScalarType t : {kFloat, kDouble, kInt, kHalf}) {
    const CompiledKernel ck(pointwise_kernel(t, 1));
    for (int64_t n = 0; n < 50; ++n) {
      CAPTURE(to_string(t), n);
      Case c;
      c.domain = {n};
      for (const KernelBuffer& kb : ck.kernel().buffers) {
        if (!kb.output) {
          c.add_input(kb.dtype, Layout::Contiguous, rng);
          continue;
        }
        c.add_output(kb.dtype);
        c.buffers.back() = Array(kb.dtype, n + 40);
        std::memset(c.buffers.back().data(), 0xA5, c.buffers.back().words.size() * 8);
      }
      CHECK(compare_with_interpreter(ck, c, pointwise_tols(t)) == "");
    }
  }
}

TEST_CASE("compiled kernel: rank-0 domains and strided outputs", "[codegen_llvm]") {
  JitEngine::instance().set_disk_cache(false);
  std::mt19937_64 rng(55);
  const CompiledKernel scalar(pointwise_kernel(kFloat, 0));
  for (int m = 0; m < 3; ++m) CHECK(check_layouts(scalar, {}, m, rng, pointwise_tols(kFloat)) == "");
  // Outputs written transposed (strided along the walked axis) and sliced.
  const CompiledKernel ck(pointwise_kernel(kInt, 3));
  for (const auto& shape : std::vector<std::vector<int64_t>>{{2, 5, 7}, {3, 1, 1023}, {1, 7, 13}}) {
    for (const bool sliced : {false, true}) {
      CAPTURE(describe(shape), sliced);
      Case c;
      c.domain = shape;
      for (const KernelBuffer& kb : ck.kernel().buffers) {
        if (!kb.output) {
          c.add_input(kb.dtype, Layout::Contiguous, rng);
          continue;
        }
        // Allocated twice as long when sliced; strides of the reversed shape when transposed.
        std::vector<int64_t> alloc = shape;
        if (sliced) alloc.back() *= 2;
        c.add_output(kb.dtype);
        c.buffers.back() = Array(kb.dtype, numel_of(alloc));
        std::memset(c.buffers.back().data(), 0xA5, c.buffers.back().words.size() * 8);
        std::vector<int64_t>& st = c.bindings.back().strides;
        if (sliced) {
          st = contiguous_strides(alloc);
          st.back() = 2;
        } else {
          const std::vector<int64_t> rs = contiguous_strides(std::vector<int64_t>(shape.rbegin(), shape.rend()));
          st.assign(rs.rbegin(), rs.rend());
        }
      }
      CHECK(compare_with_interpreter(ck, c) == "");
    }
  }
}

TEST_CASE("compiled kernel: outputs larger than the caches (streaming stores)", "[codegen_llvm]") {
  JitEngine::instance().set_disk_cache(false);
  // out0, out1 (f32) = a * b + 1, a - b over 2^21 + 5 elements: 16 MiB together,
  // the launcher's threshold for a streaming variant.
  Kernel k;
  k.name = "streaming";
  k.rank = 1;
  KernelBuilder b(&k);
  const uint32_t a0 = input(b, kFloat, 1), a1 = input(b, kFloat, 1), o0 = output(b, kFloat, 1), o1 = output(b, kFloat, 1);
  const ExprId x = b.load(a0, kFloat);
  const ExprId y = b.load(a1, kFloat);
  b.add_store(o0, b.binary(ScalarOp::Add, b.binary(ScalarOp::Mul, x, y, kFloat), b.constant(1, kFloat), kFloat), false);
  b.add_store(o1, b.binary(ScalarOp::Sub, x, y, kFloat), false);
  const CompiledKernel ck(k);
  std::mt19937_64 rng(8);
  const int64_t n = (int64_t{1} << 21) + 5;
  for (const int64_t offset : {0, 3}) {  // 3: outputs starting off a 64-byte boundary
    CAPTURE(offset);
    Case c;
    c.domain = {n};
    c.add_input(kFloat, Layout::Contiguous, rng);
    c.add_input(kFloat, Layout::Sliced, rng);
    for (int i = 0; i < 2; ++i) {
      c.add_output(kFloat);
      c.buffers.back() = Array(kFloat, n + offset);
      c.bindings.back().offset = offset;
    }
    CHECK(compare_with_interpreter(ck, c) == "");
  }
  CHECK(ck.num_variants() == 1);  // one streaming variant (unit, strided)
  // The same stride classes below the threshold: a separate (non-streaming) variant.
  Case small;
  small.domain = {1000};
  small.add_input(kFloat, Layout::Contiguous, rng);
  small.add_input(kFloat, Layout::Sliced, rng);
  small.add_output(kFloat);
  small.add_output(kFloat);
  CHECK(compare_with_interpreter(ck, small) == "");
  CHECK(ck.num_variants() == 2);
}

TEST_CASE("compiled kernel: a transposed operand walks tiles of rows and columns", "[codegen_llvm]") {
  // out0 = a + b, out1 = a * 2 with `a` contiguous along the row axis (a
  // transpose): the tiled variant, over partial blocks of rows and partial
  // tiles of columns, a third axis, a transposed output, and outputs past
  // the streaming threshold.
  JitEngine::instance().set_disk_cache(false);
  std::mt19937_64 rng(13);
  for (const ScalarType t : {kFloat, kDouble, kHalf, kInt}) {
    for (const uint32_t rank : {2u, 3u}) {
      Kernel k;
      k.name = "tiled_" + std::string(to_string(t)) + "_r" + std::to_string(rank);
      k.rank = rank;
      KernelBuilder b(&k);
      const uint32_t a0 = input(b, t, rank), a1 = input(b, t, rank), o0 = output(b, t, rank), o1 = output(b, t, rank);
      const ScalarType c = t == kHalf ? kFloat : t;
      const ExprId x = b.load(a0, c);
      b.add_store(o0, b.binary(ScalarOp::Add, x, b.load(a1, c), c), false);
      b.add_store(o1, b.binary(ScalarOp::Mul, x, b.constant(2, c), c), false);
      REQUIRE(verify_kernel(k) == "");
      const CompiledKernel ck(k);
      // Tiled from 32768 points on; the small ones check the plain path agrees.
      std::vector<std::vector<int64_t>> domains = {{137, 300}, {256, 128}, {1, 5}, {300, 1}, {0, 9}};
      if (t == kFloat) domains.push_back({2048, 2100});  // 17 MB per output: streamed
      for (std::vector<int64_t> d : domains) {
        if (rank == 3) d.insert(d.begin(), 3);
        CAPTURE(to_string(t), describe(d));
        for (const bool transposed_output : {false, true}) {
          Case cs;
          cs.domain = d;
          cs.add_input(t, Layout::Contiguous, rng);
          // `a`: a contiguous [..., cols, rows] tensor with its last two dims swapped.
          std::vector<int64_t>& strides = cs.bindings[0].strides;
          const size_t r = d.size();
          strides[r - 2] = 1;
          strides[r - 1] = d[r - 2];
          cs.add_input(t, Layout::Contiguous, rng);
          cs.add_output(t);
          cs.add_output(t);
          if (transposed_output) {
            std::vector<int64_t>& out = cs.bindings[2].strides;
            out[r - 2] = 1;
            out[r - 1] = d[r - 2];
          }
          CHECK(compare_with_interpreter(ck, cs) == "");
        }
      }
      bool tiled = false;
      for (const std::string& spec : ck.variant_specs()) tiled = tiled || spec.find("|tiled") != std::string::npos;
      CHECK(tiled);
    }
  }
}

TEST_CASE("compiled kernel: pointwise kernels of every dtype over shapes and layouts", "[codegen_llvm]") {
  JitEngine::instance().set_disk_cache(false);
  std::mt19937_64 rng(4321);
  // [1, 1, n] is the 1-D case once the launcher drops unit axes.
  const std::vector<std::vector<int64_t>> shapes = {{1, 7, 13}, {3, 1, 1023}, {2, 5, 7}, {4, 0, 3}, {1, 1, 1023}};
  for (const ScalarType t : {kBool, kByte, kInt, kLong, kHalf, kBFloat16, kFloat, kDouble}) {
    CAPTURE(to_string(t));
    const Kernel k = pointwise_kernel(t, 3);
    REQUIRE(verify_kernel(k) == "");
    const CompiledKernel ck(k);
    // Rotations 0 and 3 between them give every input every layout; float32 gets all six.
    const std::vector<int> rotations = t == kFloat ? std::vector<int>{0, 1, 2, 3, 4, 5} : std::vector<int>{0, 3};
    for (const auto& shape : shapes) {
      for (const int m : rotations) {
        CAPTURE(describe(shape), m);
        CHECK(check_layouts(ck, shape, m, rng, pointwise_tols(t)) == "");
      }
    }
  }
}

TEST_CASE("compiled kernel: floating division, rounding and classification ops", "[codegen_llvm]") {
  // float32, float64, and float16/bfloat16 buffers computed in float32: exact agreement.
  JitEngine::instance().set_disk_cache(false);
  std::mt19937_64 rng(31);
  for (const ScalarType bt : {kFloat, kDouble, kHalf, kBFloat16}) {
    Kernel k;
    k.name = "float_ops_" + std::string(to_string(bt));
    k.rank = 1;
    KernelBuilder b(&k);
    const ScalarType t = bt == kDouble ? kDouble : kFloat;
    const uint32_t a0 = b.add_access({b.add_buffer(bt, 1, false), {}});
    const uint32_t a1 = b.add_access({b.add_buffer(bt, 1, false), {}});
    const ScalarOp bin[] = {ScalarOp::FloorDiv, ScalarOp::TruncDiv, ScalarOp::Remainder, ScalarOp::Div};
    const ScalarOp un[] = {ScalarOp::Round, ScalarOp::Floor, ScalarOp::Ceil,       ScalarOp::Trunc,  ScalarOp::Sign,
                           ScalarOp::Abs,   ScalarOp::Neg,   ScalarOp::Reciprocal, ScalarOp::Square, ScalarOp::Sqrt};
    std::vector<uint32_t> outs;
    for (size_t i = 0; i < std::size(bin) + std::size(un); ++i) outs.push_back(b.add_access({b.add_buffer(bt, 1, true), {}}));
    const uint32_t ob = b.add_access({b.add_buffer(kBool, 1, true), {}});
    const uint32_t ob2 = b.add_access({b.add_buffer(kBool, 1, true), {}});
    const ExprId x = b.load(a0, t), y = b.load(a1, t);
    size_t o = 0;
    for (ScalarOp op : bin) b.add_store(outs[o++], b.binary(op, x, y, t), false);
    for (ScalarOp op : un) b.add_store(outs[o++], b.unary(op, x, t), false);
    b.add_store(ob, b.unary(ScalarOp::IsInf, x, kBool), false);
    b.add_store(ob2, b.unary(ScalarOp::IsNan, b.binary(ScalarOp::Add, x, y, t), kBool), false);
    REQUIRE(verify_kernel(k) == "");
    const CompiledKernel ck(k);
    for (int m = 0; m < 3; ++m) {
      CAPTURE(to_string(bt), m);
      Case c;
      c.domain = {2001};
      c.add_input(bt, kAllLayouts[m], rng);
      c.add_input(bt, kAllLayouts[m + 1], rng);
      for (size_t i = 0; i < outs.size(); ++i) c.add_output(bt);
      c.add_output(kBool);
      c.add_output(kBool);
      CHECK(compare_with_interpreter(ck, c) == "");
    }
  }
}

TEST_CASE("compiled kernel: integer division of vectors, exact in double below 2^53 and lane by lane beyond",
          "[codegen_llvm]") {
  // Div, FloorDiv, Remainder and Fmod of every integer dtype: values near
  // and past +-2^53 (int64 vectors with one such lane take the per-lane
  // path), quotients just below and above integers, divisors 0, +-1, small,
  // huge; a tensor divisor and a broadcast one.
  JitEngine::instance().set_disk_cache(false);
  std::mt19937_64 rng(53);
  const int64_t edge = int64_t{1} << 53;
  for (const ScalarType t : {kLong, kInt, kShort, kChar, kByte}) {
    Kernel k;
    k.name = "int_division_" + std::string(to_string(t));
    k.rank = 1;
    KernelBuilder b(&k);
    const uint32_t a0 = b.add_access({b.add_buffer(t, 1, false), {}});
    const uint32_t a1 = b.add_access({b.add_buffer(t, 1, false), {}});
    const ExprId x = b.load(a0, t), y = b.load(a1, t);
    for (ScalarOp op : {ScalarOp::Div, ScalarOp::FloorDiv, ScalarOp::Remainder, ScalarOp::Fmod}) {
      b.add_store(b.add_access({b.add_buffer(t, 1, true), {}}), b.binary(op, x, y, t), false);
    }
    REQUIRE(verify_kernel(k) == "");
    const CompiledKernel ck(k);
    const int64_t bits = static_cast<int64_t>(element_size(t)) * 8;
    const auto wrap = [&](int64_t v) {  // to the dtype's range, as the buffers store it
      if (bits == 64) return v;
      const int64_t m = int64_t{1} << bits;
      int64_t w = ((v % m) + m) % m;
      return t != kByte && w >= m / 2 ? w - m : w;
    };
    for (const Layout divisor : {Layout::Contiguous, Layout::Scalar0d}) {
      for (int pattern = 0; pattern < 3; ++pattern) {
        CAPTURE(to_string(t), to_string(divisor), pattern);
        Case c;
        c.domain = {4001};
        c.add_input(t, Layout::Contiguous, rng, Fill::Signed);
        c.add_input(t, divisor, rng, Fill::Signed);
        for (int o = 0; o < 4; ++o) c.add_output(t);
        Array& num = c.buffers[0];
        Array& den = c.buffers[1];
        for (int64_t i = 0; i < num.numel; ++i) {
          const int64_t r = static_cast<int64_t>(rng() % 1000);
          int64_t v = static_cast<int64_t>(rng() % 20001) - 10000;
          // pattern 0: small; 1: up to just below 2^53 with multiples of small divisors +-1;
          // 2: 2^53 and beyond in one vector in eight
          if (pattern == 1) v = r < 500 ? static_cast<int64_t>(rng() % static_cast<uint64_t>(edge)) - edge / 2 : (r % 17 - 8) * 7 + (r % 3 - 1);
          if (pattern == 1 && r == 0) v = edge - 1;
          if (pattern == 1 && r == 1) v = -edge;
          if (pattern == 2 && (i / 16) % 8 == 3) v = r < 500 ? edge + r : static_cast<int64_t>(rng());
          if (pattern == 2 && i == 100) v = INT64_MIN;
          set_int(num, i, wrap(v));
        }
        const int64_t divisors[] = {0, 1, -1, 7, -7, 3, 1000003, -(edge - 1), edge, INT64_MAX, 2, -2};
        for (int64_t i = 0; i < den.numel; ++i) {
          const int64_t d = divisors[rng() % std::size(divisors)];
          set_int(den, i, wrap(d == 0 && divisor == Layout::Scalar0d ? 7 : d));
        }
        CHECK(compare_with_interpreter(ck, c) == "");
      }
    }
  }
}

TEST_CASE("compiled kernel: division by a divisor broadcast over the loop is IEEE's, special divisors too",
          "[codegen_llvm]") {
  // x / y with y stride 0 takes the hoisted-reciprocal path (a multiply, a
  // correction FMA, and the NaN/inf repair); the interpreter divides.
  // Numerators include NaN, +-inf, +-0, 1e30 and a subnormal.
  JitEngine::instance().set_disk_cache(false);
  std::mt19937_64 rng(37);
  const double inf = std::numeric_limits<double>::infinity();
  for (const ScalarType t : {kFloat, kDouble}) {
    Kernel k;
    k.name = "div_by_broadcast_" + std::string(to_string(t));
    k.rank = 1;
    KernelBuilder b(&k);
    const uint32_t xa = input(b, t, 1), ya = input(b, t, 1), oa = output(b, t, 1);
    b.add_store(oa, b.binary(ScalarOp::Div, b.load(xa, t), b.load(ya, t), t), false);
    REQUIRE(verify_kernel(k) == "");
    const CompiledKernel ck(k);
    for (const double y : {3.0, -7.1, 0.0, -0.0, inf, -inf, std::nan(""), 1e-40, 1e-30, 1e30, 3e38, 1e-310, 1e300}) {
      CAPTURE(to_string(t), y);
      Case c;
      c.domain = {1031};
      c.add_input(t, Layout::Contiguous, rng);
      const uint32_t yb = c.add_input(t, Layout::BcastInner, rng);
      set_float(c.buffers[yb], 0, y);
      c.add_output(t);
      CHECK(compare_with_interpreter(ck, c) == "");
    }
  }
}


TEST_CASE("compiled kernel: one variant per stride class, compiled once", "[codegen_llvm]") {
  JitEngine::instance().set_disk_cache(false);
  Kernel k;
  k.name = "variants";
  k.rank = 2;
  KernelBuilder b(&k);
  const uint32_t a0 = input(b, kFloat, 2), a1 = input(b, kFloat, 2), o = output(b, kFloat, 2);
  const ExprId x = b.load(a0, kFloat);
  const ExprId y = b.load(a1, kFloat);
  b.add_store(o, b.binary(ScalarOp::Sub, b.binary(ScalarOp::Mul, x, y, kFloat), y, kFloat), false);
  REQUIRE(verify_kernel(k) == "");
  const CompiledKernel ck(k);
  CHECK(ck.num_variants() == 0);
  std::mt19937_64 rng(5);
  auto run_with = [&](Layout la, Layout lb, const CompiledKernel* with = nullptr,
                      std::vector<int64_t> domain = {9, 100}) {
    Case c;
    c.domain = std::move(domain);
    c.add_input(kFloat, la, rng);
    c.add_input(kFloat, lb, rng);
    c.add_output(kFloat);
    return compare_with_interpreter(with ? *with : ck, c);
  };
  const codegen_llvm::JitStats s0 = JitEngine::instance().stats();
  CHECK(run_with(Layout::Contiguous, Layout::Contiguous) == "");
  CHECK(ck.num_variants() == 1);
  CHECK(run_with(Layout::Contiguous, Layout::BcastInner) == "");
  CHECK(ck.num_variants() == 2);
  CHECK(run_with(Layout::Sliced, Layout::BcastInner) == "");
  CHECK(ck.num_variants() == 3);
  CHECK(run_with(Layout::Sliced, Layout::Sliced) == "");
  CHECK(ck.num_variants() == 4);
  const codegen_llvm::JitStats s1 = JitEngine::instance().stats();
  CHECK(s1.compiled == s0.compiled + 4);
  CHECK(ck.compile_ms() > 0);
  // Same stride classes through other layouts: no new variant, no compile.
  CHECK(run_with(Layout::BcastOuter, Layout::Scalar0d) == "");  // unit, broadcast
  CHECK(run_with(Layout::Sliced, Layout::Scalar0d) == "");      // strided, broadcast
  CHECK(run_with(Layout::Sliced, Layout::Sliced) == "");        // strided, strided
  CHECK(run_with(Layout::Contiguous, Layout::Contiguous) == "");
  CHECK(ck.num_variants() == 4);
  CHECK(JitEngine::instance().stats().compiled == s1.compiled);
  // A transpose: a small one takes the variant of its classes, a large one its own (tiled) variant.
  CHECK(run_with(Layout::Transposed, Layout::Sliced) == "");
  CHECK(ck.num_variants() == 4);
  CHECK(run_with(Layout::Transposed, Layout::Sliced, nullptr, {300, 200}) == "");
  REQUIRE(ck.num_variants() == 5);
  CHECK(ck.variant_specs()[4] == "classes 121|tiled t--");
  const codegen_llvm::JitStats s1b = JitEngine::instance().stats();
  // A second CompiledKernel of the same kernel links the variant this process already has.
  const CompiledKernel again(k);
  CHECK(run_with(Layout::Contiguous, Layout::BcastInner, &again) == "");
  CHECK(again.num_variants() == 1);
  const codegen_llvm::JitStats s2 = JitEngine::instance().stats();
  CHECK(s2.compiled == s1b.compiled);
  CHECK(s2.memory_hits == s1b.memory_hits + 1);
}

TEST_CASE("compiled kernel: its code is unlinked with the last kernel using it, and linked again on demand",
          "[codegen_llvm]") {
  Kernel k;
  k.name = "test_unlink_relink";
  k.rank = 1;
  KernelBuilder b(&k);
  const uint32_t a0 = input(b, kFloat, 1), o = output(b, kFloat, 1);
  b.add_store(o, b.binary(ScalarOp::Add, b.load(a0, kFloat), b.constant(0.75, kFloat), kFloat), false);
  REQUIRE(verify_kernel(k) == "");
  std::mt19937_64 rng(9);
  const auto run = [&](const CompiledKernel& ck) {
    Case c;
    c.domain = {1000};
    c.add_input(kFloat, Layout::Contiguous, rng);
    c.add_output(kFloat);
    return compare_with_interpreter(ck, c);
  };
  const int64_t unlinked = JitEngine::instance().stats().unlinked;
  {
    const CompiledKernel first(k);
    CHECK(run(first) == "");
    const CompiledKernel second(k);  // the same code, shared
    CHECK(run(second) == "");
    CHECK(JitEngine::instance().stats().unlinked == unlinked);
  }
  // No kernel holds the code any more: it left the JIT (a long-running
  // process keeps its memory and mappings bounded).
  CHECK(JitEngine::instance().stats().unlinked == unlinked + 1);
  const CompiledKernel again(k);
  CHECK(run(again) == "");
}

TEST_CASE("compiled kernel: the disk cache serves another process and survives corruption", "[codegen_llvm]") {
  TempDir dir;
  JitEngine& jit = JitEngine::instance();
  jit.set_disk_cache(true, dir.path.string());
  // A kernel no earlier test (or run) compiled: its name is unique.
  Kernel k;
  k.name = "disk_cache_" + std::to_string(::getpid()) + "_" + std::to_string(std::random_device{}());
  k.rank = 1;
  KernelBuilder b(&k);
  const uint32_t a0 = input(b, kFloat, 1), o = output(b, kFloat, 1);
  b.add_store(o, b.binary(ScalarOp::Add, b.binary(ScalarOp::Mul, b.load(a0, kFloat), b.constant(3, kFloat), kFloat),
                          b.constant(1, kFloat), kFloat),
              false);
  REQUIRE(verify_kernel(k) == "");
  // In a child: run the kernel (below the parallel grain), check the
  // result, and expect `compiled` and `disk_hits` to grow by the given amounts.
  auto child = [&](int64_t compiled, int64_t disk_hits) {
    return run_in_child([&]() -> int {
      const codegen_llvm::JitStats before = jit.stats();
      const CompiledKernel ck(k);
      std::vector<float> x(1000), out(1000, -1);
      for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) * 0.25f;
      ck.run({{1000}, {BoundAccess{x.data(), {1}}, BoundAccess{out.data(), {1}}}, {}});
      for (size_t i = 0; i < x.size(); ++i) {
        if (out[i] != x[i] * 3.0f + 1.0f) return 1;
      }
      const codegen_llvm::JitStats after = jit.stats();
      if (after.compiled - before.compiled != compiled) return 2;
      if (after.disk_hits - before.disk_hits != disk_hits) return 3;
      return 0;
    });
  };
  auto files = [&] {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(dir.path)) {
      if (e.is_regular_file()) out.push_back(e.path());
    }
    return out;
  };
  const int64_t parent_compiled = jit.stats().compiled;
  CHECK(child(1, 0) == 0);  // compiles and stores
  REQUIRE(!files().empty());
  CHECK(child(0, 1) == 0);  // a fresh process: loaded from disk, not compiled
  // Damage every entry: the next process recompiles and still computes right.
  for (const fs::path& f : files()) {
    std::fstream io(f, std::ios::in | std::ios::out | std::ios::binary);
    const auto size = static_cast<std::streamoff>(fs::file_size(f));
    for (const std::streamoff at : {size / 2, size - 1, std::streamoff{40}}) {
      if (at < 0 || at >= size) continue;
      io.seekg(at);
      const char c = static_cast<char>(io.get());
      io.seekp(at);
      io.put(static_cast<char>(c ^ 0x5A));
    }
  }
  CHECK(child(1, 0) == 0);
  CHECK(child(0, 1) == 0);  // and the rebuilt entry serves the next one
  CHECK(jit.stats().compiled == parent_compiled);  // the parent never compiled it
  jit.set_disk_cache(false);
}

TEST_CASE("compiled kernel: an operation the generator cannot emit throws CompileFailure", "[codegen_llvm]") {
  JitEngine::instance().set_disk_cache(false);
  Kernel k;
  k.name = "int_pow";
  k.rank = 1;
  KernelBuilder b(&k);
  const uint32_t a0 = input(b, kLong, 1), a1 = input(b, kLong, 1), o = output(b, kLong, 1);
  const ExprId x = b.load(a0, kLong);
  const ExprId y = b.load(a1, kLong);
  b.add_store(o, b.binary(ScalarOp::Pow, x, y, kLong), false);
  REQUIRE(verify_kernel(k) == "");
  std::string reason;
  try {
    const CompiledKernel ck(k);
  } catch (const CompileFailure& f) {
    reason = f.reason;
  }
  CAPTURE(reason);
  CHECK(reason.find("int_pow") != std::string::npos);
  CHECK(reason.find(std::string(to_string(ScalarOp::Pow))) != std::string::npos);
}

TEST_CASE("compiled kernel: fast and precise math stay within the documented bounds", "[codegen_llvm]") {
  JitEngine::instance().set_disk_cache(false);
  // out_i = f_i(x) for exp, tanh, sigmoid, rsqrt(|x|), erf, sin, log(|x|) on float32 in [-80, 80]
  // (no subnormal results, where fast exp and sigmoid flush to 0).
  const ScalarOp ops[] = {ScalarOp::Exp, ScalarOp::Tanh, ScalarOp::Sigmoid, ScalarOp::Rsqrt, ScalarOp::Erf, ScalarOp::Sin, ScalarOp::Log};
  // vector_math.h's bounds against float64 libm plus the interpreter's own
  // error (at most the precise bound), rounded up.
  const int64_t fast_ulps[] = {2, 4, 4, 2, 3, 2, 2};
  const int64_t precise_ulps[] = {2, 3, 3, 1, 3, 2, 2};
  Kernel k;
  k.name = "math_modes";
  k.rank = 1;
  KernelBuilder b(&k);
  const uint32_t a0 = input(b, kFloat, 1);
  uint32_t o[7];
  for (uint32_t& oi : o) oi = output(b, kFloat, 1);
  const ExprId x = b.load(a0, kFloat);
  const ExprId ax = b.unary(ScalarOp::Abs, x, kFloat);
  for (int i = 0; i < 7; ++i) {
    const bool on_abs = ops[i] == ScalarOp::Rsqrt || ops[i] == ScalarOp::Log;
    b.add_store(o[i], b.unary(ops[i], on_abs ? ax : x, kFloat), false);
  }
  REQUIRE(verify_kernel(k) == "");
  const CompiledKernel fast(k, CodegenOptions{MathMode::Fast}), precise(k);
  Case c;
  c.domain = {20011};
  std::mt19937_64 rng(11);
  c.add_input(kFloat, Layout::Contiguous, rng);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int64_t i = 0; i < c.domain[0]; ++i) {
    const double r = u(rng);
    set_float(c.buffers[0], i, i % 3 == 0 ? 80 * r : i % 3 == 1 ? 4 * r : 1e-3 * r);
  }
  for (int i = 0; i < 7; ++i) c.add_output(kFloat);
  std::vector<Tol> fast_tols(8), precise_tols(8);
  for (int i = 0; i < 7; ++i) {
    fast_tols[1 + i] = Tol{fast_ulps[i]};
    precise_tols[1 + i] = Tol{precise_ulps[i]};
  }
  CHECK(compare_with_interpreter(fast, c, fast_tols) == "");
  CHECK(compare_with_interpreter(precise, c, precise_tols) == "");
}
