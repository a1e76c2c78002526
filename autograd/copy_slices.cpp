#include "autograd/copy_slices.h"

#include "autograd/formula_helpers.h"
#include "core/error.h"
#include "core/ops_copy.h"
#include "core/ops_views.h"
#include "core/shape.h"

namespace lz::autograd {

namespace {

// The base's contiguous layout is what the geometry's strides refer to.
void check_base(const Tensor& base, const Tensor& view, const char* op_name) {
  LZ_CHECK(base.is_contiguous(), NotImplementedError, "[", op_name,
           "] an in-place write through a view of a non-contiguous tensor with history (base ", shape_str(base.sizes()),
           " strides ", shape_str(base.strides()), ", view ", shape_str(view.sizes()),
           ") is not differentiable yet; write into a contiguous() copy instead");
}

Tensor slice_of(const Tensor& grad, const ViewGeometry& v) {
  return as_strided(grad.contiguous(), v.sizes, v.strides, v.offset);
}

}  // namespace

ViewGeometry ViewGeometry::of(const Tensor& view, const Tensor& base) {
  return ViewGeometry{SizeVec(view.sizes().begin(), view.sizes().end()),
                      SizeVec(view.strides().begin(), view.strides().end()),
                      view.storage_offset() - base.storage_offset()};
}

CopySlices::CopySlices(const Tensor& base, ViewGeometry view, std::shared_ptr<Node> fn)
    : view_(std::move(view)), fn_(std::move(fn)) {
  add_next_edge(gradient_edge(base), input_meta_of(base));
  for (size_t i = 1; i < fn_->next_edges().size(); ++i) add_next_edge(fn_->next_edges()[i], fn_->input_metas()[i]);
}

GradList CopySlices::apply(GradList&& grads) {
  GradList out(next_edges().size());
  const Tensor& grad = grads.at(0);
  if (!grad.defined()) return out;
  // The view's part of the gradient goes through the operator; the old
  // values of the view reach the base's history only as fn passes them on.
  GradList fn_grads = fn_->apply({slice_of(grad, view_)});
  Tensor self_grad = fn_grads.empty() ? Tensor() : fn_grads[0];
  if (self_grad.defined()) {
    self_grad = sum_to(self_grad, view_.sizes);
    if (self_grad.dtype() != grad.dtype()) self_grad = self_grad.to(grad.dtype());
  } else {
    self_grad = zeros_for(grad, view_.sizes);
  }
  out[0] = as_strided_scatter(grad.contiguous(), self_grad, view_.sizes, view_.strides, view_.offset);
  for (size_t i = 1; i < fn_grads.size() && i < out.size(); ++i) out[i] = std::move(fn_grads[i]);
  return out;
}

ViewOfBase::ViewOfBase(const Tensor& base, ViewGeometry view) : view_(std::move(view)) {
  add_next_edge(gradient_edge(base), input_meta_of(base));
}

GradList ViewOfBase::apply(GradList&& grads) {
  const Tensor& grad = grads.at(0);
  if (!grad.defined()) return {Tensor()};
  return {scatter_into_zeros(grad, input_metas()[0].sizes, view_.sizes, view_.strides, view_.offset)};
}

void check_view_write_allowed(const Tensor& self, const char* op_name) {
  const AutogradMeta* meta = autograd_meta(self);
  if (meta == nullptr || !meta->view_base.defined()) return;
  const Tensor& base = meta->view_base;
  LZ_CHECK(!(base.is_leaf() && base.requires_grad()), ValueError, "[", op_name,
           "] a view of a leaf tensor that requires grad is being used in an in-place operation "
           "(use lz::NoGradGuard for updates, or write into a clone())");
  check_base(base, self, op_name);
}

void rebase_view_write(const Tensor& self, const std::shared_ptr<Node>& fn) {
  AutogradMeta& meta = self.unsafe_get_impl()->ensure_autograd_meta();
  const Tensor base = meta.view_base;
  ViewGeometry view = ViewGeometry::of(self, base);
  auto copy_slices = std::make_shared<CopySlices>(base, view, fn);
  AutogradMeta& base_meta = base.unsafe_get_impl()->ensure_autograd_meta();
  base_meta.grad_fn = std::move(copy_slices);
  base_meta.output_nr = 0;
  meta.grad_fn = std::make_shared<ViewOfBase>(base, std::move(view));
  meta.output_nr = 0;
  meta.view_version = self.unsafe_get_impl()->version();
}

void rebuild_view_grad_fn(const Tensor& view, AutogradMeta& meta) {
  const uint64_t version = view.unsafe_get_impl()->version();
  if (!meta.view_base.defined() || meta.view_version == version) return;
  const Tensor& base = meta.view_base;
  if (autograd_meta(base) == nullptr || !base.is_contiguous()) return;  // base without history: nothing to rebuild onto
  meta.grad_fn = std::make_shared<ViewOfBase>(base, ViewGeometry::of(view, base));
  meta.output_nr = 0;
  meta.view_version = version;
}

}  // namespace lz::autograd
