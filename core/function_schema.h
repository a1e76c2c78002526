// FunctionSchema: an operator's typed signature in PyTorch's schema language,
//   add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
//   add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)
// Parsed once at registration (core/schema_parser.h); boxed kernels read it
// from the OperatorHandle to learn argument names, types and aliasing.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lz {

class IValue;  // core/ivalue.h

enum class BaseType : uint8_t {
  Tensor,
  Scalar,
  Int,
  Float,
  Bool,
  Str,
  ScalarType,
  Device,
  Layout,
  MemoryFormat,
  Generator,
};
std::string_view to_string(BaseType t);

// One argument or return type: a base type, optionally a list (with a fixed
// size for int[2]), whose elements may be optional (Tensor?[]), and the whole
// optional (int[]?).
struct SchemaType {
  BaseType base = BaseType::Tensor;
  bool element_optional = false;
  bool is_list = false;
  int64_t list_size = -1;  // -1: any length
  bool optional = false;

  bool is_tensor_like() const { return base == BaseType::Tensor; }
  // The schema spelling, e.g. "Tensor?[]", "int[2]", "ScalarType?".
  std::string str() const;
  bool operator==(const SchemaType&) const = default;
};

// Tensor(a) / Tensor(a!): arguments and returns in the same alias set share
// memory; '!' marks a write.
struct AliasInfo {
  std::string set;  // "a", "b", ... or "*" for the wildcard set
  bool is_write = false;
  bool operator==(const AliasInfo&) const = default;
};

// An argument's default value, held by pointer: a schema is read without
// IValue's definition (which needs Tensor's), so the IR and the passes,
// which read schemas, depend on no tensor. Reading the value needs
// core/ivalue.h.
class DefaultValue {
 public:
  DefaultValue() = default;
  DefaultValue(IValue value);  // NOLINT: implicit, as std::optional's
  bool has_value() const { return value_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  const IValue& operator*() const { return *value_; }
  const IValue* operator->() const { return value_.get(); }

 private:
  std::shared_ptr<const IValue> value_;
};

struct Argument {
  std::string name;
  SchemaType type;
  std::optional<AliasInfo> alias;
  DefaultValue default_value;
  bool kwarg_only = false;

  bool is_write() const { return alias && alias->is_write; }
  // A kwarg-only argument that is written to: the destination of an out= op.
  bool is_out() const { return kwarg_only && is_write(); }
};

struct Return {
  std::string name;  // may be empty
  SchemaType type;
  std::optional<AliasInfo> alias;
};

class FunctionSchema {
 public:
  FunctionSchema(std::string name, std::string overload_name, std::vector<Argument> arguments,
                 std::vector<Return> returns);

  const std::string& name() const { return name_; }
  const std::string& overload_name() const { return overload_name_; }
  // "add.Tensor", or just "neg" without an overload name.
  std::string full_name() const;
  const std::vector<Argument>& arguments() const { return arguments_; }
  const std::vector<Return>& returns() const { return returns_; }

  // Index of the named argument, or nullopt.
  std::optional<size_t> argument_index(std::string_view name) const;
  // Writes to an argument (in-place or out=); known at construction (the
  // Lazy fallback asks on every call).
  bool is_mutable() const { return is_mutable_; }
  // In-place: writes its first argument and returns it (add_).
  bool is_inplace() const;
  // Has out= arguments (add.out).
  bool is_out() const;
  size_t num_out_arguments() const;

  // The canonical text; parse_schema(s.str()) gives back an equal schema.
  std::string str() const;

 private:
  std::string name_;
  std::string overload_name_;
  std::vector<Argument> arguments_;
  std::vector<Return> returns_;
  bool is_mutable_ = false;
};

std::ostream& operator<<(std::ostream& os, const FunctionSchema& s);

}  // namespace lz
