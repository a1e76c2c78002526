// IValue: one boxed operator argument or result, and Stack: the argument list
// of a boxed call. Boxed kernels (fallbacks such as the Lazy key's) see every
// operator through this one representation.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/device.h"
#include "core/generator.h"
#include "core/layout.h"
#include "core/scalar.h"
#include "core/scalar_type.h"
#include "core/tensor.h"

namespace lz {

class IValue {
 public:
  // The order matches the variant's alternatives.
  enum class Tag : uint8_t {
    None,
    Tensor,
    Double,
    Int,
    Bool,
    String,
    IntList,
    DoubleList,
    BoolList,
    TensorList,
    OptionalTensorList,
    ScalarType,
    Device,
    Layout,
    MemoryFormat,
    Generator,
  };

  IValue() = default;
  IValue(std::nullopt_t) {}
  IValue(Tensor t) : v_(std::move(t)) {}
  IValue(double d) : v_(d) {}
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  IValue(T i) : v_(static_cast<int64_t>(i)) {}
  IValue(bool b) : v_(b) {}
  // A Scalar is boxed as the number it holds (bool, int or double).
  IValue(const Scalar& s);
  IValue(std::string s) : v_(std::move(s)) {}
  IValue(std::string_view s) : v_(std::string(s)) {}
  IValue(const char* s) : v_(std::string(s)) {}
  IValue(IntArrayRef list) : v_(std::vector<int64_t>(list.begin(), list.end())) {}
  IValue(std::vector<int64_t> list) : v_(std::move(list)) {}
  IValue(std::vector<double> list) : v_(std::move(list)) {}
  IValue(std::vector<bool> list) : v_(std::move(list)) {}
  IValue(TensorList list) : v_(std::vector<Tensor>(list.begin(), list.end())) {}
  IValue(std::vector<Tensor> list) : v_(std::move(list)) {}
  IValue(std::vector<std::optional<Tensor>> list) : v_(std::move(list)) {}
  IValue(ScalarType t) : v_(t) {}
  IValue(Device d) : v_(d) {}
  IValue(Layout l) : v_(l) {}
  IValue(MemoryFormat m) : v_(m) {}
  IValue(Generator g) : v_(std::move(g)) {}
  // Constrained so that optional<X> only converts when X itself boxes;
  // otherwise every optional looks convertible (and streamable) to generic code.
  template <class T>
    requires std::is_constructible_v<IValue, T>
  IValue(std::optional<T> o) {
    if (o) *this = IValue(std::move(*o));
  }

  Tag tag() const { return static_cast<Tag>(v_.index()); }
  std::string_view tag_name() const;

  bool is_none() const { return tag() == Tag::None; }
  bool is_tensor() const { return tag() == Tag::Tensor; }
  bool is_double() const { return tag() == Tag::Double; }
  bool is_int() const { return tag() == Tag::Int; }
  bool is_bool() const { return tag() == Tag::Bool; }
  bool is_scalar() const { return is_double() || is_int() || is_bool(); }
  bool is_string() const { return tag() == Tag::String; }
  bool is_int_list() const { return tag() == Tag::IntList; }
  bool is_tensor_list() const { return tag() == Tag::TensorList; }

  // Accessors throw TypeError naming both tags on a mismatch.
  const Tensor& to_tensor() const&;
  Tensor to_tensor() &&;
  double to_double() const;  // also accepts Int
  int64_t to_int() const;
  bool to_bool() const;
  Scalar to_scalar() const;  // from Double, Int or Bool
  std::string_view to_string_view() const;
  IntArrayRef to_int_list() const;
  const std::vector<double>& to_double_list() const;
  const std::vector<bool>& to_bool_list() const;
  TensorList to_tensor_list() const;
  const std::vector<std::optional<Tensor>>& to_optional_tensor_list() const;
  ScalarType to_scalar_type() const;
  Device to_device() const;
  Layout to_layout() const;
  MemoryFormat to_memory_format() const;
  Generator to_generator() const;

  // Python-like text: None, 1, 2.5, True, [1, 2], 'str', float32, cpu, Tensor[2, 3] f32.
  std::string repr() const;

 private:
  [[noreturn]] void throw_wrong_tag(std::string_view expected) const;
  template <class T>
  const T& get(std::string_view expected) const {
    if (const T* p = std::get_if<T>(&v_)) return *p;
    throw_wrong_tag(expected);
  }

  std::variant<std::monostate, Tensor, double, int64_t, bool, std::string, std::vector<int64_t>,
               std::vector<double>, std::vector<bool>, std::vector<Tensor>,
               std::vector<std::optional<Tensor>>, ScalarType, Device, Layout, MemoryFormat,
               Generator>
      v_;
};

using Stack = std::vector<IValue>;

std::ostream& operator<<(std::ostream& os, const IValue& v);

}  // namespace lz
