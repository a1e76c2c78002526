// Batched evaluation for the reference interpreter: each expression is
// evaluated over a batch of domain points at once (one dispatch per
// expression, then a tight loop on typed columns), with exactly the scalar
// semantics of scalar_semantics.h applied point by point.
#pragma once

#include <cstdint>
#include <vector>

#include "codegen_interp/scalar_semantics.h"
#include "ir/kernel_ir.h"

namespace lz::codegen_interp::detail {

// olin/ilin[a]: the constant step of access a's outer/inner offsets, or
// kNotLinear when they are not evenly spaced.
constexpr int64_t kNotLinear = INT64_MIN;

// A batch of domain points: n_outer outer points, each followed by its
// per_outer inner points (outer-major). Offsets are in elements, per access
// a: outer[a * ostride + k] + inner[a * istride + j].
struct PointSet {
  int64_t n_outer = 0, per_outer = 0;
  const int64_t* outer = nullptr;
  int64_t ostride = 0;
  const int64_t* olin = nullptr;
  const int64_t* inner = nullptr;
  int64_t istride = 0;
  const int64_t* ilin = nullptr;
  int64_t size() const { return n_outer * per_outer; }
};

// An expression prepared for batch evaluation: its dtype class, rounding
// and wrap decided once, leaves' launch-constant values precomputed.
struct ExprPlan {
  ScalarOp op = ScalarOp::Constant;
  ScalarType t = ScalarType::Float;
  bool fp = true;  // a floating dtype: the column is double, else int64
  Round rnd = Round::None;
  Wrap wrp = Wrap::None;
  uint32_t slot = 0;  // column in the arena of its class
  uint32_t operands[3] = {0, 0, 0};
  uint32_t index = 0;                 // Load, Gather: access; Reduced: reduction
  ScalarType src = ScalarType::Float; // Load, Gather: buffer dtype; Reduced: reduction dtype
  char* data = nullptr;               // Load, Gather: element at domain index 0
  int64_t gather_stride = 0, gather_extent = 0;  // Gather: of the gathered axis
  Value uniform;                      // Constant, Param, ReduceCount: the value (of dtype t)
};

// Typed columns of `cap` points: one per expression (in its class's arena)
// plus kScratch scratch columns per class for conversions.
struct Columns {
  static constexpr uint32_t kScratch = 4;
  double* f = nullptr;
  int64_t* i = nullptr;
  int64_t cap = 0;
  uint32_t f_scratch = 0, i_scratch = 0;  // first scratch slot of each class
  double* fcol(uint32_t slot) const { return f + slot * cap; }
  int64_t* icol(uint32_t slot) const { return i + slot * cap; }
  double* fs(uint32_t k) const { return fcol(f_scratch + k); }
  int64_t* is(uint32_t k) const { return icol(i_scratch + k); }
};

// Evaluates expression `e` of `plans` at every point of `ps` into its
// column; its operands' columns must hold their values at the same points.
// `reduced` holds the reductions' values per outer point: [k * nred + r].
void eval_expr(const std::vector<ExprPlan>& plans, uint32_t e, const PointSet& ps, const Value* reduced,
               uint32_t nred, const Columns& c);

// Column conversion with convert()'s semantics; src and dst may alias only
// when from == to.
void convert_col(ScalarType from, const double* fd, const int64_t* fi, ScalarType to, double* td, int64_t* ti,
                 int64_t n);

// Writes expression e's values (converted to the buffer dtype bt) at the
// points of `ps` through access `a` whose domain-index-0 element is `data`.
void store_col(const ExprPlan& e, const PointSet& ps, uint32_t a, char* data, ScalarType bt, const Columns& c);

// acc = combine(acc, v[j]) for the n values in order, in the accumulator
// dtype (double for floating reductions).
void combine_f(ReduceOp op, const double* v, int64_t n, double& acc);
void combine_i(ReduceOp op, const int64_t* v, int64_t n, int64_t& acc, Wrap w);

}  // namespace lz::codegen_interp::detail
