// OperatorHandle: how callers and kernels refer to an operator. It exposes
// the parsed schema and tags (boxed fallbacks read them), runs the meta
// function, and calls or redispatches the operator boxed or unboxed.
#pragma once

#include <optional>
#include <string>

#include "core/local_dispatch_key_set.h"
#include "core/operator_entry.h"

namespace lz {

template <class Sig>
class TypedOperatorHandle;

class OperatorHandle {
 public:
  explicit OperatorHandle(OperatorEntry* entry) : entry_(entry) {}

  const FunctionSchema& schema() const { return entry_->schema; }
  // "add.Tensor"
  const std::string& name() const { return entry_->name; }
  // Its declaration in core/operators.def (kNone: an operator a test defines).
  OpId id() const { return entry_->id; }
  TagSet tags() const { return entry_->tags; }
  bool has_tag(Tag t) const { return entry_->tags.has(t); }

  bool has_meta() const { return static_cast<bool>(entry_->meta); }
  // Whether a composite kernel (a decomposition into other operators) is registered.
  bool has_composite() const { return entry_->composite.valid(); }
  // Runs the meta function on a full argument list (the last
  // schema().arguments().size() values of `stack`): output sizes, dtypes,
  // devices, raising the operator's shape/dtype errors. Stack unchanged.
  MetaList meta(const Stack& stack) const;

  // Whether the resolved table has a real (not fallthrough) kernel for k.
  bool has_kernel(DispatchKey k) const;
  DispatchKeySet dispatch_mask() const { return entry_->dispatch_mask; }
  // The key a call whose tensors carry `argument_keys` would run on this
  // thread (thread-local include/exclude applied).
  DispatchKey dispatch_key_for(DispatchKeySet argument_keys) const;

  // Boxed call: arguments on the stack, replaced by the returns.
  void call_boxed(Stack* stack) const;
  // Boxed call with a precomputed key set (a kernel passes its own key set
  // minus its key and above: DispatchKeySet::below(k) & ks).
  void redispatch_boxed(DispatchKeySet ks, Stack* stack) const;

  // A typed view; SchemaError if Sig does not match the schema.
  template <class Sig>
  TypedOperatorHandle<Sig> typed() const;

  // Variants derived from a functional operator, and back.
  std::optional<OperatorHandle> functional_variant() const { return wrap(entry_->functional); }
  std::optional<OperatorHandle> inplace_variant() const { return wrap(entry_->inplace_variant); }
  std::optional<OperatorHandle> out_variant() const { return wrap(entry_->out_variant); }

  // One line per dispatch key: what runs there and where it came from.
  std::string dump_dispatch_table() const;

  OperatorEntry& entry() const { return *entry_; }
  friend bool operator==(const OperatorHandle& a, const OperatorHandle& b) {
    return a.entry_ == b.entry_;
  }

 protected:
  static std::optional<OperatorHandle> wrap(OperatorEntry* e) {
    return e ? std::optional<OperatorHandle>(OperatorHandle(e)) : std::nullopt;
  }
  OperatorEntry* entry_;
};

namespace detail {

// Cold path of lookup_kernel: explains why nothing can run.
[[noreturn]] void report_missing_kernel(const OperatorEntry& e, DispatchKeySet ks,
                                        DispatchKeySet argument_keys);

inline DispatchKeySet effective_key_set(const OperatorEntry& e, DispatchKeySet argument_keys) {
  const LocalDispatchKeySet& tls = tls_local_dispatch_key_set();
  return ((argument_keys | DispatchKeySet(DispatchKey::BackendSelect) | tls.included) -
          tls.excluded) &
         e.dispatch_mask;
}

inline const KernelFunction& lookup_kernel(const OperatorEntry& e, DispatchKeySet ks,
                                           DispatchKeySet argument_keys) {
  const KernelFunction& k = e.dispatch_table[static_cast<size_t>(ks.highest())];
  if (!k.valid()) [[unlikely]] report_missing_kernel(e, ks, argument_keys);
  return k;
}

inline DispatchKeySet keys_of(const Tensor& t) {
  return t.defined() ? t.key_set() : DispatchKeySet();
}
inline DispatchKeySet keys_of(const std::optional<Tensor>& t) {
  return t ? keys_of(*t) : DispatchKeySet();
}
inline DispatchKeySet keys_of(TensorList list) {
  DispatchKeySet ks;
  for (const Tensor& t : list) ks = ks | keys_of(t);
  return ks;
}
inline DispatchKeySet keys_of(const std::vector<Tensor>& list) { return keys_of(TensorList(list)); }
inline DispatchKeySet keys_of(const std::vector<std::optional<Tensor>>& list) {
  DispatchKeySet ks;
  for (const auto& t : list) ks = ks | keys_of(t);
  return ks;
}
template <class T>
DispatchKeySet keys_of(const T&) {
  return DispatchKeySet();
}

void check_call_signature(const OperatorEntry& e, const CppSignature& sig);

}  // namespace detail

template <class R, class... Args>
class TypedOperatorHandle<R(Args...)> : public OperatorHandle {
 public:
  explicit TypedOperatorHandle(const OperatorHandle& op) : OperatorHandle(op) {}

  R call(Args... args) const {
    const DispatchKeySet argument_keys = (DispatchKeySet() | ... | detail::keys_of(args));
    const DispatchKeySet ks = detail::effective_key_set(*entry_, argument_keys);
    return detail::lookup_kernel(*entry_, ks, argument_keys)
        .template call<R, Args...>(*this, ks, std::forward<Args>(args)...);
  }

  R redispatch(DispatchKeySet ks, Args... args) const {
    const DispatchKeySet masked = ks & entry_->dispatch_mask;
    return detail::lookup_kernel(*entry_, masked, ks)
        .template call<R, Args...>(*this, masked, std::forward<Args>(args)...);
  }
};

template <class Sig>
TypedOperatorHandle<Sig> OperatorHandle::typed() const {
  static_assert(std::is_function_v<Sig>, "typed<R(Args...)>()");
  detail::check_call_signature(*entry_, detail::cpp_signature_of(static_cast<Sig*>(nullptr)));
  return TypedOperatorHandle<Sig>(*this);
}

}  // namespace lz
