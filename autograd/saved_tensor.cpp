#include "autograd/saved_tensor.h"

#include "autograd/grad_mode.h"
#include "core/scalar_type.h"

namespace lz::autograd {

SavedTensor::SavedTensor(const Tensor& t, bool is_output, uint32_t output_nr)
    : data_(is_output && t.defined() ? t.detach() : t),
      version_(t.defined() ? t._version() : 0),
      output_nr_(output_nr),
      is_output_(is_output),
      was_defined_(t.defined()) {}

Tensor SavedTensor::unpack(const std::shared_ptr<Node>& owner, std::string_view op, std::string_view what) const {
  if (!was_defined_) return Tensor();
  LZ_CHECK(data_.defined(), ValueError, "[", op,
           "] trying to backward through the graph a second time (or to read saved tensors after they were freed): "
           "saved values are freed by backward(); pass retain_graph=true to the first backward to keep them");
  if (data_._version() != version_) {
    LZ_FAIL(ValueError, "[", op,
            "] one of the variables needed for gradient computation has been modified by an inplace operation: ",
            what, " (", data_.dtype(), " ", shape_str(data_.sizes()), ") is at version ", data_._version(),
            "; expected version ", version_, " instead");
  }
  if (!is_output_ || !GradMode::is_enabled()) return data_;
  Tensor with_history = data_.detach();
  AutogradMeta& meta = with_history.unsafe_get_impl()->ensure_autograd_meta();
  meta.grad_fn = owner;
  meta.output_nr = output_nr_;
  return with_history;
}

}  // namespace lz::autograd
