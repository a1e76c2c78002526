// The CUDA key's kernels. An operator on CUDA tensors runs as a one-op lazy
// graph compiled at once: the operator's meta function checks it, the
// fusion planner makes it a kernel, the CUDA generator compiles that kernel
// (cached per structure like every lazy graph, so the second call of an
// operator on any sizes compiles nothing) and the results come back as
// eager CUDA tensors. Writes (in-place, out=) compute the functional value
// and copy it into the destination. So there is one implementation of each
// operator's semantics for both devices: its meta function and its lowering.
//
// What is not a one-op graph:
// - copy_ (and so every device transfer): byte copies through
//   core/cuda/copy.h and converting or strided copies through
//   codegen_cuda/device_copy.h;
// - operators returning numbers (item, equal, allclose): computed on host
//   copies of their tensor arguments (counted as fallbacks);
// - mm, bmm, addmm (and matmul, their composite) of floating dtypes:
//   cuBLAS (eager_kernels/cuda/matmul_kernels.h);
// - operators no code generator lowers (integer division, which must raise
//   on a zero divisor; integer matrix products): they run on the host, counted as fallbacks per operator (strict mode, LZ_LAZY_STRICT=1,
//   makes that an error naming the operator);
// - fill_ of a contiguous tensor: the driver's memsets
//   (eager_kernels/cuda/fill_kernels.h), as empty, zeros, ones and full,
//   which are registered for CUDA (eager_kernels/register_factories.cpp);
//   the other factories (randn, arange on device=cuda) are made on the CPU
//   and copied, so random numbers match the CPU's for a seed;
#include "codegen_cuda/device_copy.h"
#include "core/cuda/copy.h"
#include "core/error.h"
#include "core/factories.h"
#include "core/local_dispatch_key_set.h"
#include "core/memory_overlap.h"
#include "core/op_registration.h"
#include "core/ops_copy.h"
#include "eager_kernels/cpu/copy_kernels.h"
#include "eager_kernels/cuda/cublas.h"
#include "eager_kernels/cuda/fill_kernels.h"
#include "eager_kernels/cuda/matmul_kernels.h"
#include "eager_kernels/meta/copy_meta.h"
#include "lazy/config.h"
#include "lazy/metrics.h"
#include "lazy/trace.h"

