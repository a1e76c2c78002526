#include "lazy/functionalize.h"

#include "core/error.h"
#include "core/factories.h"
#include "core/local_dispatch_key_set.h"
#include "core/ops_copy.h"
#include "core/ops_views.h"
#include "core/structured.h"
#include "eager_kernels/meta/view_meta.h"
#include "lazy/metrics.h"
#include "lazy/recorder.h"

namespace lz::lazy {

namespace {

// The value of the lazy tensor `t` just returned by an operator.
ir::ValueId value_of_result(const Tensor& t) { return lazy_impl(t)->own_value().id; }

void replace_arguments(Stack* stack, size_t n, std::initializer_list<Tensor> results) {
  stack->resize(stack->size() - n);
  for (const Tensor& t : results) stack->emplace_back(t);
}

}  // namespace

void refresh_view(Trace& tr, LazyTensorImpl& view) {
  AliasGroup& group = view.group();
  const Tensor base = lazy_wrapper(tr, group.base, group.base_type);
  const Tensor fresh = as_strided(base, view.sizes(), view.strides(), view.storage_offset());
  view.set_view_value(lazy_impl(fresh)->own_value());
  tr.register_tensor(view);
}

bool read_view_from_base(LazyTensorImpl& view) {
  const LazyValue& base = view.group().base;
  if (base.pending()) return false;
  LazyValue v;
  if (base.failed()) {
    v.error = base.error;
  } else if (base.data.defined()) {
    // The view's geometry addresses a contiguous base from its element 0;
    // the base's data may start elsewhere in its storage.
    ExcludeDispatchKeyGuard eager_only(DispatchKeySet(DispatchKey::Lazy));
    const Tensor data = base.data.contiguous();
    v.data = as_strided(data, view.sizes(), view.strides(), view.storage_offset() + data.storage_offset());
  } else {
    return false;  // lost: the caller reports it
  }
  view.set_view_value(std::move(v));
  return true;
}

void write_value(Trace& tr, LazyTensorImpl& dst, ir::ValueId value, const TensorMeta& type) {
  LZ_INTERNAL_ASSERT(type.sizes == dst.meta().sizes, "writing a value of shape ", shape_str(type.sizes),
                     " into a lazy tensor of shape ", shape_str(dst.sizes()));
  if (type.dtype != dst.dtype()) {
    // The eager kernels write a result of another dtype through a cast.
    const Tensor cast = _to_copy(lazy_wrapper(tr, tr.pending(value), type), dst.dtype());
    value = value_of_result(cast);
  }
  if (!dst.is_view()) {
    dst.base_value() = tr.pending(value);
    if (dst.has_group()) {
      AliasGroup& group = dst.group();
      group.base_type = dst.meta();
      ++group.generation;  // every view of this base is stale now
    }
  } else {
    // Write through the view into the base: the base's new value is the old
    // one with the view's elements replaced.
    AliasGroup& group = dst.group();
    const Tensor base = lazy_wrapper(tr, group.base, group.base_type);
    const Tensor src = lazy_wrapper(tr, tr.pending(value), dst.meta());
    const Tensor updated =
        as_strided_scatter(base, src, dst.sizes(), dst.strides(), dst.storage_offset());
    group.base = lazy_impl(updated)->own_value();
    ++group.generation;
    dst.set_view_value(tr.pending(value));
    // The base's value is pending here now: the base must be registered
    // here too, or it would lose the write once every view is gone.
    tr.register_tensor(dst.base_tensor());
  }
  tr.register_tensor(dst);
  dst.version_counter().bump();
}

namespace {

// copy_ and fill_ have no functional operator of their own: their new
// value is built from other operators.
Tensor copy_source_value(const Tensor& self, const Tensor& src) {
  Tensor s = src;
  if (s.dtype() != self.dtype() || s.device() != self.device()) s = _to_copy(s, TensorOptions(self.dtype()).device(self.device()));
  if (s.sizes() != self.sizes()) s = expand(s, self.sizes());
  return s;
}

Tensor fill_value(const Tensor& self, const Scalar& value) {
  // Record the factory (with the value as a runtime scalar) instead of
  // allocating it eagerly.
  IncludeDispatchKeyGuard trace_factories(DispatchKeySet(DispatchKey::Lazy));
  return full(self.sizes(), value, TensorOptions(self.dtype()).device(self.device()));
}

}  // namespace

bool record_mutation(Trace& tr, const OperatorHandle& op, Stack* stack, const MetaList& metas) {
  const FunctionSchema& schema = op.schema();
  const size_t n = schema.arguments().size();
  IValue* args = stack->data() + (stack->size() - n);
  if (op.id() == OpId::copy_ || op.id() == OpId::fill__Scalar) {
    const Tensor self = args[0].to_tensor();
    const Tensor value = op.id() == OpId::copy_ ? copy_source_value(self, args[1].to_tensor())
                                              : fill_value(self, args[1].to_scalar());
    write_value(tr, *lazy_impl(self), value_in(tr, value), lazy_impl(self)->meta());
    detail::count_traced();
    replace_arguments(stack, n, {self});
    return true;
  }
  const std::optional<OperatorHandle> functional = op.functional_variant();
  if (!functional) return false;
  if (schema.is_inplace()) {
    const Tensor self = args[0].to_tensor();
    lz::detail::check_inplace_result(op.name(), self, metas.at(0));
    const ir::ValueId v = record_call(tr, *functional, args, metas);
    detail::count_traced();
    write_value(tr, *lazy_impl(self), v, metas[0]);
    replace_arguments(stack, n, {self});
    return true;
  }
  // out=: the out arguments are the last ones, one per result.
  const size_t num_out = schema.num_out_arguments();
  LZ_INTERNAL_ASSERT(num_out == metas.size(), op.name(), ": ", num_out, " out arguments for ",
                     metas.size(), " results");
  std::vector<Tensor> outs;
  for (size_t k = 0; k < num_out; ++k) {
    outs.push_back(args[n - num_out + k].to_tensor());
    lz::detail::prepare_out(op.name(), outs.back(), metas[k]);
  }
  const ir::ValueId first = record_call(tr, *functional, args, metas);
  detail::count_traced();
  for (size_t k = 0; k < num_out; ++k) {
    write_value(tr, *lazy_impl(outs[k]), first + static_cast<ir::ValueId>(k), metas[k]);
  }
  stack->resize(stack->size() - n);
  for (Tensor& t : outs) stack->emplace_back(std::move(t));
  return true;
}

Tensor strided_result(Trace& tr, const TensorMeta& type, ir::ValueId value, IntArrayRef strides) {
  Tensor zeros;
  {
    IncludeDispatchKeyGuard trace_factories(DispatchKeySet(DispatchKey::Lazy));
    zeros = full({checked_numel(type.sizes, "strided result")}, 0, TensorOptions(type.dtype).device(type.device));
  }
  const Tensor values = lazy_wrapper(tr, tr.pending(value), type);
  const Tensor storage = as_strided_scatter(zeros, values, type.sizes, strides, 0);
  auto base = make_intrusive<LazyTensorImpl>(meta_of(storage), lazy_impl(storage)->own_value());
  tr.register_tensor(*base);
  auto view = make_intrusive<LazyTensorImpl>(*base, type.sizes, strides, 0, tr.pending(value));
  tr.register_tensor(*view);
  return Tensor(std::move(view));
}

void push_view_results(Trace& tr, const OperatorHandle& op, Stack* stack, const MetaList& metas) {
  const size_t n = op.schema().arguments().size();
  IValue* args = stack->data() + (stack->size() - n);
  const Tensor self = args[0].to_tensor();
  LazyTensorImpl& base = *lazy_impl(self);

  // The geometry eager mode gives this view: the backend's view kernel only
  // reads self's sizes, strides and offset, so it runs on the lazy tensor.
  Stack geometry(args, args + n);
  op.entry().dispatch_table[static_cast<size_t>(DispatchKey::CPU)].call_boxed(
      op, DispatchKeySet(DispatchKey::CPU), &geometry);
  const Tensor shaped = geometry.back().to_tensor();

  ir::ValueId v;
  if (op.id() == OpId::as_strided) {
    // as_strided addresses the storage, which for a lazy tensor is its
    // group's base (read as a contiguous tensor).
    AliasGroup& group = base.group();
    meta::check_as_strided_bounds({SizeVec(shaped.sizes().begin(), shaped.sizes().end()),
                                   SizeVec(shaped.strides().begin(), shaped.strides().end()), shaped.storage_offset()},
                                  checked_numel(group.base_type.sizes, "as_strided"));
    const Tensor whole = lazy_wrapper(tr, group.base, group.base_type);
    Stack call{IValue(whole), args[1], args[2], IValue(shaped.storage_offset())};
    v = record_call(tr, op, call.data(), metas);
  } else {
    v = record_call(tr, op, args, metas);
  }
  detail::count_traced();
  auto view = make_intrusive<LazyTensorImpl>(base, shaped.sizes(), shaped.strides(),
                                             shaped.storage_offset(), tr.pending(v));
  // Autograd's view base: the top of the chain of views, as eagerly.
  view->set_view_base(intrusive_ptr<TensorImpl>(base.view_base() != nullptr ? base.view_base() : &base));
  tr.register_tensor(*view);
  replace_arguments(stack, n, {Tensor(std::move(view))});
}

}  // namespace lz::lazy
