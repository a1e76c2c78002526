// Writes through views of tensors with history (PyTorch's CopySlices).
//
// `v = b.select(0, 1); v.mul_(w);` changes b, so b's gradient must pass
// through the mul: b gets a CopySlices node that hands the slice of b's
// gradient the view covers to the in-place operator's node and the rest
// straight on to b's old history. The view itself then reads b's new
// value, so its grad_fn becomes a ViewOfBase node onto b's new history;
// other views of b get theirs rebuilt the same way when their version
// shows the storage moved on (rebuild_view_grad_fn, from gradient_edge).
#pragma once

#include <memory>

#include "autograd/node.h"

namespace lz::autograd {

// Where a view lies in its base, in elements of the base's contiguous layout.
struct ViewGeometry {
  SizeVec sizes, strides;
  int64_t offset = 0;
  static ViewGeometry of(const Tensor& view, const Tensor& base);
};

class CopySlices final : public Node {
 public:
  // `fn`: the in-place operator's node (input 0 the view's old value).
  // Edges: the base's old history, then fn's other inputs.
  CopySlices(const Tensor& base, ViewGeometry view, std::shared_ptr<Node> fn);
  std::string name() const override { return "CopySlices"; }
  GradList apply(GradList&& grads) override;
  void release_saved() override { fn_->release_saved(); }

 private:
  ViewGeometry view_;
  std::shared_ptr<Node> fn_;
};

// The gradient of a view, scattered into zeros of its base's shape.
class ViewOfBase final : public Node {
 public:
  ViewOfBase(const Tensor& base, ViewGeometry view);
  std::string name() const override { return "AsStridedBackward"; }
  GradList apply(GradList&& grads) override;

 private:
  ViewGeometry view_;
};

// After an in-place operator recorded `fn` writing through the view `self`
// (check_view_write_allowed passed before it ran): gives self's base a
// CopySlices node and self a ViewOfBase grad_fn.
void rebase_view_write(const Tensor& self, const std::shared_ptr<Node>& fn);

// Before an in-place operator writes through the view `self`: raises for a
// view of a leaf that requires grad, and for a base that is not contiguous
// (the view's geometry is not expressible in the base's gradient then).
void check_view_write_allowed(const Tensor& self, const char* op_name);

// A view whose storage changed since its grad_fn was set gets a ViewOfBase
// grad_fn onto its base's current history.
void rebuild_view_grad_fn(const Tensor& view, AutogradMeta& meta);

}  // namespace lz::autograd
