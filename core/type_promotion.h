// PyTorch's result_type: the dtype an operator computes in when its operands
// differ. Dimensioned tensors outrank 0-dim tensors, which outrank wrapped
// numbers (C++ scalars); a lower-ranked operand only matters when it is of a
// higher category (bool < integral < floating):
//   int32[3] + int64[]   -> int32     float16[3] + 2.5  -> float16
//   int32[3] + 2.5       -> float32   uint8[3] + 300    -> uint8
#pragma once

#include "absl/types/span.h"
#include "core/scalar.h"

namespace lz {

class Tensor;  // core/tensor.h

// Accumulates operands one at a time.
class ResultTypeState {
 public:
  void add(const Tensor& t);
  void add(const Scalar& s);
  // An operand known only by its type (a graph value): its dtype, its rank,
  // and whether it is a wrapped number.
  void add(ScalarType dtype, int64_t dim, bool wrapped_number);
  ScalarType result() const;

 private:
  ScalarType dim_result_ = ScalarType::Undefined;
  ScalarType zero_dim_result_ = ScalarType::Undefined;
  ScalarType wrapped_result_ = ScalarType::Undefined;
};

ScalarType result_type(const Tensor& a, const Tensor& b);
ScalarType result_type(const Tensor& a, const Scalar& b);
ScalarType result_type(absl::Span<const Tensor> tensors);

}  // namespace lz
