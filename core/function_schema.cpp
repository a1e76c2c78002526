#include "core/function_schema.h"

#include "core/error.h"
#include "core/ivalue.h"

namespace lz {

DefaultValue::DefaultValue(IValue value) : value_(std::make_shared<const IValue>(std::move(value))) {}

std::string_view to_string(BaseType t) {
  switch (t) {
    case BaseType::Tensor: return "Tensor";
    case BaseType::Scalar: return "Scalar";
    case BaseType::Int: return "int";
    case BaseType::Float: return "float";
    case BaseType::Bool: return "bool";
    case BaseType::Str: return "str";
    case BaseType::ScalarType: return "ScalarType";
    case BaseType::Device: return "Device";
    case BaseType::Layout: return "Layout";
    case BaseType::MemoryFormat: return "MemoryFormat";
    case BaseType::Generator: return "Generator";
  }
  return "?";
}

namespace {

std::string type_with_alias(const SchemaType& type, const std::optional<AliasInfo>& alias) {
  std::string out(to_string(type.base));
  if (alias) out += "(" + alias->set + (alias->is_write ? "!" : "") + ")";
  if (type.element_optional) out += "?";
  if (type.is_list) {
    out += "[";
    if (type.list_size >= 0) out += std::to_string(type.list_size);
    out += "]";
  }
  if (type.optional) out += "?";
  return out;
}

}  // namespace

std::string SchemaType::str() const { return type_with_alias(*this, std::nullopt); }

FunctionSchema::FunctionSchema(std::string name, std::string overload_name,
                               std::vector<Argument> arguments, std::vector<Return> returns)
    : name_(std::move(name)),
      overload_name_(std::move(overload_name)),
      arguments_(std::move(arguments)),
      returns_(std::move(returns)) {
  for (const Argument& a : arguments_) is_mutable_ = is_mutable_ || a.is_write();
}

std::string FunctionSchema::full_name() const {
  return overload_name_.empty() ? name_ : name_ + "." + overload_name_;
}

std::optional<size_t> FunctionSchema::argument_index(std::string_view name) const {
  for (size_t i = 0; i < arguments_.size(); ++i) {
    if (arguments_[i].name == name) return i;
  }
  return std::nullopt;
}

bool FunctionSchema::is_inplace() const {
  return !arguments_.empty() && !arguments_[0].kwarg_only && arguments_[0].is_write() &&
         returns_.size() == 1 && returns_[0].alias == arguments_[0].alias;
}

bool FunctionSchema::is_out() const { return num_out_arguments() > 0; }

size_t FunctionSchema::num_out_arguments() const {
  size_t n = 0;
  for (const Argument& a : arguments_) n += a.is_out() ? 1 : 0;
  return n;
}

std::string FunctionSchema::str() const {
  std::string out = full_name() + "(";
  bool kwarg_marker_written = false;
  for (size_t i = 0; i < arguments_.size(); ++i) {
    const Argument& a = arguments_[i];
    if (i) out += ", ";
    if (a.kwarg_only && !kwarg_marker_written) {
      out += "*, ";
      kwarg_marker_written = true;
    }
    out += type_with_alias(a.type, a.alias) + " " + a.name;
    if (a.default_value) out += "=" + a.default_value->repr();
  }
  out += ") -> ";
  const bool parenthesise = returns_.size() != 1 || !returns_[0].name.empty();
  if (parenthesise) out += "(";
  for (size_t i = 0; i < returns_.size(); ++i) {
    if (i) out += ", ";
    out += type_with_alias(returns_[i].type, returns_[i].alias);
    if (!returns_[i].name.empty()) out += " " + returns_[i].name;
  }
  if (parenthesise) out += ")";
  return out;
}

std::ostream& operator<<(std::ostream& os, const FunctionSchema& s) { return os << s.str(); }

}  // namespace lz
