// OperatorEntry: everything the dispatcher knows about one operator: what
// it is (OperatorInfo: schema, id, name, tags), its meta function, the
// kernels registered per dispatch key, and the resolved dispatch table with
// its fallthrough mask. Owned by the Dispatcher; reached through
// OperatorHandle.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "core/dispatch_key_set.h"
#include "core/ivalue.h"
#include "core/kernel_function.h"
#include "core/operator_info.h"
#include "core/tensor_meta.h"

namespace lz {

// A meta function in boxed form: computes output metas from the first
// `arity` arguments (in-place and out= variants share their functional
// operator's meta function and pass it fewer arguments).
struct BoxedMeta {
  using Fn = MetaList (*)(const void* functor, const IValue* args);
  Fn fn = nullptr;
  const void* functor = nullptr;
  size_t arity = 0;
  explicit operator bool() const { return fn != nullptr; }
};

// Where a kernel in a slot came from. A resolved slot prefers an explicit
// registration over a generated one (an in-place wrapper made from the
// functional kernel), whatever the order of registration.
enum class KernelOrigin : uint8_t { Explicit, Generated };

struct OperatorEntry : OperatorInfo {
  explicit OperatorEntry(FunctionSchema s) : OperatorInfo(std::move(s)) {}

  BoxedMeta meta;

  std::array<KernelFunction, kNumDispatchKeys> explicit_kernels;
  std::array<KernelFunction, kNumDispatchKeys> generated_kernels;
  KernelFunction composite;  // serves every key without its own kernel

  // Resolved by the Dispatcher after every registration change:
  //   own kernel (explicit, then generated) > composite > backend fallback.
  std::array<KernelFunction, kNumDispatchKeys> dispatch_table;
  // Keys whose resolved kernel is not a fallthrough; a call's key set is
  // intersected with this, so fallthrough kernels are skipped, never called.
  DispatchKeySet dispatch_mask;

  // Positions of Tensor, Tensor? and Tensor[] arguments (boxed key extraction).
  std::vector<uint16_t> tensor_arguments;
  // Factory functions: the argument that names the device (BackendSelect reads it).
  std::optional<uint16_t> device_argument;

  // Derived variants and their functional source.
  OperatorEntry* functional = nullptr;
  OperatorEntry* inplace_variant = nullptr;
  OperatorEntry* out_variant = nullptr;
};

}  // namespace lz
