// Kernels and launch helpers shared by the kernel IR and interpreter tests.
#pragma once

#include <cstdint>
#include <vector>

#include "codegen_interp/kernel_interpreter.h"
#include "ir/kernel_ir.h"

namespace lz::kernel_testing {

using ir::ExprId;
using ir::Kernel;
using ir::KernelBuilder;
using ir::ReduceOp;
using ir::ScalarOp;

// The row softmax of kernel_ir.h's example: in0, out0 both f32 rank 2,
// domain rank 2 reducing axis 1.
inline Kernel softmax_kernel() {
  Kernel k;
  k.name = "softmax_row";
  k.rank = 2;
  k.reduce_axes = 1u << 1;
  KernelBuilder b(&k);
  const uint32_t in = b.add_buffer(kFloat, 2, false);
  const uint32_t out = b.add_buffer(kFloat, 2, true);
  const uint32_t a0 = b.add_access({in, {}});
  const uint32_t a1 = b.add_access({out, {}});
  const ExprId x = b.load(a0, kFloat);
  const uint32_t r0 = b.add_reduction(ReduceOp::Max, x, kFloat);
  const ExprId m = b.reduced(r0);
  const ExprId e = b.unary(ScalarOp::Exp, b.binary(ScalarOp::Sub, x, m, kFloat), kFloat);
  const uint32_t r1 = b.add_reduction(ReduceOp::Sum, e, kFloat);
  b.add_store(a1, b.binary(ScalarOp::Div, e, b.reduced(r1), kFloat), false);
  return k;
}

// A pointwise kernel out0 = op(in0, in1) over a rank-`rank` domain, all of
// dtype t.
inline Kernel binary_kernel(ScalarOp op, ScalarType t, uint32_t rank = 1, ScalarType out_t = ScalarType::Undefined) {
  if (out_t == ScalarType::Undefined) out_t = t;
  Kernel k;
  k.name = "binary";
  k.rank = rank;
  KernelBuilder b(&k);
  const uint32_t x = b.add_access({b.add_buffer(t, rank, false), {}});
  const uint32_t y = b.add_access({b.add_buffer(t, rank, false), {}});
  const uint32_t out = b.add_access({b.add_buffer(out_t, rank, true), {}});
  const ExprId lx = b.load(x, t);  // separate statements: a fixed expression order
  const ExprId ly = b.load(y, t);
  b.add_store(out, b.binary(op, lx, ly, out_t), false);
  return k;
}

// A pointwise kernel out0 = op(in0) (op's result of dtype out_t).
inline Kernel unary_kernel(ScalarOp op, ScalarType t, ScalarType out_t) {
  Kernel k;
  k.name = "unary";
  k.rank = 1;
  KernelBuilder b(&k);
  const uint32_t x = b.add_access({b.add_buffer(t, 1, false), {}});
  const uint32_t out = b.add_access({b.add_buffer(out_t, 1, true), {}});
  b.add_store(out, b.unary(op, b.load(x, t), out_t), false);
  return k;
}

template <class T>
codegen_interp::BoundAccess bind(std::vector<T>& v, std::vector<int64_t> strides) {
  return codegen_interp::BoundAccess{v.data(), std::move(strides)};
}

}  // namespace lz::kernel_testing
