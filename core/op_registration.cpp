#include "core/op_registration.h"

#include <cstdio>
#include <cstdlib>

#include "core/error.h"
#include "core/schema_parser.h"

namespace lz {

// ---- Derived schemas -----------------------------------------------------------

namespace {

void check_single_tensor_return(const FunctionSchema& f, std::string_view variant) {
  LZ_CHECK(!f.returns().empty() && f.returns()[0].type == SchemaType{}, SchemaError,
           "[register] ", f.full_name(), ": an ", variant,
           " variant needs Tensor returns, schema is ", f.str());
}

}  // namespace

FunctionSchema make_inplace_schema(const FunctionSchema& f) {
  check_single_tensor_return(f, "in-place");
  LZ_CHECK(f.returns().size() == 1, SchemaError, "[register] ", f.full_name(),
           ": an in-place variant needs exactly one return, schema is ", f.str());
  std::vector<Argument> args = f.arguments();
  LZ_CHECK(!args.empty() && args[0].type == SchemaType{} && !args[0].kwarg_only && !args[0].alias,
           SchemaError, "[register] ", f.full_name(),
           ": an in-place variant needs a plain 'Tensor self' first argument, schema is ", f.str());
  args[0].alias = AliasInfo{"a", true};
  Return ret;
  ret.type = SchemaType{};
  ret.alias = AliasInfo{"a", true};
  return FunctionSchema(f.name() + "_", f.overload_name(), std::move(args), {ret});
}

FunctionSchema make_out_schema(const FunctionSchema& f) {
  check_single_tensor_return(f, "out=");
  std::vector<Argument> args = f.arguments();
  std::vector<Return> returns;
  const size_t n = f.returns().size();
  for (size_t i = 0; i < n; ++i) {
    LZ_CHECK(f.returns()[i].type == SchemaType{}, SchemaError, "[register] ", f.full_name(),
             ": an out= variant needs Tensor returns, schema is ", f.str());
    Argument out;
    out.name = n == 1 ? "out" : (f.returns()[i].name.empty() ? "out" + std::to_string(i)
                                                             : f.returns()[i].name);
    out.alias = AliasInfo{std::string(1, static_cast<char>('a' + i)), true};
    out.kwarg_only = true;
    Return ret;
    ret.name = n == 1 ? "" : out.name;
    ret.alias = out.alias;
    returns.push_back(ret);
    args.push_back(std::move(out));
  }
  const std::string& overload = f.overload_name();
  std::string out_overload =
      overload.empty() || overload == "Tensor" ? "out" : overload + "_out";
  return FunctionSchema(f.name(), std::move(out_overload), std::move(args), std::move(returns));
}

// ---- Generated kernels ---------------------------------------------------------

namespace detail {

namespace {

// Calls the functional operator's own kernel for `key` on the stack.
void call_functional_at(const OperatorHandle& functional, DispatchKey key, DispatchKeySet ks,
                        Stack* stack) {
  const KernelFunction& k = functional.entry().dispatch_table[static_cast<size_t>(key)];
  LZ_INTERNAL_ASSERT(k.valid() && !k.is_fallthrough(), functional.name(), " has no ", key,
                     " kernel for its generated variant");
  k.call_boxed(functional, ks, stack);
}

}  // namespace

KernelFunction make_generated_inplace(const OperatorHandle& functional, DispatchKey key) {
  return KernelFunction::from_boxed_functor(
      [functional, key](const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
        const size_t n = functional.schema().arguments().size();
        Tensor self = (*stack)[stack->size() - n].to_tensor();
        call_functional_at(functional, key, ks, stack);
        Tensor result = std::move(stack->back()).to_tensor();
        stack->pop_back();
        check_inplace_result(op.name(), self, meta_of(result));
        copy_into(self, result);
        stack->emplace_back(std::move(self));
      });
}

KernelFunction make_generated_out(const OperatorHandle& functional, DispatchKey key) {
  return KernelFunction::from_boxed_functor(
      [functional, key](const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
        const size_t n_out = functional.schema().returns().size();
        std::vector<Tensor> outs;
        for (size_t i = 0; i < n_out; ++i) {
          outs.push_back((*stack)[stack->size() - n_out + i].to_tensor());
        }
        stack->resize(stack->size() - n_out);
        call_functional_at(functional, key, ks, stack);
        for (size_t i = 0; i < n_out; ++i) {
          const Tensor& result = (*stack)[stack->size() - n_out + i].to_tensor();
          prepare_out(op.name(), outs[i], meta_of(result));
          copy_into(outs[i], result);
        }
        stack->resize(stack->size() - n_out);
        for (Tensor& out : outs) stack->emplace_back(std::move(out));
      });
}

KernelFunction make_composite_inplace(const OperatorHandle& functional) {
  return KernelFunction::from_boxed_functor(
      [functional](const OperatorHandle& op, DispatchKeySet, Stack* stack) {
        const size_t n = functional.schema().arguments().size();
        Tensor self = (*stack)[stack->size() - n].to_tensor();
        functional.call_boxed(stack);
        Tensor result = std::move(stack->back()).to_tensor();
        stack->pop_back();
        check_inplace_result(op.name(), self, meta_of(result));
        copy_into(self, result);
        stack->emplace_back(std::move(self));
      });
}

KernelFunction backend_select_kernel() {
  return KernelFunction::from_boxed([](const OperatorHandle& op, DispatchKeySet, Stack* stack) {
    const OperatorEntry& e = op.entry();
    const size_t n = e.schema.arguments().size();
    const IValue& device_arg = (*stack)[stack->size() - n + *e.device_argument];
    const Device device = device_arg.is_none() ? Device(DeviceType::CPU) : device_arg.to_device();
    const DispatchKeySet backend =
        DispatchKeySet(backend_key(device.type())) - tls_local_dispatch_key_set().excluded;
    op.redispatch_boxed(backend, stack);
  });
}

StaticLibraryInit::StaticLibraryInit(const char* name, void (*init)(Library&)) {
  try {
    Library lib(name);
    init(lib);
    lib.keep_forever();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lazuli: registering library '%s' failed: %s\n", name, e.what());
    std::abort();
  }
}

}  // namespace detail

// ---- OpBuilder -------------------------------------------------------------------

OpBuilder& OpBuilder::tags(TagSet tags) {
  Dispatcher& d = Dispatcher::singleton();
  d.set_tags(op_, op_.tags() | tags);
  if (inplace_) d.set_tags(*inplace_, inplace_->tags() | tags);
  if (out_) d.set_tags(*out_, out_->tags() | tags);
  if (tags.has(Tag::Factory)) lib_->add_backend_select(op_);
  return *this;
}

void OpBuilder::set_meta(BoxedMeta meta) {
  Dispatcher& d = Dispatcher::singleton();
  d.set_meta(op_, meta);
  if (inplace_) d.set_meta(*inplace_, meta);
  if (out_) d.set_meta(*out_, meta);
}

void OpBuilder::add_functional_kernel(DispatchKey key, KernelFunction k) {
  lib_->keep(Dispatcher::singleton().register_kernel(op_, key, std::move(k)));
  add_generated(inplace_, key, detail::make_generated_inplace(op_, key));
  add_generated(out_, key, detail::make_generated_out(op_, key));
}

void OpBuilder::add_generated(const std::optional<OperatorHandle>& variant, DispatchKey key,
                              KernelFunction k) {
  if (!variant) return;
  lib_->keep(
      Dispatcher::singleton().register_kernel(*variant, key, std::move(k), KernelOrigin::Generated));
}

void OpBuilder::add_composite(KernelFunction k) {
  Dispatcher& d = Dispatcher::singleton();
  lib_->keep(d.register_composite(op_, std::move(k)));
  d.set_tags(op_, op_.tags().add(Tag::Composite));
  if (inplace_) {
    lib_->keep(d.register_composite(*inplace_, detail::make_composite_inplace(op_)));
    d.set_tags(*inplace_, inplace_->tags().add(Tag::Composite));
  }
}

// ---- Library -------------------------------------------------------------------

Library::~Library() {
  while (!handles_.empty()) {
    handles_.back().reset();
    handles_.pop_back();
  }
}

Library::Defined Library::define(std::string_view schema_text, Variants variants) {
  Dispatcher& d = Dispatcher::singleton();
  FunctionSchema schema = parse_schema(schema_text);
  OperatorHandle op(nullptr);
  std::optional<OperatorHandle> inplace, out;
  if (has_variant(variants, Variants::Inplace)) {
    OperatorHandle h(nullptr);
    FunctionSchema s = make_inplace_schema(schema);
    keep(d.register_op(std::move(s), TagSet(Tag::Inplace), &h));
    inplace = h;
  }
  if (has_variant(variants, Variants::Out)) {
    OperatorHandle h(nullptr);
    FunctionSchema s = make_out_schema(schema);
    keep(d.register_op(std::move(s), TagSet(Tag::Out), &h));
    out = h;
  }
  keep(d.register_op(std::move(schema), TagSet(), &op));
  d.link_variants(op, inplace, out);
  return Defined{op, inplace, out};
}

Library::Defined Library::define(OpId id) {
  Dispatcher& d = Dispatcher::singleton();
  const OpDecl& decl = op_decl(id);
  LZ_CHECK(decl.kind == OpDecl::Kind::Operator, SchemaError, "[register] ", op_name(id),
           " is a variant: it is registered with its operator ", op_name(decl.functional));
  OperatorHandle op(nullptr);
  std::optional<OperatorHandle> inplace, out;
  for (OpId v : declared_variants(id)) {
    OperatorHandle h(nullptr);
    keep(d.register_op(parse_schema(op_decl(v).schema), op_decl(v).tags, &h, v));
    (op_decl(v).kind == OpDecl::Kind::Inplace ? inplace : out) = h;
  }
  keep(d.register_op(parse_schema(decl.schema), decl.tags, &op, id));
  d.link_variants(op, inplace, out);
  if (decl.tags.has(Tag::Factory)) add_backend_select(op);
  return Defined{op, inplace, out};
}

void Library::add_backend_select(const OperatorHandle& op) {
  LZ_CHECK(op.entry().device_argument, SchemaError, "[register] ", op.name(),
           ": a factory operator needs a 'Device? device' argument for BackendSelect");
  keep(Dispatcher::singleton().register_kernel(op, DispatchKey::BackendSelect, detail::backend_select_kernel()));
}

OpBuilder Library::def(OpId id) {
  auto [op, inplace, out] = define(id);
  return OpBuilder(this, op, inplace, out);
}

OpBuilder Library::def(std::string_view schema, Variants variants) {
  auto [op, inplace, out] = define(schema, variants);
  return OpBuilder(this, op, inplace, out);
}

Library& Library::impl_kernel(const OperatorHandle& op, DispatchKey key, KernelFunction k) {
  keep(Dispatcher::singleton().register_kernel(op, key, std::move(k)));
  return *this;
}

Library& Library::fallback(DispatchKey key, KernelFunction k) {
  keep(Dispatcher::singleton().register_fallback(key, std::move(k)));
  return *this;
}

void Library::keep_forever() {
  for (RegistrationHandle& h : handles_) h.release();
  handles_.clear();
}

}  // namespace lz
