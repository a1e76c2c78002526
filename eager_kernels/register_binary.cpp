// Binary arithmetic operators: schemas, metas, kernels. The Scalar overloads
// are composites that wrap the number as a 0-dim tensor, so the Lazy key
// records it as a runtime value, not a constant baked into the graph.
#include "core/empty_tensor.h"
#include "core/op_registration.h"
#include "core/ops_binary.h"
#include "eager_kernels/cpu/binary_kernels.h"
#include "eager_kernels/meta/binary_meta.h"

namespace lz {

namespace {

Tensor add_scalar(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return add(self, wrapped_scalar_tensor(other), alpha);
}
Tensor add_scalar_(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  Tensor s = self;
  return s.add_(wrapped_scalar_tensor(other), alpha);
}
Tensor sub_scalar(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return sub(self, wrapped_scalar_tensor(other), alpha);
}
Tensor sub_scalar_(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  Tensor s = self;
  return s.sub_(wrapped_scalar_tensor(other), alpha);
}
Tensor mul_scalar(const Tensor& self, const Scalar& other) {
  return mul(self, wrapped_scalar_tensor(other));
}
Tensor mul_scalar_(const Tensor& self, const Scalar& other) {
  Tensor s = self;
  return s.mul_(wrapped_scalar_tensor(other));
}
Tensor div_scalar(const Tensor& self, const Scalar& other) {
  return div(self, wrapped_scalar_tensor(other));
}
Tensor div_scalar_(const Tensor& self, const Scalar& other) {
  Tensor s = self;
  return s.div_(wrapped_scalar_tensor(other));
}

}  // namespace

LZ_LIBRARY(binary_ops) {
  const TagSet pointwise(Tag::Pointwise);
  const TagSet pointwise_inplace{Tag::Pointwise, Tag::Inplace};

  lib.def_structured<&meta::add>("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor")
      .tags(pointwise)
      .impl<&cpu::add_impl>(DispatchKey::CPU);
  lib.def("add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor")
      .tags(pointwise)
      .composite(&add_scalar);
  lib.def("add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)")
      .tags(pointwise_inplace)
      .composite(&add_scalar_);

  lib.def_structured<&meta::sub>("sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor")
      .tags(pointwise)
      .impl<&cpu::sub_impl>(DispatchKey::CPU);
  lib.def("sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor")
      .tags(pointwise)
      .composite(&sub_scalar);
  lib.def("sub_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)")
      .tags(pointwise_inplace)
      .composite(&sub_scalar_);

  lib.def_structured<&meta::mul>("mul.Tensor(Tensor self, Tensor other) -> Tensor")
      .tags(pointwise)
      .impl<&cpu::mul_impl>(DispatchKey::CPU);
  lib.def("mul.Scalar(Tensor self, Scalar other) -> Tensor").tags(pointwise).composite(&mul_scalar);
  lib.def("mul_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)")
      .tags(pointwise_inplace)
      .composite(&mul_scalar_);

  lib.def_structured<&meta::div>("div.Tensor(Tensor self, Tensor other) -> Tensor")
      .tags(pointwise)
      .impl<&cpu::div_impl>(DispatchKey::CPU);
  lib.def("div.Scalar(Tensor self, Scalar other) -> Tensor").tags(pointwise).composite(&div_scalar);
  lib.def("div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)")
      .tags(pointwise_inplace)
      .composite(&div_scalar_);
}

}  // namespace lz
