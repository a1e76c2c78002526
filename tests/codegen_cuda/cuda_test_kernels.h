// Kernels covering what the CUDA generator must express: every scalar
// operation on every dtype the verifier accepts it for, every cast, loads
// and stores of every buffer dtype (16-bit floats included), runtime
// parameters and constants (NaN, inf, -0, INT64_MIN), every reduction on
// every dtype, row kernels with several stages (softmax) and reduced stores.
#pragma once

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "ir/kernel_ir.h"

namespace lz::cuda_testing {

using ir::ExprId;
using ir::Kernel;
using ir::KernelBuilder;
using ir::ReduceOp;
using ir::ScalarOp;

struct NamedKernel {
  std::string label;
  Kernel kernel;
};

inline const std::vector<ScalarType>& compute_dtypes() {
  static const std::vector<ScalarType> t = {ScalarType::Bool, ScalarType::Byte,  ScalarType::Int,
                                            ScalarType::Long, ScalarType::Float, ScalarType::Double};
  return t;
}
inline const std::vector<ScalarType>& all_dtypes() {
  static const std::vector<ScalarType> t = {ScalarType::Bool,  ScalarType::Byte,     ScalarType::Int,
                                            ScalarType::Long,  ScalarType::Half,     ScalarType::BFloat16,
                                            ScalarType::Float, ScalarType::Double};
  return t;
}
// The dtype a kernel computes a buffer's values in.
inline ScalarType compute_of(ScalarType t) {
  return t == ScalarType::Half || t == ScalarType::BFloat16 ? ScalarType::Float : t;
}

inline bool is_predicate(ScalarOp op) {
  switch (op) {
    case ScalarOp::IsNan: case ScalarOp::IsInf: case ScalarOp::LogicalNot: case ScalarOp::Eq: case ScalarOp::Ne:
    case ScalarOp::Lt: case ScalarOp::Le: case ScalarOp::Gt: case ScalarOp::Ge: case ScalarOp::LogicalAnd:
    case ScalarOp::LogicalOr: case ScalarOp::LogicalXor: return true;
    default: return false;
  }
}

// out0 = op(in0 [, in1]) over a rank-2 domain, or nothing if the verifier
// rejects op on t.
inline bool elementwise_kernel(ScalarOp op, ScalarType t, Kernel* out) {
  Kernel k;
  k.name = std::string(ir::to_string(op));
  k.rank = 2;
  KernelBuilder b(&k);
  const ScalarType rt = is_predicate(op) ? ScalarType::Bool : t;
  const uint32_t x = b.add_access({b.add_buffer(t, 2, false), {}});
  const uint32_t y = b.add_access({b.add_buffer(t, 2, false), {}});
  const uint32_t o = b.add_access({b.add_buffer(rt, 2, true), {}});
  const ExprId lx = b.load(x, t);
  const ExprId ly = b.load(y, t);
  ExprId v;
  if (ir::arity(op) == 1) {
    v = b.unary(op, lx, rt);
  } else if (ir::arity(op) == 2) {
    v = b.binary(op, lx, ly, rt);
  } else {
    v = b.select(b.binary(ScalarOp::Lt, lx, ly, ScalarType::Bool), lx, ly, t);
  }
  b.add_store(o, v, false);
  if (!ir::verify_kernel(k).empty()) return false;
  *out = std::move(k);
  return true;
}

inline std::vector<NamedKernel> elementwise_kernels() {
  std::vector<NamedKernel> v;
  for (int op = static_cast<int>(ScalarOp::Neg); op <= static_cast<int>(ScalarOp::Select); ++op) {
    if (static_cast<ScalarOp>(op) == ScalarOp::Cast) continue;
    for (ScalarType t : compute_dtypes()) {
      Kernel k;
      if (elementwise_kernel(static_cast<ScalarOp>(op), t, &k)) {
        v.push_back({std::string(ir::to_string(static_cast<ScalarOp>(op))) + " " + std::string(to_string(t)),
                     std::move(k)});
      }
    }
  }
  return v;
}

// out0 (to) = cast(in0 (from)), through the buffers' compute dtypes.
inline std::vector<NamedKernel> cast_kernels() {
  std::vector<NamedKernel> v;
  for (ScalarType from : all_dtypes()) {
    for (ScalarType to : all_dtypes()) {
      Kernel k;
      k.name = "cast";
      k.rank = 1;
      KernelBuilder b(&k);
      const uint32_t x = b.add_access({b.add_buffer(from, 1, false), {}});
      const uint32_t o = b.add_access({b.add_buffer(to, 1, true), {}});
      ExprId e = b.load(x, compute_of(from));
      if (to == ScalarType::Half || to == ScalarType::BFloat16) e = b.cast(e, to);  // rounds
      b.add_store(o, b.cast(e, compute_of(to)), false);
      if (!ir::verify_kernel(k).empty()) continue;
      v.push_back({"cast " + std::string(to_string(from)) + " -> " + std::string(to_string(to)), std::move(k)});
    }
  }
  return v;
}

// out0 = in0 * p0 + constant, with p0 a runtime parameter and special constants.
inline std::vector<NamedKernel> param_kernels() {
  std::vector<NamedKernel> v;
  const double inf = std::numeric_limits<double>::infinity();
  for (ScalarType t : {ScalarType::Float, ScalarType::Double, ScalarType::Long, ScalarType::Int}) {
    for (double c : {1.5, -0.0, inf, std::nan(""), 3.0e-39}) {
      Kernel k;
      k.name = "param";
      k.rank = 1;
      k.num_params = 1;
      KernelBuilder b(&k);
      const uint32_t x = b.add_access({b.add_buffer(t, 1, false), {}});
      const uint32_t o = b.add_access({b.add_buffer(t, 1, true), {}});
      const ExprId scaled = b.binary(ScalarOp::Mul, b.load(x, t), b.param(0, t), t);
      ExprId constant;
      if (is_floating_point(t)) {
        constant = b.constant(c, t);
      } else {
        constant = b.constant(c == inf ? static_cast<double>(std::numeric_limits<int64_t>::min()) : 7, t);
      }
      b.add_store(o, b.binary(ScalarOp::Add, scaled, constant, t), false);
      if (!ir::verify_kernel(k).empty()) continue;
      v.push_back({"param " + std::string(to_string(t)) + " const " + std::to_string(c), std::move(k)});
    }
  }
  return v;
}

// out0[i] = reduce_j f(in0[i, j]) (a reduced store), for every reduction
// and accumulator dtype; sum also as a mean (reduce_count).
inline std::vector<NamedKernel> reduction_kernels() {
  std::vector<NamedKernel> v;
  for (ReduceOp op : {ReduceOp::Sum, ReduceOp::Prod, ReduceOp::Max, ReduceOp::Min, ReduceOp::All, ReduceOp::Any}) {
    for (ScalarType t : all_dtypes()) {
      const bool logical = op == ReduceOp::All || op == ReduceOp::Any;
      const ScalarType acc = logical ? ScalarType::Bool : compute_of(t);
      Kernel k;
      k.name = "reduce";
      k.rank = 2;
      k.reduce_axes = 1u << 1;
      KernelBuilder b(&k);
      const uint32_t x = b.add_access({b.add_buffer(t, 2, false), {}});
      const uint32_t o = b.add_access({b.add_buffer(logical ? ScalarType::Bool : t, 2, true), {}});
      const ExprId in = b.cast(b.load(x, compute_of(t)), acc);
      const uint32_t r = b.add_reduction(op, in, acc);
      ExprId res = b.reduced(r);
      if (t == ScalarType::Half || t == ScalarType::BFloat16) res = b.cast(b.cast(res, t), ScalarType::Float);
      b.add_store(o, res, true);
      if (!ir::verify_kernel(k).empty()) continue;
      v.push_back({"reduce " + std::string(to_string(op)) + " " + std::string(to_string(t)), std::move(k)});
    }
  }
  return v;
}

// Row kernels of several stages: softmax, and a mean-centred square sum
// (layer_norm's statistics) with a broadcast weight and a reduced store.
inline std::vector<NamedKernel> row_kernels() {
  std::vector<NamedKernel> v;
  {
    Kernel k;
    k.name = "softmax_row";
    k.rank = 2;
    k.reduce_axes = 1u << 1;
    KernelBuilder b(&k);
    const uint32_t a0 = b.add_access({b.add_buffer(ScalarType::Float, 2, false), {}});
    const uint32_t a1 = b.add_access({b.add_buffer(ScalarType::Float, 2, true), {}});
    const ExprId x = b.load(a0, ScalarType::Float);
    const ExprId m = b.reduced(b.add_reduction(ReduceOp::Max, x, ScalarType::Float));
    const ExprId e = b.unary(ScalarOp::Exp, b.binary(ScalarOp::Sub, x, m, ScalarType::Float), ScalarType::Float);
    const uint32_t r1 = b.add_reduction(ReduceOp::Sum, e, ScalarType::Float);
    b.add_store(a1, b.binary(ScalarOp::Div, e, b.reduced(r1), ScalarType::Float), false);
    v.push_back({"softmax", std::move(k)});
  }
  {
    Kernel k;
    k.name = "centred_rows";
    k.rank = 2;
    k.reduce_axes = 1u << 1;
    KernelBuilder b(&k);
    const ScalarType f = ScalarType::Float;
    const uint32_t a0 = b.add_access({b.add_buffer(f, 2, false), {}});
    const uint32_t aw = b.add_access({b.add_buffer(f, 2, false), {}});  // bound with stride 0 on rows
    const uint32_t ao = b.add_access({b.add_buffer(f, 2, true), {}});
    const uint32_t as = b.add_access({b.add_buffer(f, 2, true), {}});
    const ExprId x = b.load(a0, f);
    const ExprId mean = b.binary(ScalarOp::Div, b.reduced(b.add_reduction(ReduceOp::Sum, x, f)), b.reduce_count(f), f);
    const ExprId d = b.binary(ScalarOp::Sub, x, mean, f);
    const ExprId var = b.binary(ScalarOp::Div, b.reduced(b.add_reduction(ReduceOp::Sum, b.binary(ScalarOp::Mul, d, d, f), f)),
                                b.reduce_count(f), f);
    const ExprId rstd = b.unary(ScalarOp::Rsqrt, b.binary(ScalarOp::Add, var, b.constant(1e-5, f), f), f);
    b.add_store(ao, b.binary(ScalarOp::Mul, b.binary(ScalarOp::Mul, d, rstd, f), b.load(aw, f), f), false);
    b.add_store(as, rstd, true);
    v.push_back({"centred rows", std::move(k)});
  }
  return v;
}

inline std::vector<NamedKernel> all_sample_kernels() {
  std::vector<NamedKernel> v;
  for (auto* make : {&elementwise_kernels, &cast_kernels, &param_kernels, &reduction_kernels, &row_kernels}) {
    for (NamedKernel& k : make()) v.push_back(std::move(k));
  }
  return v;
}

}  // namespace lz::cuda_testing
