// Operator registration: the meta function and kernels of each operator
// core/operators.def declares (its schema, tags and in-place/out= variants
// come from there), one statement per operator.
//
//   LZ_LIBRARY(binary_ops) {
//     lib.def_structured<&meta::add>(OpId::add_Tensor).impl<&cpu::add_impl>(DispatchKey::CPU);
//   }
//
// def_structured registers add.Tensor and its declared variants add_.Tensor
// and add.out, with typed functional/in-place/out= kernels generated from
// meta + impl. def() with a plain functional kernel gets boxed in-place/out=
// wrappers instead. A kernel registered explicitly for a variant
// (lib.impl(OpId::add__Tensor, ...)) always wins over a generated one.
// Tests register operators of their own from schema text (def(schema, variants)).
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "core/dispatcher.h"
#include "core/structured.h"

namespace lz {

enum class Variants : uint8_t { Functional = 0, Inplace = 1, Out = 2, InplaceAndOut = 3 };
inline bool has_variant(Variants v, Variants which) {
  return (static_cast<uint8_t>(v) & static_cast<uint8_t>(which)) != 0;
}

// The schemas of derived variants: add.Tensor -> add_.Tensor / add.out.
FunctionSchema make_inplace_schema(const FunctionSchema& functional);
FunctionSchema make_out_schema(const FunctionSchema& functional);

namespace detail {

template <class R, class... Args>
MetaList call_boxed_meta(const void* functor, const IValue* args) {
  auto fn = reinterpret_cast<R (*)(Args...)>(const_cast<void*>(functor));
  if constexpr (std::is_same_v<R, MetaList>) {
    return call_with_ivalues(fn, args);
  } else {
    static_assert(std::is_same_v<R, TensorMeta>, "meta functions return TensorMeta or MetaList");
    return MetaList{call_with_ivalues(fn, args)};
  }
}

template <class R, class... Args>
BoxedMeta make_boxed_meta(R (*fn)(Args...)) {
  return BoxedMeta{&call_boxed_meta<R, Args...>, reinterpret_cast<const void*>(fn),
                   sizeof...(Args)};
}

// Boxed in-place / out= kernels for `key`, made from the functional
// operator's kernel at the same key.
KernelFunction make_generated_inplace(const OperatorHandle& functional, DispatchKey key);
KernelFunction make_generated_out(const OperatorHandle& functional, DispatchKey key);
// The in-place variant of a composite operator: the functional operator and
// copy_, both dispatched from the top, so autograd and the lazy trace see them.
KernelFunction make_composite_inplace(const OperatorHandle& functional);

// The BackendSelect kernel shared by every factory operator.
KernelFunction backend_select_kernel();

}  // namespace detail

class Library;

class OpBuilder {
 public:
  OpBuilder(Library* lib, OperatorHandle op, std::optional<OperatorHandle> inplace,
            std::optional<OperatorHandle> out)
      : lib_(lib), op_(op), inplace_(inplace), out_(out) {}

  // Adds tags (to the variants too). Factory also installs
  // the BackendSelect kernel, which needs a `Device? device` argument.
  OpBuilder& tags(TagSet tags);

  template <class R, class... Args>
  OpBuilder& meta(R (*fn)(Args...)) {
    detail::check_leading_arguments(op_.schema(), detail::cpp_arguments_of(fn), "meta function");
    set_meta(detail::make_boxed_meta(fn));
    return *this;
  }

  // The functional kernel for one or more keys; variants get boxed wrappers.
  template <class R, class... Args>
  OpBuilder& kernel(std::initializer_list<DispatchKey> keys, R (*fn)(Args...)) {
    for (DispatchKey key : keys) add_functional_kernel(key, KernelFunction::from_unboxed(fn));
    return *this;
  }
  template <class R, class... Args>
  OpBuilder& kernel(DispatchKey key, R (*fn)(Args...)) {
    return kernel({key}, fn);
  }
  OpBuilder& boxed_kernel(DispatchKey key, KernelFunction k) {
    add_functional_kernel(key, std::move(k));
    return *this;
  }

  // A kernel that serves every dispatch key without a kernel of its own, and
  // beats backend fallbacks: the Lazy key sees the operators it calls. A
  // declared in-place variant becomes the functional and copy_ (an out=
  // variant needs kernels: resizing `out` is not an operator lazy mode traces).
  template <class R, class... Args>
  OpBuilder& composite(R (*fn)(Args...)) {
    add_composite(KernelFunction::from_unboxed(fn));
    return *this;
  }

  const OperatorHandle& handle() const { return op_; }

 protected:
  void set_meta(BoxedMeta meta);
  void add_functional_kernel(DispatchKey key, KernelFunction k);
  void add_composite(KernelFunction k);
  void add_generated(const std::optional<OperatorHandle>& variant, DispatchKey key,
                     KernelFunction k);

