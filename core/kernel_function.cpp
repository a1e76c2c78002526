#include "core/kernel_function.h"

namespace lz {

namespace {

void call_plain_boxed(const void* functor, const OperatorHandle& op, DispatchKeySet, Stack* stack) {
  reinterpret_cast<BoxedKernelFn>(const_cast<void*>(functor))(op, stack);
}

void call_boxed_with_keys(const void* functor, const OperatorHandle& op, DispatchKeySet ks,
                          Stack* stack) {
  reinterpret_cast<BoxedKernelWithKeysFn>(const_cast<void*>(functor))(op, ks, stack);
}

void call_boxed_functor(const void* functor, const OperatorHandle& op, DispatchKeySet ks,
                        Stack* stack) {
  (*static_cast<const BoxedKernelFunctor*>(functor))(op, ks, stack);
}

struct StackPool {
  std::vector<std::unique_ptr<Stack>> stacks;  // by depth; pointers stay valid as it grows
  size_t depth = 0;
};

thread_local StackPool stack_pool;

}  // namespace

namespace detail {

StackLease::StackLease() {
  StackPool& pool = stack_pool;
  if (pool.depth == pool.stacks.size()) pool.stacks.push_back(std::make_unique<Stack>());
  stack_ = pool.stacks[pool.depth++].get();
}

StackLease::~StackLease() {
  // Clear first: destroying the values may run a nested call at this depth + 1.
  stack_->clear();
  --stack_pool.depth;
}

}  // namespace detail

KernelFunction KernelFunction::fallthrough() {
  KernelFunction k;
  k.fallthrough_ = true;
  return k;
}

KernelFunction KernelFunction::from_boxed(BoxedKernelFn fn) {
  KernelFunction k;
  k.functor_ = reinterpret_cast<const void*>(fn);
  k.boxed_ = &call_plain_boxed;
  return k;
}

KernelFunction KernelFunction::from_boxed(BoxedKernelWithKeysFn fn) {
  KernelFunction k;
  k.functor_ = reinterpret_cast<const void*>(fn);
  k.boxed_ = &call_boxed_with_keys;
  return k;
}

KernelFunction KernelFunction::from_boxed_functor(BoxedKernelFunctor fn) {
  KernelFunction k;
  auto owned = std::make_shared<const BoxedKernelFunctor>(std::move(fn));
  k.functor_ = owned.get();
  k.owned_functor_ = std::move(owned);
  k.boxed_ = &call_boxed_functor;
  return k;
}

}  // namespace lz
