#include "core/type_promotion.h"

#include "core/tensor.h"

namespace lz {

namespace {

ScalarType promote_skip_undefined(ScalarType a, ScalarType b) {
  if (a == ScalarType::Undefined) return b;
  if (b == ScalarType::Undefined) return a;
  return promote_types(a, b);
}

// A Python float scalar behaves as the default float dtype, not float64.
ScalarType wrapped_dtype(ScalarType t) {
  return is_floating_point(t) ? default_float_dtype() : t;
}

// The higher-ranked result wins unless the lower one is of a higher category.
ScalarType combine_categories(ScalarType higher, ScalarType lower) {
  if (higher == ScalarType::Undefined) return lower;
  if (lower == ScalarType::Undefined) return higher;
  if (is_floating_point(higher)) return higher;
  if (higher == ScalarType::Bool || is_floating_point(lower)) return promote_types(higher, lower);
  return higher;
}

}  // namespace

void ResultTypeState::add(const Tensor& t) {
  if (!t.defined()) return;
  add(t.dtype(), t.dim(), t.unsafe_get_impl()->is_wrapped_number());
}

void ResultTypeState::add(ScalarType dtype, int64_t dim, bool wrapped_number) {
  if (wrapped_number) {
    wrapped_result_ = promote_skip_undefined(wrapped_result_, wrapped_dtype(dtype));
  } else if (dim > 0) {
    dim_result_ = promote_skip_undefined(dim_result_, dtype);
  } else {
    zero_dim_result_ = promote_skip_undefined(zero_dim_result_, dtype);
  }
}

void ResultTypeState::add(const Scalar& s) {
  wrapped_result_ = promote_skip_undefined(wrapped_result_, wrapped_dtype(s.type()));
}

ScalarType ResultTypeState::result() const {
  return combine_categories(dim_result_, combine_categories(zero_dim_result_, wrapped_result_));
}

ScalarType result_type(const Tensor& a, const Tensor& b) {
  ResultTypeState s;
  s.add(a);
  s.add(b);
  return s.result();
}

ScalarType result_type(const Tensor& a, const Scalar& b) {
  ResultTypeState s;
  s.add(a);
  s.add(b);
  return s.result();
}

ScalarType result_type(TensorList tensors) {
  ResultTypeState s;
  for (const Tensor& t : tensors) s.add(t);
  return s.result();
}

}  // namespace lz