  Library* lib_;
  OperatorHandle op_;
  std::optional<OperatorHandle> inplace_;
  std::optional<OperatorHandle> out_;
};

template <auto Meta>
class StructuredOpBuilder : public OpBuilder {
 public:
  using OpBuilder::OpBuilder;

  StructuredOpBuilder& tags(TagSet t) {
    OpBuilder::tags(t);
    return *this;
  }

  // Registers the typed functional kernel and the generated in-place/out=
  // kernels for each key.
  template <auto Impl>
  StructuredOpBuilder& impl(std::initializer_list<DispatchKey> keys) {
    using S = detail::Structured<Meta, Impl>;
    if (inplace_) S::inplace_name = inplace_->name();
    if (out_) S::out_name = out_->name();
    for (DispatchKey key : keys) {
      register_explicit(op_, key, KernelFunction::from_unboxed(&S::functional));
      if constexpr (S::kHasInplace) {
        if (inplace_) add_generated(inplace_, key, KernelFunction::from_unboxed(&S::inplace));
      }
      if (out_) add_generated(out_, key, KernelFunction::from_unboxed(&S::out));
    }
    return *this;
  }
  template <auto Impl>
  StructuredOpBuilder& impl(DispatchKey key) {
    return impl<Impl>({key});
  }

 private:
  void register_explicit(const OperatorHandle& op, DispatchKey key, KernelFunction k);
};

class Library {
 public:
  // `name` appears in registration errors.
  explicit Library(std::string name) : name_(std::move(name)) {}
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;
  // Deregisters everything this library registered, newest first.
  ~Library();

  // A declared operator, with its declared variants.
  OpBuilder def(OpId id);
  template <auto Meta>
  StructuredOpBuilder<Meta> def_structured(OpId id) {
    return structured<Meta>(define(id));
  }
  // An operator of the caller's own (tests), from schema text.
  OpBuilder def(std::string_view schema, Variants variants = Variants::Functional);
  template <auto Meta>
  StructuredOpBuilder<Meta> def_structured(std::string_view schema,
                                           Variants variants = Variants::InplaceAndOut) {
    return structured<Meta>(define(schema, variants));
  }

  // An explicit kernel for an existing operator (e.g. a hand-written add_).
  template <class R, class... Args>
  Library& impl(OpId op, DispatchKey key, R (*fn)(Args...)) {
    return impl_kernel(Dispatcher::singleton().find(op), key, KernelFunction::from_unboxed(fn));
  }
  template <class R, class... Args>
  Library& impl(std::string_view op, DispatchKey key, R (*fn)(Args...)) {
    return impl_kernel(Dispatcher::singleton().find_or_throw(op), key, KernelFunction::from_unboxed(fn));
  }
  Library& impl_kernel(const OperatorHandle& op, DispatchKey key, KernelFunction k);
  Library& impl_kernel(std::string_view op, DispatchKey key, KernelFunction k) {
    return impl_kernel(Dispatcher::singleton().find_or_throw(op), key, std::move(k));
  }
  // The kernel for `key` of every operator without its own.
  Library& fallback(DispatchKey key, KernelFunction k);

  // Keeps every registration for the life of the process.
  void keep_forever();
  const std::string& name() const { return name_; }

 private:
  friend class OpBuilder;
  template <auto>
  friend class StructuredOpBuilder;

  struct Defined {
    OperatorHandle op;
    std::optional<OperatorHandle> inplace;
    std::optional<OperatorHandle> out;
  };
  Defined define(OpId id);
  Defined define(std::string_view schema, Variants variants);
  template <auto Meta>
  StructuredOpBuilder<Meta> structured(const Defined& d) {
    StructuredOpBuilder<Meta> builder(this, d.op, d.inplace, d.out);
    builder.meta(Meta);
    return builder;
  }
  // Installs the BackendSelect kernel of a factory operator.
  void add_backend_select(const OperatorHandle& op);
  void keep(RegistrationHandle h) { handles_.push_back(std::move(h)); }

  std::string name_;
  std::vector<RegistrationHandle> handles_;
};

template <auto Meta>
void StructuredOpBuilder<Meta>::register_explicit(const OperatorHandle& op, DispatchKey key,
                                                  KernelFunction k) {
  lib_->keep(Dispatcher::singleton().register_kernel(op, key, std::move(k)));
}

namespace detail {
// Runs a library's registration function at start-up and keeps it forever.
// A registration error is a bug in Lazuli: it is printed and the process aborts.
struct StaticLibraryInit {
  StaticLibraryInit(const char* name, void (*init)(Library&));
};
}  // namespace detail

}  // namespace lz

#define LZ_LIBRARY(name)                                                           \
  static void lz_library_init_##name(::lz::Library& lib);                          \
  static const ::lz::detail::StaticLibraryInit lz_library_registrar_##name(        \
      #name, &lz_library_init_##name);                                             \
  static void lz_library_init_##name(::lz::Library& lib)