namespace lz::lazy {

namespace {

const Tensor* cuda_tensor(const IValue& v) {
  return v.is_tensor() && v.to_tensor().defined() && v.to_tensor().is_cuda() ? &v.to_tensor() : nullptr;
}

// ---- copy_ ---------------------------------------------------------------------

// Same dtype, same dense layout: the bytes can move as they are.
bool bytes_match(const Tensor& a, const Tensor& b) {
  return a.dtype() == b.dtype() && a.sizes() == b.sizes() && a.is_contiguous() && b.is_contiguous();
}

Tensor device_clone(const Tensor& t) {
  Tensor c = empty(t.sizes(), TensorOptions().dtype(t.dtype()).device(t.device()));
  codegen_cuda::copy_on_device(c, t);
  return c;
}

bool is_whole_storage(const Tensor& t) {
  return t.is_contiguous() && t.storage_offset() == 0 &&
         t.unsafe_get_impl()->storage()->nbytes() == t.nbytes();
}

Tensor contiguous_on_device(const Tensor& t) { return t.is_contiguous() ? t : device_clone(t); }

void cuda_copy(const Tensor& self, const Tensor& src_in) {
  meta::copy_(self, src_in, false);
  if (self.numel() == 0) return;
  Tensor src = src_in;
  if (src.device() == self.device()) {
    const Overlap overlap = overlap_kind(self, src);
    if (overlap == Overlap::Full) return;
    if (overlap == Overlap::Partial) src = device_clone(src);
  }
  const int64_t bytes = static_cast<int64_t>(self.nbytes());
  self.unsafe_get_impl()->prepare_write();
  if (src.is_cpu()) {
    // Convert and lay out on the host, then one transfer.
    Tensor host = src.to(self.dtype()).expand(self.sizes()).contiguous();
    Tensor target = self.is_contiguous() ? self : empty(self.sizes(), self.options());
    cuda::copy_host_to_device(target.data_ptr(), self.device().index(), host.data_ptr(), static_cast<size_t>(bytes));
    if (!target.is_same(self)) codegen_cuda::copy_on_device(self, target);
  } else if (self.is_cpu()) {
    const Tensor device_src = contiguous_on_device(src);
    Tensor host = empty(device_src.sizes(), TensorOptions().dtype(device_src.dtype()));
    cuda::copy_device_to_host(host.data_ptr(), device_src.data_ptr(), device_src.device().index(), host.nbytes());
    Tensor dst = self;
    dst.copy_(host);
  } else if (src.device() != self.device()) {
    Tensor staged = empty(src.sizes(), TensorOptions().dtype(src.dtype()));
    staged.copy_(src);
    Tensor dst = self;
    dst.copy_(staged);
  } else if (bytes_match(self, src)) {
    cuda::copy_device_to_device(self.data_ptr(), self.device().index(), src.data_ptr(), src.device().index(),
                                static_cast<size_t>(bytes));
  } else {
    codegen_cuda::copy_on_device(self, src);
  }
}

Tensor copy_kernel(Tensor& self, const Tensor& src, bool) {
  cuda_copy(self, src);
  self.unsafe_get_impl()->version_counter().bump();
  return self;
}

// ---- The fallback ----------------------------------------------------------------

bool returns_tensors_only(const FunctionSchema& schema) {
  for (const Return& r : schema.returns()) {
    if (r.type.base != BaseType::Tensor) return false;
  }
  return true;
}

bool has_cuda_tensor(const IValue& v) {
  if (cuda_tensor(v) != nullptr) return true;
  if (v.is_tensor_list()) {
    for (const Tensor& t : v.to_tensor_list()) {
      if (t.defined() && t.is_cuda()) return true;
    }
  } else if (v.tag() == IValue::Tag::OptionalTensorList) {
    for (const auto& t : v.to_optional_tensor_list()) {
      if (t && t->defined() && t->is_cuda()) return true;
    }
  }
  return false;
}

// Replaces every CUDA tensor in `v` with what f makes of it.
template <class F>
void map_cuda_tensors(IValue& v, F&& f) {
  if (const Tensor* t = cuda_tensor(v)) {
    v = IValue(f(*t));
  } else if (v.is_tensor_list()) {
    std::vector<Tensor> list;
    for (const Tensor& t : v.to_tensor_list()) list.push_back(t.defined() && t.is_cuda() ? f(t) : t);
    v = IValue(std::move(list));
  } else if (v.tag() == IValue::Tag::OptionalTensorList) {
    std::vector<std::optional<Tensor>> list;
    for (const auto& t : v.to_optional_tensor_list()) {
      list.push_back(t && t->defined() && t->is_cuda() ? std::optional<Tensor>(f(*t)) : t);
    }
    v = IValue(std::move(list));
  }
}

void materialize_returns(IValue* returns, size_t n) {
  Trace::current().materialize(SyncCause::ToEager);
  for (size_t k = 0; k < n; ++k) {
    if (returns[k].is_tensor() && returns[k].to_tensor().is_lazy()) {
      returns[k] = IValue(returns[k].to_tensor().to_eager());
    } else if (returns[k].is_tensor_list()) {
      std::vector<Tensor> list;
      for (const Tensor& t : returns[k].to_tensor_list()) list.push_back(t.is_lazy() ? t.to_eager() : t);
      returns[k] = IValue(std::move(list));
    }
  }
}

// Runs the operator on host copies of its CUDA arguments (counted as a
// fallback). Written arguments get the host results copied back, and tensor
// results go back to the device.
void run_on_host(const OperatorHandle& op, Stack* stack) {
  const FunctionSchema& schema = op.schema();
  const size_t n = schema.arguments().size();
  IValue* args = stack->data() + (stack->size() - n);
  if (schema.is_mutable() && op.has_meta()) op.meta(*stack);  // the checks of the destinations as they are
  std::optional<Device> device;
  std::vector<std::pair<Tensor, Tensor>> written;  // (device tensor, its host copy)
  for (size_t i = 0; i < n; ++i) {
    if (const Tensor* t = cuda_tensor(args[i]); t != nullptr && schema.arguments()[i].is_write()) {
      device = device.value_or(t->device());
      written.emplace_back(*t, t->to(Device(kCPU)));
      args[i] = IValue(written.back().second);
    }
    map_cuda_tensors(args[i], [&](const Tensor& t) {
      device = device.value_or(t.device());
      return t.to(Device(kCPU));
    });
  }
  detail::count_fallback(op.name());
  op.call_boxed(stack);
  const size_t num_returns = schema.returns().size();
  IValue* returns = stack->data() + (stack->size() - num_returns);
  for (size_t k = 0; k < num_returns; ++k) {
    if (!returns[k].is_tensor() || !returns[k].to_tensor().defined()) continue;
    const Tensor result = returns[k].to_tensor();
    bool was_written = false;
    for (auto& [target, host] : written) {
      if (host.is_same(result)) {
        returns[k] = IValue(target);
        was_written = true;
      }
    }
    if (!was_written && device && !op.has_tag(Tag::NonTensorResult)) returns[k] = IValue(result.to(*device));
  }
  for (auto& [target, host] : written) copy_kernel(target, host, false);
}

// A factory made on the CPU, its tensor results moved to the device asked for.
void run_factory(const OperatorHandle& op, Stack* stack, uint16_t device_argument) {
  const size_t n = op.schema().arguments().size();
  IValue& device_arg = (*stack)[stack->size() - n + device_argument];
  const Device device = device_arg.to_device();
  device_arg = IValue(Device(kCPU));
  op.call_boxed(stack);
  const size_t num_returns = op.schema().returns().size();
  for (size_t k = stack->size() - num_returns; k < stack->size(); ++k) {
    if ((*stack)[k].is_tensor()) (*stack)[k] = IValue((*stack)[k].to_tensor().to(device));
  }
}

// The one-op graph: CUDA arguments become lazy tensors of a trace of its own.
void run_as_graph(const OperatorHandle& op, Stack* stack) {
  const FunctionSchema& schema = op.schema();
  const size_t n = schema.arguments().size();
  IValue* args = stack->data() + (stack->size() - n);
  std::vector<std::pair<std::string, Tensor>> destinations;  // alias set -> the eager tensor written
  ScopedTrace trace;
  if (schema.is_mutable() && op.has_meta()) op.meta(*stack);  // the checks of the destinations as they are
  for (size_t i = 0; i < n; ++i) {
    const Argument& a = schema.arguments()[i];
    if (const Tensor* t = cuda_tensor(args[i]); t != nullptr && a.is_write()) {
      // The graph computes the destination's new value from a plain copy
      // (a view would make it scatter into the whole storage, which has
      // no kernel); the value is copied into the destination afterwards.
      destinations.emplace_back(a.alias->set, *t);
      args[i] = IValue((is_whole_storage(*t) ? *t : device_clone(*t)).to_lazy());
      continue;
    }
    map_cuda_tensors(args[i], [](const Tensor& t) { return t.to_lazy(); });
  }
  op.call_boxed(stack);
  const size_t num_returns = schema.returns().size();
  IValue* returns = stack->data() + (stack->size() - num_returns);
  materialize_returns(returns, num_returns);
  for (size_t k = 0; k < num_returns; ++k) {
    const Return& r = schema.returns()[k];
    if (!r.alias || !r.alias->is_write) continue;
    for (auto& [set, eager] : destinations) {
      if (set != r.alias->set) continue;
      copy_kernel(eager, returns[k].to_tensor(), false);
      returns[k] = IValue(eager);
    }
  }
}

// mm, bmm and addmm of floating dtypes go to cuBLAS (integer products run
// on the host: cuBLAS has none).
bool run_matmul(const OperatorHandle& op, Stack* stack) {
  const OpId id = op.id();
  if (id != OpId::mm && id != OpId::bmm && id != OpId::addmm) return false;
  const size_t n = op.schema().arguments().size();
  IValue* args = stack->data() + (stack->size() - n);
  // Undefined operands and other dtypes: the one-op graph's meta function
  // raises the CPU's error, or the host computes integer products.
  const Tensor& first = args[0].to_tensor();
  if (!first.defined() || !cuda::blas::supports(first.dtype())) return false;
  Tensor out;
  if (id == OpId::addmm) {
    out = cuda::addmm(args[0].to_tensor(), args[1].to_tensor(), args[2].to_tensor(), args[3].to_scalar(),
                      args[4].to_scalar());
  } else {
    out = (id == OpId::mm ? cuda::mm : cuda::bmm)(args[0].to_tensor(), args[1].to_tensor());
  }
  stack->resize(stack->size() - n);
  stack->emplace_back(std::move(out));
  return true;
}

void cuda_fallback(const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  const FunctionSchema& schema = op.schema();
  const size_t n = schema.arguments().size();
  IValue* args = stack->data() + (stack->size() - n);
  bool on_device = false;  // a tensor argument lives on a CUDA device
  for (size_t i = 0; i < n; ++i) on_device = on_device || has_cuda_tensor(args[i]);
  LZ_CHECK(on_device || op.entry().device_argument, NotImplementedError, "[", op.name(),
           "] has no kernel for dispatch key CUDA: none of its tensor arguments is on a CUDA device");
  if (op.id() == OpId::copy_) {
    Tensor self = args[0].to_tensor();
    const Tensor src = args[1].to_tensor();
    const bool non_blocking = args[2].to_bool();
    stack->resize(stack->size() - n);
    stack->emplace_back(copy_kernel(self, src, non_blocking));
    return;
  }
  if (op.id() == OpId::fill__Scalar && cuda::can_fill_contiguous(args[0].to_tensor())) {
    Tensor self = args[0].to_tensor();
    const Scalar value = args[1].to_scalar();
    meta::fill_(self, value);
    self.unsafe_get_impl()->prepare_write();
    cuda::fill_contiguous(self, value);
    self.unsafe_get_impl()->version_counter().bump();
    stack->resize(stack->size() - n);
    stack->emplace_back(std::move(self));
    return;
  }
  if (op.id() == OpId::_to_copy) {
    // A new tensor on the target device, filled by copy_ (any direction).
    const auto device = args[3].is_none() ? std::nullopt : std::optional<Device>(args[3].to_device());
    const auto dtype = args[1].is_none() ? std::nullopt : std::optional<ScalarType>(args[1].to_scalar_type());
    const auto format = args[6].is_none() ? std::nullopt : std::optional<MemoryFormat>(args[6].to_memory_format());
    Tensor out = cpu::to_copy(args[0].to_tensor(), dtype, std::nullopt, device, std::nullopt, false, format);
    stack->resize(stack->size() - n);
    stack->emplace_back(std::move(out));
    return;
  }
  if (run_matmul(op, stack)) return;
  if (op.has_tag(Tag::NonTensorResult) || !returns_tensors_only(schema)) return run_on_host(op, stack);
  if (const std::optional<uint16_t> device = op.entry().device_argument; device && !on_device) {
    return run_factory(op, stack, *device);
  }
  // In-place and out= variants: the functional operator (a one-op graph,
  // through this fallback), then resized and copied like any generated variant.
  if (OperatorEntry* functional = op.entry().functional) {
    const OperatorHandle f(functional);
    const KernelFunction variant = functional->inplace_variant == &op.entry()
                                       ? lz::detail::make_generated_inplace(f, DispatchKey::CUDA)
                                       : lz::detail::make_generated_out(f, DispatchKey::CUDA);
    variant.call_boxed(op, DispatchKeySet(DispatchKey::CUDA), stack);
    return;
  }
  // Below the Lazy key (an eager step of a lazy graph, or an operator the
  // lazy layer cannot record) a one-op graph would come straight back here:
  // the operator has no CUDA code. It runs on the host, counted, unless
  // strict mode asks for an error.
  if (tls_local_dispatch_key_set().excluded.has(DispatchKey::Lazy)) {
    LZ_CHECK(!detail::strict(), NotImplementedError, "[", op.name(),
             "] has no CUDA kernel: the code generators cannot lower it and no eager CUDA kernel is registered "
             "(strict mode, LZ_LAZY_STRICT=1; otherwise it runs on the host)");
    return run_on_host(op, stack);
  }
  run_as_graph(op, stack);
}

}  // namespace

LZ_LIBRARY(cuda_backend) {
  lib.fallback(DispatchKey::CUDA, KernelFunction::from_boxed(&cuda_fallback));
}

}  // namespace lz::lazy
