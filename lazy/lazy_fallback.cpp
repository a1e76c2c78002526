// The Lazy key's one boxed fallback, serving every operator: it runs the
// operator's meta function (so errors are raised at the call, with the
// eager message), records a node, and returns lazy tensors. Operators that
// cannot be recorded (no meta function, forced eager, number results,
// device transfers, writes into eager tensors) run eagerly at once on
// materialised inputs; those that are real fallbacks are counted per
// operator, and strict mode turns them into errors.
#include "core/error.h"
#include "core/local_dispatch_key_set.h"
#include "core/op_registration.h"
#include "core/ops_copy.h"
#include "lazy/config.h"
#include "lazy/functionalize.h"
#include "lazy/meta_memo.h"
#include "lazy/metrics.h"
#include "lazy/recorder.h"

namespace lz::lazy {

namespace {

struct Untraceable {
  SyncCause cause;
  bool is_fallback;  // counted (and refused in strict mode)
  const char* reason;
};

const Tensor* tensor_argument(const IValue& v) {
  return v.is_tensor() && v.to_tensor().defined() ? &v.to_tensor() : nullptr;
}

std::optional<Untraceable> why_untraceable(const OperatorHandle& op, const IValue* args) {
  const FunctionSchema& schema = op.schema();
  if (op.has_tag(Tag::NonTensorResult)) return Untraceable{SyncCause::Item, false, "returns a number"};
  if (op.has_tag(Tag::DataDependentShape)) {
    return Untraceable{SyncCause::DataDependentShape, false, "has a result whose shape depends on its values"};
  }
  for (const Return& r : schema.returns()) {
    if (r.type.base != BaseType::Tensor) return Untraceable{SyncCause::Fallback, true, "returns a non-tensor"};
  }
  if (!op.has_meta()) return Untraceable{SyncCause::Fallback, true, "has no meta function"};
  if (detail::forced_eager(op.name(), schema.name())) {
    return Untraceable{SyncCause::Fallback, true, "is forced to run eagerly (LZ_FORCE_EAGER)"};
  }
  if (op.id() == OpId::_to_copy) {
    static const size_t device_index = argument_position(OpId::_to_copy, "device");
    const IValue& device = args[device_index];
    const Tensor* self = tensor_argument(args[0]);
    if (!device.is_none() && self != nullptr && device.to_device() != self->device()) {
      return Untraceable{SyncCause::DeviceTransfer, false, "moves to another device"};
    }
  }
  if (schema.is_mutable()) {
    for (size_t i = 0; i < schema.arguments().size(); ++i) {
      const Tensor* t = tensor_argument(args[i]);
      if (schema.arguments()[i].is_write() && t != nullptr && !t->is_lazy()) {
        return Untraceable{SyncCause::Fallback, true, "writes into an eager tensor"};
      }
    }
  }
  return std::nullopt;
}

Tensor eager_value(const Tensor& t, SyncCause cause) {
  return t.is_lazy() ? lazy_hooks().to_eager(t, cause) : t;
}

bool contains_lazy(const IValue& v) {
  if (v.is_tensor()) return v.to_tensor().is_lazy();
  if (v.is_tensor_list()) {
    for (const Tensor& t : v.to_tensor_list()) {
      if (t.is_lazy()) return true;
    }
  } else if (v.tag() == IValue::Tag::OptionalTensorList) {
    for (const auto& t : v.to_optional_tensor_list()) {
      if (t && t->is_lazy()) return true;
    }
  }
  return false;
}

void make_arguments_eager(IValue& v, SyncCause cause) {
  if (v.is_tensor()) {
    if (v.to_tensor().is_lazy()) v = IValue(eager_value(v.to_tensor(), cause));
  } else if (v.is_tensor_list()) {
    std::vector<Tensor> list;
    for (const Tensor& t : v.to_tensor_list()) list.push_back(eager_value(t, cause));
    v = IValue(std::move(list));
  } else if (v.tag() == IValue::Tag::OptionalTensorList) {
    std::vector<std::optional<Tensor>> list;
    for (const auto& t : v.to_optional_tensor_list()) {
      list.push_back(t ? std::optional<Tensor>(eager_value(*t, cause)) : std::nullopt);
    }
    v = IValue(std::move(list));
  }
}

Tensor lazy_from_eager(const Tensor& t) { return t.defined() ? t.to_lazy() : t; }

// Runs the operator on eager values now. Lazy destinations are written
// through a copy (their old data may be an input of a pending graph) and
// the copy becomes their new value; other tensor results come back lazy.
void run_eagerly(Trace& tr, const OperatorHandle& op, Stack* stack, const Untraceable& why) {
  if (why.is_fallback) {
    LZ_CHECK(!detail::strict(), NotImplementedError, "[", op.name(), "] cannot be traced: it ",
             why.reason, " (strict lazy mode: LZ_LAZY_STRICT=1)");
    detail::count_fallback(op.name());
  }
  const FunctionSchema& schema = op.schema();
  const size_t n = schema.arguments().size();
  IValue* args = stack->data() + (stack->size() - n);
  std::vector<std::pair<std::string, Tensor>> lazy_destinations;  // alias set -> lazy tensor
  std::vector<std::pair<LazyTensorImpl*, Tensor>> written;        // lazy tensor -> its eager copy
  bool any_lazy = false;
  for (size_t i = 0; i < n; ++i) {
    const Argument& a = schema.arguments()[i];
    const Tensor* t = tensor_argument(args[i]);
    if (t != nullptr && t->is_lazy() && a.is_write()) {
      lazy_destinations.emplace_back(a.alias->set, *t);
      Tensor copy = clone(eager_value(*t, why.cause));
      written.emplace_back(lazy_impl(*t), copy);
      args[i] = IValue(copy);
      any_lazy = true;
      continue;
    }
    any_lazy = any_lazy || contains_lazy(args[i]);
    make_arguments_eager(args[i], why.cause);
  }
  {
    ExcludeDispatchKeyGuard below_lazy(DispatchKeySet(DispatchKey::Lazy));
    op.call_boxed(stack);
  }
  for (auto& [impl, data] : written) write_value(tr, *impl, tr.input_for(data), impl->meta());
  if (!any_lazy) return;
  // Returns: a written destination returns the lazy tensor itself.
  const size_t num_returns = schema.returns().size();
  IValue* returns = stack->data() + (stack->size() - num_returns);
  for (size_t k = 0; k < num_returns; ++k) {
    const Return& r = schema.returns()[k];
    if (r.type.base != BaseType::Tensor) continue;
    if (r.alias && r.alias->is_write) {
      for (const auto& [set, t] : lazy_destinations) {
        if (set == r.alias->set) returns[k] = IValue(t);
      }
    } else if (returns[k].is_tensor()) {
      returns[k] = IValue(lazy_from_eager(returns[k].to_tensor()));
    } else if (returns[k].is_tensor_list()) {
      std::vector<Tensor> list;
      for (const Tensor& t : returns[k].to_tensor_list()) list.push_back(lazy_from_eager(t));
      returns[k] = IValue(std::move(list));
    }
  }
}

// Operators with a memory_format argument (clone, _to_copy) lay their
// result out like self under preserve_format, as their eager kernels do:
// the strides the lazy result must report then, or nullopt (contiguous).
std::optional<SizeVec> preserved_strides(const OperatorHandle& op, const IValue* args) {
  const auto& arguments = op.schema().arguments();
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (arguments[i].type.base != BaseType::MemoryFormat) continue;
    if (!args[i].is_none() && args[i].to_memory_format() != MemoryFormat::Preserve) return std::nullopt;
    const Tensor* self = tensor_argument(args[0]);
    if (self == nullptr || !self->is_lazy() || self->is_contiguous() ||
        !is_non_overlapping_and_dense(self->sizes(), self->strides())) {
      return std::nullopt;
    }
    return SizeVec(self->strides().begin(), self->strides().end());
  }
  return std::nullopt;
}

void push_results(Trace& tr, const OperatorHandle& op, Stack* stack, size_t n, const MetaList& metas,
                  ir::ValueId first) {
  stack->resize(stack->size() - n);
  const auto& returns = op.schema().returns();
  if (returns.size() == 1 && returns[0].type.is_list) {
    std::vector<Tensor> list;
    list.reserve(metas.size());
    for (size_t k = 0; k < metas.size(); ++k) {
      list.push_back(make_lazy_result(tr, metas[k], first + static_cast<ir::ValueId>(k)));
    }
    stack->emplace_back(std::move(list));
    return;
  }
  for (size_t k = 0; k < metas.size(); ++k) {
    stack->emplace_back(make_lazy_result(tr, metas[k], first + static_cast<ir::ValueId>(k)));
  }
}

void lazy_fallback(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  const FunctionSchema& schema = op.schema();
  const size_t n = schema.arguments().size();
  IValue* args = stack->data() + (stack->size() - n);
  Trace& tr = Trace::current();
  std::lock_guard<TraceMutex> lock(tr.mutex());
  if (const std::optional<Untraceable> why = why_untraceable(op, args)) {
    run_eagerly(tr, op, stack, *why);
    return;
  }
  if (tr.graph().num_nodes() >= detail::node_limit()) tr.materialize(SyncCause::AutoCut);

  MetaList computed;
  const MetaList& metas = call_meta(op, *stack, computed);  // the eager checks and errors, now
  if (schema.is_mutable()) {
    if (!record_mutation(tr, op, stack, metas)) {
      run_eagerly(tr, op, stack, Untraceable{SyncCause::Fallback, true, "has no functional variant"});
    }
    return;
  }
  const Tensor* self = n > 0 ? tensor_argument(args[0]) : nullptr;
  if (op.has_tag(Tag::View) && self != nullptr && self->is_lazy()) {
    push_view_results(tr, op, stack, metas);
    return;
  }
  const std::optional<SizeVec> strides = preserved_strides(op, args);
  const ir::ValueId first = record_call(tr, op, args, metas);
  detail::count_traced();
  if (strides) {
    Tensor result = strided_result(tr, metas[0], first, *strides);
    stack->resize(stack->size() - n);
    stack->emplace_back(std::move(result));
    return;
  }
  push_results(tr, op, stack, n, metas, first);
}

}  // namespace

LZ_LIBRARY(lazy_fallback) {
  lib.fallback(DispatchKey::Lazy, KernelFunction::from_boxed(&lazy_fallback));
}

}  // namespace lz::lazy
