#include "core/dispatcher.h"

#include <sstream>

#include "core/error.h"

namespace lz {

namespace {

bool holds_tensors(const SchemaType& t) { return t.base == BaseType::Tensor; }

}  // namespace

Dispatcher& Dispatcher::singleton() {
  // Leaked: operators may be called from static destructors of user code.
  static Dispatcher* instance = new Dispatcher();
  return *instance;
}

Dispatcher::Dispatcher() {
  // Keys with nothing to do for most operators pass through by default:
  // BackendSelect only matters for factories (which register a kernel for
  // it), Autograd until the autograd layer exists.
  fallbacks_[static_cast<size_t>(DispatchKey::BackendSelect)] = KernelFunction::fallthrough();
  fallbacks_[static_cast<size_t>(DispatchKey::Autograd)] = KernelFunction::fallthrough();
}

RegistrationHandle Dispatcher::register_op(FunctionSchema schema, TagSet tags,
                                           OperatorHandle* out_handle, OpId id) {
  std::lock_guard<std::mutex> lock(mutex_);
  const std::string name = schema.full_name();
  LZ_CHECK(!by_name_.contains(name), SchemaError, "[register] operator '", name,
           "' is already registered");
  if (id != OpId::kNone) {
    LZ_CHECK(op_name(id) == name, SchemaError, "[register] operator '", name, "' registered as the id of '",
             op_name(id), "'");
    LZ_CHECK(by_id_[static_cast<size_t>(id)] == nullptr, SchemaError, "[register] operator '", name,
             "' is already registered");
  }
  auto entry = std::make_unique<OperatorEntry>(std::move(schema));
  entry->id = id;
  entry->tags = tags;
  const auto& args = entry->schema.arguments();
  for (size_t i = 0; i < args.size(); ++i) {
    if (holds_tensors(args[i].type)) entry->tensor_arguments.push_back(static_cast<uint16_t>(i));
    if (args[i].type.base == BaseType::Device && !args[i].type.is_list) {
      entry->device_argument = static_cast<uint16_t>(i);
    }
  }
  OperatorEntry* e = entry.get();
  entries_.push_back(std::move(entry));
  by_name_[name] = e;
  if (id != OpId::kNone) by_id_[static_cast<size_t>(id)] = e;
  update_dispatch_table(*e);
  if (out_handle) *out_handle = OperatorHandle(e);
  return RegistrationHandle([this, e] {
    std::lock_guard<std::mutex> lock(mutex_);
    e->registered = false;
    e->explicit_kernels = {};
    e->generated_kernels = {};
    e->composite = KernelFunction();
    e->meta = BoxedMeta();
    if (auto it = by_name_.find(e->name); it != by_name_.end() && it->second == e) by_name_.erase(it);
    if (e->id != OpId::kNone && by_id_[static_cast<size_t>(e->id)] == e) by_id_[static_cast<size_t>(e->id)] = nullptr;
    for (OperatorEntry* linked : {e->functional, e->inplace_variant, e->out_variant}) {
      if (!linked) continue;
      if (linked->inplace_variant == e) linked->inplace_variant = nullptr;
      if (linked->out_variant == e) linked->out_variant = nullptr;
      if (linked->functional == e) linked->functional = nullptr;
    }
    update_dispatch_table(*e);
  });
}

RegistrationHandle Dispatcher::register_kernel(const OperatorHandle& op, DispatchKey key,
                                               KernelFunction kernel, KernelOrigin origin) {
  LZ_CHECK(key != DispatchKey::Undefined && key != DispatchKey::NumKeys, SchemaError,
           "[register] ", op.name(), ": cannot register a kernel for dispatch key ", key);
  if (const auto& sig = kernel.cpp_signature()) {
    detail::check_signature(op.schema(), *sig, std::string(to_string(key)) + " kernel");
  }
  std::lock_guard<std::mutex> lock(mutex_);
  OperatorEntry& e = op.entry();
  auto& slots = origin == KernelOrigin::Explicit ? e.explicit_kernels : e.generated_kernels;
  const size_t k = static_cast<size_t>(key);
  LZ_CHECK(origin == KernelOrigin::Generated || !slots[k].valid(), SchemaError, "[register] ",
           op.name(), ": a kernel for dispatch key ", key, " is already registered");
  slots[k] = std::move(kernel);
  update_dispatch_table(e);
  return RegistrationHandle([this, &e, &slots, k] {
    std::lock_guard<std::mutex> lock(mutex_);
    slots[k] = KernelFunction();
    update_dispatch_table(e);
  });
}

RegistrationHandle Dispatcher::register_composite(const OperatorHandle& op, KernelFunction kernel) {
  if (const auto& sig = kernel.cpp_signature()) {
    detail::check_signature(op.schema(), *sig, "composite kernel");
  }
  std::lock_guard<std::mutex> lock(mutex_);
  OperatorEntry& e = op.entry();
  LZ_CHECK(!e.composite.valid(), SchemaError, "[register] ", op.name(),
           ": a composite kernel is already registered");
  e.composite = std::move(kernel);
  update_dispatch_table(e);
  return RegistrationHandle([this, &e] {
    std::lock_guard<std::mutex> lock(mutex_);
    e.composite = KernelFunction();
    update_dispatch_table(e);
  });
}

RegistrationHandle Dispatcher::register_fallback(DispatchKey key, KernelFunction kernel) {
  std::lock_guard<std::mutex> lock(mutex_);
  const size_t k = static_cast<size_t>(key);
  KernelFunction previous = std::exchange(fallbacks_[k], std::move(kernel));
  update_all_dispatch_tables();
  auto shared_previous = std::make_shared<KernelFunction>(std::move(previous));
  return RegistrationHandle([this, k, shared_previous] {
    std::lock_guard<std::mutex> lock(mutex_);
    fallbacks_[k] = *shared_previous;
    update_all_dispatch_tables();
  });
}

void Dispatcher::set_meta(const OperatorHandle& op, BoxedMeta meta) {
  std::lock_guard<std::mutex> lock(mutex_);
  op.entry().meta = meta;
}

void Dispatcher::set_tags(const OperatorHandle& op, TagSet tags) {
  std::lock_guard<std::mutex> lock(mutex_);
  op.entry().tags = tags;
}

void Dispatcher::link_variants(const OperatorHandle& functional,
                               std::optional<OperatorHandle> inplace,
                               std::optional<OperatorHandle> out) {
  std::lock_guard<std::mutex> lock(mutex_);
  OperatorEntry& f = functional.entry();
  if (inplace) {
    f.inplace_variant = &inplace->entry();
    inplace->entry().functional = &f;
  }
  if (out) {
    f.out_variant = &out->entry();
    out->entry().functional = &f;
  }
}

std::optional<OperatorHandle> Dispatcher::find(std::string_view full_name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  // Debian's abseil has its own string_view type; convert for the lookup.
  auto it = by_name_.find(absl::string_view(full_name.data(), full_name.size()));
  if (it == by_name_.end()) return std::nullopt;
  return OperatorHandle(it->second);
}

OperatorHandle Dispatcher::find(OpId id) const {
  LZ_INTERNAL_ASSERT(id != OpId::kNone, "Dispatcher::find of an undeclared operator");
  std::lock_guard<std::mutex> lock(mutex_);
  OperatorEntry* e = by_id_[static_cast<size_t>(id)];
  LZ_INTERNAL_ASSERT(e != nullptr, "operator ", op_name(id), " is declared but not registered");
  return OperatorHandle(e);
}

OperatorHandle Dispatcher::find_or_throw(std::string_view full_name) const {
  std::optional<OperatorHandle> op = find(full_name);
  LZ_CHECK(op, NotImplementedError, "[dispatcher] operator '", full_name,
           "' is not registered (is the library that defines it linked?)");
  return *op;
}

std::vector<OperatorHandle> Dispatcher::all_operators() const {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<OperatorHandle> ops;
  for (const auto& e : entries_) {
    if (e->registered) ops.emplace_back(e.get());
  }
  return ops;
}

void Dispatcher::update_dispatch_table(OperatorEntry& e) {
  DispatchKeySet mask;
  for (int k = 1; k < kNumDispatchKeys; ++k) {
    KernelFunction resolved;
    if (e.explicit_kernels[k].valid()) {
      resolved = e.explicit_kernels[k];
    } else if (e.generated_kernels[k].valid()) {
      resolved = e.generated_kernels[k];
    } else if (e.composite.valid()) {
      resolved = e.composite;
    } else {
      resolved = fallbacks_[k];
    }
    // A key without any kernel stays in the mask so that reaching it reports
    // "no kernel" instead of silently running a lower key.
    if (!resolved.is_fallthrough()) mask = mask.add(static_cast<DispatchKey>(k));
    e.dispatch_table[k] = std::move(resolved);
  }
  e.dispatch_mask = mask;
}

void Dispatcher::update_all_dispatch_tables() {
  for (auto& e : entries_) update_dispatch_table(*e);
}

// ---- OperatorHandle ----------------------------------------------------------

MetaList OperatorHandle::meta(const Stack& stack) const {
  LZ_CHECK(has_meta(), NotImplementedError, "[", name(), "] has no meta function");
  const size_t n = schema().arguments().size();
  LZ_CHECK(stack.size() >= n, ValueError, "[", name(), "] meta: expected ", n,
           " arguments on the stack, got ", stack.size());
  return entry_->meta.fn(entry_->meta.functor, stack.data() + (stack.size() - n));
}

bool OperatorHandle::has_kernel(DispatchKey k) const {
  const KernelFunction& f = entry_->dispatch_table[static_cast<size_t>(k)];
  return f.valid() && !f.is_fallthrough();
}

DispatchKey OperatorHandle::dispatch_key_for(DispatchKeySet argument_keys) const {
  return detail::effective_key_set(*entry_, argument_keys).highest();
}

namespace {

DispatchKeySet stack_keys(const OperatorEntry& e, const Stack& stack) {
  const size_t n = e.schema.arguments().size();
  LZ_CHECK(stack.size() >= n, ValueError, "[", e.name, "] boxed call: expected ", n,
           " arguments on the stack, got ", stack.size());
  const IValue* args = stack.data() + (stack.size() - n);
  DispatchKeySet ks;
  for (uint16_t i : e.tensor_arguments) {
    const IValue& v = args[i];
    switch (v.tag()) {
      case IValue::Tag::Tensor: ks = ks | detail::keys_of(v.to_tensor()); break;
      case IValue::Tag::TensorList: ks = ks | detail::keys_of(v.to_tensor_list()); break;
      case IValue::Tag::OptionalTensorList: ks = ks | detail::keys_of(v.to_optional_tensor_list()); break;
      default: break;  // None for an absent Tensor?
    }
  }
  return ks;
}

}  // namespace

void OperatorHandle::call_boxed(Stack* stack) const {
  const DispatchKeySet argument_keys = stack_keys(*entry_, *stack);
  const DispatchKeySet ks = detail::effective_key_set(*entry_, argument_keys);
  detail::lookup_kernel(*entry_, ks, argument_keys).call_boxed(*this, ks, stack);
}

void OperatorHandle::redispatch_boxed(DispatchKeySet ks, Stack* stack) const {
  const DispatchKeySet masked = ks & entry_->dispatch_mask;
  detail::lookup_kernel(*entry_, masked, ks).call_boxed(*this, masked, stack);
}

std::string OperatorHandle::dump_dispatch_table() const {
  std::ostringstream os;
  os << name() << " " << tags() << "\n";
  for (int k = kNumDispatchKeys - 1; k > 0; --k) {
    const KernelFunction& f = entry_->dispatch_table[k];
    os << "  " << static_cast<DispatchKey>(k) << ": ";
    if (!f.valid()) {
      os << "(none)";
    } else if (f.is_fallthrough()) {
      os << "fallthrough";
    } else if (entry_->explicit_kernels[k].valid()) {
      os << "kernel";
    } else if (entry_->generated_kernels[k].valid()) {
      os << "generated kernel";
    } else if (entry_->composite.valid()) {
      os << "composite";
    } else {
      os << "backend fallback";
    }
    os << (f.has_unboxed() ? " [unboxed]" : "") << "\n";
  }
  return os.str();
}

namespace detail {

void report_missing_kernel(const OperatorEntry& e, DispatchKeySet ks, DispatchKeySet argument_keys) {
  if (!e.registered) {
    LZ_FAIL(NotImplementedError, "[", e.name, "] this operator has been deregistered");
  }
  // Tensor arguments that carry no keys at all are undefined (default-constructed),
  // or a list of them is empty: nothing says which kernel to run.
  if (ks.empty() && argument_keys.empty() && !e.tensor_arguments.empty()) {
    const Argument& first = e.schema.arguments()[e.tensor_arguments[0]];
    if (first.type.is_list) {
      LZ_FAIL(ValueError, "[", e.name, "] ", first.name,
              ": expected a non-empty list of defined tensors, got none to dispatch on");
    }
    LZ_FAIL(ValueError, "[", e.name, "] ", first.name,
            ": expected a defined tensor, got an undefined one (default-constructed lz::Tensor)");
  }
  std::ostringstream available;
  bool first = true;
  for (int k = kNumDispatchKeys - 1; k > 0; --k) {
    const KernelFunction& f = e.dispatch_table[k];
    if (!f.valid() || f.is_fallthrough()) continue;
    available << (first ? "" : ", ") << static_cast<DispatchKey>(k);
    first = false;
  }
  if (ks.empty()) {
    LZ_FAIL(NotImplementedError, "[", e.name,
            "] no dispatch key to run: every key of the call (", argument_keys,
            ") was excluded; kernels exist for: {",
            available.str(), "}");
  }
  LZ_FAIL(NotImplementedError, "[", e.name, "] has no kernel for dispatch key ", ks.highest(),
          " (call keys ", ks, "); kernels exist for: {", available.str(), "}");
}

void check_call_signature(const OperatorEntry& e, const CppSignature& sig) {
  check_signature(e.schema, sig, "call site");
}

}  // namespace detail

}  // namespace lz
