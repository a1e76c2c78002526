// KernelFunction: one entry of an operator's dispatch table. It always has a
// boxed form (operating on a Stack) and may have an unboxed form (a typed C++
// function pointer). Unboxed callers use the unboxed form when the signatures
// match and box otherwise; boxed callers always have the boxed form, which
// for an unboxed kernel is a generated wrapper that unboxes the stack.
#pragma once

#include <functional>
#include <memory>

#include "core/boxing.h"
#include "core/dispatch_key_set.h"
#include "core/ivalue.h"

namespace lz {

class OperatorHandle;

// A boxed kernel as users write it: `void(const OperatorHandle&, Stack*)`, or
// with the dispatch key set of the call for redispatching below itself.
using BoxedKernelFn = void (*)(const OperatorHandle&, Stack*);
using BoxedKernelWithKeysFn = void (*)(const OperatorHandle&, DispatchKeySet, Stack*);
using BoxedKernelFunctor = std::function<void(const OperatorHandle&, DispatchKeySet, Stack*)>;

namespace detail {
// A unique address per C++ function type: an unboxed kernel is only called
// directly by a call site with exactly the same signature.
template <class Sig>
const void* signature_tag() {
  static const char tag = 0;
  return &tag;
}
}  // namespace detail

class KernelFunction {
 public:
  using BoxedTrampoline = void (*)(const void* functor, const OperatorHandle&, DispatchKeySet,
                                   Stack*);

  KernelFunction() = default;  // "no kernel"

  // A kernel that is never called: dispatch skips its key (via the operator's
  // dispatch mask) and continues with the next key down.
  static KernelFunction fallthrough();
  static KernelFunction from_boxed(BoxedKernelFn fn);
  static KernelFunction from_boxed(BoxedKernelWithKeysFn fn);
  static KernelFunction from_boxed_functor(BoxedKernelFunctor fn);
  template <class R, class... Args>
  static KernelFunction from_unboxed(R (*fn)(Args...));

  bool valid() const { return boxed_ != nullptr || fallthrough_; }
  bool is_fallthrough() const { return fallthrough_; }
  bool has_unboxed() const { return unboxed_ != nullptr; }
  // detail::signature_tag of the unboxed kernel's C++ type (null if boxed).
  const void* unboxed_signature() const { return unboxed_signature_; }
  // For unboxed kernels, the C++ signature (checked against the schema).
  const std::optional<detail::CppSignature>& cpp_signature() const { return cpp_signature_; }

  void call_boxed(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) const {
    boxed_(functor_, op, ks, stack);
  }

  template <class R, class... Args>
  R call(const OperatorHandle& op, DispatchKeySet ks, Args&&... args) const;

 private:
  BoxedTrampoline boxed_ = nullptr;
  const void* functor_ = nullptr;  // what the trampoline calls
  void* unboxed_ = nullptr;
  const void* unboxed_signature_ = nullptr;
  std::shared_ptr<const void> owned_functor_;  // keeps a stateful functor alive
  std::optional<detail::CppSignature> cpp_signature_;
  bool fallthrough_ = false;
};

namespace detail {

// The stack of a typed call that reaches a boxed kernel: one per thread and
// nesting depth, reused, so such calls (every operator on a lazy tensor)
// allocate no stack. Cleared when the lease ends.
class StackLease {
 public:
  StackLease();
  ~StackLease();
  StackLease(const StackLease&) = delete;
  StackLease& operator=(const StackLease&) = delete;
  Stack& stack() { return *stack_; }

 private:
  Stack* stack_;
};

template <class R, class... Args>
void boxed_from_unboxed(const void* functor, const OperatorHandle&, DispatchKeySet, Stack* stack) {
  auto fn = reinterpret_cast<R (*)(Args...)>(const_cast<void*>(functor));
  constexpr size_t n = sizeof...(Args);
  LZ_INTERNAL_ASSERT(stack->size() >= n, "boxed call with ", stack->size(),
                     " stack values, kernel takes ", n);
  const IValue* args = stack->data() + (stack->size() - n);
  if constexpr (std::is_void_v<R>) {
    call_with_ivalues(fn, args);
    stack->resize(stack->size() - n);
  } else {
    R result = call_with_ivalues(fn, args);
    stack->resize(stack->size() - n);
    push_result(stack, std::move(result));
  }
}

}  // namespace detail

template <class R, class... Args>
KernelFunction KernelFunction::from_unboxed(R (*fn)(Args...)) {
  KernelFunction k;
  k.functor_ = reinterpret_cast<const void*>(fn);
  k.boxed_ = &detail::boxed_from_unboxed<R, Args...>;
  k.unboxed_ = reinterpret_cast<void*>(fn);
  k.unboxed_signature_ = detail::signature_tag<R(Args...)>();
  k.cpp_signature_ = detail::cpp_signature_of(fn);
  return k;
}

template <class R, class... Args>
R KernelFunction::call(const OperatorHandle& op, DispatchKeySet ks, Args&&... args) const {
  if (unboxed_signature_ == detail::signature_tag<R(Args...)>()) [[likely]] {
    return reinterpret_cast<R (*)(Args...)>(unboxed_)(std::forward<Args>(args)...);
  }
  detail::StackLease lease;
  Stack& stack = lease.stack();
  (stack.emplace_back(std::forward<Args>(args)), ...);
  boxed_(functor_, op, ks, &stack);
  return detail::pop_result<R>(&stack);
}

}  // namespace lz
