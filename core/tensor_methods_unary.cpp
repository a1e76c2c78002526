// Tensor methods and operator overloads of the unary operators.
#include "core/ops_unary.h"
#include "core/tensor.h"

namespace lz {

Tensor Tensor::neg() const { return lz::neg(*this); }
Tensor Tensor::exp() const { return lz::exp(*this); }
Tensor Tensor::relu() const { return lz::relu(*this); }
Tensor& Tensor::neg_() { return lz::neg_(*this); }
Tensor& Tensor::exp_() { return lz::exp_(*this); }
Tensor& Tensor::relu_() { return lz::relu_(*this); }

Tensor operator-(const Tensor& self) { return lz::neg(self); }

}  // namespace lz
