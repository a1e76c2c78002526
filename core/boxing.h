// Conversions between C++ kernel signatures and the boxed IValue stack, in
// both directions, plus the schema type each C++ parameter type stands for
// (used to check kernels and call sites against the schema at registration).
//
// C++ parameter type            schema type
//   const Tensor&                 Tensor, Tensor(a), Tensor(a!)
//   const std::optional<Tensor>&  Tensor?
//   TensorList                    Tensor[]
//   const std::vector<std::optional<Tensor>>&   Tensor?[]
//   const Scalar&                 Scalar
//   int64_t / double / bool       int / float / bool
//   IntArrayRef                   int[], int[N]
//   std::string_view              str
//   ScalarType, Device, Layout, MemoryFormat, Generator (and std::optional of each)
// Returns: Tensor, std::tuple<Tensor, ...>, std::vector<Tensor>, Scalar, bool,
// double, int64_t or void.
#pragma once

#include <optional>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/function_schema.h"
#include "core/ivalue.h"

namespace lz::detail {

// ---- IValue -> C++ ---------------------------------------------------------

template <class T>
struct Unbox;

#define LZ_UNBOX(T, expr)                                              \
  template <>                                                          \
  struct Unbox<T> {                                                    \
    static decltype(auto) get(const IValue& v) { return expr; }        \
  };
LZ_UNBOX(Tensor, v.to_tensor())
LZ_UNBOX(Scalar, v.to_scalar())
LZ_UNBOX(int64_t, v.to_int())
LZ_UNBOX(double, v.to_double())
LZ_UNBOX(bool, v.to_bool())
LZ_UNBOX(IntArrayRef, v.to_int_list())
LZ_UNBOX(TensorList, v.to_tensor_list())
LZ_UNBOX(std::vector<std::optional<Tensor>>, v.to_optional_tensor_list())
LZ_UNBOX(std::string_view, v.to_string_view())
LZ_UNBOX(ScalarType, v.to_scalar_type())
LZ_UNBOX(Device, v.to_device())
LZ_UNBOX(Layout, v.to_layout())
LZ_UNBOX(MemoryFormat, v.to_memory_format())
LZ_UNBOX(Generator, v.to_generator())
#undef LZ_UNBOX

template <class T>
struct Unbox<std::optional<T>> {
  static std::optional<T> get(const IValue& v) {
    if (v.is_none()) return std::nullopt;
    return std::optional<T>(Unbox<T>::get(v));
  }
};

template <class T>
decltype(auto) unbox(const IValue& v) {
  return Unbox<std::decay_t<T>>::get(v);
}

// ---- results ---------------------------------------------------------------

template <class T>
struct is_tuple : std::false_type {};
template <class... Ts>
struct is_tuple<std::tuple<Ts...>> : std::true_type {};

template <class R>
constexpr size_t num_returns() {
  if constexpr (std::is_void_v<R>) {
    return 0;
  } else if constexpr (is_tuple<R>::value) {
    return std::tuple_size_v<R>;
  } else {
    return 1;
  }
}

template <class R>
void push_result(Stack* stack, R&& result) {
  using D = std::decay_t<R>;
  if constexpr (is_tuple<D>::value) {
    std::apply([&](auto&&... items) { (stack->emplace_back(std::move(items)), ...); },
               std::forward<R>(result));
  } else {
    stack->emplace_back(std::forward<R>(result));
  }
}

template <class T>
T unbox_return_item(IValue&& v) {
  if constexpr (std::is_same_v<T, Tensor>) {
    return std::move(v).to_tensor();
  } else if constexpr (std::is_same_v<T, std::vector<Tensor>>) {
    TensorList list = v.to_tensor_list();
    return std::vector<Tensor>(list.begin(), list.end());
  } else {
    return Unbox<T>::get(v);
  }
}

// Pops the returns of a boxed call (the last num_returns<R>() entries).
template <class R>
R pop_result(Stack* stack) {
  constexpr size_t n = num_returns<R>();
  LZ_INTERNAL_ASSERT(stack->size() >= n, "boxed kernel left ", stack->size(),
                     " values on the stack, expected ", n, " returns");
  if constexpr (n == 0) {
    return;
  } else if constexpr (is_tuple<R>::value) {
    IValue* first = stack->data() + (stack->size() - n);
    R result = [&]<size_t... I>(std::index_sequence<I...>) {
      return R(unbox_return_item<std::tuple_element_t<I, R>>(std::move(first[I]))...);
    }(std::make_index_sequence<n>());
    stack->resize(stack->size() - n);
    return result;
  } else {
    R result = unbox_return_item<R>(std::move(stack->back()));
    stack->pop_back();
    return result;
  }
}

// Calls fn with arguments unboxed from args[0..sizeof...(Args)).
template <class R, class... Args>
R call_with_ivalues(R (*fn)(Args...), const IValue* args) {
  return [&]<size_t... I>(std::index_sequence<I...>) -> R {
    return fn(unbox<Args>(args[I])...);
  }(std::index_sequence_for<Args...>());
}

// ---- C++ type -> schema type -------------------------------------------------

template <class T>
struct SchemaTypeOf;

constexpr SchemaType make_type(BaseType base, bool is_list = false, bool optional = false,
                               bool element_optional = false) {
  SchemaType t;
  t.base = base;
  t.is_list = is_list;
  t.optional = optional;
  t.element_optional = element_optional;
  return t;
}

#define LZ_SCHEMA_TYPE(T, ...)                                            \
  template <>                                                             \
  struct SchemaTypeOf<T> {                                                \
    static constexpr SchemaType value = make_type(__VA_ARGS__);           \
  };
LZ_SCHEMA_TYPE(Tensor, BaseType::Tensor)
LZ_SCHEMA_TYPE(TensorList, BaseType::Tensor, true)
LZ_SCHEMA_TYPE(std::vector<Tensor>, BaseType::Tensor, true)
LZ_SCHEMA_TYPE(std::vector<std::optional<Tensor>>, BaseType::Tensor, true, false, true)
LZ_SCHEMA_TYPE(Scalar, BaseType::Scalar)
LZ_SCHEMA_TYPE(int64_t, BaseType::Int)
LZ_SCHEMA_TYPE(double, BaseType::Float)
LZ_SCHEMA_TYPE(bool, BaseType::Bool)
LZ_SCHEMA_TYPE(IntArrayRef, BaseType::Int, true)
LZ_SCHEMA_TYPE(std::string_view, BaseType::Str)
LZ_SCHEMA_TYPE(ScalarType, BaseType::ScalarType)
LZ_SCHEMA_TYPE(Device, BaseType::Device)
LZ_SCHEMA_TYPE(Layout, BaseType::Layout)
LZ_SCHEMA_TYPE(MemoryFormat, BaseType::MemoryFormat)
LZ_SCHEMA_TYPE(Generator, BaseType::Generator)
#undef LZ_SCHEMA_TYPE

template <class T>
struct SchemaTypeOf<std::optional<T>> {
  static constexpr SchemaType value = [] {
    SchemaType t = SchemaTypeOf<T>::value;
    t.optional = true;
    return t;
  }();
};

// The schema types a C++ signature stands for.
struct CppSignature {
  std::vector<SchemaType> arguments;
  std::vector<SchemaType> returns;
};

template <class R>
std::vector<SchemaType> return_types() {
  if constexpr (std::is_void_v<R>) {
    return {};
  } else if constexpr (is_tuple<R>::value) {
    return [&]<size_t... I>(std::index_sequence<I...>) {
      return std::vector<SchemaType>{SchemaTypeOf<std::tuple_element_t<I, R>>::value...};
    }(std::make_index_sequence<std::tuple_size_v<R>>());
  } else {
    return {SchemaTypeOf<R>::value};
  }
}

// Arguments only (meta functions return TensorMeta, not a schema type).
template <class R, class... Args>
CppSignature cpp_arguments_of(R (*)(Args...)) {
  return CppSignature{{SchemaTypeOf<std::decay_t<Args>>::value...}, {}};
}

template <class R, class... Args>
CppSignature cpp_signature_of(R (*)(Args...)) {
  return CppSignature{{SchemaTypeOf<std::decay_t<Args>>::value...}, return_types<R>()};
}

// SchemaError unless the C++ signature matches the schema (`what` names the
// kernel or call site, e.g. "CPU kernel").
void check_signature(const FunctionSchema& schema, const CppSignature& sig, std::string_view what);
// Same for the first sig.arguments.size() arguments only (meta functions).
void check_leading_arguments(const FunctionSchema& schema, const CppSignature& sig,
                             std::string_view what);

}  // namespace lz::detail
