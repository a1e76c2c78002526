#include "lazy/eager_values.h"

#include "core/ops_copy.h"
#include "core/shape.h"

namespace lz::lazy {

namespace {

Tensor over_storage(Storage storage, const TensorImpl& like) {
  auto impl = make_intrusive<TensorImpl>(std::move(storage), like.dtype(), like.sizes());
  impl->set_sizes_and_strides(like.sizes(), like.strides(), like.storage_offset());
  impl->set_wrapped_number(like.is_wrapped_number());
  return Tensor(std::move(impl));
}

}  // namespace

Tensor snapshot_of_eager(const Tensor& eager) {
  const TensorImpl& e = *eager.unsafe_get_impl();
  return over_storage(snapshot_of(e.storage()), e);
}

Tensor hand_out(const Tensor& data) {
  const TensorImpl& d = *data.unsafe_get_impl();
  // clone()'s layout: a dense layout as it is, anything else (a strided
  // window, a broadcast) as a contiguous copy the caller can write.
  if (!is_non_overlapping_and_dense(d.sizes(), d.strides())) return clone(data);
  if (Storage mine = hand_over(*d.storage())) return over_storage(std::move(mine), d);
  return clone(data);
}

}  // namespace lz::lazy
