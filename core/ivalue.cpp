#include "core/ivalue.h"

#include <sstream>

#include "core/error.h"

namespace lz {

IValue::IValue(const Scalar& s) {
  switch (s.kind()) {
    case Scalar::Kind::Bool: v_ = s.to_bool(); break;
    case Scalar::Kind::Int: v_ = s.to_long(); break;
    case Scalar::Kind::Double: v_ = s.to_double(); break;
  }
}

std::string_view IValue::tag_name() const {
  static constexpr std::string_view kNames[] = {
      "None",   "Tensor",       "float",        "int",        "bool",
      "str",    "int[]",        "float[]",      "bool[]",     "Tensor[]",
      "Tensor?[]", "ScalarType", "Device",      "Layout",     "MemoryFormat",
      "Generator"};
  return kNames[v_.index()];
}

void IValue::throw_wrong_tag(std::string_view expected) const {
  LZ_FAIL(TypeError, "[IValue] expected ", expected, ", got ", tag_name(), " (", repr(), ")");
}

const Tensor& IValue::to_tensor() const& { return get<Tensor>("Tensor"); }
Tensor IValue::to_tensor() && {
  get<Tensor>("Tensor");
  return std::move(std::get<Tensor>(v_));
}

double IValue::to_double() const {
  if (is_int()) return static_cast<double>(std::get<int64_t>(v_));
  return get<double>("float");
}
int64_t IValue::to_int() const { return get<int64_t>("int"); }
bool IValue::to_bool() const { return get<bool>("bool"); }

Scalar IValue::to_scalar() const {
  switch (tag()) {
    case Tag::Double: return Scalar(std::get<double>(v_));
    case Tag::Int: return Scalar(std::get<int64_t>(v_));
    case Tag::Bool: return Scalar(std::get<bool>(v_));
    default: throw_wrong_tag("Scalar");
  }
}

std::string_view IValue::to_string_view() const { return get<std::string>("str"); }
IntArrayRef IValue::to_int_list() const { return get<std::vector<int64_t>>("int[]"); }
const std::vector<double>& IValue::to_double_list() const {
  return get<std::vector<double>>("float[]");
}
const std::vector<bool>& IValue::to_bool_list() const { return get<std::vector<bool>>("bool[]"); }
TensorList IValue::to_tensor_list() const { return get<std::vector<Tensor>>("Tensor[]"); }
const std::vector<std::optional<Tensor>>& IValue::to_optional_tensor_list() const {
  return get<std::vector<std::optional<Tensor>>>("Tensor?[]");
}
ScalarType IValue::to_scalar_type() const { return get<ScalarType>("ScalarType"); }
Device IValue::to_device() const { return get<Device>("Device"); }
Layout IValue::to_layout() const { return get<Layout>("Layout"); }
MemoryFormat IValue::to_memory_format() const { return get<MemoryFormat>("MemoryFormat"); }
Generator IValue::to_generator() const { return get<Generator>("Generator"); }

namespace {

std::string tensor_summary(const Tensor& t) {
  if (!t.defined()) return "Tensor(undefined)";
  return "Tensor" + shape_str(t.sizes()) + " " + std::string(to_string(t.dtype()));
}

template <class List, class F>
std::string list_repr(const List& list, F&& item) {
  std::string out = "[";
  bool first = true;
  for (const auto& x : list) {
    if (!first) out += ", ";
    out += item(x);
    first = false;
  }
  return out + "]";
}

}  // namespace

std::string IValue::repr() const {
  std::ostringstream os;
  switch (tag()) {
    case Tag::None: return "None";
    case Tag::Tensor: return tensor_summary(std::get<Tensor>(v_));
    case Tag::Double: return Scalar(std::get<double>(v_)).str();
    case Tag::Int: return std::to_string(std::get<int64_t>(v_));
    case Tag::Bool: return std::get<bool>(v_) ? "True" : "False";
    case Tag::String: return "'" + std::get<std::string>(v_) + "'";
    case Tag::IntList:
      return list_repr(std::get<std::vector<int64_t>>(v_), [](int64_t x) { return std::to_string(x); });
    case Tag::DoubleList:
      return list_repr(std::get<std::vector<double>>(v_), [](double x) { return Scalar(x).str(); });
    case Tag::BoolList:
      return list_repr(std::get<std::vector<bool>>(v_),
                       [](bool x) { return std::string(x ? "True" : "False"); });
    case Tag::TensorList: return list_repr(std::get<std::vector<Tensor>>(v_), tensor_summary);
    case Tag::OptionalTensorList:
      return list_repr(std::get<std::vector<std::optional<Tensor>>>(v_),
                       [](const std::optional<Tensor>& t) {
                         return t ? tensor_summary(*t) : std::string("None");
                       });
    case Tag::ScalarType: os << std::get<ScalarType>(v_); break;
    case Tag::Device: os << std::get<Device>(v_); break;
    case Tag::Layout: os << std::get<Layout>(v_); break;
    case Tag::MemoryFormat: os << std::get<MemoryFormat>(v_); break;
    case Tag::Generator: os << "Generator(seed=" << std::get<Generator>(v_).seed() << ")"; break;
  }
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const IValue& v) { return os << v.repr(); }

}  // namespace lz
